/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-hold-queue.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseHoldQueue");

void
MoseHoldQueue::SetLimit(uint32_t limit)
{
    m_limit = limit;
}

uint32_t
MoseHoldQueue::GetLimit() const
{
    return m_limit;
}

void
MoseHoldQueue::SetHoldTime(Time holdTime)
{
    m_holdTime = holdTime;
}

Time
MoseHoldQueue::GetHoldTime() const
{
    return m_holdTime;
}

void
MoseHoldQueue::SetDropCallback(DropCallback drop)
{
    m_drop = std::move(drop);
}

void
MoseHoldQueue::Enqueue(Ptr<const Packet> p,
                       const Ipv4Header& header,
                       const UnicastForwardCallback& ucb,
                       const ErrorCallback& ecb,
                       Time now)
{
    NS_LOG_FUNCTION(this << p << header << now);
    ++m_entered;
    if (m_limit == 0)
    {
        Drop({p, header, ucb, ecb, now, now}, now);
        return;
    }
    if (m_entries.size() >= m_limit)
    {
        // the oldest makes room; it leaves before the new one enters
        Entry oldest = m_entries.front();
        m_entries.pop_front();
        Drop(oldest, now);
    }
    m_entries.push_back({p, header, ucb, ecb, now + m_holdTime, now});
}

void
MoseHoldQueue::Release(const ReleaseCallback& release, Time now)
{
    NS_LOG_FUNCTION(this << m_entries.size() << now);
    std::deque<Entry> waiting;
    waiting.swap(m_entries);
    for (Entry& e : waiting)
    {
        const Time waited = now - e.since;
        if (release(e, waited))
        {
            m_longestHold = std::max(m_longestHold, waited);
        }
        else
        {
            m_entries.push_back(std::move(e)); // stays, in order
        }
    }
}

void
MoseHoldQueue::Expire(Time now)
{
    NS_LOG_FUNCTION(this << now);
    while (!m_entries.empty() && m_entries.front().expiry <= now)
    {
        Entry e = m_entries.front();
        m_entries.pop_front();
        Drop(e, now);
    }
}

Time
MoseHoldQueue::GetNextExpiry() const
{
    return m_entries.empty() ? Time::Max() : m_entries.front().expiry;
}

Time
MoseHoldQueue::GetOldestSince() const
{
    Time oldest = Time::Max();
    for (const Entry& e : m_entries)
    {
        oldest = std::min(oldest, e.since);
    }
    return oldest;
}

uint32_t
MoseHoldQueue::GetSize() const
{
    return static_cast<uint32_t>(m_entries.size());
}

bool
MoseHoldQueue::IsEmpty() const
{
    return m_entries.empty();
}

void
MoseHoldQueue::Clear()
{
    m_entries.clear();
}

uint64_t
MoseHoldQueue::GetEntered() const
{
    return m_entered;
}

uint64_t
MoseHoldQueue::GetDrops() const
{
    return m_drops;
}

Time
MoseHoldQueue::GetLongestHold() const
{
    return m_longestHold;
}

void
MoseHoldQueue::Drop(const Entry& e, Time now)
{
    ++m_drops;
    m_longestHold = std::max(m_longestHold, now - e.since);
    if (m_drop)
    {
        m_drop(e);
    }
}

} // namespace ns3
