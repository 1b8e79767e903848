/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_CONFIG_PATH_SCENARIO_H
#define MOSE_CONFIG_PATH_SCENARIO_H

/**
 * \file
 * \ingroup mose-tests
 * \brief Every trace source of the module through its Config path, in one 16-group run with a
 *        mode switch (shared by the GoogleTest and ns-3 test cases; framework-free: it returns
 *        the match and fire counts the tests check against the run's own counters).
 */

#include "mose-switch-scenario.h"

#include "ns3/config.h"
#include "ns3/inet-socket-address.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-object-list.h"
#include "ns3/mose-ocs.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{
namespace test
{

/// The paths the scenario connects, one per trace source and access route
namespace paths
{
/// the routing protocol of every group node
const std::string PROTOCOL = "/NodeList/*/$ns3::MoseRoutingProtocol/";
/// the mode switcher (an application of group node 0)
const std::string SWITCHER = "/NodeList/*/ApplicationList/*/$ns3::MoseModeSwitcher/";
/// the OCS port channels
const std::string CHANNEL = "/ChannelList/*/$ns3::MoseOcsChannel/";
/// the OCS
const std::string OCS = "/MoseOcsList/*/";
/// the route table
const std::string TABLE = "/MoseRouteTableList/*/";
/// the loss monitor
const std::string LOSS = "/MoseLossMonitorList/*/";
/// the transfer monitors (one per mode interval)
const std::string TRANSFERS = "/MoseTransferMonitorList/*/";
} // namespace paths

/// How a path matched before the run and how often it fired during it
struct ConfigPathCount
{
    uint32_t matches{0}; //!< objects the path names before the run (Config::LookupMatches)
    uint64_t fires{0};   //!< calls of the sink connected with Config::Connect(path)
};

/// What the scenario gives the tests
struct ConfigPathRun
{
    SwitchRun run;                                 //!< the run's own counters
    std::map<std::string, ConfigPathCount> counts; //!< per path
    uint64_t rxBytes{0};                           //!< bytes fired on TransferRx
    uint64_t holdQueueSize{0};                     //!< HoldQueueSize read back through its path
    uint32_t disconnected{0};                      //!< circuits cut by hand (1)
    std::string ocsPath;                           //!< MoseObjectList::GetPath() of the OCS
    std::string tablePath;                         //!< ... of the route table
    std::string lossPath;                          //!< ... of the loss monitor
    uint32_t groups{0};                            //!< N
    uint32_t ports{0};                             //!< d
};

/**
 * \brief 16 groups, K = 1 switch at 50 ms with hold (HoldQueueSize 2, set through
 *        /NodeList/N/$ns3::MoseRoutingProtocol/HoldQueueSize, so that the hold queue also drops),
 *        plus three events made by hand so that every trace fires: a UDP packet to an unassigned
 *        address of its own group's block (no route), a scheduled connect of two lit ports
 *        (rejected), and a busy circuit cut for 1 ms (dark-port and wire drops) and restored.
 * \return the counts
 */
inline ConfigPathRun
RunConfigPathScenario()
{
    auto out = std::make_shared<ConfigPathRun>();
    SwitchRunOptions o;
    o.groups = 16;
    o.beforeRun = [out](Ptr<MoseTopologyHelper> topo, Ptr<MoseModeSwitcher> switcher) {
        out->groups = topo->GetNGroups();
        out->ports = topo->GetNPorts();
        Ptr<MoseOcs> ocs = topo->GetOcs();
        out->ocsPath = MoseObjectList::GetPath(ocs);
        out->tablePath = MoseObjectList::GetPath(topo->GetRouteTable());
        out->lossPath = MoseObjectList::GetPath(switcher->GetLossMonitor());

        // attributes through the same paths
        Config::Set(paths::PROTOCOL + "HoldQueueSize", UintegerValue(2));
        UintegerValue size;
        topo->GetGroupNode(7)->GetObject<MoseRoutingProtocol>()->GetAttribute("HoldQueueSize",
                                                                              size);
        out->holdQueueSize = size.Get();

        // the objects a path's trace source is looked up on: the path without its last
        // segment (what Config::Connect resolves)
        auto count = [out](const std::string& path) -> uint64_t& {
            const std::string objects = path.substr(0, path.rfind('/'));
            out->counts[path].matches =
                static_cast<uint32_t>(Config::LookupMatches(objects).GetN());
            return out->counts[path].fires;
        };
        using Header = const Ipv4Header&;
        using PacketPtr = Ptr<const Packet>;
        for (const std::string name : {"NoRouteDrop", "HoldDrop"})
        {
            uint64_t& n = count(paths::PROTOCOL + name);
            Config::Connect(paths::PROTOCOL + name,
                            Callback<void, std::string, Header, PacketPtr>(
                                [&n](std::string, Header, PacketPtr) { ++n; }));
        }
        {
            uint64_t& n = count(paths::PROTOCOL + "HoldRelease");
            Config::Connect(paths::PROTOCOL + "HoldRelease",
                            Callback<void, std::string, Header, PacketPtr, Time>(
                                [&n](std::string, Header, PacketPtr, Time) { ++n; }));
        }
        for (const std::string& path :
             {paths::TABLE + "RoutesRecomputed", paths::PROTOCOL + "RouteTable/RoutesRecomputed"})
        {
            uint64_t& n = count(path);
            Config::Connect(path,
                            Callback<void, std::string, Time, uint32_t>(
                                [&n](std::string, Time, uint32_t) { ++n; }));
        }
        for (const std::string name : {"CircuitConnected", "CircuitDisconnected"})
        {
            uint64_t& n = count(paths::OCS + name);
            Config::Connect(
                paths::OCS + name,
                Callback<void, std::string, uint32_t, uint32_t, uint32_t, uint32_t>(
                    [&n](std::string, uint32_t, uint32_t, uint32_t, uint32_t) { ++n; }));
        }
        for (const std::string& path : {paths::OCS + "DarkPortDrop",
                                        paths::OCS + "WireDrop",
                                        paths::CHANNEL + "DarkPortDrop",
                                        paths::CHANNEL + "WireDrop"})
        {
            uint64_t& n = count(path);
            Config::Connect(path,
                            Callback<void, std::string, PacketPtr, uint32_t, uint32_t>(
                                [&n](std::string, PacketPtr, uint32_t, uint32_t) { ++n; }));
        }
        {
            uint64_t& n = count(paths::OCS + "OperationRejected");
            Config::Connect(paths::OCS + "OperationRejected",
                            Callback<void, std::string, const std::string&>(
                                [&n](std::string, const std::string&) { ++n; }));
        }
        {
            uint64_t& n = count(paths::SWITCHER + "SwitchStarted");
            Config::Connect(paths::SWITCHER + "SwitchStarted",
                            Callback<void, std::string, uint32_t, WorkloadMode, WorkloadMode>(
                                [&n](std::string, uint32_t, WorkloadMode, WorkloadMode) { ++n; }));
        }
        {
            uint64_t& n = count(paths::SWITCHER + "BatchDrained");
            Config::Connect(paths::SWITCHER + "BatchDrained",
                            Callback<void, std::string, uint32_t, uint32_t, Time, bool>(
                                [&n](std::string, uint32_t, uint32_t, Time, bool) { ++n; }));
        }
        for (const std::string name : {"CircuitsDark", "CircuitsRelinked"})
        {
            uint64_t& n = count(paths::SWITCHER + name);
            Config::Connect(paths::SWITCHER + name,
                            Callback<void, std::string, uint32_t, uint32_t, uint32_t>(
                                [&n](std::string, uint32_t, uint32_t, uint32_t) { ++n; }));
        }
        {
            uint64_t& n = count(paths::SWITCHER + "SwitchDone");
            Config::Connect(paths::SWITCHER + "SwitchDone",
                            Callback<void, std::string, const MoseSwitchRecord&>(
                                [&n](std::string, const MoseSwitchRecord&) { ++n; }));
        }
        for (const std::string& path : {paths::LOSS + "Drop", paths::SWITCHER + "LossMonitor/Drop"})
        {
            uint64_t& n = count(path);
            Config::Connect(path,
                            Callback<void, std::string, MoseLossMonitor::Point, PacketPtr>(
                                [&n](std::string, MoseLossMonitor::Point, PacketPtr) { ++n; }));
        }
        {
            uint64_t& n = count(paths::TRANSFERS + "TransferCompleted");
            Config::Connect(paths::TRANSFERS + "TransferCompleted",
                            Callback<void, std::string, uint32_t, Time>(
                                [&n](std::string, uint32_t, Time) { ++n; }));
        }
        {
            uint64_t& n = count(paths::TRANSFERS + "TransferRx");
            Config::Connect(paths::TRANSFERS + "TransferRx",
                            Callback<void, std::string, uint32_t, uint32_t>(
                                [&n, out](std::string, uint32_t, uint32_t bytes) {
                                    ++n;
                                    out->rxBytes += bytes;
                                }));
        }

        // no route: one UDP packet from group 1 to an unassigned address of its own block
        Ptr<Node> node1 = topo->GetGroupNode(1);
        const Ipv4Address unassigned(topo->GetAddressing().GetGroupBlock(1).Get() + 250);
        Simulator::Schedule(MilliSeconds(3), [node1, unassigned] {
            Ptr<Socket> socket = Socket::CreateSocket(node1, UdpSocketFactory::GetTypeId());
            socket->Bind();
            socket->SendTo(Create<Packet>(100), 0, InetSocketAddress(unassigned, 9));
            socket->Close();
        });
        // rejected: connect two lit ports
        ocs->ScheduleConnect(MilliSeconds(2), 0, 0, 1, 1);
        // dark-port and wire drops: from 5 ms, cut the first circuit whose port has a queue
        // (its device is transmitting) for 1 ms; the routes still use it
        auto cut = std::make_shared<std::function<void()>>();
        *cut = [out, topo, ocs, self = std::weak_ptr<std::function<void()>>(cut)] {
            for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
            {
                for (uint32_t p = 0; p < topo->GetNPorts(); ++p)
                {
                    auto device = DynamicCast<PointToPointNetDevice>(topo->GetPortDevice(g, p));
                    const uint32_t peer = ocs->GetPeer(g, p);
                    if (device->GetQueue()->GetNPackets() > 0 && peer != MoseOcs::DARK)
                    {
                        const uint32_t d = topo->GetNPorts();
                        ocs->ScheduleDisconnect(Time(0), g, p);
                        ocs->ScheduleConnect(MilliSeconds(1), g, p, peer / d, peer % d);
                        ++out->disconnected;
                        return;
                    }
                }
            }
            if (Simulator::Now() < MilliSeconds(40))
            {
                Simulator::Schedule(MicroSeconds(100), [again = self.lock()] { (*again)(); });
            }
        };
        Simulator::Schedule(MilliSeconds(5), [cut] { (*cut)(); });
    };
    out->run = RunSwitchScenario(o);
    return *out;
}

/// A path's expected match and fire counts
struct ConfigPathExpected
{
    std::string path; //!< the path
    uint32_t matches; //!< objects it names
    uint64_t fires;   //!< calls of its sink
};

/**
 * \param r a run of RunConfigPathScenario()
 * \return every path it connected (all but TransferRx, checked by bytes) with the counts the
 *         run's own counters give (N = 16, d = 4: 16 protocols, 64 port channels; one OCS, table,
 *         loss monitor and switcher; two transfer monitors, one per mode interval)
 */
inline std::vector<ConfigPathExpected>
ExpectedConfigPathCounts(const ConfigPathRun& r)
{
    const SwitchRun& run = r.run;
    const MoseSwitchRecord rec = run.records.empty() ? MoseSwitchRecord() : run.records[0];
    const uint64_t released = run.holdEntered - run.holdDrops;
    auto it = r.counts.find(paths::TABLE + "RoutesRecomputed");
    const uint64_t recomputed = it == r.counts.end() ? 0 : it->second.fires;
    const uint32_t n = r.groups;
    return {
        // per group node, MoseRoutingProtocol (aggregated)
        {paths::PROTOCOL + "NoRouteDrop", n, run.noRouteDrops},
        {paths::PROTOCOL + "HoldDrop", n, run.holdDrops},
        {paths::PROTOCOL + "HoldRelease", n, released},
        // the route table, directly and through every protocol's RouteTable attribute
        {paths::TABLE + "RoutesRecomputed", 1, recomputed},
        {paths::PROTOCOL + "RouteTable/RoutesRecomputed", n, n * recomputed},
        // the OCS: the switch's circuits and the one cut by hand
        {paths::OCS + "CircuitConnected", 1, rec.added + 1},
        {paths::OCS + "CircuitDisconnected", 1, rec.removed + 1},
        {paths::OCS + "DarkPortDrop", 1, run.ocsDarkDrops},
        {paths::OCS + "WireDrop", 1, run.ocsWireDrops},
        {paths::OCS + "OperationRejected", 1, run.ocsRejected},
        // the OCS port channels: N * d of them
        {paths::CHANNEL + "DarkPortDrop", n * r.ports, run.ocsDarkDrops},
        {paths::CHANNEL + "WireDrop", n * r.ports, run.ocsWireDrops},
        // the switcher: one switch, K = 1
        {paths::SWITCHER + "SwitchStarted", 1, 1},
        {paths::SWITCHER + "BatchDrained", 1, 1},
        {paths::SWITCHER + "CircuitsDark", 1, 1},
        {paths::SWITCHER + "CircuitsRelinked", 1, 1},
        {paths::SWITCHER + "SwitchDone", 1, 1},
        // the loss monitor, directly and through the switcher's LossMonitor attribute
        {paths::LOSS + "Drop", 1, run.lost},
        {paths::SWITCHER + "LossMonitor/Drop", 1, run.lost},
        // the transfer monitors: one per mode interval
        {paths::TRANSFERS + "TransferCompleted", 2, run.completed},
    };
}

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_CONFIG_PATH_SCENARIO_H */
