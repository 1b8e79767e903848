/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-metrics.h"

#include "mose-error.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

namespace
{

/// Shorthand for the "none" value of distances, next hops and circuits
constexpr uint32_t NONE = DestinationTree::UNREACHABLE;

/// \return the value as text with enough digits to tell it apart
std::string
Format(double value)
{
    std::ostringstream os;
    os.precision(17);
    os << value;
    return os.str();
}

/// Throws unless 0 <= p <= 100 (NaN included)
void
CheckPercent(double p)
{
    if (!(p >= 0.0 && p <= 100.0))
    {
        ThrowBadParameter("percentile", Format(p), "0 <= p <= 100");
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
            ThrowBadFlow(i, "demand = " + Format(f.demand) + "; it must be positive and finite");
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
 * \brief Per-class summary of a class's pairs and loads.
 * \param entries (cost, flows) per pair with flows of the class
 * \param hopSum sum over the class's flows of hops
 * \param flows number of flows
 * \param demand total demand
 * \param load the class's per-circuit load
 * \return the metrics
 */
ClassMetrics
Summarise(std::vector<std::pair<double, uint64_t>>& entries,
          double hopSum,
          uint64_t flows,
          double demand,
          const std::vector<double>& load)
{
    ClassMetrics m;
    m.flows = flows;
    m.demand = demand;
    if (!load.empty())
    {
        m.maxLoad = *std::max_element(load.begin(), load.end());
        m.p95Load = Percentile(load, 95.0);
    }
    if (flows > 0)
    {
        double costSum = 0;
        for (const auto& [cost, count] : entries)
        {
            costSum += cost * static_cast<double>(count);
        }
        m.avgHop = hopSum / static_cast<double>(flows);
        m.avgCost = costSum / static_cast<double>(flows);
        m.p95Cost = WeightedPercentile(std::move(entries), 95.0);
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
 * Work per destination t, given its tree (computed 64 at a time by ComputeTrees(), twice: once
 * per pass, never stored for all destinations):
 * - single-path rules: if the pairs towards t have fewer hops in total than the tree has nodes,
 *   each pair's path is walked (loads in pass 1, the sum of loads in pass 2); otherwise loads
 *   are accumulated over the whole tree from the leaves up (pass 1) and every node's cost from
 *   the root down (pass 2). Either way O(min(N, sum of hops)) after the tree.
 * - ECMP: pass 1 visits the tree from the leaves up and splits the demand of every node that
 *   carries some evenly over its closer neighbours; pass 2 marks the nodes that carry demand
 *   (the sources and everything downstream of them) and computes C(u) = mean over closer
 *   neighbours v of (load(u, v) + C(v)) for those only, from the root down.
 * The results do not depend on which of the two single-path strategies runs, except for the
 * order of floating-point additions (exact for integer demands).
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

    // The trees of up to BATCH destinations at a time
    std::vector<uint32_t> batch;
    std::vector<DestinationTree> trees;
    auto forEachTree = [&](auto&& visit) {
        for (std::size_t first = 0; first < runs.size(); first += ShortestPathRouting::BATCH)
        {
            const std::size_t last =
                std::min<std::size_t>(runs.size(), first + ShortestPathRouting::BATCH);
            batch.clear();
            for (std::size_t k = first; k < last; ++k)
            {
                batch.push_back(runs[k].destination);
            }
            routing.ComputeTrees(batch, trees);
            for (std::size_t k = first; k < last; ++k)
            {
                visit(runs[k], trees[k - first]);
            }
        }
    };
    // total hops of a destination's pairs; throws for a pair that cannot reach it
    auto hopSum = [&](const DestinationRun& run, const DestinationTree& tree) {
        uint64_t sum = 0;
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            const PairDemand& p = pairs[k];
            const uint32_t d = tree.distance[p.src];
            if (d == NONE)
            {
                ThrowBadFlow(p.firstFlow,
                             "dst = " + std::to_string(p.dst) + " cannot be reached from src = " +
                                 std::to_string(p.src) + " (the graph is not connected)");
            }
            sum += d;
        }
        return sum;
    };

    // Pass 1: loads. acc(u) is the demand at u heading to t (its own flows plus everything
    // forwarded through it); entries are cleared as they are forwarded, so the array is all
    // zero between destinations.
    std::vector<Acc> accVec(n, Acc{0.0, 0.0});
    Acc* acc = accVec.data();
    forEachTree([&](const DestinationRun& run, const DestinationTree& tree) {
        const uint64_t hops = hopSum(run, tree);
        const uint32_t* dist = tree.distance.data();
        const uint32_t* order = tree.order.data();
        const std::size_t reached = tree.order.size();
        if (!ecmp && hops <= reached)
        {
            const uint32_t* next = tree.nextHop.data();
            const uint32_t* nextCircuit = tree.nextCircuit.data();
            for (std::size_t k = run.begin; k < run.end; ++k)
            {
                const PairDemand& p = pairs[k];
                for (uint32_t u = p.src; u != run.destination; u = next[u])
                {
                    loadKv[nextCircuit[u]] += p.demandKv;
                    loadTr[nextCircuit[u]] += p.demandTraining;
                }
            }
            return;
        }
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            acc[pairs[k].src] = Acc{pairs[k].demandKv, pairs[k].demandTraining};
        }
        if (!ecmp)
        {
            const uint32_t* next = tree.nextHop.data();
            const uint32_t* nextCircuit = tree.nextCircuit.data();
            for (std::size_t i = reached - 1; i > 0; --i)
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
        }
        else
        {
            for (std::size_t i = reached - 1; i > 0; --i)
            {
                const uint32_t u = order[i];
                const Acc a = acc[u];
                if (a.kv == 0.0 && a.tr == 0.0)
                {
                    continue;
                }
                acc[u] = Acc{0.0, 0.0};
                const uint32_t du = dist[u];
                auto [begin, end] = boost::out_edges(u, g);
                uint32_t closer = 0;
                for (auto it = begin; it != end; ++it)
                {
                    closer += (dist[boost::target(*it, g)] + 1 == du) ? 1 : 0;
                }
                const double shareKv = a.kv / closer;
                const double shareTr = a.tr / closer;
                for (auto it = begin; it != end; ++it)
                {
                    const uint32_t v = boost::target(*it, g);
                    if (dist[v] + 1 == du)
                    {
                        const uint32_t c = g[*it];
                        acc[v].kv += shareKv;
                        acc[v].tr += shareTr;
                        loadKv[c] += shareKv;
                        loadTr[c] += shareTr;
                    }
                }
            }
        }
        acc[run.destination] = Acc{0.0, 0.0};
    });
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
    std::vector<uint32_t> markVec(ecmp ? n : 0, NONE);
    uint32_t* mark = markVec.data();
    uint32_t runIndex = 0;
    forEachTree([&](const DestinationRun& run, const DestinationTree& tree) {
        const uint64_t hops = hopSum(run, tree);
        const uint32_t* dist = tree.distance.data();
        const uint32_t* order = tree.order.data();
        const std::size_t reached = tree.order.size();
        const uint32_t t = run.destination;
        if (!ecmp)
        {
            const uint32_t* next = tree.nextHop.data();
            const uint32_t* nextCircuit = tree.nextCircuit.data();
            if (hops <= reached)
            {
                for (std::size_t k = run.begin; k < run.end; ++k)
                {
                    double sum = 0;
                    for (uint32_t u = pairs[k].src; u != t; u = next[u])
                    {
                        sum += load[nextCircuit[u]];
                    }
                    pairs[k].cost = sum;
                }
            }
            else
            {
                cost[t] = 0.0;
                for (std::size_t i = 1; i < reached; ++i)
                {
                    const uint32_t u = order[i];
                    cost[u] = load[nextCircuit[u]] + cost[next[u]];
                }
                for (std::size_t k = run.begin; k < run.end; ++k)
                {
                    pairs[k].cost = cost[pairs[k].src];
                }
            }
        }
        else
        {
            // mark the sources and everything their demand flows through
            const uint32_t stamp = runIndex++;
            for (std::size_t k = run.begin; k < run.end; ++k)
            {
                mark[pairs[k].src] = stamp;
            }
            for (std::size_t i = reached - 1; i > 0; --i)
            {
                const uint32_t u = order[i];
                if (mark[u] != stamp)
                {
                    continue;
                }
                const uint32_t du = dist[u];
                for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
                {
                    const uint32_t v = boost::target(*it, g);
                    mark[v] = (dist[v] + 1 == du) ? stamp : mark[v];
                }
            }
            cost[t] = 0.0;
            for (std::size_t i = 1; i < reached; ++i)
            {
                const uint32_t u = order[i];
                if (mark[u] != stamp)
                {
                    continue;
                }
                const uint32_t du = dist[u];
                double sum = 0;
                uint32_t closer = 0;
                for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
                {
                    const uint32_t v = boost::target(*it, g);
                    if (dist[v] + 1 == du)
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
            }
        }
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            pairs[k].hops = dist[pairs[k].src];
        }
    });
    std::vector<DestinationTree>().swap(trees);

    // Per-class summaries over flows: each pair contributes its flow count.
    std::vector<std::pair<double, uint64_t>> entriesAll;
    std::vector<std::pair<double, uint64_t>> entriesKv;
    std::vector<std::pair<double, uint64_t>> entriesTr;
    entriesAll.reserve(pairs.size());
    double hopsAll = 0;
    double hopsKv = 0;
    double hopsTr = 0;
    double demandKv = 0;
    double demandTr = 0;
    uint64_t flowsKv = 0;
    uint64_t flowsTr = 0;
    for (const PairDemand& p : pairs)
    {
        const uint64_t count = p.countKv + p.countTraining;
        entriesAll.emplace_back(p.cost, count);
        hopsAll += static_cast<double>(p.hops) * static_cast<double>(count);
        if (p.countKv > 0)
        {
            entriesKv.emplace_back(p.cost, p.countKv);
            hopsKv += static_cast<double>(p.hops) * static_cast<double>(p.countKv);
            demandKv += p.demandKv;
            flowsKv += p.countKv;
            if (r.hopHistogramKv.size() <= p.hops)
            {
                r.hopHistogramKv.resize(p.hops + 1, 0);
            }
            r.hopHistogramKv[p.hops] += p.countKv;
        }
        if (p.countTraining > 0)
        {
            entriesTr.emplace_back(p.cost, p.countTraining);
            hopsTr += static_cast<double>(p.hops) * static_cast<double>(p.countTraining);
            demandTr += p.demandTraining;
            flowsTr += p.countTraining;
            if (r.hopHistogramTraining.size() <= p.hops)
            {
                r.hopHistogramTraining.resize(p.hops + 1, 0);
            }
            r.hopHistogramTraining[p.hops] += p.countTraining;
        }
    }
    r.all = Summarise(entriesAll, hopsAll, flowsKv + flowsTr, demandKv + demandTr, r.load);
    r.kv = Summarise(entriesKv, hopsKv, flowsKv, demandKv, r.loadKv);
    r.training = Summarise(entriesTr, hopsTr, flowsTr, demandTr, r.loadTraining);
    if (flowsKv > 0)
    {
        const std::vector<uint64_t>& h = r.hopHistogramKv;
        uint64_t direct = h.size() > 1 ? h[1] : 0;
        uint64_t threePlus = 0;
        for (std::size_t k = 3; k < h.size(); ++k)
        {
            threePlus += h[k];
        }
        r.directKv = static_cast<double>(direct) / static_cast<double>(flowsKv);
        r.kvThreePlus = static_cast<double>(threePlus) / static_cast<double>(flowsKv);
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
    std::sort(values.begin(), values.end());
    const double h = Rank(values.size(), p);
    const auto k = static_cast<std::size_t>(std::floor(h));
    const std::size_t k1 = std::min(k + 1, values.size() - 1);
    return Interpolate(values[k], values[k1], h, static_cast<double>(k));
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
    std::sort(values.begin(), values.end());
    const double h = Rank(total, p);
    const auto k = static_cast<uint64_t>(std::floor(h));
    const uint64_t k1 = std::min<uint64_t>(k + 1, total - 1);
    // walk the cumulative counts: entry i covers ranks [below, below + count)
    double lower = 0;
    double upper = 0;
    uint64_t below = 0;
    std::size_t i = 0;
    for (; i < values.size(); ++i)
    {
        if (k < below + values[i].second)
        {
            lower = values[i].first;
            break;
        }
        below += values[i].second;
    }
    for (; i < values.size(); ++i)
    {
        if (k1 < below + values[i].second)
        {
            upper = values[i].first;
            break;
        }
        below += values[i].second;
    }
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

} // namespace ns3
