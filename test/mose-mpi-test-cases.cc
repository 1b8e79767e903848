/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mose-tests
 * \brief The distributed runs of the suite "mose" (built only in an ns-3 tree configured with
 *        --enable-mpi, NS3_MPI): mose-packet, mose-mode-switch and mose-llm, each over TCP and
 *        RoCEv2, on 32 groups, run once as one ordinary process and once under mpirun -np 2
 *        with --distributed, must write the same output files byte for byte.
 *
 * As ns-3's own MPI tests (src/mpi/test/mpi-test-suite.cc, ExampleAsTestCase), each case runs
 * the example through `./ns3 run --no-build --command-template`, from the top of the tree where
 * test.py runs the test runner. MPIRUN overrides the launcher (default: mpirun, with
 * --allow-run-as-root --oversubscribe as root).
 */

#include "mose-test-cases.h"

#ifdef NS3_MPI

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace ns3
{
namespace mose
{
namespace test
{
namespace
{

/// \return the whole file, or "(cannot read PATH)"
std::string
ReadWhole(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        return "(cannot read " + path + ")";
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// \return the launcher: $MPIRUN, or mpirun (as root with the flags Open MPI asks for)
std::string
Launcher()
{
    const char* env = std::getenv("MPIRUN");
    if (env != nullptr && *env != '\0')
    {
        return env;
    }
    return geteuid() == 0 ? "mpirun --allow-run-as-root --oversubscribe" : "mpirun";
}

/**
 * \ingroup mose-tests
 * \brief A program run as one process and on K MPI ranks writes the same files.
 */
class MoseDistributedRunTestCase : public TestCase
{
  public:
    /**
     * \param program the example (e.g. mose-packet)
     * \param args its options, without --outputDir and --distributed
     * \param ranks K
     * \param files the output files to compare
     */
    MoseDistributedRunTestCase(std::string program,
                               std::string args,
                               uint32_t ranks,
                               std::vector<std::string> files)
        : TestCase(program + " on 1 process and on " + std::to_string(ranks) +
                   " MPI ranks writes the same files"),
          m_program(std::move(program)),
          m_args(std::move(args)),
          m_ranks(ranks),
          m_files(std::move(files))
    {
    }

  private:
    /// Runs the program with the command template, its output in dir; \return the exit status
    int RunProgram(const std::string& commandTemplate, const std::string& dir) const
    {
        std::ostringstream cmd;
        cmd << "python3 ./ns3 run " << m_program << " --no-build --command-template=\""
            << commandTemplate << " " << m_args << " --outputDir=" << dir << "\" > " << dir
            << ".log 2>&1";
        std::filesystem::create_directories(dir);
        const int status = std::system(cmd.str().c_str());
        std::cout << "command: " << cmd.str() << "\nstatus:  " << status << "\n";
        if (status != 0)
        {
            std::cout << ReadWhole(dir + ".log") << "\n";
        }
        return status;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(std::filesystem::exists("ns3"),
                              true,
                              "run the suite from the top of the ns-3 tree, as test.py does "
                              "(the case starts the programs with ./ns3 run)");
        const std::string base = CreateTempDirFilename(m_program);
        const std::string one = base + "-1";
        const std::string many = base + "-" + std::to_string(m_ranks);
        NS_TEST_ASSERT_MSG_EQ(RunProgram("%s", one), 0, m_program + " as one process failed");
        NS_TEST_ASSERT_MSG_EQ(
            RunProgram(Launcher() + " -np " + std::to_string(m_ranks) + " %s --distributed", many),
            0,
            m_program + " on " + std::to_string(m_ranks) + " MPI ranks failed");
        const std::string log = ReadWhole(many + ".log");
        NS_TEST_EXPECT_MSG_NE(log.find(std::to_string(m_ranks) + " MPI ranks: events"),
                              std::string::npos,
                              "the run's report names its ranks and their events");
        for (const std::string& f : m_files)
        {
            const std::string a = ReadWhole(one + "/" + f);
            const std::string b = ReadWhole(many + "/" + f);
            NS_TEST_EXPECT_MSG_GT(a.size(), 40, f + " has figures");
            NS_TEST_EXPECT_MSG_EQ((a == b), true, f + " differs between 1 process and the ranks");
        }
    }

    std::string m_program;            //!< the example
    std::string m_args;               //!< its options
    uint32_t m_ranks;                 //!< K
    std::vector<std::string> m_files; //!< the files compared
};

/**
 * \param args the options besides 32 groups, MoSE, no FlowMonitor and no plot
 * \return mose-packet's case: its four files the same on 1 process and 2 ranks
 */
TestCase*
PacketRun(const std::string& args)
{
    const std::string prefix = "inference-heavy_MoSE_";
    return new MoseDistributedRunTestCase(
        "mose-packet",
        "--nodes=32 --policies=MoSE --flowMonitor=false --plot=false " + args,
        2,
        {prefix + "transfers.csv",
         prefix + "circuits.csv",
         prefix + "summary.csv",
         prefix + "losses.csv"});
}

/**
 * \param args the options besides 32 groups, 80 flows, MoSE, the three periods of 150 ms and
 *        the start window of 20 ms
 * \return mose-mode-switch's case: its four files the same on 1 process and 2 ranks
 */
TestCase*
SwitchRun(const std::string& args)
{
    const std::string prefix = "MoSE_";
    return new MoseDistributedRunTestCase(
        "mose-mode-switch",
        "--nodes=32 --flows=80 "
        "--schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms "
        "--startWindow=20ms --policies=MoSE --plot=false " +
            args,
        2,
        {prefix + "intervals.csv",
         prefix + "circuits.csv",
         prefix + "goodput.csv",
         prefix + "transfers.csv"});
}

/**
 * \param transport tcp or rdma
 * \return mose-llm's case (200 requests on 32 groups, two switches with a fixed drain): its
 *         records the same on 1 process and 2 ranks
 */
TestCase*
LlmRun(const std::string& transport)
{
    return new MoseDistributedRunTestCase(
        "mose-llm",
        "--map=false --policies=MoSE --nodes=32 --requests=200 --rate=1000 --transport=" +
            transport +
            " --schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms "
            "--ns3::MoseModeSwitcher::FixedDrain=true",
        2,
        {"requests.csv", "iterations.csv", "intervals.csv"});
}

} // namespace

std::vector<TestCase*>
DistributedTestCases()
{
    // start times drawn over a window: with every transfer starting at one instant, packets
    // from two ranks meet at a node at the same time step, and ns-3 orders such ties by
    // arrival at the rank (doc, "Same results")
    const std::string window = "--ns3::MoseTrafficHelper::StartMode=uniform "
                               "--ns3::MoseTrafficHelper::StartWindow=";
    const std::string fixedDrain = "--ns3::MoseModeSwitcher::FixedDrain=true "
                                   "--ns3::MoseModeSwitcher::Phases=2 "
                                   "--ns3::MoseModeSwitcher::DrainTimeout=20ms";
    return {
        PacketRun("--flows=300 " + window + "1ms"),
        SwitchRun(fixedDrain),
        // the flow lists over RoCEv2: the batch runs whole on every rank, each transfer
        // completes on every rank by its notice, the drops and the goodput bins are each
        // rank's own receivers' and add up
        PacketRun("--flows=300 --transport=rdma " + window + "1ms"),
        SwitchRun("--transport=rdma " + fixedDrain),
        // with PFC: 43 pauses, some of them to a port on the other rank (a message of the
        // link's delay and the pause frame's time). With ns-3's NetDeviceQueue on the ports
        // (PortTxQueuesType) the ranks differed by a NIC pause: the queue disc's wake, an
        // event of its own, met events from the other rank at the same time step
        PacketRun("--flows=2000 --transport=rdma --pfc=true " + window + "100us"),
        // without drain: held packets come back after RetransmitTimeout, and about 26,000
        // late copies are dropped at the receivers as duplicates or stale (a closed QP's
        // receiver side lasts NoticeDelay after the close, on one process as on the ranks)
        SwitchRun("--transport=rdma --ns3::MoseModeSwitcher::Drain=false"),
        // the workloads run whole on every rank; completions cross ranks as notices; over
        // RoCEv2 a QP's sender on its source's rank, its receiver on its destination's, QP
        // numbers and completions alike on every rank
        LlmRun("tcp"),
        LlmRun("rdma"),
    };
}

} // namespace test
} // namespace mose
} // namespace ns3

#else // no MPI: no distributed cases

namespace ns3
{
namespace mose
{
namespace test
{

std::vector<TestCase*>
DistributedTestCases()
{
    return {};
}

} // namespace test
} // namespace mose
} // namespace ns3

#endif
