/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-transfers.h"

#include "mose-ocs-channel.h"
#include "mose-rank-messages.h"

#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-socket.h"
#include "ns3/type-id.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <exception>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseSocketTransfers");
NS_OBJECT_ENSURE_REGISTERED(MoseSocketTransfers);

TypeId
MoseSocketTransfers::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseSocketTransfers")
            .SetParent<MoseTransport>()
            .SetGroupName("Mose")
            .AddConstructor<MoseSocketTransfers>()
            .AddAttribute("SocketFactory",
                          "The transport: a stream socket factory with listen and accept "
                          "(ns3::TcpSocketFactory)",
                          TypeIdValue(TcpSocketFactory::GetTypeId()),
                          MakeTypeIdAccessor(&MoseSocketTransfers::m_socketFactory),
                          MakeTypeIdChecker())
            .AddAttribute("TcpVariant",
                          "TcpL4Protocol::SocketType set on every endpoint (TCP only)",
                          TypeIdValue(TypeId::LookupByName("ns3::TcpCubic")),
                          MakeTypeIdAccessor(&MoseSocketTransfers::m_tcpVariant),
                          MakeTypeIdChecker())
            .AddAttribute("SendSize",
                          "Largest number of bytes per Send() call",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&MoseSocketTransfers::m_sendSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Port",
                          "The port every destination listens on",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&MoseSocketTransfers::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SegmentSize",
                          "TcpSocket SegmentSize of every socket (0: the TcpSocket default, 536); "
                          "Mtu - 52 fills an IPv4 packet of that MTU with timestamps on "
                          "(1448: MTU 1500)",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&MoseSocketTransfers::m_segmentSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BufferSize",
                          "TcpSocket SndBufSize and RcvBufSize of every socket (0: the TcpSocket "
                          "defaults, 128 KiB, which cap a connection at 128 KiB per round trip)",
                          UintegerValue(4194304),
                          MakeUintegerAccessor(&MoseSocketTransfers::m_bufferSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxSegLifetime",
                          "TcpSocketBase MaxSegLifetime of every socket in seconds (< 0: ns-3's "
                          "120 s). A closed connection stays in TIME_WAIT for twice this, and "
                          "ns-3 looks endpoints up linearly: with one connection per transfer, "
                          "thousands of TIME_WAIT endpoints per node slow every packet down",
                          DoubleValue(0.0005),
                          MakeDoubleAccessor(&MoseSocketTransfers::m_msl),
                          MakeDoubleChecker<double>())
            .AddAttribute("NoticeDelay",
                          "How long after a transfer's last byte the workload learns of it (its "
                          "callback and TransferDone run): 0 at once; above 0 the completions "
                          "of one time are handed on in transfer-id order. A run on several MPI "
                          "ranks needs it above the lookahead (the smallest link delay)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&MoseSocketTransfers::m_noticeDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("TransferDone",
                            "A transfer's completion was noticed (NoticeDelay after its last "
                            "byte arrived; the duration is to the last byte)",
                            MakeTraceSourceAccessor(&MoseSocketTransfers::m_doneTrace),
                            "ns3::MoseSocketTransfers::TransferDoneCallback");
    return tid;
}

MoseSocketTransfers::MoseSocketTransfers()
{
    NS_LOG_FUNCTION(this);
}

MoseSocketTransfers::~MoseSocketTransfers()
{
    NS_LOG_FUNCTION(this);
}

void
MoseSocketTransfers::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& s : m_listeners)
    {
        if (s)
        {
            s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                 MakeNullCallback<void, Ptr<Socket>, const Address&>());
        }
    }
    for (auto& s : m_senders)
    {
        if (s)
        {
            s->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            s->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                  MakeNullCallback<void, Ptr<Socket>>());
        }
    }
    for (auto& [s, id] : m_receivers)
    {
        s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
    for (auto& c : m_connections)
    {
        if (c.sender)
        {
            c.sender->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            c.sender->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                         MakeNullCallback<void, Ptr<Socket>>());
        }
    }
    for (auto& [s, c] : m_connectionReceivers)
    {
        s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
    m_connections.clear();
    m_connectionReceivers.clear();
    m_listeners.clear();
    m_senders.clear();
    m_receivers.clear();
    MoseTransport::DoDispose();
}

