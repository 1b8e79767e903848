/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-pfc.h"

#include "mose-object-list.h"
#include "mose-ocs.h"
#include "mose-rank-messages.h"
#include "mose-routing-protocol.h"
#include "mose-scale.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MosePfc");

NS_OBJECT_ENSURE_REGISTERED(MosePfcIngressTag);
NS_OBJECT_ENSURE_REGISTERED(MosePfc);

TypeId
MosePfcIngressTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MosePfcIngressTag")
                            .SetParent<Tag>()
                            .SetGroupName("Mose")
                            .AddConstructor<MosePfcIngressTag>();
    return tid;
}

TypeId
MosePfcIngressTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MosePfcIngressTag::GetSerializedSize() const
{
    return 8;
}

void
MosePfcIngressTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU32(node);
    buffer.WriteU32(ifIndex);
}

void
MosePfcIngressTag::Deserialize(TagBuffer buffer)
{
    node = buffer.ReadU32();
    ifIndex = buffer.ReadU32();
}

void
MosePfcIngressTag::Print(std::ostream& os) const
{
    os << "node=" << node << " ingress=" << ifIndex;
}

TypeId
MosePfc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MosePfc")
            .SetParent<Object>()
            .SetGroupName("Mose")
            .AddConstructor<MosePfc>()
            .AddAttribute("Enabled",
                          "Whether Install() installs PFC (false: it does nothing)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MosePfc::m_enabled),
                          MakeBooleanChecker())
            .AddAttribute("BufferBytes",
                          "The buffer of one ingress of a switch, bytes: XOFF plus the headroom "
                          "must fit in it, and it times the node's ingresses (its devices and its "
                          "NIC) in its smallest egress queue disc. 0: that disc's capacity divided "
                          "by the ingresses (a packet-counting disc holds MaxSize x MTU bytes)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MosePfc::m_buffer),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XoffBytes",
                          "Bytes of an ingress in the node's egress queues above which it "
                          "pauses its sender. 0: BufferBytes minus the ingress's headroom",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MosePfc::m_xoff),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonBytes",
                          "Bytes at or below which a paused ingress resumes its sender, at most "
                          "XOFF. 0: XOFF minus two frames of the device's MTU (half of XOFF if "
                          "that is smaller)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MosePfc::m_xon),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("StormTimeout",
                          "A port paused longer than this is counted and traced as a PFC storm "
                          "or deadlock (\"Storm\"); multiplied by MoseScale, as the transport's "
                          "timers are",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&MosePfc::m_stormTimeout),
                          MakeTimeChecker())
            .AddTraceSource("PauseSent",
                            "A switch's ingress crossed XOFF and sent a pause (node, device)",
                            MakeTraceSourceAccessor(&MosePfc::m_pauseSentTrace),
                            "ns3::MosePfc::PortCallback")
            .AddTraceSource("PauseReceived",
                            "A pause arrived at a device (node, device)",
                            MakeTraceSourceAccessor(&MosePfc::m_pauseReceivedTrace),
                            "ns3::MosePfc::PortCallback")
            .AddTraceSource("Resume",
                            "A paused device resumed: a resume arrived, or its circuit went dark "
                            "(node, device)",
                            MakeTraceSourceAccessor(&MosePfc::m_resumeTrace),
                            "ns3::MosePfc::PortCallback")
            .AddTraceSource("Storm",
                            "A device has been paused for StormTimeout (node, device, time paused)",
                            MakeTraceSourceAccessor(&MosePfc::m_stormTrace),
                            "ns3::MosePfc::StormCallback");
    return tid;
}

MosePfc::MosePfc()
{
    NS_LOG_FUNCTION(this);
}

MosePfc::~MosePfc()
{
    NS_LOG_FUNCTION(this);
}

