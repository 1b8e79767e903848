/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_HOLD_QUEUE_H
#define MOSE_HOLD_QUEUE_H

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <functional>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The hold queue of one MoseRoutingProtocol: packets for another group of the fabric
 *        that have no route right now wait here, oldest first (AODV keeps its request queue the
 *        same way, aodv::RequestQueue).
 *
 * The queue decides what leaves it and when: a packet entering a full queue pushes the oldest
 * one out (a queue of size 0 drops every packet at once), a packet that waited its hold time
 * expires, and Release() keeps the order of the packets that stay. It counts the packets that
 * entered and were dropped and the longest wait of a packet that left (released or dropped).
 * Dropped packets go to the drop callback (SetDropCallback()), after the counters are updated,
 * at the moment they leave; what a drop means (traces, the error callback) is the protocol's.
 *
 * The queue never reads the simulator clock and schedules nothing: every time-dependent call
 * takes the current time, and the protocol schedules Expire() at GetNextExpiry() and retries
 * Release() (its attributes HoldQueueSize and HoldTime set the limit and the hold time here).
 *
 * A plain class held by value, as aodv::RoutingProtocol holds its RequestQueue: it has one
 * owner, is never shared and has no attributes or trace sources of its own, so neither Object
 * nor SimpleRefCount would add anything but a heap allocation.
 */
class MoseHoldQueue
{
  public:
    /// Ipv4L3Protocol's forwarding callback
    typedef Ipv4RoutingProtocol::UnicastForwardCallback UnicastForwardCallback;
    /// Ipv4L3Protocol's error callback
    typedef Ipv4RoutingProtocol::ErrorCallback ErrorCallback;

    /// A packet waiting for a route
    struct Entry
    {
        Ptr<const Packet> packet;   //!< the packet (hold tag removed)
        Ipv4Header header;          //!< its IP header
        UnicastForwardCallback ucb; //!< Ipv4L3Protocol's forwarding callback
        ErrorCallback ecb;          //!< Ipv4L3Protocol's error callback
        Time expiry;                //!< when it is dropped
        Time since;                 //!< when it entered the queue
    };

    /// Called for every dropped entry (overflow or expiry), after the counters are updated
    typedef std::function<void(const Entry&)> DropCallback;

    /**
     * Decides for one entry whether it leaves the queue now (Release()).
     * \param entry the entry
     * \param waited how long it has waited
     * \return true if the entry was sent and leaves the queue, false if it stays
     */
    typedef std::function<bool(const Entry& entry, Time waited)> ReleaseCallback;

    /// An empty queue of limit 64 and hold time 0, without a drop callback
    MoseHoldQueue() = default;

    /// \param limit how many packets the queue keeps at most (0: every packet is dropped)
    void SetLimit(uint32_t limit);
    /// \return how many packets the queue keeps at most
    uint32_t GetLimit() const;
    /// \param holdTime how long a packet waits before it expires
    void SetHoldTime(Time holdTime);
    /// \return how long a packet waits before it expires
    Time GetHoldTime() const;
    /// \param drop what to do with a dropped entry (may be empty: dropped silently)
    void SetDropCallback(DropCallback drop);

    /**
     * \brief Queues a packet that expires at now + the hold time. A full queue first drops its
     *        oldest entry; a queue of limit 0 drops the new one (waited 0) and stays empty.
     * \param p the packet
     * \param header its IP header
     * \param ucb the forwarding callback for its release
     * \param ecb the error callback for its drop
     * \param now the current time
     */
    void Enqueue(Ptr<const Packet> p,
                 const Ipv4Header& header,
                 const UnicastForwardCallback& ucb,
                 const ErrorCallback& ecb,
                 Time now);

    /**
     * \brief Offers every entry, oldest first, to release(); an entry it accepts leaves the
     *        queue (its wait counts towards GetLongestHold()), the others stay in their order.
     *        While release() runs, the queue holds the entries kept so far.
     * \param release the decision and the sending, per entry
     * \param now the current time
     */
    void Release(const ReleaseCallback& release, Time now);

    /**
     * \brief Drops the entries, oldest first, whose expiry is at or before now (stops at the
     *        first that is not: entries are queued in expiry order).
     * \param now the current time
     */
    void Expire(Time now);

    /// \return the oldest entry's expiry (Time::Max() if the queue is empty)
    Time GetNextExpiry() const;
    /// \return when the entry waiting longest entered the queue (Time::Max() if empty)
    Time GetOldestSince() const;
    /// \return how many packets wait
    uint32_t GetSize() const;
    /// \return true if no packet waits
    bool IsEmpty() const;
    /// Forgets every entry without dropping it (no drop callback, counters unchanged)
    void Clear();

    /// \return how many packets have entered so far (dropped at once by a limit of 0 included)
    uint64_t GetEntered() const;
    /// \return how many packets were dropped (overflow or expiry)
    uint64_t GetDrops() const;
    /// \return the longest wait of a packet that left the queue (released or dropped) so far
    Time GetLongestHold() const;

  private:
    /// Counts one dropped entry and hands it to the drop callback \param e the entry \param now
    /// the current time
    void Drop(const Entry& e, Time now);

    uint32_t m_limit{64};        //!< the most packets kept
    Time m_holdTime;             //!< how long a packet waits
    DropCallback m_drop;         //!< what a drop does
    std::deque<Entry> m_entries; //!< the queue, oldest first
    uint64_t m_entered{0};       //!< packets that entered
    uint64_t m_drops{0};         //!< packets dropped
    Time m_longestHold;          //!< the longest wait so far
};

} // namespace ns3

#endif /* MOSE_HOLD_QUEUE_H */