void
MoseSocketTransfers::Install(const std::vector<NodeContainer>& endpoints)
{
    NS_LOG_FUNCTION(this << endpoints.size());
    if (IsInstalled())
    {
        throw mose::Error("MoseSocketTransfers::Install was already called");
    }
    if (m_socketFactory == UdpSocketFactory::GetTypeId() ||
        !m_socketFactory.IsChildOf(SocketFactory::GetTypeId()))
    {
        mose::ThrowBadParameter("SocketFactory",
                                m_socketFactory.GetName(),
                                "a stream socket factory with listen and accept, e.g. "
                                "ns3::TcpSocketFactory (a lost UDP datagram would leave a "
                                "transfer the workload waits for incomplete)");
    }
    SetEndpoints(endpoints, "MoseSocketTransfers");
    const auto n = static_cast<uint32_t>(endpoints.size());
    m_addressOf.assign(n, {});
    for (uint32_t g = 0; g < n; ++g)
    {
        for (uint32_t h = 0; h < endpoints[g].GetN(); ++h)
        {
            Ptr<Node> node = endpoints[g].Get(h);
            const uint32_t number = GetEndpointNumber(g, h);
            const std::string which = DescribeEndpoint(g, h);
            Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
            if (!ipv4)
            {
                throw mose::Error(which + " has no IPv4 stack; install the Internet stack first");
            }
            bool any = false;
            for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
            {
                for (uint32_t a = 0; a < ipv4->GetNAddresses(i); ++a)
                {
                    const Ipv4Address address = ipv4->GetAddress(i, a).GetLocal();
                    if (!address.IsLocalhost() && address != Ipv4Address::GetAny())
                    {
                        m_groupOf[address] = g;
                        m_endpointOf[address] = number;
                        if (!any)
                        {
                            m_addressOf[g].push_back(address);
                        }
                        any = true;
                    }
                }
            }
            if (!any)
            {
                throw mose::Error(which + " has no IPv4 address");
            }
            if (m_socketFactory == TcpSocketFactory::GetTypeId())
            {
                if (Ptr<TcpL4Protocol> l4 = node->GetObject<TcpL4Protocol>())
                {
                    l4->SetAttribute("SocketType", TypeIdValue(m_tcpVariant));
                }
            }
            Ptr<Socket> listener = Socket::CreateSocket(node, m_socketFactory);
            ConfigureSocket(listener); // accepted sockets are forked from it
            if (listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0 ||
                listener->Listen() != 0)
            {
                throw mose::Error(which + " cannot listen on Port=" + std::to_string(m_port) +
                                  " (already in use?)");
            }
            listener->SetAcceptCallback(
                MakeCallback(&MoseSocketTransfers::AcceptRequest, this),
                MakeBoundCallback(
                    +[](MoseSocketTransfers* self,
                        uint32_t group,
                        Ptr<Socket> s,
                        const Address& from) { self->HandleAccept(group, s, from); },
                    this,
                    g));
            m_listeners.push_back(listener);
        }
    }
    RegisterRankMessages(
        MakeCallback(&MoseSocketTransfers::ReceiveMessage, Ptr<MoseSocketTransfers>(this)));
    SetInstalled();
}

bool
MoseSocketTransfers::IsLocal(uint32_t g) const
{
    return !IsDistributed() || MoseRankMessages::IsLocal(GetGroupEndpoint(g, 0));
}

uint32_t
MoseSocketTransfers::GetRankOf(uint32_t g) const
{
    return GetGroupEndpoint(g, 0)->GetSystemId();
}

void
MoseSocketTransfers::NotifyPort(Message kind,
                                uint32_t endpoint,
                                uint32_t dst,
                                uint16_t port,
                                uint64_t x)
{
    const std::pair<uint32_t, uint16_t> key{endpoint, port};
    if (IsLocal(dst))
    {
        (kind == TRANSFER_PORT ? m_pending : m_pendingConnections)[key] = x;
        return;
    }
    // the connection's first segment needs at least one link delay to reach dst: this message,
    // which arrives the lookahead after now, is there before it
    MoseRankMessages::Send(GetRankOf(dst),
                           GetRankHandler(),
                           MoseOcsChannel::GetDistributedLookAhead(),
                           {kind, (uint64_t{endpoint} << 16) | port, x});
}

void
MoseSocketTransfers::ReceiveMessage(uint64_t kind, uint64_t a, uint64_t b)
{
    NS_LOG_FUNCTION(this << kind << a << b);
    if (kind == TRANSFER_PORT || kind == CONNECTION_PORT)
    {
        const std::pair<uint32_t, uint16_t> key{static_cast<uint32_t>(a >> 16),
                                                static_cast<uint16_t>(a & 0xffff)};
        (kind == TRANSFER_PORT ? m_pending : m_pendingConnections)[key] = b;
        return;
    }
    if (kind == LAST_BYTE && a < GetNTransfers())
    {
        AddNotice(a, TimeStep(static_cast<int64_t>(b)));
        return;
    }
    CountError();
    NS_LOG_ERROR("a message from another rank of kind " << kind << " (" << a << ", " << b
                                                        << ") this object does not know");
}