void
MosePfc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (NodeState& n : m_nodes)
    {
        for (Egress& e : n.egress)
        {
            e.watchdog.Cancel();
        }
    }
    m_nodes.clear();
    m_nodeIndex.clear();
    m_listeners.clear();
    if (m_distributed)
    {
        MoseRankMessages::Unregister(m_rankHandler);
        m_distributed = false;
    }
    Object::DoDispose();
}

void
MosePfc::Install(const NodeContainer& switches, const NodeContainer& hosts)
{
    NS_LOG_FUNCTION(this);
    if (!m_enabled)
    {
        return;
    }
    if (m_installed)
    {
        throw mose::Error("MosePfc::Install was already called");
    }
    if (!m_stormTimeout.IsStrictlyPositive())
    {
        mose::ThrowBadParameter("ns3::MosePfc::StormTimeout",
                                std::to_string(m_stormTimeout.GetNanoSeconds()) + " ns",
                                "a time above 0");
    }
    if (m_xoff != 0 && m_xon > m_xoff)
    {
        mose::ThrowBadParameter("ns3::MosePfc::XonBytes",
                                std::to_string(m_xon),
                                "at most ns3::MosePfc::XoffBytes = " + std::to_string(m_xoff) +
                                    " (resume below the pause threshold)");
    }
    m_scaledStorm = m_stormTimeout * static_cast<int64_t>(MoseScale::Get());
    auto add = [this](Ptr<Node> node, bool forwards) {
        if (m_nodeIndex.count(node->GetId()) != 0)
        {
            throw mose::Error("MosePfc::Install: node " + std::to_string(node->GetId()) +
                              " is given twice");
        }
        m_nodeIndex[node->GetId()] = static_cast<uint32_t>(m_nodes.size());
        NodeState n;
        n.node = node;
        n.forwards = forwards;
        m_nodes.push_back(std::move(n));
    };
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        add(switches.Get(i), true);
    }
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        add(hosts.Get(i), false);
    }
    for (uint32_t k = 0; k < m_nodes.size(); ++k)
    {
        NodeState& n = m_nodes[k];
        n.egress.resize(n.node->GetNDevices());
        n.ingress.resize(n.node->GetNDevices() + 1); // the last: the node's NIC
        for (uint32_t i = 0; i < n.node->GetNDevices(); ++i)
        {
            HookDevice(k, n, i);
        }
        if (n.forwards)
        {
            SetThresholds(n);
            HookHoldQueue(k);
        }
    }
    // a pause to another rank's node is a message to that rank (SendPause())
    m_distributed = MoseRankMessages::IsDistributed();
    if (m_distributed)
    {
        m_rankHandler = MoseRankMessages::Register(
            MakeCallback(&MosePfc::ReceiveRankMessage, Ptr<MosePfc>(this)));
    }
    MoseObjectList::Add(MoseObjectList::PFC, this); // /MosePfcList/[i]
    m_installed = true;
}

