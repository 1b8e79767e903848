/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-metrics.h"

#include "mose-error.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseMetrics");

namespace
{

/// Shorthand for the "none" value of distances, next hops and circuits
constexpr uint32_t NONE = DestinationTree::UNREACHABLE;

/// Throws unless 0 <= p <= 100 (NaN included)
void
CheckPercent(double p)
{
    if (!(p >= 0.0 && p <= 100.0))
    {
        ThrowBadParameter("percentile", FormatNumber(p), "0 <= p <= 100");
    }
}

/// \return the fractional rank h = (n - 1) p / 100 of type-7 interpolation
double
Rank(uint64_t n, double p)
{
    return static_cast<double>(n - 1) * p / 100.0;
}

/// \return v[k] + (h - k)(v[k+1] - v[k]), written once so both percentile functions agree
double
Interpolate(double lower, double upper, double h, double k)
{
    return lower + (h - k) * (upper - lower);
}

/**
 * \brief The value at a 0-based rank of a multiset given as (value, count) pairs.
 *
 * Quickselect on the pairs with a three-way partition around a median-of-three pivot value,
 * weighing each side by its counts: O(m) on average for m pairs. After 2 log2(m) + 8 rounds
 * (an adversarial order) it sorts what is left and walks the cumulative counts, so the worst
 * case stays O(m log m). Reorders the pairs.
 * \param values the pairs, counts > 0
 * \param rank the rank, < the total count
 * \return the value
 */
double
SelectRank(std::vector<std::pair<double, uint64_t>>& values, uint64_t rank)
{
    using Entry = std::pair<double, uint64_t>;
    auto lo = values.begin();
    auto hi = values.end();
    uint32_t rounds = 8;
    for (std::size_t m = values.size(); m > 1; m >>= 1)
    {
        rounds += 2;
    }
    while (hi - lo > 1 && rounds-- > 0)
    {
        const double a = lo->first;
        const double b = (lo + (hi - lo) / 2)->first;
        const double c = (hi - 1)->first;
        const double pivot = std::max(std::min(a, b), std::min(std::max(a, b), c));
        auto mid1 = std::partition(lo, hi, [pivot](const Entry& e) { return e.first < pivot; });
        auto mid2 = std::partition(mid1, hi, [pivot](const Entry& e) { return e.first == pivot; });
        uint64_t less = 0;
        for (auto it = lo; it != mid1; ++it)
        {
            less += it->second;
        }
        uint64_t equal = 0;
        for (auto it = mid1; it != mid2; ++it)
        {
            equal += it->second;
        }
        if (rank < less)
        {
            hi = mid1;
        }
        else if (rank < less + equal)
        {
            return pivot;
        }
        else
        {
            rank -= less + equal;
            lo = mid2;
        }
    }
    std::sort(lo, hi);
    for (auto it = lo; it != hi; ++it)
    {
        if (rank < it->second)
        {
            return it->first;
        }
        rank -= it->second;
    }
    return (hi - 1)->first; // not reached for a valid rank
}

/**
 * \brief All (source, destination) flows of one pair, per class.
 */
struct PairDemand
{
    uint32_t src;           //!< source
    uint32_t dst;           //!< destination
    double demandKv;        //!< summed KV demand
    double demandTraining;  //!< summed training demand
    uint64_t countKv;       //!< number of KV flows
    uint64_t countTraining; //!< number of training flows
    uint32_t firstFlow;     //!< index of the pair's first flow (for error messages)
    double cost;            //!< cost from src to dst (pass 2)
    uint32_t hops;          //!< distance from src to dst
};

/// One destination's run of pairs in the pair vector
struct DestinationRun
{
    uint32_t destination; //!< t
    std::size_t begin;    //!< first pair
    std::size_t end;      //!< one past the last pair
};

/// Throws the error for a malformed flow
[[noreturn]] void
ThrowBadFlow(std::size_t index, const std::string& problem)
{
    throw MoseError("invalid flow " + std::to_string(index) + ": " + problem);
}

/// Checks every flow's ids, classes and demand
void
ValidateFlows(const std::vector<Flow>& flows, uint32_t n)
{
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const Flow& f = flows[i];
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
            ThrowBadFlow(i,
                         "demand = " + FormatNumber(f.demand) + "; it must be positive and finite");
        }
        if (f.cls != TrafficClass::KV && f.cls != TrafficClass::TRAINING)
        {
            ThrowBadFlow(i,
                         "class = " + std::to_string(static_cast<int>(f.cls)) +
                             "; allowed classes are kv and training");
        }
    }
}