void
MoseSocketTransfers::ConfigureSocket(Ptr<Socket> socket) const
{
    if (!DynamicCast<TcpSocket>(socket))
    {
        return;
    }
    if (m_segmentSize > 0)
    {
        socket->SetAttribute("SegmentSize", UintegerValue(m_segmentSize));
    }
    if (m_msl >= 0)
    {
        socket->SetAttribute("MaxSegLifetime", DoubleValue(m_msl));
    }
    if (m_bufferSize > 0)
    {
        socket->SetAttribute("SndBufSize", UintegerValue(m_bufferSize));
        socket->SetAttribute("RcvBufSize", UintegerValue(m_bufferSize));
    }
}

bool
MoseSocketTransfers::AcceptRequest(Ptr<Socket>, const Address&)
{
    return true;
}

uint64_t
MoseSocketTransfers::NewSocketTransfer(uint32_t src,
                                       uint32_t dst,
                                       uint64_t bytes,
                                       DoneCallback done,
                                       mose::TrafficClass cls,
                                       uint32_t rail)
{
    const uint64_t id = NewTransfer(src, dst, bytes, done, cls, rail, "MoseSocketTransfers");
    MoseTransfer& t = Record(id);
    t.dstAddress = m_addressOf[dst][t.dstHost];
    t.port = m_port;
    m_senders.push_back(nullptr);
    return id;
}

uint64_t
MoseSocketTransfers::Start(uint32_t src,
                           uint32_t dst,
                           uint64_t bytes,
                           DoneCallback done,
                           mose::TrafficClass cls,
                           uint32_t rail)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << rail);
    const uint64_t id = NewSocketTransfer(src, dst, bytes, done, cls, rail);
    if (!IsLocal(src))
    {
        return id; // the source's rank sends it
    }
    const uint32_t srcHost = Record(id).srcHost;
    Ptr<Socket> socket = Socket::CreateSocket(GetGroupEndpoint(src, srcHost), m_socketFactory);
    ConfigureSocket(socket);
    m_senders[id] = socket;
    ++m_nConnections;
    if (socket->Bind() != 0)
    {
        throw mose::Error("transfer " + std::to_string(id) + " " + std::to_string(src) + "->" +
                          std::to_string(dst) + ": no free port at the source");
    }
    Address local;
    socket->GetSockName(local);
    const uint16_t port = InetSocketAddress::ConvertFrom(local).GetPort();
    NotifyPort(TRANSFER_PORT, GetEndpointNumber(src, srcHost), dst, port, id);

    const Ipv4Address dstAddress = Record(id).dstAddress;
    socket->SetConnectCallback(MakeBoundCallback(
                                   +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket> s) {
                                       self->ConnectionSucceeded(i, s);
                                   },
                                   this,
                                   id),
                               MakeBoundCallback(
                                   +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket> s) {
                                       self->ConnectionFailed(i, s);
                                   },
                                   this,
                                   id));
    socket->SetSendCallback(MakeBoundCallback(
        +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket>, uint32_t) { self->SendMore(i); },
        this,
        id));
    socket->Connect(InetSocketAddress(dstAddress, m_port));
    NS_LOG_INFO("transfer " << id << ": " << src << "->" << dst << " " << bytes << " B from port "
                            << port);
    return id;
}

uint64_t
MoseSocketTransfers::StartOnConnection(uint32_t src,
                                       uint32_t dst,
                                       uint64_t bytes,
                                       DoneCallback done,
                                       mose::TrafficClass cls,
                                       uint32_t rail)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << rail);
    const uint64_t id = NewSocketTransfer(src, dst, bytes, done, cls, rail);
    const std::tuple<uint32_t, uint32_t, uint32_t, uint32_t> key{src,
                                                                 dst,
                                                                 Record(id).srcHost,
                                                                 Record(id).dstHost};
    uint64_t c = 0;
    const auto open = m_open.find(key);
    if (open == m_open.end())
    {
        c = m_connections.size();
        Connection conn;
        conn.src = src;
        conn.dst = dst;
        conn.srcHost = std::get<2>(key);
        conn.dstHost = std::get<3>(key);
        m_connections.push_back(conn);
        m_open[key] = c;
        OpenConnection(c);
    }
    else
    {
        c = open->second;
    }
    Connection& conn = m_connections[c];
    if (IsLocal(src))
    {
        conn.sendQueue.push_back(id);
    }
    if (IsLocal(dst))
    {
        conn.recvQueue.push_back(id);
    }
    NS_LOG_INFO("transfer " << id << ": " << src << "->" << dst << " " << bytes
                            << " B on connection " << c);
    if (conn.connected)
    {
        SendMoreOnConnection(c);
    }
    return id;
}