void
MosePfc::HookDevice(uint32_t k, NodeState& n, uint32_t i)
{
    Ptr<NetDevice> device = n.node->GetDevice(i);
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device);
    if (!p2p)
    {
        return; // the loopback: nothing to pause
    }
    const std::string which =
        "device " + std::to_string(i) + " of node " + std::to_string(n.node->GetId());
    Ptr<TrafficControlLayer> tc = n.node->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
    Ptr<NetDeviceQueueInterface> ndqi = device->GetObject<NetDeviceQueueInterface>();
    if (!disc || !ndqi)
    {
        throw mose::Error("MosePfc::Install: " + which +
                          " has no root queue disc or no device queue interface: PFC pauses a "
                          "port by stopping its queue disc (MoseTopologyHelper::DefaultQueueDisc "
                          "true installs one on every port and host link)");
    }
    QueueSizeValue size;
    if (!disc->GetAttributeFailSafe("MaxSize", size))
    {
        throw mose::Error("MosePfc::Install: the queue disc " +
                          disc->GetInstanceTypeId().GetName() + " of " + which +
                          " has no MaxSize, so PFC cannot size its buffer");
    }
    Egress& e = n.egress[i];
    e.device = device;
    e.disc = disc;
    e.txq = ndqi->GetTxQueue(0);
    e.devQueue = p2p->GetQueue();
    if (size.Get().GetUnit() == QueueSizeUnit::PACKETS)
    {
        e.cell = device->GetMtu(); // a packet takes a cell of the MTU, whatever its size
        e.capacity = size.Get().GetValue() * e.cell;
    }
    else
    {
        e.capacity = size.Get().GetValue();
    }
    // the device lets a packet go (and wakes its queue disc when its queue has room): a paused
    // port is stopped again at once. Connected after NetDeviceQueue::ConnectQueueTraces, so it
    // runs after the wake-up, and the disc's Run() that the wake-up scheduled finds it stopped
    if (e.devQueue)
    {
        auto again = MakeBoundCallback(
            +[](MosePfc* self, uint32_t kk, uint32_t ii, Ptr<const Packet>) {
                self->DeviceDequeued(kk, ii);
            },
            this,
            k,
            i);
        e.devQueue->TraceConnectWithoutContext("Dequeue", again);
        e.devQueue->TraceConnectWithoutContext("DropAfterDequeue", again);
    }
    if (!n.forwards)
    {
        return;
    }
    n.ingress[i].device = device;
    device->TraceConnectWithoutContext(
        "PhyRxEnd",
        MakeBoundCallback(
            +[](MosePfc* self, uint32_t kk, uint32_t ii, Ptr<const Packet> p) {
                self->Received(kk, ii, p);
            },
            this,
            k,
            i));
    auto in = MakeBoundCallback(
        +[](MosePfc* self, uint32_t kk, uint32_t ii, Ptr<const QueueDiscItem> item) {
            self->Enqueued(kk, ii, item);
        },
        this,
        k,
        i);
    auto out = MakeBoundCallback(
        +[](MosePfc* self, uint32_t kk, uint32_t ii, Ptr<const QueueDiscItem> item) {
            self->Dequeued(kk, ii, item);
        },
        this,
        k,
        i);
    disc->TraceConnectWithoutContext("Enqueue", in);
    disc->TraceConnectWithoutContext("Dequeue", out);
    disc->TraceConnectWithoutContext("DropAfterDequeue",
                                     MakeBoundCallback(
                                         +[](MosePfc* self,
                                             uint32_t kk,
                                             uint32_t ii,
                                             Ptr<const QueueDiscItem> item,
                                             const char*) { self->Dequeued(kk, ii, item); },
                                         this,
                                         k,
                                         i));
    disc->TraceConnectWithoutContext(
        "Requeue",
        MakeBoundCallback(
            +[](MosePfc* self, uint32_t kk, uint32_t ii, Ptr<const QueueDiscItem> item) {
                self->Requeued(kk, ii, item);
            },
            this,
            k,
            i));
}

