/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-grouping.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFlowGrouping");

namespace
{
/// The "none" value of stamps
constexpr uint32_t NONE = UINT32_MAX;
} // namespace

void
ThrowBadFlow(std::size_t index, const std::string& problem)
{
    NS_LOG_FUNCTION(index << problem);
    throw Error("invalid flow " + std::to_string(index) + ": " + problem);
}

namespace
{

/// Throws the Error of the first malformed of the flows (CheckFlow() found one)
[[noreturn]] void
ThrowMalformed(const Flow& f, std::size_t i, uint32_t n)
{
    if (f.src >= n || f.dst >= n)
    {
        ThrowBadFlow(i,
                     "src = " + std::to_string(f.src) + ", dst = " + std::to_string(f.dst) +
                         "; node ids must be < the number of groups " + std::to_string(n));
    }
    if (f.src == f.dst)
    {
        ThrowBadFlow(i,
                     "src = dst = " + std::to_string(f.src) +
                         "; a flow needs two different groups");
    }
    if (!(f.demand > 0.0 && std::isfinite(f.demand)))
    {
        ThrowBadFlow(i, "demand = " + FormatNumber(f.demand) + "; it must be positive and finite");
    }
    ThrowBadFlow(i,
                 "class = " + std::to_string(static_cast<int>(f.cls)) +
                     "; allowed classes are kv and training");
}

/// Checks one flow; the message is built only for a malformed one (ThrowMalformed())
inline void
CheckFlow(const Flow& f, std::size_t i, uint32_t n)
{
    if (f.src >= n || f.dst >= n || f.src == f.dst || !(f.demand > 0.0) ||
        !std::isfinite(f.demand) || (f.cls != TrafficClass::KV && f.cls != TrafficClass::TRAINING))
    {
        ThrowMalformed(f, i, n);
    }
}

/// Throws unless the number of flows fits the 32-bit flow indices
void
CheckFlowCount(std::size_t count)
{
    if (count >= NONE)
    {
        throw Error("EvaluateFlows: " + std::to_string(count) +
                    " flows; at most 4294967294 are supported");
    }
}

} // namespace

void
ValidateFlows(const std::vector<Flow>& flows, uint32_t n)
{
    NS_LOG_FUNCTION(flows.size() << n);
    CheckFlowCount(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        CheckFlow(flows[i], i, n);
    }
}

void
GroupFlowsByDestination(const std::vector<Flow>& flows,
                        uint32_t n,
                        bool flowPair,
                        FlowGroups& groups)
{
    NS_LOG_FUNCTION(flows.size() << n << flowPair);
    CheckFlowCount(flows.size());
    const auto nFlows = static_cast<uint32_t>(flows.size());
    std::vector<PairDemand>& pairs = groups.pairs;
    std::vector<DestinationRun>& runs = groups.runs;
    pairs.clear();
    runs.clear();
    groups.flowPair.assign(flowPair ? nFlows : 0, 0);

    // counting sort by destination, stable: flow order within a destination
    std::vector<uint32_t> start(static_cast<std::size_t>(n) + 1, 0);
    // checked in the same pass (one read of the flows less than checking first)
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        const Flow& f = flows[i];
        CheckFlow(f, i, n);
        ++start[f.dst + 1];
    }
    for (uint32_t t = 0; t < n; ++t)
    {
        start[t + 1] += start[t];
    }
    // the scatter writes what the aggregation reads, so that it reads in order
    std::vector<SortedFlow>& byDst = groups.byDestination;
    byDst.resize(nFlows);
    {
        std::vector<uint32_t> fill(start.begin(), start.end() - 1);
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            const Flow& f = flows[i];
            byDst[fill[f.dst]++] = SortedFlow::Make(f.demand, i, f.src, f.cls);
        }
    }
    std::vector<uint32_t> stamp(n, NONE);
    std::vector<uint32_t> slot(n, 0);
    // at most one pair per flow and one run per node: one allocation each (untouched capacity
    // costs address space only)
    pairs.reserve(nFlows);
    runs.reserve(n);
    for (uint32_t t = 0; t < n; ++t)
    {
        if (start[t] == start[t + 1])
        {
            continue;
        }
        DestinationRun run{t, pairs.size(), 0};
        for (uint32_t k = start[t]; k < start[t + 1]; ++k)
        {
            const SortedFlow& f = byDst[k];
            const uint32_t i = f.flow;
            if (stamp[f.src] != t)
            {
                stamp[f.src] = t;
                slot[f.src] = static_cast<uint32_t>(pairs.size());
                // built in place: a copy from the stack read the fields back in wider loads
                // than they were written with (a store-forwarding stall per pair)
                PairDemand& p = pairs.emplace_back();
                p.src = f.src;
                p.dst = t;
                p.firstFlow = i;
            }
            PairDemand& p = pairs[slot[f.src]];
            // without a branch on the class (random from flow to flow: a misprediction every
            // other flow): the other class's sum gets +0.0, and x + 0.0 == x for the sums of
            // positive demands (negating a double is exact: the sums are those of the flows'
            // demands, in flow order)
            // (max() compiles to a maxsd, the comparisons to setcc: no jump)
            const double d = f.signedDemand;
            p.demandKv += std::max(d, 0.0);
            p.demandTraining += std::max(-d, 0.0);
            p.countKv += d > 0 ? 1 : 0;
            p.countTraining += d < 0 ? 1 : 0;
            if (flowPair)
            {
                groups.flowPair[i] = slot[f.src];
            }
        }
        run.end = pairs.size();
        runs.push_back(run);
    }
}

} // namespace mose
} // namespace ns3