/**
 * \brief The running totals of one class's flows over the (source, destination) pairs: what
 *        Summarise() needs besides the class's loads.
 */
struct ClassTotals
{
    std::vector<std::pair<double, uint64_t>> entries; //!< (cost, flows) per pair with flows
    double hopSum = 0;                                //!< sum over the flows of their hops
    double demand = 0;                                //!< total demand
    uint64_t flows = 0;                               //!< number of flows

    /**
     * \brief Adds a pair's flows of the class.
     * \param p the pair (its cost and hops)
     * \param count the pair's flows of the class, > 0
     * \param pairDemand their summed demand
     * \param hopHistogram the class's flows per hop count, grown as needed
     */
    void Add(const PairDemand& p,
             uint64_t count,
             double pairDemand,
             std::vector<uint64_t>& hopHistogram)
    {
        entries.emplace_back(p.cost, count);
        hopSum += static_cast<double>(p.hops) * static_cast<double>(count);
        demand += pairDemand;
        flows += count;
        if (hopHistogram.size() <= p.hops)
        {
            hopHistogram.resize(p.hops + 1, 0);
        }
        hopHistogram[p.hops] += count;
    }
};

/**
 * \brief Per-class summary of a class's pairs and loads.
 * \param totals the class's totals over its pairs; the entries are moved out
 * \param load the class's per-circuit load
 * \return the metrics
 */
ClassMetrics
Summarise(ClassTotals& totals, const std::vector<double>& load)
{
    ClassMetrics m;
    m.flows = totals.flows;
    m.demand = totals.demand;
    if (!load.empty())
    {
        m.maxLoad = *std::max_element(load.begin(), load.end());
        m.p95Load = Percentile(load, 95.0);
    }
    if (totals.flows > 0)
    {
        double costSum = 0;
        for (const auto& [cost, count] : totals.entries)
        {
            costSum += cost * static_cast<double>(count);
        }
        m.avgHop = totals.hopSum / static_cast<double>(totals.flows);
        m.avgCost = costSum / static_cast<double>(totals.flows);
        m.p95Cost = WeightedPercentile(std::move(totals.entries), 95.0);
    }
    return m;
}

/// KV and training demand at a node heading to the current destination (one cache line)
struct Acc
{
    double kv; //!< KV demand
    double tr; //!< training demand
};

/**
 * \brief The shared implementation of both EvaluateFlows() overloads.
 *
 * Groups the flows, then runs pass 1 (loads) and pass 2 (costs) over the destinations, each
 * pass recomputing the destinations' distances 64 at a time (ComputeTreeBatch()); the comment
 * at forEachDestination says what each rule does per destination. Never stores anything of size
 * N^2.
 *
 * \param routing the routing
 * \param flows the flows
 * \param perFlow if not null, filled with each flow's result
 * \return the metrics
 */
