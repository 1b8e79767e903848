/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-fabric: a MoSE fabric wired as an ns-3 script. MoseTopologyHelper builds the fabric of a
 * policy's template in a workload mode (N groups, d optical ports each, an optical circuit
 * switch); ns-3's BulkSend and PacketSink applications carry one KV-cache transfer per
 * prefill-decode pair; FlowMonitor measures the transfers and a pcap trace records the port the
 * first transfer leaves by.
 *
 *   mose-fabric                         # N=32, inference-heavy, the MoSE template
 *   mose-fabric --policy=S-Train        # the same transfers on the training expander
 *   mose-fabric --groups=64 --bytes=4000000 --ns3::MoseOcs::DataRate=100Gbps
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;
using namespace ns3::mose;

NS_LOG_COMPONENT_DEFINE("MoseFabricExample");

int
main(int argc, char* argv[])
{
    // RunProgram: a bad option or configuration ends with a message and exit status 1
    return RunProgram("mose-fabric", argc, argv, [&]() {
        std::string groupsText = "32";
        bool groupsGiven = false;
        std::string modeName = "inference-heavy";
        std::string policyName = "MoSE";
        uint64_t bytes = 1000000;
        bool pcap = true;

        CommandLine cmd(__FILE__);
        AddTextOption(cmd,
                      "groups",
                      "number of groups N (sets ns3::MoseTopologyHelper::Groups)",
                      groupsText,
                      groupsGiven);
        cmd.AddValue("mode", "workload mode: inference-heavy or training-heavy", modeName);
        cmd.AddValue("policy",
                     "the policy whose template is built: " +
                         mose::AllowedEnumNames<mose::Policy>(),
                     policyName);
        cmd.AddValue("bytes", "bytes of each transfer", bytes);
        AddBoolOption(cmd, "pcap", "write a pcap trace of the first transfer's output port", pcap);
        // the options, ns-3's global values and the attributes checked, then parsed
        ParseCommandLine(cmd, argc, argv);
        const WorkloadMode mode = ParseEnum<WorkloadMode>(modeName, "--mode");
        const Policy policy = ParseEnum<Policy>(policyName, "--policy");
        const uint64_t run = RngSeedManager::GetRun();
        // --groups or, if only it is set, ns3::MoseTopologyHelper::Groups; d is the topology's
        // PortsPerGroup (SetTemplate() lets a set ns3::MoseRouteTable::Rule win)
        groupsText =
            ResolveAttributeOption(
                AttributeOption{"groups",
                                "ns3::MoseTopologyHelper::Groups",
                                [](const std::string& parameter, const std::string& text) {
                                    return std::to_string(ParseUnsigned32(parameter, text));
                                }},
                groupsGiven ? std::optional(groupsText) : std::nullopt)
                .value_or(groupsText);
        const uint32_t groups = ParseUnsigned32("--groups", groupsText);
        const TypeId topology = MoseTopologyHelper::GetTypeId();

        // The paper's scenario scaled to N groups: roles, P-D pairs and the policy's template
        FlowExperimentConfig config;
        config.nodes = groups;
        config.degree = ParseUnsigned32("--ns3::MoseTopologyHelper::PortsPerGroup",
                                        GetAttributeDefaultText(topology, "PortsPerGroup"));
        config.pdReservedPorts = DefaultPdReservedPorts(config.degree);
        config.flows = 1000;
        config.inferenceRoles = RoleCounts::PaperScaled(groups, WorkloadMode::INFERENCE_HEAVY);
        config.trainingRoles = RoleCounts::PaperScaled(groups, WorkloadMode::TRAINING_HEAVY);
        const std::vector<PdPair> pairs =
            ScenarioBuilder(config).BuildMode(run, mode).assignment.GetPairs();

        NS_LOG_INFO("Building the fabric");
        Ptr<MoseTopologyHelper> fabric = CreateObject<MoseTopologyHelper>();
        fabric->SetTemplate(config, run, mode, policy);
        NodeContainer nodes = fabric->Install(); // node g is group g, with stack and routing
        Ptr<MoseRouteTable> routes = fabric->GetRouteTable();
        std::cout << "mose " << MOSE_VERSION << ", ns-3 " << MOSE_NS3_VERSION << ": "
                  << ToString(mode) << ", " << ToString(policy) << " template, N=" << groups
                  << ", d=" << fabric->GetNPorts() << ", run " << run << std::endl;

        NS_LOG_INFO("Installing one transfer per P-D pair");
        const uint16_t basePort = 5000;
        ApplicationContainer senders;
        ApplicationContainer sinks;
        for (uint32_t i = 0; i < pairs.size(); ++i)
        {
            const uint16_t port = basePort + i;
            PacketSinkHelper sink("ns3::TcpSocketFactory",
                                  InetSocketAddress(Ipv4Address::GetAny(), port));
            sinks.Add(sink.Install(nodes.Get(pairs[i].decode)));
            BulkSendHelper sender(
                "ns3::TcpSocketFactory",
                InetSocketAddress(fabric->GetGroupAddress(pairs[i].decode), port));
            sender.SetAttribute("MaxBytes", UintegerValue(bytes));
            senders.Add(sender.Install(nodes.Get(pairs[i].prefill)));
        }
        senders.Start(MilliSeconds(1));
        sinks.Start(Seconds(0));

        FlowMonitorHelper flowmon;
        Ptr<FlowMonitor> monitor = flowmon.InstallAll();
        if (pcap && !pairs.empty())
        {
            // the port devices are PointToPointNetDevices: ns-3's point-to-point pcap applies
            const uint32_t src = pairs[0].prefill;
            const uint32_t out = routes->GetOutputPort(src, pairs[0].decode);
            Ptr<NetDevice> device = fabric->GetPortDevice(src, out);
            PointToPointHelper p2p;
            p2p.EnablePcap("mose-fabric", device); // mose-fabric-<node>-<device>.pcap
            std::cout << "pcap: mose-fabric-" << nodes.Get(src)->GetId() << "-"
                      << device->GetIfIndex() << ".pcap (group " << src << ", port " << out << ")"
                      << std::endl;
        }

        Simulator::Stop(Seconds(10));
        Simulator::Run();

        monitor->CheckForLostPackets();
        auto classifier = DynamicCast<Ipv4FlowClassifier>(flowmon.GetClassifier());
        uint64_t lost = 0;
        uint32_t completed = 0;
        double fctSum = 0;
        std::cout << std::fixed << std::setprecision(3);
        for (const auto& [id, stats] : monitor->GetFlowStats())
        {
            const Ipv4FlowClassifier::FiveTuple t = classifier->FindFlow(id);
            lost += stats.lostPackets;
            if (t.destinationPort < basePort || t.destinationPort >= basePort + pairs.size())
            {
                continue; // the ACKs of a transfer
            }
            const PdPair& pair = pairs[t.destinationPort - basePort];
            auto sink = DynamicCast<PacketSink>(sinks.Get(t.destinationPort - basePort));
            // from the SYN to the last byte; FlowMonitor counts IP packets (headers included)
            const double fct = (stats.timeLastRxPacket - stats.timeFirstTxPacket).GetSeconds();
            completed += sink->GetTotalRx() == bytes ? 1 : 0;
            fctSum += fct;
            std::cout << "flow " << id << ": P " << pair.prefill << " -> D " << pair.decode << " ("
                      << t.sourceAddress << " -> " << t.destinationAddress << "), hops "
                      << routes->GetDistance(pair.prefill, pair.decode) << ", received "
                      << sink->GetTotalRx() << " B, FCT " << fct * 1e3 << " ms, throughput "
                      << (fct > 0 ? stats.rxBytes * 8.0 / fct / 1e9 : 0.0) << " Gbit/s, lost "
                      << stats.lostPackets << std::endl;
        }
        std::cout << completed << "/" << pairs.size() << " transfers complete, mean FCT "
                  << (pairs.empty() ? 0.0 : fctSum / pairs.size() * 1e3) << " ms, " << lost
                  << " packets lost" << std::endl;
        Simulator::Destroy();
    });
}