void
MosePfc::SetThresholds(NodeState& n)
{
    uint64_t smallest = 0;
    uint32_t ingresses = 1; // the NIC
    for (const Egress& e : n.egress)
    {
        if (e.device)
        {
            smallest = ingresses == 1 ? e.capacity : std::min(smallest, e.capacity);
            ++ingresses;
        }
    }
    const std::string node = "node " + std::to_string(n.node->GetId());
    const uint64_t share = smallest / ingresses;
    if (m_buffer != 0 && m_buffer > share)
    {
        mose::ThrowBadParameter("ns3::MosePfc::BufferBytes",
                                std::to_string(m_buffer),
                                "at most " + std::to_string(share) + " at " + node + " (its " +
                                    std::to_string(ingresses) +
                                    " ingresses, devices and NIC, in its smallest egress queue "
                                    "disc of " +
                                    std::to_string(smallest) +
                                    " bytes), or 0 for that share; a larger buffer can overflow "
                                    "the disc");
    }
    const uint64_t buffer = m_buffer != 0 ? m_buffer : share;
    for (uint32_t i = 0; i < n.ingress.size(); ++i)
    {
        Ingress& in = n.ingress[i];
        const bool nic = i + 1 == n.ingress.size();
        if (!nic && !in.device)
        {
            continue;
        }
        uint64_t frame = 0;
        for (const Egress& e : n.egress)
        {
            if (e.device)
            {
                frame = std::max<uint64_t>(frame, e.device->GetMtu() + 2); // PPP's header
            }
        }
        const std::string which =
            nic ? "the NIC of " + node : "device " + std::to_string(i) + " of " + node;
        std::string rule;
        if (nic)
        {
            // the NIC hears of the pause at once: only the frame it is making arrives after
            in.headroom = frame;
            rule = "one frame: the NIC stops at once";
        }
        else
        {
            DataRateValue rate;
            in.device->GetAttribute("DataRate", rate);
            TimeValue delay;
            in.device->GetChannel()->GetAttribute("Delay", delay);
            in.frameDelay = delay.Get() + rate.Get().CalculateBytesTxTime(PAUSE_FRAME_BYTES);
            const double wire =
                2.0 * delay.Get().GetSeconds() * static_cast<double>(rate.Get().GetBitRate()) / 8;
            in.headroom = static_cast<uint64_t>(std::ceil(wire)) + PAUSE_FRAME_BYTES + 3 * frame;
            rule = "2 x delay x rate + a 64-byte pause + 3 frames of " + std::to_string(frame) +
                   " bytes";
        }
        if (m_xoff == 0 && buffer <= in.headroom)
        {
            mose::ThrowBadParameter(
                "ns3::MosePfc::BufferBytes",
                std::to_string(buffer) + (m_buffer == 0 ? " (derived: the disc's share)" : ""),
                "above the headroom " + std::to_string(in.headroom) + " bytes of " + which + " (" +
                    rule + "); give a larger queue disc MaxSize or BufferBytes");
        }
        if (m_xoff != 0 && m_xoff + in.headroom > buffer)
        {
            mose::ThrowBadParameter("ns3::MosePfc::XoffBytes",
                                    std::to_string(m_xoff),
                                    "at most BufferBytes " + std::to_string(buffer) +
                                        " minus the headroom " + std::to_string(in.headroom) +
                                        " bytes of " + which + " (" + rule + ")");
        }
        in.xoff = m_xoff != 0 ? m_xoff : buffer - in.headroom;
        if (m_xon != 0 && m_xon > in.xoff)
        {
            mose::ThrowBadParameter("ns3::MosePfc::XonBytes",
                                    std::to_string(m_xon),
                                    "at most XOFF = " + std::to_string(in.xoff) + " bytes of " +
                                        which);
        }
        in.xon = m_xon != 0 ? m_xon : (in.xoff > 2 * frame ? in.xoff - 2 * frame : in.xoff / 2);
        NS_LOG_INFO(which << ": XOFF " << in.xoff << ", XON " << in.xon << ", headroom "
                          << in.headroom << ", buffer " << buffer);
    }
}

void
MosePfc::ConnectOcs(Ptr<MoseOcs> ocs)
{
    NS_LOG_FUNCTION(this << ocs);
    if (!m_installed)
    {
        return;
    }
    // the OCS is bound as a plain pointer: a Ptr bound into its own trace source would hold
    // it (and through its channels the fabric's devices and nodes) after Simulator::Destroy()
    for (bool lit : {false, true})
    {
        ocs->TraceConnectWithoutContext(
            lit ? "CircuitConnected" : "CircuitDisconnected",
            MakeBoundCallback(
                +[](MosePfc* self,
                    MoseOcs* o,
                    bool l,
                    uint32_t ga,
                    uint32_t pa,
                    uint32_t gb,
                    uint32_t pb) { self->CircuitChanged(Ptr<MoseOcs>(o), l, ga, pa, gb, pb); },
                this,
                PeekPointer(ocs),
                lit));
    }
}

