/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-transport.h"

#include "mose-ocs-channel.h"
#include "mose-rank-messages.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <exception>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseTransport");
NS_OBJECT_ENSURE_REGISTERED(MoseTransport);

TypeId
MoseTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseTransport").SetParent<Object>().SetGroupName("Mose");
    return tid;
}

MoseTransport::MoseTransport() = default;

MoseTransport::~MoseTransport() = default;

void
MoseTransport::Install(const NodeContainer& endpoints)
{
    NS_LOG_FUNCTION(this << endpoints.GetN());
    std::vector<NodeContainer> groups;
    groups.reserve(endpoints.GetN());
    for (uint32_t g = 0; g < endpoints.GetN(); ++g)
    {
        groups.emplace_back(endpoints.Get(g));
    }
    Install(groups);
}

void
MoseTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_done.clear();
    m_notices.clear();
    m_groupEndpoints.clear();
    m_firstEndpoint.clear();
    if (m_distributed)
    {
        MoseRankMessages::Unregister(m_rankHandler);
        m_distributed = false;
    }
    Object::DoDispose();
}

void
MoseTransport::RegisterRankMessages(Callback<void, uint64_t, uint64_t, uint64_t> handler)
{
    m_distributed = MoseRankMessages::IsDistributed();
    if (m_distributed)
    {
        m_rankHandler = MoseRankMessages::Register(handler);
    }
}

bool
MoseTransport::IsDistributed() const
{
    return m_distributed;
}

uint32_t
MoseTransport::GetRankHandler() const
{
    return m_rankHandler;
}

uint32_t
MoseTransport::SetEndpoints(const std::vector<NodeContainer>& endpoints, const std::string& who)
{
    NS_LOG_FUNCTION(this << endpoints.size() << who);
    if (m_installed || !m_groupEndpoints.empty())
    {
        throw mose::Error(who + "::Install was already called");
    }
    if (endpoints.empty())
    {
        mose::ThrowBadParameter("endpoints", "0 nodes", "one node per group");
    }
    uint32_t number = 0;
    std::vector<uint32_t> first;
    for (uint32_t g = 0; g < endpoints.size(); ++g)
    {
        if (endpoints[g].GetN() == 0)
        {
            mose::ThrowBadParameter("endpoints of group " + std::to_string(g),
                                    "0 nodes",
                                    "at least one node per group (its hosts, one per rail)");
        }
        first.push_back(number);
        number += endpoints[g].GetN();
    }
    m_groupEndpoints = endpoints;
    m_firstEndpoint = first;
    m_pairBytes.assign(endpoints.size() * endpoints.size(), 0);
    return number;
}

void
MoseTransport::SetInstalled()
{
    m_installed = true;
}

bool
MoseTransport::IsInstalled() const
{
    return m_installed;
}

uint32_t
MoseTransport::GetNGroups() const
{
    return static_cast<uint32_t>(m_groupEndpoints.size());
}

Ptr<Node>
MoseTransport::GetGroupEndpoint(uint32_t group, uint32_t host) const
{
    return m_groupEndpoints[group].Get(host);
}

uint32_t
MoseTransport::GetEndpointNumber(uint32_t group, uint32_t host) const
{
    return m_firstEndpoint[group] + host;
}

std::string
MoseTransport::DescribeEndpoint(uint32_t group, uint32_t host) const
{
    return "the endpoint " + std::to_string(host) + " of group " + std::to_string(group) +
           " (node " + std::to_string(GetGroupEndpoint(group, host)->GetId()) + ")";
}

bool
MoseTransport::IsReceivedHere(uint64_t id) const
{
    const MoseTransfer& t = GetTransfer(id);
    return MoseRankMessages::IsLocal(GetGroupEndpoint(t.dst, t.dstHost));
}

uint32_t
MoseTransport::GetNRails(uint32_t group) const
{
    if (group >= m_groupEndpoints.size())
    {
        mose::ThrowBadParameter("group",
                                std::to_string(group),
                                "groups 0 to " + std::to_string(m_groupEndpoints.size()) +
                                    " - 1 (after Install())");
    }
    return m_groupEndpoints[group].GetN();
}

uint64_t
MoseTransport::NewTransfer(uint32_t src,
                           uint32_t dst,
                           uint64_t bytes,
                           DoneCallback done,
                           mose::TrafficClass cls,
                           uint32_t rail,
                           const std::string& who)
{
    if (!m_installed)
    {
        throw mose::Error(who + "::Start before Install()");
    }
    const uint32_t n = GetNGroups();
    if (src >= n || dst >= n)
    {
        mose::ThrowBadParameter("transfer groups",
                                std::to_string(src) + "->" + std::to_string(dst),
                                "groups 0 to " + std::to_string(n - 1));
    }
    if (src == dst)
    {
        mose::ThrowBadParameter("transfer groups",
                                std::to_string(src) + "->" + std::to_string(dst),
                                "two different groups");
    }
    if (bytes == 0)
    {
        mose::ThrowBadParameter("transfer bytes", "0", "at least 1 byte");
    }
    const uint64_t id = m_transfers.size();
    MoseTransfer t;
    t.src = src;
    t.dst = dst;
    t.cls = cls;
    t.bytes = bytes;
    t.start = Simulator::Now();
    t.srcHost = rail % m_groupEndpoints[src].GetN();
    t.dstHost = rail % m_groupEndpoints[dst].GetN();
    m_transfers.push_back(t);
    m_done.push_back(done);
    return id;
}