FlowMetrics
Evaluate(const ShortestPathRouting& routing,
         const std::vector<Flow>& flows,
         std::vector<FlowResult>* perFlow)
{
    const CircuitGraph& graph = routing.GetGraph();
    const CircuitGraph::Graph& g = graph.GetGraph();
    const uint32_t n = graph.GetNNodes();
    const uint32_t m = graph.GetNCircuits();
    const bool ecmp = routing.GetRule() == RoutingRule::ECMP;
    if (flows.size() >= NONE)
    {
        throw MoseError("EvaluateFlows: " + std::to_string(flows.size()) +
                        " flows; at most 4294967294 are supported");
    }
    ValidateFlows(flows, n);
    const auto nFlows = static_cast<uint32_t>(flows.size());

    // Group the flows by destination with a counting sort (stable: flow order within a
    // destination), then aggregate them per (source, destination) pair with a dense
    // per-source slot stamped by the destination. O(F + N), no comparison sort.
    std::vector<PairDemand> pairs;
    std::vector<DestinationRun> runs;
    std::vector<uint32_t> flowPair(perFlow ? nFlows : 0);
    {
        std::vector<uint32_t> start(static_cast<std::size_t>(n) + 1, 0);
        for (const Flow& f : flows)
        {
            ++start[f.dst + 1];
        }
        for (uint32_t t = 0; t < n; ++t)
        {
            start[t + 1] += start[t];
        }
        std::vector<uint32_t> byDst(nFlows);
        {
            std::vector<uint32_t> fill(start.begin(), start.end() - 1);
            for (uint32_t i = 0; i < nFlows; ++i)
            {
                byDst[fill[flows[i].dst]++] = i;
            }
        }
        std::vector<uint32_t> stamp(n, NONE);
        std::vector<uint32_t> slot(n, 0);
        // count the pairs and destinations first so that the vectors are allocated once
        std::size_t nPairs = 0;
        std::size_t nRuns = 0;
        for (uint32_t t = 0; t < n; ++t)
        {
            nRuns += (start[t] < start[t + 1]) ? 1 : 0;
            for (uint32_t k = start[t]; k < start[t + 1]; ++k)
            {
                const uint32_t src = flows[byDst[k]].src;
                nPairs += (stamp[src] != t) ? 1 : 0;
                stamp[src] = t;
            }
        }
        pairs.reserve(nPairs);
        runs.reserve(nRuns);
        std::fill(stamp.begin(), stamp.end(), NONE);
        for (uint32_t t = 0; t < n; ++t)
        {
            if (start[t] == start[t + 1])
            {
                continue;
            }
            DestinationRun run{t, pairs.size(), 0};
            for (uint32_t k = start[t]; k < start[t + 1]; ++k)
            {
                const uint32_t i = byDst[k];
                const Flow& f = flows[i];
                if (stamp[f.src] != t)
                {
                    stamp[f.src] = t;
                    slot[f.src] = static_cast<uint32_t>(pairs.size());
                    pairs.push_back({f.src, t, 0.0, 0.0, 0, 0, i, 0.0, 0});
                }
                PairDemand& p = pairs[slot[f.src]];
                if (f.cls == TrafficClass::KV)
                {
                    p.demandKv += f.demand;
                    ++p.countKv;
                }
                else
                {
                    p.demandTraining += f.demand;
                    ++p.countTraining;
                }
                if (perFlow)
                {
                    flowPair[i] = slot[f.src];
                }
            }
            run.end = pairs.size();
            runs.push_back(run);
        }
    }

    FlowMetrics r;
    r.loadKv.assign(m, 0.0);
    r.loadTraining.assign(m, 0.0);
    double* loadKv = r.loadKv.data();
    double* loadTr = r.loadTraining.data();

    // Trees come BATCH destinations at a time from the bit-parallel search (TreeBatch, distances
    // only: writing the next-hop table would cost three times as much as the search at
    // N = 16384). Per destination t, with H the total hops of its pairs:
    // - single-path rules, H <= N: each pair's path is walked (walk(run, step), step(u, circuit)
    //   -> next hop): the lowest-id next hop is the first closer neighbour in the CSR row, random
    //   ones are evaluated lazily over the walked paths' shortest-path intervals
    //   (LazyRandomTree);
    // - single-path rules, H > N: a full DestinationTree (visit(run, tree)), loads accumulated
    //   from the leaves up and costs from the root down over all its nodes;
    // - ECMP: the sub-DAG that carries t's demand (the sources and every node on a shortest
    //   path from them to t), found by a search from the sources and sorted by distance
    //   (ecmpVisit(run, batch, slot) after buildDag()), at most the whole tree.
    // Every rule costs O(min(N + E, work along the flows' paths)) per destination after the
    // search. The results do not depend on the strategy, except for the order of
    // floating-point additions (exact for integer demands).
    const bool lowestId = routing.GetRule() == RoutingRule::SHORTEST_PATH;
    std::vector<uint32_t> batchDestinations;
    // shared with the lazy evaluator, which keeps the batch it was last reset on
    const auto treeBatchShared = std::make_shared<TreeBatch>();
    TreeBatch& treeBatch = *treeBatchShared;
    DestinationTree fullTree;
    LazyRandomTree lazy(routing);
    std::vector<uint32_t> dagStamp(ecmp ? n : 0, NONE);
    std::vector<uint32_t> dagStack;
    std::vector<uint32_t> dagNodes;
    std::vector<uint32_t> dagSorted;
    std::vector<uint32_t> dagLevelStart;
    uint32_t dagEpoch = 0;
    // Fills dagSorted with the demand-carrying sub-DAG of a destination, by distance
    // (destination first)
    auto buildDag = [&](const DestinationRun& run, const TreeBatch& tb, uint32_t slot) {
        const uint32_t epoch = dagEpoch++;
        dagNodes.clear();
        dagStack.clear();
        uint32_t maxDistance = 0;
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            const uint32_t src = pairs[k].src;
            if (dagStamp[src] != epoch)
            {
                dagStamp[src] = epoch;
                dagStack.push_back(src);
                maxDistance = std::max(maxDistance, tb.Distance(src, slot));
            }
        }
        while (!dagStack.empty())
        {
            const uint32_t u = dagStack.back();
            dagStack.pop_back();
            dagNodes.push_back(u);
            const uint32_t du = tb.Distance(u, slot);
            if (du == 0)
            {
                continue;
            }
            for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
            {
                const uint32_t v = boost::target(*it, g);
                if (dagStamp[v] != epoch && tb.Distance(v, slot) + 1 == du)
                {
                    dagStamp[v] = epoch;
                    dagStack.push_back(v);
                }
            }
        }
        // counting sort by distance; within a distance, discovery order
        dagLevelStart.assign(maxDistance + 2, 0);
        for (uint32_t u : dagNodes)
        {
            ++dagLevelStart[tb.Distance(u, slot) + 1];
        }
        for (uint32_t k = 1; k < dagLevelStart.size(); ++k)
        {
            dagLevelStart[k] += dagLevelStart[k - 1];
        }
        dagSorted.resize(dagNodes.size());
        for (uint32_t u : dagNodes)
        {
            dagSorted[dagLevelStart[tb.Distance(u, slot)]++] = u;
        }
    };
    auto unreachable = [&](const PairDemand& p) {
        ThrowBadFlow(p.firstFlow,
                     "dst = " + std::to_string(p.dst) + " cannot be reached from src = " +
                         std::to_string(p.src) + " (the graph is not connected)");
    };
    auto forEachDestination = [&](auto&& walk, auto&& visit, auto&& ecmpVisit) {
        for (std::size_t first = 0; first < runs.size(); first += ShortestPathRouting::BATCH)
        {
            const std::size_t last =
                std::min<std::size_t>(runs.size(), first + ShortestPathRouting::BATCH);
            batchDestinations.clear();
            for (std::size_t k = first; k < last; ++k)
            {
                batchDestinations.push_back(runs[k].destination);
            }
            const auto count = static_cast<uint32_t>(batchDestinations.size());
            routing.ComputeTreeBatch(batchDestinations.data(), count, treeBatch, false);
            for (uint32_t slot = 0; slot < count; ++slot)
            {
                const DestinationRun& run = runs[first + slot];
                uint64_t hops = 0;
                for (std::size_t k = run.begin; k < run.end; ++k)
                {
                    const uint32_t d = treeBatch.GetDistance(pairs[k].src, slot);
                    if (d == NONE)
                    {
                        unreachable(pairs[k]);
                    }
                    hops += d;
                }
                if (ecmp)
                {
                    buildDag(run, treeBatch, slot);
                    ecmpVisit(run, treeBatch, slot);
                }
                else if (hops > n)
                {
                    if (lowestId)
                    {
                        treeBatch.ExtractTree(slot, fullTree);
                    }
                    else
                    {
                        routing.ComputeTree(run.destination, fullTree);
                    }
                    visit(run, fullTree);
                }
                else if (lowestId)
                {
                    // the first closer neighbour in the id-sorted CSR row
                    walk(run, [&treeBatch, &g, slot](uint32_t u, uint32_t& circuit) {
                        const uint32_t du = treeBatch.Distance(u, slot);
                        auto [it, end] = boost::out_edges(u, g);
                        while (treeBatch.Distance(boost::target(*it, g), slot) + 1 != du)
                        {
                            ++it;
                        }
                        circuit = g[*it];
                        return static_cast<uint32_t>(boost::target(*it, g));
                    });
                }
                else
                {
                    lazy.Reset(treeBatchShared, slot);
                    walk(run,
                         [&lazy](uint32_t u, uint32_t& circuit) { return lazy.Step(u, circuit); });
                }
            }
        }
    };

    // Pass 1: loads. acc(u) is the demand at u heading to t (its own flows plus everything
    // forwarded through it); entries are cleared as they are forwarded, so the array is all
    // zero between destinations.
    std::vector<Acc> accVec(n, Acc{0.0, 0.0});
    Acc* acc = accVec.data();
    auto walkLoads = [&](const DestinationRun& run, auto&& step) {
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            const PairDemand& p = pairs[k];
            uint32_t c = NONE;
            for (uint32_t u = p.src; u != run.destination;)
            {
                u = step(u, c);
                loadKv[c] += p.demandKv;
                loadTr[c] += p.demandTraining;
            }
        }
    };
    auto treeLoads = [&](const DestinationRun& run, const DestinationTree& tree) {
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            acc[pairs[k].src] = Acc{pairs[k].demandKv, pairs[k].demandTraining};
        }
        const uint32_t* order = tree.order.data();
        const uint32_t* next = tree.nextHop.data();
        const uint32_t* nextCircuit = tree.nextCircuit.data();
        for (std::size_t i = tree.order.size() - 1; i > 0; --i)
        {
            const uint32_t u = order[i];
            const Acc a = acc[u];
            if (a.kv == 0.0 && a.tr == 0.0)
            {
                continue;
            }
            acc[u] = Acc{0.0, 0.0};
            const uint32_t v = next[u];
            const uint32_t c = nextCircuit[u];
            acc[v].kv += a.kv;
            acc[v].tr += a.tr;
            loadKv[c] += a.kv;
            loadTr[c] += a.tr;
        }
        acc[run.destination] = Acc{0.0, 0.0};
    };
    auto ecmpLoads = [&](const DestinationRun& run, const TreeBatch& tb, uint32_t slot) {
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            acc[pairs[k].src] = Acc{pairs[k].demandKv, pairs[k].demandTraining};
        }
        // farthest first; dagSorted[0] is the destination
        for (std::size_t i = dagSorted.size() - 1; i > 0; --i)
        {
            const uint32_t u = dagSorted[i];
            const Acc a = acc[u];
            acc[u] = Acc{0.0, 0.0};
            const uint32_t du = tb.Distance(u, slot);
            auto [begin, end] = boost::out_edges(u, g);
            uint32_t closer = 0;
            for (auto it = begin; it != end; ++it)
            {
                closer += (tb.Distance(boost::target(*it, g), slot) + 1 == du) ? 1 : 0;
            }
            const double shareKv = a.kv / closer;
            const double shareTr = a.tr / closer;
            for (auto it = begin; it != end; ++it)
            {
                const uint32_t v = boost::target(*it, g);
                if (tb.Distance(v, slot) + 1 == du)
                {
                    const uint32_t c = g[*it];
                    acc[v].kv += shareKv;
                    acc[v].tr += shareTr;
                    loadKv[c] += shareKv;
                    loadTr[c] += shareTr;
                }
            }
        }
        acc[run.destination] = Acc{0.0, 0.0};
    };
    forEachDestination(walkLoads, treeLoads, ecmpLoads);
    std::vector<Acc>().swap(accVec);

    r.load.resize(m);
    for (uint32_t c = 0; c < m; ++c)
    {
        r.load[c] = loadKv[c] + loadTr[c];
    }
    const double* load = r.load.data();

    // Pass 2: costs on total loads, from the root down, on recomputed trees.
    std::vector<double> costVec(n, 0.0);
    double* cost = costVec.data();
    auto walkCosts = [&](const DestinationRun& run, auto&& step) {
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            double sum = 0;
            uint32_t hops = 0;
            uint32_t c = NONE;
            for (uint32_t u = pairs[k].src; u != run.destination; ++hops)
            {
                u = step(u, c);
                sum += load[c];
            }
            pairs[k].cost = sum;
            pairs[k].hops = hops;
        }
    };
    auto treeCosts = [&](const DestinationRun& run, const DestinationTree& tree) {
        const uint32_t* order = tree.order.data();
        const uint32_t* next = tree.nextHop.data();
        const uint32_t* nextCircuit = tree.nextCircuit.data();
        cost[run.destination] = 0.0;
        for (std::size_t i = 1; i < tree.order.size(); ++i)
        {
            const uint32_t u = order[i];
            cost[u] = load[nextCircuit[u]] + cost[next[u]];
        }
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            pairs[k].cost = cost[pairs[k].src];
            pairs[k].hops = tree.distance[pairs[k].src];
        }
    };
    auto ecmpCosts = [&](const DestinationRun& run, const TreeBatch& tb, uint32_t slot) {
        cost[run.destination] = 0.0;
        // nearest first: every closer neighbour's cost is known
        for (std::size_t i = 1; i < dagSorted.size(); ++i)
        {
            const uint32_t u = dagSorted[i];
            const uint32_t du = tb.Distance(u, slot);
            double sum = 0;
            uint32_t closer = 0;
            for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
            {
                const uint32_t v = boost::target(*it, g);
                if (tb.Distance(v, slot) + 1 == du)
                {
                    sum += load[g[*it]] + cost[v];
                    ++closer;
                }
            }
            cost[u] = sum / closer;
        }
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            pairs[k].cost = cost[pairs[k].src];
            pairs[k].hops = tb.Distance(pairs[k].src, slot);
        }
    };
    forEachDestination(walkCosts, treeCosts, ecmpCosts);

    // Per-class summaries over flows: each pair contributes its flow count.
    ClassTotals all;
    ClassTotals kv;
    ClassTotals tr;
    all.entries.reserve(pairs.size());
    for (const PairDemand& p : pairs)
    {
        const uint64_t count = p.countKv + p.countTraining;
        all.entries.emplace_back(p.cost, count);
        all.hopSum += static_cast<double>(p.hops) * static_cast<double>(count);
        if (p.countKv > 0)
        {
            kv.Add(p, p.countKv, p.demandKv, r.hopHistogramKv);
        }
        if (p.countTraining > 0)
        {
            tr.Add(p, p.countTraining, p.demandTraining, r.hopHistogramTraining);
        }
    }
    // the totals of all flows are the two classes' totals
    all.flows = kv.flows + tr.flows;
    all.demand = kv.demand + tr.demand;
    r.all = Summarise(all, r.load);
    r.kv = Summarise(kv, r.loadKv);
    r.training = Summarise(tr, r.loadTraining);
    if (kv.flows > 0)
    {
        const std::vector<uint64_t>& h = r.hopHistogramKv;
        uint64_t direct = h.size() > 1 ? h[1] : 0;
        uint64_t threePlus = 0;
        for (std::size_t k = 3; k < h.size(); ++k)
        {
            threePlus += h[k];
        }
        r.directKv = static_cast<double>(direct) / static_cast<double>(kv.flows);
        r.kvThreePlus = static_cast<double>(threePlus) / static_cast<double>(kv.flows);
    }

    if (perFlow)
    {
        perFlow->resize(flows.size());
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            const PairDemand& p = pairs[flowPair[i]];
            (*perFlow)[i] = FlowResult{p.cost, p.hops};
        }
    }
    return r;
}

} // namespace

