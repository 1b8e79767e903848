/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RoCEv2 transport's packets as Wireshark reads them: a pcap of a go-back-N recovery,
// written by ns-3's PointToPointHelper and decoded by Debian's tshark, started by the test. The
// test is skipped only where tshark is not installed (utils/install-deps.sh installs it, and CI
// runs it).

#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace ns3;

namespace
{

/// What a program printed and how it ended
struct ToolRun
{
    bool found{false}; //!< the program is on PATH
    int status{-1};    //!< its exit status
    std::string out;   //!< its standard output
};

/// \return whether program is an executable in a folder of PATH
bool
OnPath(const std::string& program)
{
    const char* path = std::getenv("PATH");
    std::stringstream folders(path != nullptr ? path : "/usr/bin:/bin");
    std::string folder;
    while (std::getline(folders, folder, ':'))
    {
        if (access(((folder.empty() ? "." : folder) + "/" + program).c_str(), X_OK) == 0)
        {
            return true;
        }
    }
    return false;
}

/// Runs a program with its arguments (no shell: posix_spawnp, the C library's) and reads its
/// standard output; its standard error goes to /dev/null
ToolRun
RunTool(std::vector<std::string> args)
{
    ToolRun run;
    run.found = OnPath(args.front());
    if (!run.found)
    {
        return run;
    }
    int pipeFds[2];
    if (pipe(pipeFds) != 0)
    {
        return run;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, argv.front(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipeFds[1]);
    if (spawned == 0)
    {
        char buffer[4096];
        ssize_t n = 0;
        while ((n = read(pipeFds[0], buffer, sizeof(buffer))) > 0)
        {
            run.out.append(buffer, static_cast<std::size_t>(n));
        }
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        {
        }
        run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    close(pipeFds[0]);
    return run;
}

/// One line of tshark's fields: a RoCEv2 packet as Wireshark decodes it
struct Decoded
{
    uint32_t opcode{0};  //!< the BTH's opcode
    uint32_t destQp{0};  //!< the BTH's destination QP
    uint32_t psn{0};     //!< the BTH's PSN
    uint32_t srcPort{0}; //!< the UDP source port
    uint32_t dstPort{0}; //!< the UDP destination port
    std::string src;     //!< the IPv4 source
};

/// tshark's fields of every packet of a pcap, comma-separated: BTH opcode, destination QP,
/// PSN, UDP source and destination port, IPv4 source
ToolRun
Tshark(const std::string& pcap)
{
    return RunTool({"tshark",
                    "-r",
                    pcap,
                    "-T",
                    "fields",
                    "-E",
                    "separator=,",
                    "-e",
                    "infiniband.bth.opcode",
                    "-e",
                    "infiniband.bth.destqp",
                    "-e",
                    "infiniband.bth.psn",
                    "-e",
                    "udp.srcport",
                    "-e",
                    "udp.dstport",
                    "-e",
                    "ip.src"});
}

/// \return the packets of Tshark()'s output (std::invalid_argument for a line without six
///         fields: a packet Wireshark did not decode as RoCEv2)
std::vector<Decoded>
ParseFields(const std::string& out)
{
    std::vector<Decoded> packets;
    std::stringstream lines(out);
    std::string line;
    while (std::getline(lines, line))
    {
        std::stringstream fields(line);
        std::vector<std::string> f;
        std::string x;
        while (std::getline(fields, x, ','))
        {
            f.push_back(x);
        }
        if (f.size() != 6)
        {
            throw std::invalid_argument("not a decoded RoCEv2 packet: " + line);
        }
        Decoded d;
        d.opcode = static_cast<uint32_t>(std::stoul(f[0], nullptr, 0));
        d.destQp = static_cast<uint32_t>(std::stoul(f[1], nullptr, 0));
        d.psn = static_cast<uint32_t>(std::stoul(f[2]));
        d.srcPort = static_cast<uint32_t>(std::stoul(f[3]));
        d.dstPort = static_cast<uint32_t>(std::stoul(f[4]));
        d.src = f[5];
        packets.push_back(d);
    }
    return packets;
}

} // namespace

// 10,000 B from node 0 to node 1 over 10 Gb/s with PSN 3 lost on the way (an error model on the
// receiver's device). The sender's device sees ten data packets (SEND FIRST, eight MIDDLE, LAST:
// opcodes 0, 1, 2 of the reliable-connected class), the NAK (ACKNOWLEDGE, opcode 17, PSN 3)
// and go-back-N's resent PSNs 3 to 9, then the ACK of PSN 9. Every packet is UDP to port 4791
// from the QP's source port 49152, with the destination QP 0 and a 24-bit PSN: Wireshark's
// InfiniBand dissector reads each field the transport wrote.
TEST(RdmaTransport, APcapDecodesAsRoceV2InTshark)
{
    const std::string dir = testing::TempDir() + "mose-rdma-pcap";
    std::filesystem::create_directories(dir);
    {
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
        link.SetChannelAttribute("Delay", StringValue("10us"));
        NetDeviceContainer devices = link.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        addresses.Assign(devices);
        Ptr<ReceiveListErrorModel> em = CreateObject<ReceiveListErrorModel>();
        em->SetList({3});
        devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        link.EnablePcap(dir + "/roce.pcap", devices.Get(0), false, true);
        Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
        t->Install(nodes);
        const uint64_t id = t->Start(0, 1, 10000, MoseTransport::DoneCallback());
        Simulator::Run();
        ASSERT_TRUE(t->GetTransfer(id).complete);
        ASSERT_EQ(t->GetNRetransmissions(), 7u);
        Simulator::Destroy();
    }
    const std::string pcap = dir + "/roce.pcap";
    ASSERT_TRUE(std::filesystem::exists(pcap)) << pcap;

    const ToolRun run = Tshark(pcap);
    if (!run.found)
    {
        GTEST_SKIP() << "tshark is not installed (utils/install-deps.sh installs it)";
    }
    ASSERT_EQ(run.status, 0) << run.out;
    std::vector<Decoded> packets;
    ASSERT_NO_THROW(packets = ParseFields(run.out)) << run.out;
    std::vector<uint32_t> dataPsns;
    std::vector<uint32_t> dataOpcodes;
    std::vector<uint32_t> ackPsns;
    for (const Decoded& d : packets)
    {
        EXPECT_EQ(d.dstPort, 4791u);
        EXPECT_EQ(d.destQp, 0u);
        if (d.src == "10.1.1.1")
        {
            EXPECT_EQ(d.srcPort, 49152u); // the QP's own source port
            dataPsns.push_back(d.psn);
            dataOpcodes.push_back(d.opcode);
        }
        else
        {
            EXPECT_EQ(d.opcode, 17u); // ACKNOWLEDGE
            ackPsns.push_back(d.psn);
        }
    }
    EXPECT_EQ(dataPsns, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(dataOpcodes,
              (std::vector<uint32_t>{0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 2}));
    // the NAK names PSN 3, the first missing; the ACK the last PSN
    ASSERT_FALSE(ackPsns.empty());
    EXPECT_EQ(ackPsns.front(), 3u);
    EXPECT_EQ(ackPsns.back(), 9u);
}