void
MosePfc::AddPauseListener(PauseListener listener)
{
    m_listeners.push_back(listener);
}

bool
MosePfc::IsInstalled() const
{
    return m_installed;
}

void
MosePfc::Received(uint32_t k, uint32_t i, Ptr<const Packet> packet)
{
    MosePfcIngressTag tag;
    if (packet->PeekPacketTag(tag))
    {
        return; // left by a device PFC does not manage: counted as the NIC's
    }
    tag.node = m_nodes[k].node->GetId();
    tag.ifIndex = i;
    packet->AddPacketTag(tag); // const: tags are not the packet's bytes
}

void
MosePfc::HookHoldQueue(uint32_t k)
{
    NodeState& n = m_nodes[k];
    Ptr<MoseRoutingProtocol> routing = MoseRoutingProtocol::Find(n.node);
    if (!routing)
    {
        return; // another routing protocol: nothing is held
    }
    for (const Egress& e : n.egress)
    {
        n.holdCell = std::max(n.holdCell, e.cell); // a held packet may leave by any port
    }
    routing->SetHoldReleaseFilter(MakeBoundCallback(
        +[](MosePfc* self, uint32_t kk, Ptr<const Packet> p, const Ipv4Header& header) {
            return self->MayRelease(kk, p, header);
        },
        this,
        k));
}

bool
MosePfc::MayRelease(uint32_t k, Ptr<const Packet> packet, const Ipv4Header& header) const
{
    if (m_nodes.empty())
    {
        return true; // disposed
    }
    const NodeState& n = m_nodes[k];
    // the size it will have in an egress queue disc (Ipv4QueueDiscItem: with its header)
    const uint64_t bytes =
        n.holdCell != 0 ? n.holdCell : packet->GetSize() + header.GetSerializedSize();
    const Ingress& in = n.ingress[IngressIndex(k, packet)];
    return in.bytes + bytes <= in.xoff;
}

uint32_t
MosePfc::IngressIndex(uint32_t k, Ptr<const Packet> packet) const
{
    const NodeState& n = m_nodes[k];
    const auto nic = static_cast<uint32_t>(n.ingress.size() - 1);
    MosePfcIngressTag tag;
    if (packet->PeekPacketTag(tag) && tag.node == n.node->GetId() && tag.ifIndex < nic &&
        n.ingress[tag.ifIndex].device)
    {
        return tag.ifIndex;
    }
    return nic;
}

void
MosePfc::Enqueued(uint32_t k, uint32_t i, Ptr<const QueueDiscItem> item)
{
    const uint64_t cell = m_nodes[k].egress[i].cell;
    Count(k,
          IngressIndex(k, item->GetPacket()),
          static_cast<int64_t>(cell != 0 ? cell : item->GetSize()));
}

void
MosePfc::Dequeued(uint32_t k, uint32_t i, Ptr<const QueueDiscItem> item)
{
    NodeState& n = m_nodes[k];
    MosePfcIngressTag tag;
    uint32_t j = static_cast<uint32_t>(n.ingress.size() - 1);
    // removed here: the next node tags it with its own ingress
    if (item->GetPacket()->RemovePacketTag(tag) && tag.node == n.node->GetId() && tag.ifIndex < j &&
        n.ingress[tag.ifIndex].device)
    {
        j = tag.ifIndex;
    }
    Egress& e = n.egress[i];
    e.last = item;
    e.lastIngress = j;
    const uint64_t cell = e.cell;
    Count(k, j, -static_cast<int64_t>(cell != 0 ? cell : item->GetSize()));
}

void
MosePfc::Requeued(uint32_t k, uint32_t i, Ptr<const QueueDiscItem> item)
{
    NodeState& n = m_nodes[k];
    Egress& e = n.egress[i];
    uint32_t j = static_cast<uint32_t>(n.ingress.size() - 1);
    if (item == e.last)
    {
        j = e.lastIngress;
        if (n.ingress[j].device)
        {
            MosePfcIngressTag tag;
            tag.node = n.node->GetId();
            tag.ifIndex = j;
            item->GetPacket()->AddPacketTag(tag);
        }
    }
    const uint64_t cell = e.cell;
    Count(k, j, static_cast<int64_t>(cell != 0 ? cell : item->GetSize()));
}

