/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-planner.h"

#include "ns3/log.h"

#include <algorithm>
#include <boost/pending/disjoint_sets.hpp>
#include <boost/property_map/property_map.hpp>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchPlanner");

namespace
{

/**
 * \brief The connected components of N groups as circuits join them: Boost's disjoint sets
 *        (union by rank, path compression), with the number of components kept on the way.
 *
 * The rank and parent maps are iterator property maps over vectors, not raw pointers (what
 * disjoint_sets_with_storage uses): boost::detail's link and find functions call get()
 * unqualified, and the Boost.Graph CSR header that mose-circuit-graph.h includes declares a
 * boost::detail::get that hides boost::get for pointers; a property map class finds it by ADL.
 */
class Components
{
  public:
    /// \param n the number of groups, each its own component
    explicit Components(uint32_t n)
        : m_rank(n, 0),
          m_parent(n),
          m_sets(Map(m_rank), Map(m_parent)),
          m_count(n)
    {
        for (std::size_t g = 0; g < n; ++g)
        {
            m_sets.make_set(g);
        }
    }

    /// not copied: the sets point into this object's vectors
    Components(const Components&) = delete;
    /// not copied \return never
    Components& operator=(const Components&) = delete;

    /// joins the components of a and b \param a a group \param b a group
    void Join(uint32_t a, uint32_t b)
    {
        const std::size_t ra = m_sets.find_set(std::size_t{a});
        const std::size_t rb = m_sets.find_set(std::size_t{b});
        if (ra != rb)
        {
            m_sets.link(ra, rb);
            --m_count;
        }
    }

    /// \return the number of components
    uint32_t GetCount() const
    {
        return m_count;
    }

  private:
    /// A vector seen as a property map from group to value
    using VectorMap = boost::iterator_property_map<std::vector<std::size_t>::iterator,
                                                   boost::identity_property_map>;

    /// \param v a vector \return it as a property map
    static VectorMap Map(std::vector<std::size_t>& v)
    {
        return VectorMap(v.begin(), boost::identity_property_map());
    }

    std::vector<std::size_t> m_rank;                   //!< rank per group
    std::vector<std::size_t> m_parent;                 //!< parent per group
    boost::disjoint_sets<VectorMap, VectorMap> m_sets; //!< the groups' sets
    uint32_t m_count;                                  //!< components
};

} // namespace

