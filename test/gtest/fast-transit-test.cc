/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MoseRoutingProtocol's fast transit ("FastTransit"): a packet that passes through a group node
// goes from its input device to the output device's queue disc without ns-3's IPv4 receive and
// forward path. The same run with it and without it must be the same run: the same events, the
// same transfers to the nanosecond, the same bytes on the wire (pcap), the same drops and marks.
// And what it skips is counted: every packet it forwards is one that Ipv4L3Protocol forwards
// ("UnicastForward") when it is off.

#include "mose-packet-experiment.h"
#include "mose-switch-experiment.h"
#include "mose-switch-test-util.h"
#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

const char* const RDMA = "ns3::MoseRdmaTransport";

/// What one run gives that fast transit must not change, and what it counts
struct TransitRun
{
    uint64_t events{0};             //!< Simulator events
    uint64_t lost{0};               //!< the loss monitor's drops
    uint64_t marks{0};              //!< ECN marks
    std::vector<Time> completions;  //!< every transfer's completion time
    std::vector<std::string> pcaps; //!< the bytes of each pcap file
    uint64_t ipv4Forwarded{0};      //!< Ipv4L3Protocol "UnicastForward" at group nodes
    uint64_t fastForwarded{0};      //!< "FastForward" at group nodes
    uint64_t fastCounted{0};        //!< GetFastForwarded() summed over group nodes
    std::vector<Ptr<MoseRoutingProtocol>> protocols; //!< the group nodes' protocols
};

/// Counts a trace's calls
void
Count(uint64_t* n, const Ipv4Header&, Ptr<const Packet>, uint32_t)
{
    ++*n;
}

/// Connects the counters and a pcap on every device of the first groups of a built experiment
void
Observe(Experiment& experiment, const std::string& folder, TransitRun* run)
{
    const NodeContainer groups = experiment.GetTopology()->GetGroupNodes();
    PointToPointHelper pcap;
    for (uint32_t g = 0; g < groups.GetN(); ++g)
    {
        Ptr<Node> node = groups.Get(g);
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "UnicastForward",
            MakeBoundCallback(&Count, &run->ipv4Forwarded));
        run->protocols.push_back(MoseRoutingProtocol::Find(node));
        run->protocols.back()->TraceConnectWithoutContext(
            "FastForward",
            MakeBoundCallback(&Count, &run->fastForwarded));
        for (uint32_t i = 0; g < 4 && i < node->GetNDevices(); ++i)
        {
            if (DynamicCast<PointToPointNetDevice>(node->GetDevice(i)))
            {
                pcap.EnablePcap(folder + "/g" + std::to_string(g) + "-" + std::to_string(i) +
                                    ".pcap",
                                node->GetDevice(i),
                                false,
                                true);
            }
        }
    }
}

/// Reads the pcaps (closed by Experiment::Run()'s Simulator::Destroy()) and the counters after
/// the run
void
Collect(Experiment& experiment, const std::string& folder, TransitRun* run)
{
    for (const Ptr<MoseRoutingProtocol>& protocol : run->protocols)
    {
        run->fastCounted += protocol->GetFastForwarded();
    }
    run->protocols.clear();
    for (const std::string& name : ListFileNames(folder))
    {
        run->pcaps.push_back(ReadFileBytes(folder + "/" + name));
    }
    std::filesystem::remove_all(folder);
    run->events = experiment.GetEvents();
    run->lost = experiment.GetPacketsLost();
    run->marks = experiment.GetEcnMarks();
}

/// Sets FastTransit for the protocols the next experiment creates, as --ns3::...=on does
void
SetFastTransit(bool on)
{
    Config::SetDefault("ns3::MoseRoutingProtocol::FastTransit", BooleanValue(on));
}

/// Reads a run's transfers' completion times after it ran
using Completions = std::function<std::vector<Time>(const Experiment&)>;

/**
 * \brief One experiment with FastTransit on or off, observed (Observe(), Collect()).
 * \param c its configuration \param fast FastTransit \param name its pcap folder's name
 * \param install installs the workload and returns what reads the completion times
 * \return what the run gave
 */
TransitRun
ObservedRun(const ExperimentConfig& c,
            bool fast,
            const std::string& name,
            const std::function<Completions(Experiment&)>& install)
{
    SetFastTransit(fast);
    const std::string folder = FreshTempFolder(name + (fast ? "-on" : "-off"));
    std::filesystem::create_directories(folder);
    TransitRun run;
    {
        Experiment experiment(c);
        const Completions completions = install(experiment);
        experiment.Build();
        Observe(experiment, folder, &run);
        experiment.Run();
        Collect(experiment, folder, &run);
        run.completions = completions(experiment);
    }
    Config::Reset();
    return run;
}

/// mose-packet's run at 16 groups, 100 flows of the training-heavy mode (most of them cross
/// several circuits of the expander), over RDMA, with FastTransit on or off
TransitRun
PacketRun(bool fast)
{
    ExperimentConfig c = MakePacketConfig(PaperScaledConfig(16),
                                          WorkloadMode::TRAINING_HEAVY,
                                          LlmLevel::PACKET,
                                          RDMA);
    c.scenario.flows = 100;
    c.policy = Policy::MOSE;
    c.stopTime = Seconds(10);
    return ObservedRun(c, fast, "fast-transit-packet", [](Experiment& experiment) -> Completions {
        const std::shared_ptr<const PacketResult> result = InstallPacketWorkload(experiment);
        return [result](const Experiment&) {
            std::vector<Time> times;
            for (const MoseTransfer& t : result->transfers)
            {
                EXPECT_TRUE(t.complete);
                times.push_back(t.GetCompletionTime());
            }
            return times;
        };
    });
}