void
MosePfc::Count(uint32_t k, uint32_t j, int64_t bytes)
{
    Ingress& in = m_nodes[k].ingress[j];
    if (bytes >= 0)
    {
        in.bytes += static_cast<uint64_t>(bytes);
        in.peak = std::max(in.peak, in.bytes);
    }
    else
    {
        const auto taken = static_cast<uint64_t>(-bytes);
        in.bytes = in.bytes > taken ? in.bytes - taken : 0;
    }
    if (!in.pausing && in.bytes > in.xoff)
    {
        in.pausing = true;
        SendPause(k, j, true);
    }
    else if (in.pausing && in.bytes <= in.xon)
    {
        in.pausing = false;
        SendPause(k, j, false);
    }
}

void
MosePfc::SendPause(uint32_t k, uint32_t j, bool pause)
{
    NodeState& n = m_nodes[k];
    Ingress& in = n.ingress[j];
    if (!in.device)
    {
        // the node's own NIC: it stops sending at once
        m_nicPauses += pause ? 1 : 0;
        Notify(n.node, nullptr, pause);
        return;
    }
    if (pause)
    {
        ++in.pausesSent;
        ++m_pausesSent;
        m_pauseSentTrace(n.node->GetId(), j);
    }
    Ptr<NetDevice> peer = Peer(in.device);
    if (!peer)
    {
        m_pausesLost += pause ? 1 : 0; // a dark port: the next circuit is paused when lit
        return;
    }
    NS_LOG_LOGIC((pause ? "pause" : "resume") << " from node " << n.node->GetId() << " device " << j
                                              << " to node " << peer->GetNode()->GetId());
    if (m_distributed && !MoseRankMessages::IsLocal(peer->GetNode()))
    {
        // the frame crosses ranks: a message of the same delay (at least the lookahead, the
        // smallest delay of a link between ranks)
        auto key = [](Ptr<NetDevice> d) {
            return (uint64_t{d->GetNode()->GetId()} << 32) | d->GetIfIndex();
        };
        try
        {
            MoseRankMessages::Send(peer->GetNode()->GetSystemId(),
                                   m_rankHandler,
                                   in.frameDelay,
                                   {pause ? 1U : 0U, key(in.device), key(peer)});
        }
        catch (const std::exception& e)
        {
            // no exception may escape Simulator::Run() (this runs in a packet's event)
            ++m_errors;
            NS_LOG_ERROR("a pause to node " << peer->GetNode()->GetId() << ": " << e.what());
        }
        return;
    }
    Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                   in.frameDelay,
                                   &MosePfc::PauseArrives,
                                   this,
                                   in.device,
                                   peer,
                                   pause);
}

void
MosePfc::ReceiveRankMessage(uint64_t pause, uint64_t from, uint64_t to)
{
    NS_LOG_FUNCTION(this << pause << from << to);
    auto device = [](uint64_t key) -> Ptr<NetDevice> {
        const auto id = static_cast<uint32_t>(key >> 32);
        const auto index = static_cast<uint32_t>(key & 0xffffffffU);
        if (id >= NodeList::GetNNodes() || index >= NodeList::GetNode(id)->GetNDevices())
        {
            return nullptr;
        }
        return NodeList::GetNode(id)->GetDevice(index);
    };
    Ptr<NetDevice> f = device(from);
    Ptr<NetDevice> t = device(to);
    if (!f || !t || pause > 1)
    {
        ++m_errors;
        NS_LOG_ERROR("a pause message from another rank names no device (" << from << ", " << to
                                                                           << ")");
        return;
    }
    PauseArrives(f, t, pause == 1);
}

