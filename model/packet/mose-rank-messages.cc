/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-rank-messages.h"

#include "mose-ocs-channel.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/simulator.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <map>
#include <string>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRankMessages");

NS_OBJECT_ENSURE_REGISTERED(MoseRankMessageTag);

TypeId
MoseRankMessageTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseRankMessageTag")
                            .SetParent<Tag>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseRankMessageTag>();
    return tid;
}

TypeId
MoseRankMessageTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MoseRankMessageTag::GetSerializedSize() const
{
    return 4 + 8 * static_cast<uint32_t>(word.size());
}

void
MoseRankMessageTag::Serialize(TagBuffer i) const
{
    i.WriteU32(handler);
    for (uint64_t w : word)
    {
        i.WriteU64(w);
    }
}

void
MoseRankMessageTag::Deserialize(TagBuffer i)
{
    handler = i.ReadU32();
    for (uint64_t& w : word)
    {
        w = i.ReadU64();
    }
}

void
MoseRankMessageTag::Print(std::ostream& os) const
{
    os << "handler=" << handler << " words=" << word[0] << "," << word[1] << "," << word[2];
}

namespace
{

/// the registry of one simulation (Simulator::Destroy() clears it)
struct Registry
{
    std::map<uint32_t, MoseRankMessages::Handler> handlers;      //!< by number
    uint32_t next{0};                                            //!< next number
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> mailboxes; //!< rank -> (node, ifIndex)
    uint64_t errors{0};                                          //!< undeliverable messages
    bool clearScheduled{false}; //!< a Simulator::ScheduleDestroy() clears it
};

Registry&
GetRegistry()
{
    static Registry registry;
    return registry;
}

void
ClearRegistry()
{
    // swap the registry out before its handlers are destroyed: a handler may hold the last
    // reference to its object, whose DoDispose() unregisters it, i.e. erases from the map being
    // destroyed if that were the registry in use; it erases from the new, empty one instead
    Registry old;
    std::swap(old, GetRegistry());
}

/// makes the registry belong to the current simulation
Registry&
UseRegistry()
{
    Registry& r = GetRegistry();
    if (!r.clearScheduled)
    {
        Simulator::ScheduleDestroy(&ClearRegistry);
        r.clearScheduled = true;
    }
    return r;
}

} // namespace

bool
MoseRankMessages::IsDistributed()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() && MpiInterface::GetSize() > 1;
#else
    return false;
#endif
}

uint32_t
MoseRankMessages::GetRank()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
MoseRankMessages::GetNRanks()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

bool
MoseRankMessages::IsLocal(Ptr<const Node> node)
{
    return !IsDistributed() || node->GetSystemId() == GetRank();
}

uint32_t
MoseRankMessages::Register(Handler handler)
{
    if (handler.IsNull())
    {
        throw mose::Error("MoseRankMessages::Register: a null handler");
    }
    Registry& r = UseRegistry();
    const uint32_t number = r.next++;
    r.handlers[number] = handler;
    return number;
}

void
MoseRankMessages::Unregister(uint32_t number)
{
    GetRegistry().handlers.erase(number);
}

void
MoseRankMessages::OfferMailbox(Ptr<NetDevice> device)
{
    Registry& r = UseRegistry();
    Ptr<Node> node = device->GetNode();
    if (node)
    {
        r.mailboxes.emplace(node->GetSystemId(),
                            std::make_pair(node->GetId(), device->GetIfIndex()));
    }
}

void
MoseRankMessages::Send(uint32_t rank,
                       uint32_t number,
                       Time delay,
                       const std::array<uint64_t, 3>& word)
{
    NS_LOG_FUNCTION(rank << number << delay);
    const std::string what = "MoseRankMessages::Send(rank " + std::to_string(rank) + ", handler " +
                             std::to_string(number) + ")";
    if (!IsDistributed())
    {
        throw mose::Error(what + ": not a run on several MPI ranks");
    }
    if (rank == GetRank() || rank >= GetNRanks())
    {
        mose::ThrowBadParameter("rank",
                                std::to_string(rank),
                                "another rank of this run, below " + std::to_string(GetNRanks()) +
                                    ", not this one (" + std::to_string(GetRank()) + ")");
    }
    const Time lookAhead = MoseOcsChannel::GetDistributedLookAhead();
    if (!lookAhead.IsStrictlyPositive() || delay < lookAhead)
    {
        throw mose::Error(what + ": delay = " + std::to_string(delay.GetNanoSeconds()) +
                          " ns with lookahead = " + std::to_string(lookAhead.GetNanoSeconds()) +
                          " ns; allowed: a lookahead > 0 fixed by MoseTopologyHelper::"
                          "PrepareDistributedRun() before Run() and a delay >= the lookahead");
    }
    const Registry& r = GetRegistry();
    const auto box = r.mailboxes.find(rank);
    if (box == r.mailboxes.end())
    {
        throw mose::Error(what + ": rank " + std::to_string(rank) +
                          " has no mailbox (no OCS port on a node of that rank)");
    }
#ifdef NS3_MPI
    Ptr<Packet> p = Create<Packet>();
    MoseRankMessageTag tag;
    tag.handler = number;
    tag.word = word;
    p->AddPacketTag(tag);
    MpiInterface::SendPacket(p, Simulator::Now() + delay, box->second.first, box->second.second);
#else
    (void)word; // not reached: IsDistributed() is false without MPI
#endif
}

void
MoseRankMessages::SendToOthers(uint32_t number, Time delay, const std::array<uint64_t, 3>& word)
{
    for (uint32_t rank = 0; rank < GetNRanks(); ++rank)
    {
        if (rank != GetRank())
        {
            Send(rank, number, delay, word);
        }
    }
}

bool
MoseRankMessages::Receive(Ptr<Packet> p)
{
    MoseRankMessageTag tag;
    if (!p->PeekPacketTag(tag))
    {
        return false;
    }
    Registry& r = GetRegistry();
    const auto h = r.handlers.find(tag.handler);
    if (h == r.handlers.end())
    {
        ++r.errors;
        NS_LOG_ERROR("a message from another rank for handler " << tag.handler
                                                                << ", which is not registered");
        return true;
    }
    try
    {
        // a copy: the handler may unregister itself
        Handler handler = h->second;
        handler(tag.word[0], tag.word[1], tag.word[2]);
    }
    catch (const std::exception& e)
    {
        // no exception may escape Simulator::Run(): count it
        ++r.errors;
        NS_LOG_ERROR("a message from another rank for handler " << tag.handler << ": " << e.what());
    }
    return true;
}

uint64_t
MoseRankMessages::GetNErrors()
{
    return GetRegistry().errors;
}

} // namespace ns3
