/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ModeSwitcher's most important checks as ns-3 test cases: transfers in flight at a
 * boundary lose nothing and complete (K = 1 and K = 4, and under list routing), and without a
 * drain the losses occur and are all counted, and a switch the stop cuts short is reported
 * unfinished with its figures up to the stop. The full set lives in
 * test/gtest/mode-switcher-test.cc and test/gtest/list-routing-test.cc.
 */

#include "mose-config-path-scenario.h"
#include "mose-switch-scenario.h"
#include "mose-test-cases.h"

#include "ns3/test.h"

#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/**
 * \ingroup mose-tests
 * \brief TCP transfers in flight at a mode boundary: zero packets lost, every transfer completes,
 *        the OCS ends at the target graph.
 */
class MoseSwitchNoLossTestCase : public TestCase
{
  public:
    /// \param phases K
    explicit MoseSwitchNoLossTestCase(uint32_t phases)
        : TestCase("Mode switch with drain, K=" + std::to_string(phases) +
                   ": nothing lost, every transfer completes"),
          m_phases(phases)
    {
    }

  private:
    void DoRun() override
    {
        SwitchRunOptions o;
        o.phases = m_phases;
        const SwitchRun r = RunSwitchScenario(o);
        NS_TEST_ASSERT_MSG_EQ(r.records.size(), 1U, "one switch");
        NS_TEST_EXPECT_MSG_EQ(r.records[0].done, true, "the switch finished");
        NS_TEST_EXPECT_MSG_GT(r.records[0].removed, 0U, "circuits changed");
        NS_TEST_EXPECT_MSG_EQ(r.records[0].lost, 0U, "nothing lost during the switch");
        NS_TEST_EXPECT_MSG_EQ(r.lost, 0U, "nothing lost in the run");
        NS_TEST_EXPECT_MSG_GT(r.transfersAtBoundary, 0U, "transfers in flight at the boundary");
        NS_TEST_EXPECT_MSG_EQ(r.completed, r.transfers, "every transfer completes");
        NS_TEST_EXPECT_MSG_EQ((r.finalGraph.GetCircuits() == r.targetGraph.GetCircuits()),
                              true,
                              "the OCS ends at the target graph");
    }

    uint32_t m_phases; //!< K
};

/**
 * \ingroup mose-tests
 * \brief A switch the stop cuts short (a 100 s ReconfigurationDelay, a stop at 3 s) is
 *        reported unfinished with its dark time up to the stop, exactly, and the packets held
 *        and dropped so far (all of the run's).
 */
class MoseSwitchUnfinishedTestCase : public TestCase
{
  public:
    MoseSwitchUnfinishedTestCase()
        : TestCase("Mode switch cut short by the stop: unfinished, with its dark time, holds and "
                   "drops up to the stop")
    {
    }

  private:
    void DoRun() override
    {
        SwitchRunOptions o;
        o.reconfigurationDelay = Seconds(100);
        o.stop = Seconds(3);
        const SwitchRun r = RunSwitchScenario(o);
        NS_TEST_ASSERT_MSG_EQ(r.records.size(), 1U, "one switch");
        const MoseSwitchRecord& rec = r.records[0];
        NS_TEST_EXPECT_MSG_EQ(rec.done, false, "the switch is unfinished");
        NS_TEST_EXPECT_MSG_EQ(rec.until, Seconds(3), "figures up to the stop");
        NS_TEST_ASSERT_MSG_EQ(rec.batches.size(), 1U, "K=1");
        NS_TEST_EXPECT_MSG_EQ(rec.darkTime,
                              Seconds(3) - rec.batches[0].darkStart,
                              "dark from the end of the drain to the stop");
        NS_TEST_EXPECT_MSG_EQ(rec.blackoutTime,
                              Seconds(3) - rec.batches[0].drainStart,
                              "cut off from the start of the drain to the stop");
        NS_TEST_EXPECT_MSG_GT(rec.packetsHeld, 0U, "packets were held");
        NS_TEST_EXPECT_MSG_EQ(rec.packetsHeld, r.holdEntered, "every hold of the run");
        NS_TEST_EXPECT_MSG_GT(rec.drops[MoseLossMonitor::HOLD], 0U, "held packets expired");
        NS_TEST_EXPECT_MSG_EQ(rec.drops[MoseLossMonitor::HOLD], r.holdDrops, "every hold drop");
        NS_TEST_EXPECT_MSG_EQ(rec.lost, r.lost, "every loss of the run");
    }
};

/**
 * \ingroup mose-tests
 * \brief Without a drain the switch loses packets, and the per-switch counters add up to the
 *        OCS's own dark-port and wire drops.
 */
class MoseSwitchNoDrainTestCase : public TestCase
{
  public:
    MoseSwitchNoDrainTestCase()
        : TestCase("Mode switch without drain: losses occur and are counted")
    {
    }

