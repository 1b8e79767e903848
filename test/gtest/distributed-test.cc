/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MoseDistributed on one process (every build; the runs on several ranks are the suite's
// distributed cases, test/mose-mpi-test-cases.cc, under mpirun in an ns-3 tree with MPI), and
// the file-writing switch that keeps the ranks other than 0 from writing.

#include "mose-test-util.h"

#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-text-io.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

TEST(Distributed, OneProcessIsRankZeroOfOneAndMergesChangeNothing)
{
    if (MoseDistributed::IsEnabled())
    {
        GTEST_SKIP() << "MPI is enabled in this process";
    }
    EXPECT_EQ(MoseDistributed::GetRank(), 0U);
    EXPECT_EQ(MoseDistributed::GetNRanks(), 1U);
    std::vector<uint64_t> sums{3, 0, 7};
    MoseDistributed::SumOverRanks(sums);
    EXPECT_EQ(sums, (std::vector<uint64_t>{3, 0, 7}));
    std::vector<int64_t> maxima{-5, 9};
    MoseDistributed::MaxOverRanks(maxima);
    EXPECT_EQ(maxima, (std::vector<int64_t>{-5, 9}));
    EXPECT_EQ(MoseDistributed::GatherOverRanks(42), (std::vector<uint64_t>{42}));

    std::vector<MoseTransfer> transfers(2);
    transfers[0].received = 100;
    transfers[0].end = MilliSeconds(3);
    transfers[0].complete = true;
    MoseDistributed::MergeTransfers(transfers);
    EXPECT_EQ(transfers[0].received, 100U);
    EXPECT_EQ(transfers[0].end, MilliSeconds(3));
    EXPECT_TRUE(transfers[0].complete);
    EXPECT_FALSE(transfers[1].complete);

    std::vector<MoseSwitchRecord> records(1);
    records[0].packetsHeld = 4;
    records[0].batches.resize(2);
    records[0].batches[1].drainTimedOut = true;
    records[0].drainTimeouts = 1;
    MoseDistributed::MergeSwitchRecords(records);
    EXPECT_EQ(records[0].packetsHeld, 4U);
    EXPECT_EQ(records[0].drainTimeouts, 1U);
    EXPECT_TRUE(records[0].batches[1].drainTimedOut);
    MoseDistributed::Abort(3);  // returns: MPI is not enabled
    MoseDistributed::Disable(); // nothing to end
}

TEST(Distributed, EnableWithoutMpiNamesWhatIsMissing)
{
    if (MoseDistributed::IsAvailable())
    {
        GTEST_SKIP() << "this build has MPI";
    }
    int argc = 0;
    char** argv = nullptr;
    try
    {
        MoseDistributed::Enable(&argc, &argv);
        FAIL() << "Enable() without MPI must throw";
    }
    catch (const ns3::mose::Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("no MPI module"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("--enable-mpi"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(MoseDistributed::IsEnabled());
}

TEST(Distributed, ARankThatDoesNotWriteFilesWritesNothing)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("mose-writing-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    ASSERT_TRUE(ns3::mose::IsWritingFiles());
    ns3::mose::SetWritingFiles(false);
    ns3::mose::MakeOutputDirectory(dir.string());
    ns3::mose::WriteTextFile((dir / "a.csv").string(), [](std::ostream& os) { os << "x\n"; });
    const bool created = fs::exists(dir);
    ns3::mose::SetWritingFiles(true);
    EXPECT_FALSE(created) << "no folder, no file while writing is off";
    ns3::mose::MakeOutputDirectory(dir.string());
    ns3::mose::WriteTextFile((dir / "a.csv").string(), [](std::ostream& os) { os << "x\n"; });
    EXPECT_EQ(ns3::mose::test::ReadFileBytes((dir / "a.csv").string()), "x\n");
    fs::remove_all(dir);
}