std::vector<SwitchBatchPlan>
PlanSwitchBatches(const PortPlan& current, const PortCircuitDiff& diff, uint32_t phases)
{
    NS_LOG_FUNCTION(phases);
    std::vector<SwitchBatchPlan> batches;
    const uint32_t n = current.GetNGroups();
    const uint32_t d = current.GetNPorts();
    const std::size_t removedCount = diff.removed.size();
    if (removedCount == 0 && diff.added.empty())
    {
        return batches;
    }
    const auto count = static_cast<uint32_t>(
        std::max<std::size_t>(1, std::min<std::size_t>(phases, removedCount)));
    batches.resize(count);
    // the circuits routed on besides the candidates: kept, then those added by earlier batches
    std::vector<PortCircuit> base = diff.kept;
    // Candidates in chain order: a removed circuit, the added circuit that takes its second
    // port, the removed circuit at that one's other port, ... (the alternating chains of the
    // change), so that a batch of consecutive candidates frees both ports of most of the added
    // circuits between them, which then serve the later batches.
    std::vector<PortCircuit> pool;
    pool.reserve(removedCount);
    {
        const std::size_t ports = static_cast<std::size_t>(n) * d;
        std::vector<uint32_t> removedAt(ports, UINT32_MAX);
        std::vector<uint32_t> addedAt(ports, UINT32_MAX);
        auto flat = [d](uint32_t g, uint32_t p) { return static_cast<std::size_t>(g) * d + p; };
        for (std::size_t i = 0; i < removedCount; ++i)
        {
            removedAt[flat(diff.removed[i].groupA, diff.removed[i].portA)] =
                static_cast<uint32_t>(i);
            removedAt[flat(diff.removed[i].groupB, diff.removed[i].portB)] =
                static_cast<uint32_t>(i);
        }
        for (std::size_t i = 0; i < diff.added.size(); ++i)
        {
            addedAt[flat(diff.added[i].groupA, diff.added[i].portA)] = static_cast<uint32_t>(i);
            addedAt[flat(diff.added[i].groupB, diff.added[i].portB)] = static_cast<uint32_t>(i);
        }
        std::vector<bool> visited(removedCount, false);
        for (std::size_t start = 0; start < removedCount; ++start)
        {
            std::size_t r = start;
            std::size_t entry = flat(diff.removed[r].groupA, diff.removed[r].portA);
            while (!visited[r])
            {
                visited[r] = true;
                pool.push_back(diff.removed[r]);
                const auto& c = diff.removed[r];
                const std::size_t a = flat(c.groupA, c.portA);
                const std::size_t exit = a == entry ? flat(c.groupB, c.portB) : a;
                const uint32_t add = addedAt[exit];
                if (add == UINT32_MAX)
                {
                    break;
                }
                const auto& e = diff.added[add];
                const std::size_t ea = flat(e.groupA, e.portA);
                const std::size_t other = ea == exit ? flat(e.groupB, e.portB) : ea;
                if (removedAt[other] == UINT32_MAX)
                {
                    break;
                }
                r = removedAt[other];
                entry = other;
            }
        }
    }
    std::vector<int32_t> batchOfPort(static_cast<std::size_t>(n) * d, -1);
    std::vector<bool> addedDone(diff.added.size(), false);

    auto connectedWithout = [&](const std::vector<bool>& inBatch) {
        Components c(n);
        for (const auto& e : base)
        {
            c.Join(e.groupA, e.groupB);
        }
        for (std::size_t i = 0; i < pool.size(); ++i)
        {
            if (!inBatch[i])
            {
                c.Join(pool[i].groupA, pool[i].groupB);
            }
        }
        return c.GetCount() <= 1;
    };

    for (uint32_t b = 0; b < count; ++b)
    {
        SwitchBatchPlan& batch = batches[b];
        std::vector<bool> inBatch(pool.size(), false);
        const std::size_t want =
            b + 1 == count ? pool.size() : (pool.size() + (count - b) - 1) / (count - b);
        std::size_t chosen = 0;
        if (want == pool.size())
        {
            std::fill(inBatch.begin(), inBatch.end(), true);
            chosen = pool.size();
        }
        else
        {
            for (std::size_t i = 0; i < pool.size() && chosen < want; ++i)
            {
                inBatch[i] = true;
                if (connectedWithout(inBatch))
                {
                    ++chosen;
                }
                else
                {
                    inBatch[i] = false;
                }
            }
            // not enough circuits keep the graph connected: fill in order (the batch says so)
            for (std::size_t i = 0; i < pool.size() && chosen < want; ++i)
            {
                if (!inBatch[i])
                {
                    inBatch[i] = true;
                    ++chosen;
                }
            }
        }
        batch.connected = connectedWithout(inBatch);
        std::vector<PortCircuit> rest;
        for (std::size_t i = 0; i < pool.size(); ++i)
        {
            if (inBatch[i])
            {
                batch.removed.push_back(pool[i]);
                batchOfPort[static_cast<std::size_t>(pool[i].groupA) * d + pool[i].portA] =
                    static_cast<int32_t>(b);
                batchOfPort[static_cast<std::size_t>(pool[i].groupB) * d + pool[i].portB] =
                    static_cast<int32_t>(b);
            }
            else
            {
                rest.push_back(pool[i]);
            }
        }
        pool.swap(rest);
        // added circuits whose both ports are free once this batch is dark
        for (std::size_t a = 0; a < diff.added.size(); ++a)
        {
            if (addedDone[a])
            {
                continue;
            }
            const auto& e = diff.added[a];
            const auto flatA = static_cast<std::size_t>(e.groupA) * d + e.portA;
            const auto flatB = static_cast<std::size_t>(e.groupB) * d + e.portB;
            const bool freeA =
                current.GetPeers()[flatA] == PortPlan::DARK || batchOfPort[flatA] >= 0;
            const bool freeB =
                current.GetPeers()[flatB] == PortPlan::DARK || batchOfPort[flatB] >= 0;
            if (freeA && freeB)
            {
                batch.added.push_back(e);
                base.push_back(e);
                addedDone[a] = true;
            }
        }
    }
    return batches;
}

} // namespace mose
} // namespace ns3