double
Percentile(std::vector<double> values, double p)
{
    CheckPercent(p);
    if (values.empty())
    {
        throw MoseError("Percentile: the sample is empty");
    }
    // selection instead of a full sort: O(n) on average
    const double h = Rank(values.size(), p);
    const auto k = static_cast<std::size_t>(std::floor(h));
    std::nth_element(values.begin(), values.begin() + k, values.end());
    const double lower = values[k];
    const double upper =
        k + 1 < values.size() ? *std::min_element(values.begin() + k + 1, values.end()) : lower;
    return Interpolate(lower, upper, h, static_cast<double>(k));
}

double
WeightedPercentile(std::vector<std::pair<double, uint64_t>> values, double p)
{
    CheckPercent(p);
    values.erase(std::remove_if(values.begin(),
                                values.end(),
                                [](const std::pair<double, uint64_t>& e) { return e.second == 0; }),
                 values.end());
    uint64_t total = 0;
    for (const auto& e : values)
    {
        total += e.second;
    }
    if (total == 0)
    {
        throw MoseError("WeightedPercentile: the sample is empty");
    }
    const double h = Rank(total, p);
    const auto k = static_cast<uint64_t>(std::floor(h));
    const uint64_t k1 = std::min<uint64_t>(k + 1, total - 1);
    const double lower = SelectRank(values, k);
    const double upper = k1 == k ? lower : SelectRank(values, k1);
    return Interpolate(lower, upper, h, static_cast<double>(k));
}

FlowMetrics
EvaluateFlows(const ShortestPathRouting& routing, const std::vector<Flow>& flows)
{
    return Evaluate(routing, flows, nullptr);
}

FlowMetrics
EvaluateFlows(const ShortestPathRouting& routing,
              const std::vector<Flow>& flows,
              std::vector<FlowResult>& perFlow)
{
    return Evaluate(routing, flows, &perFlow);
}

} // namespace mose
} // namespace ns3