  private:
    void DoRun() override
    {
        SwitchRunOptions o;
        o.drain = false;
        o.stop = Seconds(30);
        const SwitchRun r = RunSwitchScenario(o);
        NS_TEST_ASSERT_MSG_EQ(r.records.size(), 1U, "one switch");
        const MoseSwitchRecord& rec = r.records[0];
        NS_TEST_EXPECT_MSG_GT(rec.lost, 0U, "packets lost");
        uint64_t sum = 0;
        for (uint64_t v : rec.drops)
        {
            sum += v;
        }
        NS_TEST_EXPECT_MSG_EQ(sum, rec.lost, "per-point drops add up");
        NS_TEST_EXPECT_MSG_EQ(rec.drops[MoseLossMonitor::DARK_PORT] +
                                  rec.drops[MoseLossMonitor::WIRE],
                              r.ocsDarkDrops + r.ocsWireDrops,
                              "the OCS's own drop counts");
    }
};

/**
 * \ingroup mose-tests
 * \brief The group nodes route with an Ipv4ListRouting (ns-3's static routing at priority 0,
 *        MoseRoutingProtocol at 10): the switch holds packets, loses none, and every transfer
 *        completes, with the same completion times as without the list.
 */
class MoseSwitchListRoutingTestCase : public TestCase
{
  public:
    MoseSwitchListRoutingTestCase()
        : TestCase("Mode switch with hold under list routing: packets held, nothing lost")
    {
    }

  private:
    void DoRun() override
    {
        SwitchRunOptions o;
        const SwitchRun alone = RunSwitchScenario(o);
        o.listRouting = true;
        const SwitchRun r = RunSwitchScenario(o);
        NS_TEST_ASSERT_MSG_EQ(r.listRouted, 32U, "every group node routes with a list");
        NS_TEST_ASSERT_MSG_EQ(r.records.size(), 1U, "one switch");
        NS_TEST_EXPECT_MSG_EQ(r.records[0].done, true, "the switch finished");
        NS_TEST_EXPECT_MSG_GT(r.records[0].packetsHeld, 0U, "packets were held");
        NS_TEST_EXPECT_MSG_EQ(r.records[0].packetsHeld, r.holdEntered, "held = hold entries");
        NS_TEST_EXPECT_MSG_EQ(r.lost, 0U, "nothing lost in the run");
        NS_TEST_EXPECT_MSG_EQ(r.holdDrops, 0U, "no hold drop");
        NS_TEST_EXPECT_MSG_EQ(r.completed, r.transfers, "every transfer completes");
        NS_TEST_EXPECT_MSG_EQ((r.fcts == alone.fcts), true, "the same FCTs as without the list");
    }
};

/**
 * \ingroup mose-tests
 * \brief Every trace source of the module through its Config path (doc/mose.rst, "Config paths
 *        and trace sources") in a 16-group run with a switch: each path names exactly its
 *        objects and fires exactly as often as the run's own counters say.
 */
class MoseConfigPathTestCase : public TestCase
{
  public:
    MoseConfigPathTestCase()
        : TestCase("Config paths reach every trace source and fire as counted")
    {
    }

  private:
    void DoRun() override
    {
        const ConfigPathRun r = RunConfigPathScenario();
        NS_TEST_ASSERT_MSG_EQ(r.run.records.size(), 1U, "one switch");
        NS_TEST_EXPECT_MSG_EQ(r.disconnected, 1U, "a busy circuit was cut");
        NS_TEST_EXPECT_MSG_EQ(r.holdQueueSize, 2U, "Config::Set reached the protocols");
        NS_TEST_EXPECT_MSG_EQ(r.ocsPath, "/MoseOcsList/0", "the OCS's path");
        const std::vector<ConfigPathExpected> expected = ExpectedConfigPathCounts(r);
        NS_TEST_EXPECT_MSG_EQ(expected.size() + 1, r.counts.size(), "every path checked");
        for (const ConfigPathExpected& e : expected)
        {
            auto it = r.counts.find(e.path);
            NS_TEST_ASSERT_MSG_EQ((it != r.counts.end()), true, e.path + " connected");
            NS_TEST_EXPECT_MSG_EQ(it->second.matches, e.matches, e.path + " matches");
            NS_TEST_EXPECT_MSG_EQ(it->second.fires, e.fires, e.path + " fires");
            NS_TEST_EXPECT_MSG_GT(it->second.fires, 0U, e.path + " fires in this run");
        }
        NS_TEST_EXPECT_MSG_EQ(r.rxBytes, r.run.bytesReceived, "TransferRx reports every byte");
        NS_TEST_EXPECT_MSG_EQ(r.run.completed, r.run.transfers, "every transfer completes");
    }
};

} // namespace

std::vector<TestCase*>
ns3::mose::test::SwitchTestCases()
{
    return {new MoseSwitchNoLossTestCase(1),
            new MoseSwitchNoLossTestCase(4),
            new MoseSwitchNoDrainTestCase,
            new MoseSwitchUnfinishedTestCase,
            new MoseSwitchListRoutingTestCase,
            new MoseConfigPathTestCase};
}