void
MoseSocketTransfers::OpenConnection(uint64_t c)
{
    Connection& conn = m_connections[c];
    if (!IsLocal(conn.src))
    {
        return; // the source's rank opens it
    }
    Ptr<Socket> socket =
        Socket::CreateSocket(GetGroupEndpoint(conn.src, conn.srcHost), m_socketFactory);
    ConfigureSocket(socket);
    conn.sender = socket;
    ++m_nConnections;
    if (socket->Bind() != 0)
    {
        throw mose::Error("connection " + std::to_string(conn.src) + "->" +
                          std::to_string(conn.dst) + ": no free port at the source");
    }
    Address local;
    socket->GetSockName(local);
    NotifyPort(CONNECTION_PORT,
               GetEndpointNumber(conn.src, conn.srcHost),
               conn.dst,
               InetSocketAddress::ConvertFrom(local).GetPort(),
               c);
    socket->SetConnectCallback(MakeBoundCallback(
                                   +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket>) {
                                       self->m_connections[i].connected = true;
                                       self->SendMoreOnConnection(i);
                                   },
                                   this,
                                   c),
                               MakeBoundCallback(
                                   +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket>) {
                                       self->CountError();
                                       NS_LOG_ERROR("connection " << i << " failed to connect");
                                   },
                                   this,
                                   c));
    socket->SetSendCallback(MakeBoundCallback(
        +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket>, uint32_t) {
            self->SendMoreOnConnection(i);
        },
        this,
        c));
    socket->Connect(InetSocketAddress(m_addressOf[conn.dst][conn.dstHost], m_port));
}

bool
MoseSocketTransfers::FillSocket(Ptr<Socket> socket, MoseTransfer& t)
{
    while (t.sent < t.bytes)
    {
        const uint64_t left = t.bytes - t.sent;
        const uint32_t room = socket->GetTxAvailable();
        const auto size =
            static_cast<uint32_t>(std::min<uint64_t>({left, uint64_t{m_sendSize}, room}));
        if (size == 0)
        {
            return false;
        }
        const int accepted = socket->Send(Create<Packet>(size));
        if (accepted <= 0)
        {
            return false;
        }
        t.sent += static_cast<uint64_t>(accepted);
    }
    return true;
}

void
MoseSocketTransfers::SendMoreOnConnection(uint64_t c)
{
    Connection& conn = m_connections[c];
    Ptr<Socket> socket = conn.sender;
    if (!socket || !conn.connected)
    {
        return;
    }
    while (!conn.sendQueue.empty())
    {
        if (!FillSocket(socket, Record(conn.sendQueue.front())))
        {
            return; // the send callback calls again when the buffer has room
        }
        conn.sendQueue.pop_front();
    }
    if (conn.closing)
    {
        socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        socket->Close();
        conn.sender = nullptr;
    }
}

uint32_t
MoseSocketTransfers::CloseConnections(const std::vector<uint32_t>& groups)
{
    NS_LOG_FUNCTION(this << groups.size());
    return EraseConnections(m_open, groups, [this](uint64_t c) {
        Connection& conn = m_connections[c];
        conn.closing = true;
        if (conn.connected && conn.sendQueue.empty() && conn.sender)
        {
            conn.sender->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            conn.sender->Close();
            conn.sender = nullptr;
        }
    });
}

uint64_t
MoseSocketTransfers::GetNConnections() const
{
    return m_nConnections;
}

void
MoseSocketTransfers::ConnectionSucceeded(uint64_t id, Ptr<Socket>)
{
    NS_LOG_FUNCTION(this << id);
    SendMore(id);
}

void
MoseSocketTransfers::ConnectionFailed(uint64_t id, Ptr<Socket>)
{
    NS_LOG_FUNCTION(this << id);
    CountError();
    NS_LOG_ERROR("transfer " << id << " failed to connect");
}