MoseTransfer&
MoseTransport::Record(uint64_t id)
{
    return m_transfers[id];
}

const MoseTransfer&
MoseTransport::Record(uint64_t id) const
{
    return m_transfers[id];
}

void
MoseTransport::CountReceived(const MoseTransfer& t, uint64_t bytes)
{
    m_bytes += bytes;
    m_pairBytes[static_cast<std::size_t>(t.src) * GetNGroups() + t.dst] += bytes;
}

void
MoseTransport::CountError()
{
    ++m_errors;
}

void
MoseTransport::AddNotice(uint64_t id, Time end)
{
    const Time at = end + m_noticeDelay;
    const Time now = Simulator::Now();
    if (at <= now && m_noticeDelay.IsStrictlyPositive())
    {
        // only a notice from another MPI rank can come this late
        ++m_errors;
        NS_LOG_ERROR("the last byte of transfer " << id << " at " << end.As(Time::NS)
                                                  << " reached this rank at " << now.As(Time::NS)
                                                  << ", not before its notice time");
    }
    const Time when = std::max(at, now); // late (an error, counted above): now
    auto [it, fresh] = m_notices.try_emplace(when.GetTimeStep());
    it->second.push_back(id);
    if (fresh)
    {
        Simulator::Schedule(when - now, &MoseTransport::Notice, Ptr<MoseTransport>(this));
    }
}

void
MoseTransport::NoticeLastByte(uint64_t id, uint64_t kind, const std::string& who)
{
    const Time now = Simulator::Now();
    if (m_noticeDelay.IsZero() && !m_distributed)
    {
        Complete(id, now); // at once: the completion is the last byte's event
        return;
    }
    if (m_distributed)
    {
        const Time lookAhead = MoseOcsChannel::GetDistributedLookAhead();
        if (m_noticeDelay <= lookAhead)
        {
            NS_FATAL_ERROR(who << ": NoticeDelay = " << m_noticeDelay.As(Time::NS)
                               << " with lookahead = " << lookAhead.As(Time::NS)
                               << " on several MPI ranks; allowed: NoticeDelay above the "
                                  "lookahead (every rank must have every notice of a time "
                                  "before it acts)");
        }
        try
        {
            MoseRankMessages::SendToOthers(m_rankHandler,
                                           lookAhead,
                                           {kind, id, static_cast<uint64_t>(now.GetTimeStep())});
        }
        catch (const std::exception& e)
        {
            // no exception may escape Simulator::Run() (this runs in a packet's callback)
            ++m_errors;
            NS_LOG_ERROR("transfer " << id << ": the notice to the other ranks: " << e.what());
        }
    }
    AddNotice(id, now);
}

void
MoseTransport::Notice()
{
    const auto it = m_notices.find(Simulator::Now().GetTimeStep());
    if (it == m_notices.end())
    {
        return;
    }
    std::vector<uint64_t> ids = std::move(it->second);
    m_notices.erase(it);
    // one order on every rank, whatever order ns-3 ran the simultaneous last bytes in
    std::sort(ids.begin(), ids.end());
    for (uint64_t id : ids)
    {
        Complete(id, Simulator::Now() - m_noticeDelay); // noticed NoticeDelay after its last byte
    }
}

void
MoseTransport::Complete(uint64_t id, Time end)
{
    MoseTransfer& t = m_transfers[id];
    if (t.complete)
    {
        return;
    }
    t.complete = true;
    t.end = end;
    t.received = std::max(t.received, t.bytes); // a rank that did not receive it knows now
    ++m_completed;
    m_doneTrace(id, t.src, t.dst, t.bytes, t.end - t.start);
    if (!m_done[id].IsNull())
    {
        DoneCallback done = m_done[id];
        m_done[id] = DoneCallback();
        try
        {
            done(id);
        }
        catch (const std::exception& e)
        {
            // no exception may escape Simulator::Run(): count it, the caller checks
            ++m_errors;
            NS_LOG_ERROR("transfer " << id << " completion: " << e.what());
        }
    }
}

uint64_t
MoseTransport::GetNTransfers() const
{
    return m_transfers.size();
}

const MoseTransfer&
MoseTransport::GetTransfer(uint64_t id) const
{
    if (id >= m_transfers.size())
    {
        mose::ThrowBadParameter("transfer id",
                                std::to_string(id),
                                "below " + std::to_string(m_transfers.size()));
    }
    return m_transfers[id];
}

std::vector<MoseTransfer>
MoseTransport::GetTransfers(const std::vector<uint64_t>& ids) const
{
    std::vector<MoseTransfer> transfers;
    transfers.reserve(ids.size());
    for (uint64_t id : ids)
    {
        transfers.push_back(GetTransfer(id));
    }
    return transfers;
}

uint64_t
MoseTransport::GetNCompleted() const
{
    return m_completed;
}

uint64_t
MoseTransport::GetBytesReceived() const
{
    return m_bytes;
}

uint64_t
MoseTransport::GetBytesBetween(uint32_t src, uint32_t dst) const
{
    const uint32_t n = GetNGroups();
    if (src >= n || dst >= n)
    {
        mose::ThrowBadParameter("groups",
                                std::to_string(src) + "->" + std::to_string(dst),
                                "groups 0 to " + std::to_string(n == 0 ? 0 : n - 1));
    }
    return m_pairBytes[static_cast<std::size_t>(src) * n + dst];
}

uint64_t
MoseTransport::GetNErrors() const
{
    return m_errors;
}

} // namespace ns3
