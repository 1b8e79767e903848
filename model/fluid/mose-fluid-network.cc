/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-fluid-network.h"

#include "ns3/mose-error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace ns3
{
namespace mose
{

namespace
{

/// Throws unless a capacity is finite and >= 0
void
CheckCapacity(double capacity)
{
    if (!(std::isfinite(capacity) && capacity >= 0))
    {
        ThrowBadParameter("link capacity",
                          FormatNumber(capacity),
                          "a finite number of bytes per second >= 0");
    }
}

} // namespace

FluidNetwork::LinkId
FluidNetwork::AddLink(double capacity)
{
    CheckCapacity(capacity);
    m_capacity.push_back(capacity);
    m_linkFlows.emplace_back();
    m_linkRate.push_back(0.0);
    m_linkBytesAt.push_back(0.0);
    m_linkSince.push_back(m_time);
    m_fullRecompute = true;
    return static_cast<LinkId>(m_capacity.size() - 1);
}

void
FluidNetwork::SetCapacity(LinkId link, double capacity)
{
    if (link >= m_capacity.size())
    {
        ThrowBadParameter("link",
                          std::to_string(link),
                          "a link id < " + std::to_string(m_capacity.size()));
    }
    CheckCapacity(capacity);
    m_capacity[link] = capacity;
    m_fullRecompute = true;
}

double
FluidNetwork::GetCapacity(LinkId link) const
{
    return m_capacity.at(link);
}

uint32_t
FluidNetwork::GetNLinks() const
{
    return static_cast<uint32_t>(m_capacity.size());
}

void
FluidNetwork::CheckFlow(FlowId flow, const char* who) const
{
    if (flow >= m_flows.size() || !m_flows[flow].active)
    {
        throw Error(std::string("FluidNetwork::") + who + ": flow " + std::to_string(flow) +
                    " is not active");
    }
}

void
FluidNetwork::Attach(FlowId flow)
{
    FlowState& f = m_flows[flow];
    f.slot.resize(f.path.size());
    // each link once: a stamp per link, O(1) a hop (an aggregate's path has thousands)
    m_seen.resize(m_capacity.size(), 0);
    ++m_check;
    for (std::size_t k = 0; k < f.path.size(); ++k)
    {
        const LinkId l = f.path[k];
        if (l >= m_capacity.size())
        {
            ThrowBadParameter("path link",
                              std::to_string(l),
                              "a link id < " + std::to_string(m_capacity.size()));
        }
        if (m_seen[l] == m_check)
        {
            ThrowBadParameter("path link", std::to_string(l), "each link once in a path");
        }
        m_seen[l] = m_check;
    }
    for (std::size_t k = 0; k < f.path.size(); ++k)
    {
        auto& list = m_linkFlows[f.path[k]];
        f.slot[k] = static_cast<uint32_t>(list.size());
        list.push_back(flow);
    }
}

void
FluidNetwork::Detach(FlowId flow)
{
    FlowState& f = m_flows[flow];
    for (std::size_t k = 0; k < f.path.size(); ++k)
    {
        auto& list = m_linkFlows[f.path[k]];
        const uint32_t pos = f.slot[k];
        const FlowId moved = list.back();
        list[pos] = moved;
        list.pop_back();
        if (moved != flow)
        {
            // the moved flow's hop on this link now sits at pos
            FlowState& m = m_flows[moved];
            for (std::size_t j = 0; j < m.path.size(); ++j)
            {
                if (m.path[j] == f.path[k])
                {
                    m.slot[j] = pos;
                    break;
                }
            }
        }
    }
    f.slot.clear();
}

void
FluidNetwork::CheckWeights(const std::vector<LinkId>& path, const std::vector<double>& weights)
{
    if (weights.empty())
    {
        return;
    }
    if (weights.size() != path.size())
    {
        ThrowBadParameter("flow weights",
                          std::to_string(weights.size()) + " weights",
                          "one per link of the path (" + std::to_string(path.size()) + ")");
    }
    for (double w : weights)
    {
        if (!(std::isfinite(w) && w > 0))
        {
            ThrowBadParameter("flow weight", FormatNumber(w), "a finite number > 0");
        }
    }
}

FluidNetwork::FlowId
FluidNetwork::AddFlow(double bytes, const std::vector<LinkId>& path)
{
    return AddFlow(bytes, path, {});
}

FluidNetwork::FlowId
FluidNetwork::AddFlow(double bytes,
                      const std::vector<LinkId>& path,
                      const std::vector<double>& weights)
{
    CheckWeights(path, weights);
    if (!(std::isfinite(bytes) && bytes > 0))
    {
        ThrowBadParameter("flow bytes", FormatNumber(bytes), "a finite number > 0");
    }
    FlowId id;
    if (!m_free.empty())
    {
        id = m_free.back();
        m_free.pop_back();
    }
    else
    {
        id = static_cast<FlowId>(m_flows.size());
        m_flows.emplace_back();
    }
    FlowState& f = m_flows[id];
    Reset(f);
    f.path = path;
    f.weight = weights;
    f.remainingAt = bytes;
    f.since = m_time;
    try
    {
        Attach(id);
    }
    catch (...)
    {
        Reset(f);
        m_free.push_back(id);
        throw;
    }
    f.active = true;
    SetActiveBit(id, true);
    ++m_active;
    m_fullRecompute = true;
    return id;
}

void
FluidNetwork::SetPath(FlowId flow, const std::vector<LinkId>& path)
{
    SetPath(flow, path, {});
}

void
FluidNetwork::SetPath(FlowId flow,
                      const std::vector<LinkId>& path,
                      const std::vector<double>& weights)
{
    CheckFlow(flow, "SetPath");
    CheckWeights(path, weights);
    FlowState& f = m_flows[flow];
    const double rate = f.rate;
    AddLinkRates(f, -rate);
    Detach(flow);
    std::vector<LinkId> old = std::move(f.path);
    std::vector<double> oldWeight = std::move(f.weight);
    f.path = path;
    f.weight = weights;
    try
    {
        Attach(flow);
    }
    catch (...)
    {
        f.path = std::move(old);
        f.weight = std::move(oldWeight);
        Attach(flow);
        AddLinkRates(f, rate);
        throw;
    }
    // the rate stays until the next ComputeRates() (0 without a path)
    AddLinkRates(f, rate);
    if (path.empty())
    {
        SetRate(flow, 0);
    }
    m_fullRecompute = true;
}

const std::vector<FluidNetwork::LinkId>&
FluidNetwork::GetPath(FlowId flow) const
{
    CheckFlow(flow, "GetPath");
    return m_flows[flow].path;
}

const std::vector<double>&
FluidNetwork::GetWeights(FlowId flow) const
{
    CheckFlow(flow, "GetWeights");
    return m_flows[flow].weight;
}

void
FluidNetwork::RemoveFlow(FlowId flow)
{
    CheckFlow(flow, "RemoveFlow");
    FlowState& f = m_flows[flow];
    AddLinkRates(f, -f.rate);
    Detach(flow);
    if (!f.path.empty())
    {
        m_removedMinRate = std::min(m_removedMinRate, f.rate);
    }
    if (f.complete && !f.reported)
    {
        m_completed.erase(std::remove(m_completed.begin(), m_completed.end(), flow),
                          m_completed.end());
    }
    Reset(f);
    SetActiveBit(flow, false);
    m_free.push_back(flow);
    --m_active;
}

bool
FluidNetwork::IsActive(FlowId flow) const
{
    return flow < m_flows.size() && m_flows[flow].active;
}

uint32_t
FluidNetwork::GetNFlows() const
{
    return m_active;
}

// The steps of ComputeRates() are inline: the library is shared, and GCC calls an exported
// function through the PLT and never inlines it (semantic interposition); the heap's steps are
// the filling's inner loops, and the steps called from ComputeRates() alone cost no call either.

inline uint64_t
FluidNetwork::PrepareFilling(bool partial, double keepBelow)
{
    const std::size_t nLinks = m_capacity.size();
    m_left.assign(m_capacity.begin(), m_capacity.end());
    m_unfrozen.assign(nLinks, 0);
    m_unfrozenWeight.assign(nLinks, 0.0);
    // per flow id; only the active flows' entries are read, and the first walk sets them
    m_frozen.resize(m_flows.size());
    m_newRate.resize(m_flows.size());
    if (partial)
    {
        // the capacity the kept flows leave: every link's capacity minus its flows' rates, plus
        // the rates of the flows filled again (added back below)
        for (std::size_t l = 0; l < nLinks; ++l)
        {
            m_left[l] = m_capacity[l] - m_linkRate[l];
        }
    }
    uint64_t unfrozenFlows = 0; // flows with a path the filling has not fixed yet
    ForEachActive([&](FlowId id) {
        const FlowState& f = m_flows[id];
        if (partial && f.rate < keepBelow && !f.path.empty())
        {
            m_frozen[id] = 1;
            return;
        }
        m_frozen[id] = 0;
        m_newRate[id] = 0; // held flows (empty path) get 0
        unfrozenFlows += f.path.empty() ? 0 : 1;
        for (std::size_t k = 0; k < f.path.size(); ++k)
        {
            const LinkId l = f.path[k];
            const double w = WeightOf(f, k);
            ++m_unfrozen[l];
            m_unfrozenWeight[l] += w;
            if (partial)
            {
                m_left[l] += w * f.rate;
            }
        }
    });
    return unfrozenFlows;
}

inline bool
FluidNetwork::HeapLess(const HeapEntry& a, const HeapEntry& b)
{
    return a.key < b.key || (a.key == b.key && a.link < b.link);
}

inline void
FluidNetwork::SiftDown(std::size_t i)
{
    std::vector<HeapEntry>& heap = m_heap;
    const HeapEntry x = heap[i];
    const std::size_t n = heap.size();
    while (true)
    {
        std::size_t child = 2 * i + 1;
        if (child >= n)
        {
            break;
        }
        if (child + 1 < n && HeapLess(heap[child + 1], heap[child]))
        {
            ++child;
        }
        if (!HeapLess(heap[child], x))
        {
            break;
        }
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = x;
}

inline void
FluidNetwork::PopHeapTop()
{
    m_heap[0] = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0);
    }
}

inline void
FluidNetwork::BuildFillingHeap()
{
    // a binary min-heap of the links with unfrozen flows, keyed on (share, link id), in which a
    // link's key may be stale: as flows at the smallest share leave a link, its share only
    // grows (left / W >= s gives (left - w s) / (W - w) >= left / W for the weights W of its
    // unfrozen flows and w of the one frozen), so a stale key is a lower
    // bound; the top is re-keyed when popped and is the bottleneck once its key is current.
    // A hop of a frozen flow then costs O(1) and only popped links move in the heap
    // (hand-written: std::priority_queue cannot re-key its top in place)
    const std::size_t nLinks = m_capacity.size();
    std::vector<HeapEntry>& heap = m_heap;
    heap.clear();
    // A link crossed by one unfrozen flow only (an aggregate crosses thousands such links)
    // keeps its share until that flow is fixed: instead of one entry per link, such a flow has
    // one entry keyed on the smallest share of its lone links, exact from the start (entry
    // nLinks + flow id; shared links keep their entries)
    for (std::size_t l = 0; l < nLinks; ++l)
    {
        if (m_unfrozen[l] > 0)
        {
            m_left[l] = std::max(0.0, m_left[l]);
        }
        if (m_unfrozen[l] > 1)
        {
            heap.push_back({m_left[l] / m_unfrozenWeight[l], static_cast<uint32_t>(l)});
        }
    }
    ForEachActive([&](FlowId id) {
        const FlowState& f = m_flows[id];
        if (m_frozen[id] || f.path.empty())
        {
            return;
        }
        double lone = std::numeric_limits<double>::infinity();
        for (LinkId l : f.path)
        {
            if (m_unfrozen[l] == 1)
            {
                lone = std::min(lone, m_left[l] / m_unfrozenWeight[l]);
            }
        }
        if (lone < std::numeric_limits<double>::infinity())
        {
            heap.push_back({lone, static_cast<uint32_t>(nLinks + id)});
        }
    });
    for (std::size_t i = heap.size() / 2; i-- > 0;)
    {
        SiftDown(i);
    }
}

inline void
FluidNetwork::FreezeFlow(FlowId fid, double share, uint64_t& unfrozenFlows)
{
    m_frozen[fid] = 1;
    m_newRate[fid] = share;
    --unfrozenFlows;
    const FlowState& f = m_flows[fid];
    for (std::size_t k = 0; k < f.path.size(); ++k)
    {
        const LinkId l = f.path[k];
        const double w = WeightOf(f, k);
        m_left[l] = std::max(0.0, m_left[l] - w * share);
        --m_unfrozen[l];
        // the last unfrozen flow leaves no weight behind, whatever the sums' rounding
        m_unfrozenWeight[l] = m_unfrozen[l] == 0 ? 0.0 : m_unfrozenWeight[l] - w;
    }
}

inline void
FluidNetwork::FillRates(uint64_t unfrozenFlows)
{
    const std::size_t nLinks = m_capacity.size();
    std::vector<HeapEntry>& heap = m_heap;
    // until every flow is fixed: the links left in the heap then have no unfrozen flow (an
    // aggregate's thousands of links would otherwise be popped one by one)
    while (!heap.empty() && unfrozenFlows > 0)
    {
        const uint32_t e = heap[0].link;
        if (e >= nLinks)
        {
            // a flow's lone links: its key is their share, never stale
            const FlowId fid = e - static_cast<uint32_t>(nLinks);
            const double s = std::max(0.0, heap[0].key);
            PopHeapTop();
            if (!m_frozen[fid])
            {
                FreezeFlow(fid, s, unfrozenFlows);
            }
            continue;
        }
        if (m_unfrozen[e] == 0)
        {
            PopHeapTop(); // every flow of the link was frozen elsewhere
            continue;
        }
        const double current = m_left[e] / m_unfrozenWeight[e];
        if (current > heap[0].key)
        {
            heap[0].key = current; // stale: re-key and look again
            SiftDown(0);
            continue;
        }
        PopHeapTop();
        const double s = std::max(0.0, current);
        for (FlowId fid : m_linkFlows[e])
        {
            if (!m_frozen[fid])
            {
                FreezeFlow(fid, s, unfrozenFlows);
            }
        }
    }
}

void
FluidNetwork::ComputeRates()
{
    ++m_computations;
    // Since the last computation, were flows only removed? Then every flow whose rate is below
    // the smallest rate of a removed flow keeps its rate: the filling reaches each level below
    // that rate through links no removed flow crossed (a removed flow of rate r crossed no link
    // that was a bottleneck below r, or it would have been fixed there), and removing flows
    // only raises the other links' shares. Those flows are fixed at their rates from the start
    // and the filling runs for the others only (in an all-to-all the fastest flows end first,
    // so most flows keep their rates). A relative margin of 1e-9 keeps flows whose rate equals
    // the removed one's up to rounding in the filling.
    const bool partial = !m_fullRecompute && m_removedMinRate > 0 &&
                         m_removedMinRate < std::numeric_limits<double>::infinity();
    const double keepBelow = partial ? m_removedMinRate * (1 - 1e-9) : 0.0;
    uint64_t unfrozenFlows = PrepareFilling(partial, keepBelow);
    m_fullRecompute = false;
    m_removedMinRate = std::numeric_limits<double>::infinity();
    BuildFillingHeap();
    FillRates(unfrozenFlows);
    // the new rates: a flow whose rate changes banks what it sent at the old one
    ForEachActive([&](FlowId id) {
        const FlowState& f = m_flows[id];
        if (!(keepBelow > 0 && f.rate < keepBelow && !f.path.empty()))
        {
            SetRate(id, m_newRate[id]);
        }
    });
}

double
FluidNetwork::GetRate(FlowId flow) const
{
    CheckFlow(flow, "GetRate");
    return m_flows[flow].rate;
}

double
FluidNetwork::GetRemaining(FlowId flow) const
{
    CheckFlow(flow, "GetRemaining");
    return RemainingNow(m_flows[flow]);
}

double
FluidNetwork::GetLinkRate(LinkId link) const
{
    return m_linkRate.at(link);
}

double
FluidNetwork::GetLinkBytes(LinkId link) const
{
    return m_linkBytesAt.at(link) + m_linkRate[link] * (m_time - m_linkSince[link]);
}

double
FluidNetwork::RemainingNow(const FlowState& f) const
{
    return f.complete ? 0.0 : std::max(0.0, f.remainingAt - f.rate * (m_time - f.since));
}

void
FluidNetwork::AddLinkRates(const FlowState& f, double delta)
{
    if (delta == 0)
    {
        return;
    }
    for (std::size_t k = 0; k < f.path.size(); ++k)
    {
        const LinkId l = f.path[k];
        m_linkBytesAt[l] += m_linkRate[l] * (m_time - m_linkSince[l]);
        m_linkSince[l] = m_time;
        m_linkRate[l] = std::max(0.0, m_linkRate[l] + WeightOf(f, k) * delta);
    }
}

void
FluidNetwork::SetRate(FlowId id, double rate)
{
    FlowState& f = m_flows[id];
    if (rate == f.rate)
    {
        return;
    }
    f.remainingAt = RemainingNow(f);
    f.since = m_time;
    AddLinkRates(f, rate - f.rate);
    f.rate = rate;
    ++f.version;
    if (rate > 0 && !f.complete)
    {
        m_finish.push_back({f.since + f.remainingAt / rate, id, f.version});
        std::push_heap(m_finish.begin(), m_finish.end(), std::greater<>());
        // A flow whose rate rises leaves its old, later entry behind, and only the heap's top
        // is ever cleaned: under many rate changes (long intervals at high load) the stale
        // entries outnumbered the live ones by orders of magnitude and every push and pop paid
        // for them. Drop them once they are 3 in 4 entries (amortised O(1) per push). The
        // order of the live entries, all the heap yields, is unchanged.
        if (m_finish.size() > 4 * static_cast<std::size_t>(m_active) + 1024)
        {
            CompactFinish();
        }
    }
}

void
FluidNetwork::Reset(FlowState& f)
{
    // The version survives: the finish heap may still hold entries of the id's previous flow,
    // and a version that restarted at 0 would let them pass for the new flow's (it completed
    // at the old flow's finish time).
    const uint32_t version = f.version;
    f = FlowState();
    f.version = version;
}

void
FluidNetwork::SetActiveBit(FlowId id, bool active)
{
    const std::size_t word = id / 64;
    if (word >= m_activeBits.size())
    {
        m_activeBits.resize(word + 1, 0);
    }
    const uint64_t bit = uint64_t{1} << (id % 64);
    m_activeBits[word] = active ? (m_activeBits[word] | bit) : (m_activeBits[word] & ~bit);
}

void
FluidNetwork::CompactFinish() const
{
    const auto stale = [this](const FinishEntry& e) {
        const FlowState& g = m_flows[e.flow];
        return !(g.active && !g.complete && g.version == e.version);
    };
    m_finish.erase(std::remove_if(m_finish.begin(), m_finish.end(), stale), m_finish.end());
    std::make_heap(m_finish.begin(), m_finish.end(), std::greater<>());
}

double
FluidNetwork::CompletionSlack(double rate)
{
    return rate * 0.5e-9 + 1e-6;
}

void
FluidNetwork::Advance(double seconds)
{
    if (!(std::isfinite(seconds) && seconds >= 0))
    {
        ThrowBadParameter("FluidNetwork::Advance seconds",
                          FormatNumber(seconds),
                          "a finite number >= 0");
    }
    m_time += seconds;
    // the flows whose finish time is now (within half a ns, plus CompletionSlack's bytes)
    while (!m_finish.empty())
    {
        const FinishEntry top = m_finish.front();
        const FlowState& f = m_flows[top.flow];
        const bool current = f.active && !f.complete && f.version == top.version;
        if (current && top.at - m_time > 0.5e-9 + 1e-6 / f.rate)
        {
            break;
        }
        std::pop_heap(m_finish.begin(), m_finish.end(), std::greater<>());
        m_finish.pop_back();
        if (current)
        {
            FlowState& g = m_flows[top.flow];
            g.complete = true;
            g.remainingAt = 0;
            g.since = m_time;
            m_completed.push_back(top.flow);
        }
    }
}

double
FluidNetwork::GetTimeToNextCompletion() const
{
    // stale entries (a rate changed, a flow removed) are dropped from the top first
    while (!m_finish.empty())
    {
        const FinishEntry& top = m_finish.front();
        const FlowState& f = m_flows[top.flow];
        if (f.active && !f.complete && f.version == top.version)
        {
            return std::max(0.0, top.at - m_time);
        }
        std::pop_heap(m_finish.begin(), m_finish.end(), std::greater<>());
        m_finish.pop_back();
    }
    return std::numeric_limits<double>::infinity();
}

std::vector<FluidNetwork::FlowId>
FluidNetwork::TakeCompleted()
{
    std::vector<FlowId> out;
    out.swap(m_completed);
    std::sort(out.begin(), out.end());
    for (FlowId id : out)
    {
        m_flows[id].reported = true;
    }
    return out;
}

uint64_t
FluidNetwork::GetNComputations() const
{
    return m_computations;
}

} // namespace mose
} // namespace ns3