void
MoseSocketTransfers::SendMore(uint64_t id)
{
    MoseTransfer& t = Record(id);
    Ptr<Socket> socket = m_senders[id];
    if (!socket)
    {
        return;
    }
    if (!FillSocket(socket, t))
    {
        return; // the send callback calls again when the buffer has room
    }
    // everything is in the socket: close once it is sent (TCP sends its FIN after the data)
    socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    socket->Close();
    m_senders[id] = nullptr;
}

void
MoseSocketTransfers::HandleAccept(uint32_t group, Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << group << socket);
    const InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
    const auto g = m_groupOf.find(peer.GetIpv4());
    if (g == m_groupOf.end())
    {
        CountError();
        NS_LOG_ERROR("group " << group << " accepted a connection from an unknown address "
                              << peer.GetIpv4());
        return;
    }
    const uint32_t endpoint = m_endpointOf.at(peer.GetIpv4());
    const auto pc = m_pendingConnections.find({endpoint, peer.GetPort()});
    if (pc != m_pendingConnections.end())
    {
        const uint64_t c = pc->second;
        m_connectionReceivers[socket] = c;
        m_pendingConnections.erase(pc);
        // the connection's index bound into the callbacks: no look-up per segment received
        socket->SetRecvCallback(MakeBoundCallback(
            +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket> s) {
                self->ReadConnection(i, s);
            },
            this,
            c));
        const Callback<void, Ptr<Socket>> closed = MakeBoundCallback(
            +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket> s) {
                self->ReadConnection(i, s);
                self->m_connectionReceivers.erase(s);
                self->PeerClosed(s);
            },
            this,
            c);
        socket->SetCloseCallbacks(closed, closed);
        ReadConnection(c, socket);
        return;
    }
    const auto p = m_pending.find({endpoint, peer.GetPort()});
    if (p == m_pending.end())
    {
        CountError();
        NS_LOG_ERROR("group " << group << " accepted a connection of no transfer from group "
                              << g->second << " port " << peer.GetPort());
        return;
    }
    const uint64_t id = p->second;
    m_receivers[socket] = id;
    m_pending.erase(p);
    socket->SetRecvCallback(MakeBoundCallback(
        +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket> s) { self->ReadTransfer(i, s); },
        this,
        id));
    const Callback<void, Ptr<Socket>> closed = MakeBoundCallback(
        +[](MoseSocketTransfers* self, uint64_t i, Ptr<Socket> s) {
            self->ReadTransfer(i, s);
            self->m_receivers.erase(s);
            self->PeerClosed(s);
        },
        this,
        id);
    socket->SetCloseCallbacks(closed, closed);
    ReadTransfer(id, socket); // anything already there
}

uint64_t
MoseSocketTransfers::DrainSocket(Ptr<Socket> socket)
{
    uint64_t got = 0;
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        got += packet->GetSize();
    }
    return got;
}

void
MoseSocketTransfers::ReadTransfer(uint64_t id, Ptr<Socket> socket)
{
    const uint64_t got = DrainSocket(socket);
    if (got > 0)
    {
        AddReceived(id, got);
    }
}

void
MoseSocketTransfers::ReadConnection(uint64_t c, Ptr<Socket> socket)
{
    // a kept connection: its bytes belong to its transfers in the order they were started
    uint64_t got = DrainSocket(socket);
    while (got > 0)
    {
        IdQueue& queue = m_connections[c].recvQueue;
        if (queue.empty())
        {
            CountError();
            NS_LOG_ERROR("connection " << c << " received " << got << " bytes of no transfer");
            return;
        }
        const uint64_t id = queue.front();
        const MoseTransfer& t = Record(id);
        const uint64_t part = std::min(got, t.bytes - t.received);
        got -= part;
        if (t.received + part >= t.bytes)
        {
            queue.pop_front(); // before the callback, which may start the next transfer
        }
        AddReceived(id, part);
    }
}

void
MoseSocketTransfers::AddReceived(uint64_t id, uint64_t got)
{
    MoseTransfer& t = Record(id);
    const bool short_ = t.received < t.bytes;
    t.received += got;
    CountReceived(t, got);
    if (short_ && t.received >= t.bytes)
    {
        if (t.received > t.bytes)
        {
            CountError();
            NS_LOG_ERROR("transfer " << id << " received " << t.received << " of " << t.bytes
                                     << " bytes");
        }
        LastByte(id);
    }
}

void
MoseSocketTransfers::LastByte(uint64_t id)
{
    NoticeLastByte(id, LAST_BYTE, "MoseSocketTransfers");
}

void
MoseSocketTransfers::PeerClosed(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    socket->Close();
}

} // namespace ns3