void
MosePfc::PauseArrives(Ptr<NetDevice> from, Ptr<NetDevice> to, bool pause)
{
    if (m_nodes.empty())
    {
        return; // disposed
    }
    if (Peer(to) != from)
    {
        m_pausesLost += pause ? 1 : 0; // the circuit changed while the frame was on it
        return;
    }
    const auto it = m_nodeIndex.find(to->GetNode()->GetId());
    const uint32_t i = to->GetIfIndex();
    if (it == m_nodeIndex.end() || !m_nodes[it->second].egress[i].device)
    {
        return; // a device PFC does not manage ignores pauses
    }
    Egress& e = m_nodes[it->second].egress[i];
    if (pause)
    {
        m_pauseReceivedTrace(to->GetNode()->GetId(), i);
        if (!e.paused)
        {
            ++e.pausesReceived;
            ++m_pausesReceived;
            Pause(it->second, i);
        }
    }
    else if (e.paused)
    {
        Resume(it->second, i);
    }
}

void
MosePfc::Pause(uint32_t k, uint32_t i)
{
    NodeState& n = m_nodes[k];
    Egress& e = n.egress[i];
    e.paused = true;
    e.since = Simulator::Now();
    e.txq->Stop();
    e.watchdog = Simulator::Schedule(m_scaledStorm, &MosePfc::Storm, this, k, i);
    Notify(n.node, e.device, true);
}

void
MosePfc::Resume(uint32_t k, uint32_t i)
{
    NodeState& n = m_nodes[k];
    Egress& e = n.egress[i];
    e.paused = false;
    const Time paused = Simulator::Now() - e.since;
    e.pausedTime += paused;
    m_longest = std::max(m_longest, paused);
    e.watchdog.Cancel();
    m_resumeTrace(n.node->GetId(), i);
    Notify(n.node, e.device, false);
    // a full device queue wakes the disc itself when it lets its packet go
    if (!e.devQueue || !e.devQueue->WouldOverflow(1, e.device->GetMtu()))
    {
        e.txq->Wake(); // schedules the disc's Run()
    }
}

void
MosePfc::DeviceDequeued(uint32_t k, uint32_t i)
{
    Egress& e = m_nodes[k].egress[i];
    if (e.paused)
    {
        e.txq->Stop();
    }
}

void
MosePfc::Storm(uint32_t k, uint32_t i)
{
    NodeState& n = m_nodes[k];
    Egress& e = n.egress[i];
    if (!e.paused)
    {
        return;
    }
    ++m_storms;
    const Time paused = Simulator::Now() - e.since;
    NS_LOG_WARN("PFC storm: device " << i << " of node " << n.node->GetId() << " paused for "
                                     << paused.As(Time::US));
    m_stormTrace(n.node->GetId(), i, paused);
}

void
MosePfc::CircuitChanged(Ptr<MoseOcs> ocs,
                        bool lit,
                        uint32_t ga,
                        uint32_t pa,
                        uint32_t gb,
                        uint32_t pb)
{
    for (const auto& [g, p] : {std::make_pair(ga, pa), std::make_pair(gb, pb)})
    {
        Ptr<NetDevice> device = ocs->GetDevice(g, p);
        if (!device)
        {
            continue;
        }
        const auto it = m_nodeIndex.find(device->GetNode()->GetId());
        if (it == m_nodeIndex.end())
        {
            continue;
        }
        const uint32_t k = it->second;
        const uint32_t i = device->GetIfIndex();
        NodeState& n = m_nodes[k];
        if (!lit && n.egress[i].paused)
        {
            Resume(k, i); // its pause came from a peer it no longer has
        }
        if (lit && n.forwards && n.ingress[i].pausing)
        {
            SendPause(k, i, true); // still above XON: the new peer waits too
        }
    }
}

void
MosePfc::Notify(Ptr<Node> node, Ptr<NetDevice> device, bool paused)
{
    for (PauseListener& l : m_listeners)
    {
        l(node, device, paused);
    }
}