/// mose-mode-switch's run at 16 groups: two drained switches, over a transport, FastTransit on
/// or off
TransitRun
SwitchRun(bool fast, const std::string& transport)
{
    const ExperimentConfig c = DrainedSwitchConfig(transport);
    return ObservedRun(c, fast, "fast-transit-switch", [](Experiment& experiment) -> Completions {
        const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
        return [result](const Experiment& ran) {
            EXPECT_EQ(ran.GetSwitchRecords().size(), 2u);
            std::vector<Time> times;
            for (const SwitchInterval& iv : result->intervals)
            {
                for (const MoseTransfer& t : iv.transfers)
                {
                    EXPECT_TRUE(t.complete);
                    times.push_back(t.GetCompletionTime());
                }
            }
            return times;
        };
    });
}

/// The two runs are one run; fast transit forwarded what IPv4 forwards without it
void
ExpectTheSameRun(const TransitRun& on, const TransitRun& off)
{
    EXPECT_EQ(on.events, off.events) << "no event added or removed";
    EXPECT_EQ(on.lost, off.lost);
    EXPECT_EQ(on.marks, off.marks);
    EXPECT_EQ(on.completions, off.completions) << "every transfer, to the nanosecond";
    ASSERT_EQ(on.pcaps.size(), off.pcaps.size());
    EXPECT_GE(on.pcaps.size(), 16u) << "the ports of the first four groups";
    std::size_t withPackets = 0;
    for (std::size_t i = 0; i < on.pcaps.size(); ++i)
    {
        withPackets += on.pcaps[i].size() > 24 ? 1 : 0; // more than pcap's file header
        EXPECT_TRUE(on.pcaps[i] == off.pcaps[i]) << "pcap " << i << ": the same bytes (TTL too)";
    }
    EXPECT_GE(withPackets, 4u) << "a port of each of the four groups, at least, carried packets";
    EXPECT_GT(on.fastForwarded, 500u) << "transit packets took the fast path";
    EXPECT_EQ(on.fastCounted, on.fastForwarded) << "counted as traced";
    EXPECT_EQ(off.fastForwarded, 0u);
    EXPECT_EQ(off.fastCounted, 0u);
    // what fast transit forwards, IPv4 forwards without it; what it leaves (a hold queue's
    // release, say) IPv4 forwards with it too
    EXPECT_EQ(on.fastForwarded + on.ipv4Forwarded, off.ipv4Forwarded);
}

} // namespace

TEST(FastTransit, RdmaPacketRunIsTheSameRunWithAndWithout)
{
    const TransitRun on = PacketRun(true);
    const TransitRun off = PacketRun(false);
    ExpectTheSameRun(on, off);
    EXPECT_EQ(on.lost, 0u);
    EXPECT_GT(on.marks, 0u) << "RED marked packets: the queue discs saw the backlog";
    EXPECT_EQ(on.ipv4Forwarded, 0u) << "every transit packet took the fast path";
}

TEST(FastTransit, DrainedSwitchesAreTheSameRunWithAndWithoutOverBothTransports)
{
    for (const std::string transport : {"rdma", "tcp"})
    {
        SCOPED_TRACE(transport);
        const std::string type = transport == "rdma" ? RDMA : "ns3::MoseSocketTransfers";
        const TransitRun on = SwitchRun(true, type);
        const TransitRun off = SwitchRun(false, type);
        ExpectTheSameRun(on, off);
        EXPECT_EQ(on.lost, 0u) << "drain on: nothing lost in the fabric";
    }
}

TEST(FastTransit, OffInTheProtocolOnInExperimentsUnlessTheUserChose)
{
    // a script's protocol forwards as ns-3 does
    Ptr<MoseRoutingProtocol> routing = CreateObject<MoseRoutingProtocol>();
    BooleanValue value;
    routing->GetAttribute("FastTransit", value);
    EXPECT_FALSE(value.Get());
    EXPECT_EQ(routing->GetFastForwarded(), 0u);
    routing->Dispose();
    // an experiment's group nodes take the fast path, unless the user set the attribute
    for (const int choice : {-1, 0, 1})
    {
        SCOPED_TRACE(choice);
        if (choice >= 0)
        {
            SetFastTransit(choice == 1);
        }
        Experiment experiment(MakeSwitchConfig(16, 20));
        InstallSwitchWorkload(experiment);
        experiment.Build();
        const NodeContainer groups = experiment.GetTopology()->GetGroupNodes();
        for (uint32_t g = 0; g < groups.GetN(); ++g)
        {
            MoseRoutingProtocol::Find(groups.Get(g))->GetAttribute("FastTransit", value);
            EXPECT_EQ(value.Get(), choice != 0) << "group " << g;
        }
        Config::Reset();
        experiment.Run();
    }
}