Ptr<NetDevice>
MosePfc::Peer(Ptr<NetDevice> device)
{
    Ptr<Channel> channel = device->GetChannel();
    if (!channel || channel->GetNDevices() != 2)
    {
        return nullptr;
    }
    Ptr<NetDevice> a = channel->GetDevice(0);
    return a == device ? channel->GetDevice(1) : a;
}

const MosePfc::NodeState*
MosePfc::Find(Ptr<NetDevice> device) const
{
    if (!device || !device->GetNode())
    {
        return nullptr;
    }
    const auto it = m_nodeIndex.find(device->GetNode()->GetId());
    return it == m_nodeIndex.end() ? nullptr : &m_nodes[it->second];
}

const MosePfc::Egress&
MosePfc::EgressOf(Ptr<NetDevice> device) const
{
    const NodeState* n = Find(device);
    if (!n || device->GetIfIndex() >= n->egress.size() || !n->egress[device->GetIfIndex()].device)
    {
        throw mose::Error("MosePfc: the device is not one Install() manages");
    }
    return n->egress[device->GetIfIndex()];
}

const MosePfc::Ingress&
MosePfc::IngressOf(Ptr<NetDevice> device) const
{
    const NodeState* n = Find(device);
    if (!n || !n->forwards || device->GetIfIndex() + 1 >= n->ingress.size() ||
        !n->ingress[device->GetIfIndex()].device)
    {
        throw mose::Error("MosePfc: the device is not a switch's device Install() manages");
    }
    return n->ingress[device->GetIfIndex()];
}

uint64_t
MosePfc::GetNPausesSent() const
{
    return m_pausesSent;
}

uint64_t
MosePfc::GetNPausesReceived() const
{
    return m_pausesReceived;
}

uint64_t
MosePfc::GetNNicPauses() const
{
    return m_nicPauses;
}

uint64_t
MosePfc::GetNPausesLost() const
{
    return m_pausesLost;
}

uint64_t
MosePfc::GetNStorms() const
{
    return m_storms;
}

uint64_t
MosePfc::GetNErrors() const
{
    return m_errors;
}

Time
MosePfc::GetPausedTime() const
{
    Time total;
    for (const NodeState& n : m_nodes)
    {
        for (const Egress& e : n.egress)
        {
            total += e.pausedTime + (e.paused ? Simulator::Now() - e.since : Time(0));
        }
    }
    return total;
}

Time
MosePfc::GetLongestPause() const
{
    Time longest = m_longest;
    for (const NodeState& n : m_nodes)
    {
        for (const Egress& e : n.egress)
        {
            if (e.paused)
            {
                longest = std::max(longest, Simulator::Now() - e.since);
            }
        }
    }
    return longest;
}

uint64_t
MosePfc::GetNPausesSent(Ptr<NetDevice> device) const
{
    return IngressOf(device).pausesSent;
}

uint64_t
MosePfc::GetNPausesReceived(Ptr<NetDevice> device) const
{
    return EgressOf(device).pausesReceived;
}

Time
MosePfc::GetPausedTime(Ptr<NetDevice> device) const
{
    const Egress& e = EgressOf(device);
    return e.pausedTime + (e.paused ? Simulator::Now() - e.since : Time(0));
}

bool
MosePfc::IsPaused(Ptr<NetDevice> device) const
{
    return EgressOf(device).paused;
}

uint64_t
MosePfc::GetXoff(Ptr<NetDevice> device) const
{
    return IngressOf(device).xoff;
}

uint64_t
MosePfc::GetXon(Ptr<NetDevice> device) const
{
    return IngressOf(device).xon;
}

uint64_t
MosePfc::GetHeadroom(Ptr<NetDevice> device) const
{
    return IngressOf(device).headroom;
}

uint64_t
MosePfc::GetPeakIngressBytes(Ptr<NetDevice> device) const
{
    return IngressOf(device).peak;
}

} // namespace ns3
