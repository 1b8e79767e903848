/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-training-plan.h"

#include "mose-inference-server.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <fstream>
#include <map>
#include <optional>
#include <unordered_map>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseTrainingPlan");

namespace
{

/// "no instance"
constexpr uint64_t NO_INSTANCE = UINT64_MAX;

/// \return "<origin>: <problem>", for a node's error
[[noreturn]] void
FailNode(const PlanNode& node, const std::string& problem)
{
    throw Error(node.origin + ": " + problem);
}

/// \return the node's group: its ranks, or every rank of the plan
std::vector<uint32_t>
GroupOf(const PlanNode& node, std::size_t ranks)
{
    if (!node.group.empty())
    {
        return node.group;
    }
    std::vector<uint32_t> all(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        all[r] = r;
    }
    return all;
}

/// \return "0,1,2,3": a group for messages
std::string
GroupText(const std::vector<uint32_t>& group)
{
    std::string s;
    for (uint32_t r : group)
    {
        s += (s.empty() ? "" : ",") + std::to_string(r);
    }
    return s;
}

/// A matched collective or send/receive pair: its ranks and (rank, node index) per rank
struct Match
{
    std::vector<uint32_t> ranks;                      //!< ring order / (src, dst)
    std::vector<std::pair<uint32_t, uint64_t>> nodes; //!< per rank
    bool pair{false};                                 //!< a send/receive pair
};

/**
 * \brief Matches the collectives (by group and order) and the send/receive pairs (by peers,
 *        tag and order) of a plan whose nodes are valid one by one.
 * \param plan the plan
 * \return the matches, in the order of their first rank's nodes (rank 0's first)
 */
std::vector<Match>
MatchNodes(const TrainingPlan& plan)
{
    const std::size_t nRanks = plan.ranks.size();
    std::vector<Match> matches;
    // (group) -> per member rank, its collectives on it in node order
    std::map<std::vector<uint32_t>, std::vector<std::vector<uint64_t>>> byGroup;
    // (src, dst, tag) -> sends at src, receives at dst, in node order
    std::map<std::tuple<uint32_t, uint32_t, uint64_t>,
             std::pair<std::vector<uint64_t>, std::vector<uint64_t>>>
        byPair;
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        for (uint64_t k = 0; k < plan.ranks[r].size(); ++k)
        {
            const PlanNode& node = plan.ranks[r][k];
            if (node.kind == PlanNodeKind::COLLECTIVE)
            {
                const std::vector<uint32_t> group = GroupOf(node, nRanks);
                auto& perRank = byGroup[group];
                perRank.resize(group.size());
                const auto pos = std::find(group.begin(), group.end(), r) - group.begin();
                perRank[pos].push_back(k);
            }
            else if (node.kind == PlanNodeKind::SEND)
            {
                byPair[{r, node.peer, node.tag}].first.push_back(k);
            }
            else if (node.kind == PlanNodeKind::RECV)
            {
                byPair[{node.peer, r, node.tag}].second.push_back(k);
            }
        }
    }
    for (const auto& [group, perRank] : byGroup)
    {
        // the first member with a collective on the group sets the count
        const auto& first = perRank[0];
        const PlanNode& ref = plan.ranks[group[0]][first.empty() ? 0 : first[0]];
        for (std::size_t m = 0; m < group.size(); ++m)
        {
            if (perRank[m].size() != first.size())
            {
                const auto& some = perRank[m].empty() ? first : perRank[m];
                const PlanNode& node =
                    plan.ranks[perRank[m].empty() ? group[0] : group[m]][some[0]];
                FailNode(node,
                         "rank " + std::to_string(group[m]) + " has " +
                             std::to_string(perRank[m].size()) + " collectives on group {" +
                             GroupText(group) + "} and rank " + std::to_string(group[0]) + " has " +
                             std::to_string(first.size()) +
                             ": every rank of a group takes part in each of its collectives");
            }
        }
        for (std::size_t c = 0; c < first.size(); ++c)
        {
            Match match;
            match.ranks = group;
            const PlanNode& lead = plan.ranks[group[0]][first[c]];
            for (std::size_t m = 0; m < group.size(); ++m)
            {
                const PlanNode& node = plan.ranks[group[m]][perRank[m][c]];
                if (node.collective != lead.collective || node.bytes != lead.bytes)
                {
                    FailNode(node,
                             ToString(node.collective) + " of " + std::to_string(node.bytes) +
                                 " B does not match " + lead.origin + " (" +
                                 ToString(lead.collective) + " of " + std::to_string(lead.bytes) +
                                 " B), collective " + std::to_string(c + 1) + " of group {" +
                                 GroupText(group) + "}");
                }
                match.nodes.emplace_back(group[m], perRank[m][c]);
            }
            matches.push_back(std::move(match));
        }
        (void)ref;
    }
    for (const auto& [key, lists] : byPair)
    {
        const auto& [src, dst, tag] = key;
        const auto& [sends, recvs] = lists;
        if (sends.size() != recvs.size())
        {
            const PlanNode& node = sends.size() > recvs.size()
                                       ? plan.ranks[src][sends[recvs.size()]]
                                       : plan.ranks[dst][recvs[sends.size()]];
            FailNode(node,
                     std::to_string(sends.size()) + " sends from rank " + std::to_string(src) +
                         " to rank " + std::to_string(dst) + " with tag " + std::to_string(tag) +
                         " and " + std::to_string(recvs.size()) +
                         " receives: each send needs its receive");
        }
        for (std::size_t c = 0; c < sends.size(); ++c)
        {
            const PlanNode& send = plan.ranks[src][sends[c]];
            const PlanNode& recv = plan.ranks[dst][recvs[c]];
            if (send.bytes != recv.bytes)
            {
                FailNode(recv,
                         "receives " + std::to_string(recv.bytes) + " B and its send " +
                             send.origin + " sends " + std::to_string(send.bytes) + " B");
            }
            Match match;
            match.pair = true;
            match.ranks = {src, dst};
            match.nodes = {{src, sends[c]}, {dst, recvs[c]}};
            matches.push_back(std::move(match));
        }
    }
    // a deterministic order that does not depend on the map's: by the first node's position
    std::stable_sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
        return a.nodes[0] < b.nodes[0];
    });
    return matches;
}

/// \return per node index, the indices of the nodes that depend on it (each once)
std::vector<std::vector<uint64_t>>
Dependents(const std::vector<PlanNode>& nodes, const std::unordered_map<uint64_t, uint64_t>& index)
{
    std::vector<std::vector<uint64_t>> next(nodes.size());
    for (uint64_t k = 0; k < nodes.size(); ++k)
    {
        std::vector<uint64_t> deps = nodes[k].dataDeps;
        deps.insert(deps.end(), nodes[k].ctrlDeps.begin(), nodes[k].ctrlDeps.end());
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        for (uint64_t d : deps)
        {
            next[index.at(d)].push_back(k);
        }
    }
    return next;
}

/// \return id -> index of a rank's nodes; mose::Error on a repeated id
std::unordered_map<uint64_t, uint64_t>
IndexNodes(const std::vector<PlanNode>& nodes, uint32_t rank)
{
    std::unordered_map<uint64_t, uint64_t> index;
    for (uint64_t k = 0; k < nodes.size(); ++k)
    {
        if (!index.emplace(nodes[k].id, k).second)
        {
            FailNode(nodes[k],
                     "node id " + std::to_string(nodes[k].id) + " appears twice in rank " +
                         std::to_string(rank));
        }
    }
    return index;
}

/// \return "rank 0, receive from rank 1, tag 3": what a node of the rank is, for messages
std::string
Describe(const TrainingPlan& plan, uint32_t rank, uint64_t k)
{
    const PlanNode& node = plan.ranks[rank][k];
    std::string what = "rank " + std::to_string(rank) + ", ";
    switch (node.kind)
    {
    case PlanNodeKind::COMPUTE:
        return what + "compute";
    case PlanNodeKind::COLLECTIVE:
        return what + ToString(node.collective) + " on ranks {" +
               GroupText(GroupOf(node, plan.ranks.size())) + "}";
    case PlanNodeKind::SEND:
        return what + "send to rank " + std::to_string(node.peer) + ", tag " +
               std::to_string(node.tag);
    case PlanNodeKind::RECV:
        return what + "receive from rank " + std::to_string(node.peer) + ", tag " +
               std::to_string(node.tag);
    }
    return what;
}

/**
 * \brief Refuses a plan whose ranks wait for each other in a cycle, which PlanRunner would run
 *        without end: a receive before the send its peer makes only after its own receive, a
 *        collective one member reaches only after another collective that waits for it, two
 *        collectives of one group whose k-th nodes run in another order on another rank.
 *
 * The wait-for graph has a vertex per matched collective or send/receive pair (it starts when
 * all its nodes are reached and ends them all at once, as PlanRunner runs it) and per other
 * node, and an edge from each node to each of its dependencies. The iteration completes if and
 * only if this graph has no cycle (each rank's own graph is acyclic already). Boost's
 * depth_first_search finds a back edge; its not_a_dag from topological_sort would name no node.
 *
 * \param plan the plan, valid rank by rank
 * \param matches its matches (MatchNodes())
 * \param index per rank, node id -> index
 */
void
RefuseDeadlock(const TrainingPlan& plan,
               const std::vector<Match>& matches,
               const std::vector<std::unordered_map<uint64_t, uint64_t>>& index)
{
    // a compressed sparse row graph: a plan may have millions of nodes (2^24 from AICB)
    using Graph = boost::compressed_sparse_row_graph<boost::directedS>;
    using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
    using Edge = boost::graph_traits<Graph>::edge_descriptor;
    const std::size_t nRanks = plan.ranks.size();
    // vertices 0 .. matches - 1 are the matches, then one per other node (singles)
    std::vector<std::vector<uint64_t>> vertexOf(nRanks);
    std::vector<std::pair<uint32_t, uint64_t>> singles;
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        vertexOf[r].assign(plan.ranks[r].size(), NO_INSTANCE);
    }
    for (uint64_t m = 0; m < matches.size(); ++m)
    {
        for (const auto& [r, k] : matches[m].nodes)
        {
            vertexOf[r][k] = m;
        }
    }
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        for (uint64_t k = 0; k < plan.ranks[r].size(); ++k)
        {
            if (vertexOf[r][k] == NO_INSTANCE)
            {
                vertexOf[r][k] = matches.size() + singles.size();
                singles.emplace_back(r, k);
            }
        }
    }
    const std::size_t nVertices = matches.size() + singles.size();
    // (r, k, its dependency's index) for each dependency of a vertex's nodes, in node order,
    // until visit returns true
    auto eachDependency = [&](Vertex v, const auto& visit) {
        const auto one = [&](uint32_t r, uint64_t k) {
            const PlanNode& node = plan.ranks[r][k];
            for (const auto* deps : {&node.dataDeps, &node.ctrlDeps})
            {
                for (uint64_t d : *deps)
                {
                    if (visit(r, k, index[r].at(d)))
                    {
                        return true;
                    }
                }
            }
            return false;
        };
        if (v >= matches.size())
        {
            one(singles[v - matches.size()].first, singles[v - matches.size()].second);
            return;
        }
        for (const auto& [r, k] : matches[v].nodes)
        {
            if (one(r, k))
            {
                return;
            }
        }
    };
    std::vector<std::pair<Vertex, Vertex>> edges; // by source, as the sorted constructor needs
    for (Vertex v = 0; v < nVertices; ++v)
    {
        eachDependency(v, [&](uint32_t r, uint64_t, uint64_t a) {
            edges.emplace_back(v, vertexOf[r][a]); // v waits for a's vertex
            return false;
        });
    }
    const Graph graph(boost::edges_are_sorted, edges.begin(), edges.end(), nVertices);
    edges = {};

    /// records the DFS tree's parents and the first back edge (an edge into the DFS stack)
    struct CycleFinder : boost::default_dfs_visitor
    {
        std::vector<Vertex>* parent; //!< per vertex, the vertex it was reached from
        std::optional<Edge>* back;   //!< the first back edge

        void tree_edge(Edge e, const Graph& g) const
        {
            (*parent)[boost::target(e, g)] = boost::source(e, g);
        }

        void back_edge(Edge e, const Graph&) const
        {
            if (!*back)
            {
                *back = e;
            }
        }
    };

    std::vector<Vertex> parent(nVertices);
    std::optional<Edge> back;
    CycleFinder finder;
    finder.parent = &parent;
    finder.back = &back;
    boost::depth_first_search(graph, boost::visitor(finder));
    if (!back)
    {
        return;
    }
    // the cycle in wait order: the back edge's target, down the tree to its source, back
    const Vertex top = boost::target(*back, graph);
    std::vector<Vertex> cycle{boost::source(*back, graph)};
    while (cycle.back() != top)
    {
        cycle.push_back(parent[cycle.back()]);
    }
    std::reverse(cycle.begin(), cycle.end());
    // per step, the node that waits and the dependency it waits for, in the next vertex
    std::vector<std::pair<uint32_t, std::pair<uint64_t, uint64_t>>> steps;
    for (std::size_t i = 0; i < cycle.size(); ++i)
    {
        const Vertex next = cycle[(i + 1) % cycle.size()];
        eachDependency(cycle[i], [&](uint32_t r, uint64_t k, uint64_t a) {
            if (vertexOf[r][a] != next)
            {
                return false;
            }
            steps.push_back({r, {k, a}});
            return true;
        });
    }
    auto originOf = [&](uint32_t r, uint64_t k) -> const std::string& {
        return plan.ranks[r][k].origin;
    };
    std::string chain = originOf(steps[0].first, steps[0].second.first) + " (" +
                        Describe(plan, steps[0].first, steps[0].second.first) + ")";
    for (std::size_t i = 0; i < steps.size(); ++i)
    {
        const uint32_t r = steps[i].first;
        const uint64_t a = steps[i].second.second;
        chain += " -> its dependency " + originOf(r, a) + " (" + Describe(plan, r, a) + ")";
        // the next step's waiting node: a in another rank's node of the same match
        const uint32_t nr = steps[(i + 1) % steps.size()].first;
        const uint64_t nk = steps[(i + 1) % steps.size()].second.first;
        if (nr == r && nk == a)
        {
            continue;
        }
        const PlanNodeKind kind = plan.ranks[r][a].kind;
        chain += kind == PlanNodeKind::RECV   ? " -> its send "
                 : kind == PlanNodeKind::SEND ? " -> its receive "
                                              : " -> its collective's member ";
        chain += originOf(nr, nk);
        if (i + 1 < steps.size())
        {
            chain += " (" + Describe(plan, nr, nk) + ")";
        }
    }
    throw Error(plan.source +
                ": a deadlock across ranks, each node waiting for the next (a collective, or a "
                "send and its receive, starts when every rank of it reached it): " +
                chain);
}

} // namespace

const std::vector<EnumEntry<PlanNodeKind>>&
EnumTable<PlanNodeKind>::Get()
{
    static const std::vector<EnumEntry<PlanNodeKind>> names = {
        {PlanNodeKind::COMPUTE, "compute", {}},
        {PlanNodeKind::COLLECTIVE, "collective", {}},
        {PlanNodeKind::SEND, "send", {}},
        {PlanNodeKind::RECV, "recv", {"receive"}},
    };
    return names;
}

uint32_t
RankMapping::GetMember(uint32_t rank) const
{
    return member.empty() ? rank / std::max<uint32_t>(1, ranksPerGroup) : member.at(rank);
}

uint32_t
RankMapping::GetRail(uint32_t rank) const
{
    return rail.empty() ? rank % std::max<uint32_t>(1, ranksPerGroup) : rail.at(rank);
}

RankMapping
ReadRankMapping(const std::string& path)
{
    std::ifstream file;
    OpenForReading(path, file);
    LineReader reader(file, path);
    RankMapping mapping;
    mapping.source = path;
    std::string_view line;
    while (reader.Next(line))
    {
        std::string_view text = TrimBlanks(line.substr(0, line.find('#')));
        if (text.empty())
        {
            continue;
        }
        std::vector<std::string_view> fields;
        while (!text.empty())
        {
            const auto end = std::find_if(text.begin(), text.end(), IsBlank) - text.begin();
            fields.push_back(text.substr(0, end));
            text = TrimBlanks(text.substr(end));
        }
        if (fields.size() != 3)
        {
            reader.Fail("expected \"rank member rail\", found " + std::to_string(fields.size()) +
                        " fields");
        }
        try
        {
            const uint32_t rank = ParseUnsigned32("rank", fields[0]);
            if (rank != mapping.member.size())
            {
                reader.Fail("rank " + std::to_string(rank) + " where rank " +
                            std::to_string(mapping.member.size()) +
                            " comes next (ranks 0, 1, ... in order)");
            }
            mapping.member.push_back(ParseUnsigned32("member", fields[1]));
            mapping.rail.push_back(ParseUnsigned32("rail", fields[2]));
        }
        catch (const Error& e)
        {
            if (std::string(e.what()).rfind(path, 0) == 0)
            {
                throw;
            }
            reader.Fail(e.what());
        }
    }
    if (mapping.member.empty())
    {
        throw Error(path + ": a rank mapping with no rank");
    }
    return mapping;
}

void
TrainingPlan::Validate() const
{
    const std::size_t nRanks = ranks.size();
    if (nRanks == 0)
    {
        throw Error(source + ": a training plan with no rank");
    }
    std::vector<std::unordered_map<uint64_t, uint64_t>> indices(nRanks);
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        const std::vector<PlanNode>& nodes = ranks[r];
        indices[r] = IndexNodes(nodes, r);
        const auto& index = indices[r];
        for (const PlanNode& node : nodes)
        {
            for (const auto* deps : {&node.dataDeps, &node.ctrlDeps})
            {
                for (uint64_t d : *deps)
                {
                    if (index.find(d) == index.end())
                    {
                        FailNode(node,
                                 "depends on node " + std::to_string(d) + ", which rank " +
                                     std::to_string(r) + " does not have");
                    }
                }
            }
            switch (node.kind)
            {
            case PlanNodeKind::COMPUTE:
                if (node.durationNs < 0)
                {
                    FailNode(node, "a compute time of " + std::to_string(node.durationNs) + " ns");
                }
                break;
            case PlanNodeKind::COLLECTIVE: {
                if (node.bytes == 0)
                {
                    FailNode(node, ToString(node.collective) + " of 0 bytes (a size >= 1)");
                }
                const std::vector<uint32_t> group = GroupOf(node, nRanks);
                std::vector<uint32_t> sorted = group;
                std::sort(sorted.begin(), sorted.end());
                if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
                {
                    FailNode(node, "group {" + GroupText(group) + "} names a rank twice");
                }
                if (sorted.back() >= nRanks)
                {
                    FailNode(node,
                             "group {" + GroupText(group) + "} has rank " +
                                 std::to_string(sorted.back()) + ", outside the " +
                                 std::to_string(nRanks) + " ranks of " + source);
                }
                if (!std::binary_search(sorted.begin(), sorted.end(), r))
                {
                    FailNode(node,
                             "group {" + GroupText(group) + "} does not have its own rank " +
                                 std::to_string(r));
                }
                break;
            }
            case PlanNodeKind::SEND:
            case PlanNodeKind::RECV:
                if (node.bytes == 0)
                {
                    FailNode(node, ToString(node.kind) + " of 0 bytes (a size >= 1)");
                }
                if (node.peer >= nRanks || node.peer == r)
                {
                    FailNode(node,
                             ToString(node.kind) + " peer rank " + std::to_string(node.peer) +
                                 ": another of the " + std::to_string(nRanks) + " ranks of " +
                                 source);
                }
                break;
            }
        }
        // Kahn's algorithm, by hand rather than Boost's topological_sort: its not_a_dag names
        // no node, and the message must name the cycle's nodes
        const auto next = Dependents(nodes, index);
        std::vector<uint32_t> waiting(nodes.size(), 0);
        for (const auto& n : next)
        {
            for (uint64_t k : n)
            {
                ++waiting[k];
            }
        }
        std::vector<uint64_t> ready;
        for (uint64_t k = 0; k < nodes.size(); ++k)
        {
            if (waiting[k] == 0)
            {
                ready.push_back(k);
            }
        }
        uint64_t seen = 0;
        while (!ready.empty())
        {
            const uint64_t k = ready.back();
            ready.pop_back();
            ++seen;
            for (uint64_t j : next[k])
            {
                if (--waiting[j] == 0)
                {
                    ready.push_back(j);
                }
            }
        }
        if (seen != nodes.size())
        {
            // every node left waits for another node left: walk back until one repeats
            uint64_t k =
                std::find_if(waiting.begin(), waiting.end(), [](uint32_t w) { return w > 0; }) -
                waiting.begin();
            std::vector<uint64_t> path;
            std::vector<bool> onPath(nodes.size(), false);
            while (!onPath[k])
            {
                onPath[k] = true;
                path.push_back(k);
                const PlanNode& node = nodes[k];
                std::vector<uint64_t> deps = node.dataDeps;
                deps.insert(deps.end(), node.ctrlDeps.begin(), node.ctrlDeps.end());
                for (uint64_t d : deps)
                {
                    const uint64_t j = index.at(d);
                    if (waiting[j] > 0)
                    {
                        k = j;
                        break;
                    }
                }
            }
            std::string cycle;
            const auto from = std::find(path.begin(), path.end(), k);
            for (auto it = from; it != path.end(); ++it)
            {
                cycle += std::to_string(nodes[*it].id) + " -> ";
            }
            cycle += std::to_string(nodes[k].id);
            FailNode(nodes[k],
                     "a cycle of dependencies: node " + cycle + " (each waits for the next)");
        }
    }
    RefuseDeadlock(*this, MatchNodes(*this), indices);
}

uint64_t
TrainingPlan::GetNNodes() const
{
    uint64_t n = 0;
    for (const auto& r : ranks)
    {
        n += r.size();
    }
    return n;
}

TrainingPlan
MakeSyntheticPlan(uint32_t members, int64_t computeNs, NcclCollective collective, uint64_t bytes)
{
    TrainingPlan plan;
    plan.source = "the synthetic job";
    plan.ranks.resize(members);
    for (uint32_t r = 0; r < members; ++r)
    {
        PlanNode compute;
        compute.id = 0;
        compute.name = "compute";
        compute.origin = "synthetic rank " + std::to_string(r) + " node 0";
        compute.durationNs = computeNs;
        PlanNode coll;
        coll.id = 1;
        coll.name = ToString(collective);
        coll.origin = "synthetic rank " + std::to_string(r) + " node 1";
        coll.kind = PlanNodeKind::COLLECTIVE;
        coll.collective = collective;
        coll.bytes = bytes;
        coll.dataDeps = {0};
        plan.ranks[r] = {compute, coll};
    }
    return plan;
}

TrainingPlan
MakeMoePlan(const MoeShape& shape)
{
    if (shape.expertParallel == 0 || shape.ranks == 0 || shape.ranks % shape.expertParallel != 0)
    {
        ThrowBadParameter("MoE ranks / expert parallel",
                          std::to_string(shape.ranks) + " / " +
                              std::to_string(shape.expertParallel),
                          "ranks a positive multiple of expert parallel >= 1");
    }
    const uint32_t e = shape.expertParallel;
    const uint32_t dp = shape.ranks / e;
    TrainingPlan plan;
    plan.source = "moe";
    plan.ranks.resize(shape.ranks);
    for (uint32_t r = 0; r < shape.ranks; ++r)
    {
        std::vector<uint32_t> ep;
        for (uint32_t k = 0; k < e; ++k)
        {
            ep.push_back(r / e * e + k);
        }
        std::vector<uint32_t> data;
        for (uint32_t k = 0; k < dp; ++k)
        {
            data.push_back(r % e + k * e);
        }
        std::vector<PlanNode>& nodes = plan.ranks[r];
        auto add = [&](const std::string& name,
                       PlanNodeKind kind,
                       int64_t ns,
                       uint64_t bytes,
                       NcclCollective c,
                       const std::vector<uint32_t>& group) {
            PlanNode n;
            n.id = nodes.size();
            n.name = name;
            n.origin = "moe rank " + std::to_string(r) + " node " + std::to_string(n.id);
            n.kind = kind;
            n.durationNs = ns;
            n.bytes = bytes;
            n.collective = c;
            n.group = group;
            if (n.id > 0)
            {
                n.dataDeps.push_back(n.id - 1);
            }
            nodes.push_back(std::move(n));
        };
        const auto a2a = NcclCollective::ALL_TO_ALL;
        for (uint32_t l = 0; l < shape.layers; ++l)
        {
            const std::string layer = "layer" + std::to_string(l) + ".";
            add(layer + "attention", PlanNodeKind::COMPUTE, shape.attentionNs, 0, a2a, {});
            add(layer + "dispatch", PlanNodeKind::COLLECTIVE, 0, shape.tokenBytes, a2a, ep);
            add(layer + "experts", PlanNodeKind::COMPUTE, shape.expertNs, 0, a2a, {});
            add(layer + "combine", PlanNodeKind::COLLECTIVE, 0, shape.tokenBytes, a2a, ep);
        }
        for (uint32_t l = shape.layers; l-- > 0;)
        {
            const std::string layer = "layer" + std::to_string(l) + ".";
            add(layer + "combine.grad", PlanNodeKind::COLLECTIVE, 0, shape.tokenBytes, a2a, ep);
            add(layer + "experts.grad", PlanNodeKind::COMPUTE, 2 * shape.expertNs, 0, a2a, {});
            add(layer + "dispatch.grad", PlanNodeKind::COLLECTIVE, 0, shape.tokenBytes, a2a, ep);
            add(layer + "attention.grad", PlanNodeKind::COMPUTE, 2 * shape.attentionNs, 0, a2a, {});
        }
        if (dp > 1)
        {
            add("gradients",
                PlanNodeKind::COLLECTIVE,
                0,
                shape.gradientBytes,
                NcclCollective::ALL_REDUCE,
                data);
        }
    }
    return plan;
}

std::string
GetCollectivesCsvHeader()
{
    return "iteration,index,name,kind,ranks,bytes,wire_bytes,transfers,first_ready_s,start_s,"
           "end_s,collective_s,slowest_rank,done";
}

void
WriteCollectivesCsv(std::ostream& os,
                    const std::vector<CollectiveRecord>& records,
                    const std::string& prefix)
{
    for (const CollectiveRecord& r : records)
    {
        const bool started = r.startNs >= r.firstReadyNs && r.ranks > 0;
        os << prefix << r.iteration << ',' << r.index << ',' << r.name << ',' << r.kind << ','
           << r.ranks << ',' << r.bytes << ',' << r.wireBytes << ',' << r.transfers << ',';
        WriteCsvSeconds(os, NanoSeconds(r.firstReadyNs), true);
        os << ',';
        WriteCsvSeconds(os, NanoSeconds(r.startNs), started);
        os << ',';
        WriteCsvSeconds(os, NanoSeconds(r.endNs), r.done);
        os << ',';
        WriteCsvSeconds(os, NanoSeconds(r.endNs - r.startNs), r.done);
        os << ',' << r.slowestRank << ',' << (r.done ? 1 : 0) << '\n';
    }
}

void
PlanRunner::Prepare(const TrainingPlan& plan,
                    const RankMapping& mapping,
                    const std::vector<uint32_t>& groups,
                    const NcclSettings& nccl,
                    uint64_t scale)
{
    plan.Validate();
    if (scale == 0)
    {
        ThrowBadParameter("scale", "0", "a factor >= 1");
    }
    const auto nRanks = static_cast<uint32_t>(plan.ranks.size());
    if (!mapping.member.empty() && mapping.member.size() < nRanks)
    {
        throw Error("the rank mapping has " + std::to_string(mapping.member.size()) +
                    " ranks and " + plan.source + " has " + std::to_string(nRanks));
    }
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        if (mapping.GetMember(r) >= groups.size())
        {
            throw Error(
                plan.source + ": rank " + std::to_string(r) + " maps to training member " +
                std::to_string(mapping.GetMember(r)) +
                (mapping.member.empty()
                     ? " (rank / " + std::to_string(mapping.ranksPerGroup) + " ranks per group)"
                     : std::string(" (the rank mapping)")) +
                ", outside the " + std::to_string(groups.size()) + " training groups of the job");
        }
    }
    m_plan = &plan;
    m_mapping = mapping;
    m_groups = groups;
    m_instances.clear();
    m_instanceOf.assign(nRanks, {});
    m_index.assign(nRanks, {});
    m_next.assign(nRanks, {});
    m_deps.assign(nRanks, {});
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        const auto& nodes = plan.ranks[r];
        m_instanceOf[r].assign(nodes.size(), NO_INSTANCE);
        const auto index = IndexNodes(nodes, r);
        m_next[r] = Dependents(nodes, index);
        m_deps[r].assign(nodes.size(), 0);
        for (const auto& n : m_next[r])
        {
            for (uint64_t k : n)
            {
                ++m_deps[r][k];
            }
        }
    }
    m_wireBytes = 0;
    m_wireTransfers = 0;
    for (Match& match : MatchNodes(plan))
    {
        Instance inst;
        const PlanNode& lead = plan.ranks[match.nodes[0].first][match.nodes[0].second];
        inst.name = lead.name;
        inst.ranks = match.ranks;
        inst.nodes = match.nodes;
        const auto n = static_cast<uint32_t>(inst.ranks.size());
        if (match.pair)
        {
            inst.kind = "send";
            inst.bytes = ScaleBytes(lead.bytes, scale, 1);
            inst.plan.members = 2;
            inst.plan.size = inst.bytes;
            NcclTransfer t;
            t.src = 0;
            t.dst = 1;
            t.bytes = inst.bytes;
            inst.plan.transfers.push_back(t);
        }
        else
        {
            inst.kind = ToString(lead.collective);
            const bool perMember = lead.collective != NcclCollective::BROADCAST &&
                                   nccl.algorithm == NcclAlgorithm::RING;
            inst.bytes = ScaleBytes(lead.bytes, scale, perMember ? n : 1);
            try
            {
                NcclSettings s = nccl;
                if (lead.collective != NcclCollective::ALL_REDUCE)
                {
                    s.algorithm = NcclAlgorithm::RING; // NCCL's tree runs all-reduce only
                }
                inst.plan = PlanNccl(lead.collective, n, inst.bytes, s);
            }
            catch (const Error& e)
            {
                FailNode(lead, e.what());
            }
        }
        inst.dependents.assign(inst.plan.transfers.size(), {});
        for (uint64_t t = 0; t < inst.plan.transfers.size(); ++t)
        {
            const NcclTransfer& x = inst.plan.transfers[t];
            for (uint64_t a : x.after)
            {
                inst.dependents[a].push_back(t);
            }
            if (mapping.GetMember(inst.ranks[x.src]) != mapping.GetMember(inst.ranks[x.dst]))
            {
                inst.wireBytes += x.bytes;
                ++inst.wireTransfers;
            }
        }
        m_wireBytes += inst.wireBytes;
        m_wireTransfers += inst.wireTransfers;
        for (const auto& [r, k] : inst.nodes)
        {
            m_instanceOf[r][k] = m_instances.size();
        }
        m_instances.push_back(std::move(inst));
    }
}

void
PlanRunner::Run(WorkloadFabric& fabric,
                uint32_t iteration,
                TrafficClass trafficClass,
                DoneCallback done)
{
    if (!m_plan)
    {
        throw Error("the training plan runner runs before Prepare()");
    }
    m_fabric = &fabric;
    m_iteration = iteration;
    m_class = trafficClass;
    m_done = std::move(done);
    m_waiting = m_deps;
    m_joined.assign(m_instances.size(), 0);
    m_transferWait.assign(m_instances.size(), {});
    m_transfersLeft.assign(m_instances.size(), 0);
    m_lastByte.assign(m_instances.size(), 0);
    m_record.assign(m_instances.size(), 0);
    for (uint64_t i = 0; i < m_instances.size(); ++i)
    {
        const auto& transfers = m_instances[i].plan.transfers;
        m_transferWait[i].resize(transfers.size());
        for (uint64_t t = 0; t < transfers.size(); ++t)
        {
            m_transferWait[i][t] = static_cast<uint32_t>(transfers[t].after.size());
        }
        m_transfersLeft[i] = transfers.size();
    }
    m_nodesLeft = m_plan->GetNNodes();
    m_endNs = fabric.Now();
    m_firstCollective = -1;
    if (m_nodesLeft == 0)
    {
        fabric.Schedule(0, [this]() { m_done(m_endNs); });
        return;
    }
    for (uint32_t r = 0; r < m_plan->ranks.size(); ++r)
    {
        for (uint64_t k = 0; k < m_plan->ranks[r].size(); ++k)
        {
            if (m_waiting[r][k] == 0)
            {
                StartNode(r, k);
            }
        }
    }
}

void
PlanRunner::StartNode(uint32_t rank, uint64_t k)
{
    const PlanNode& node = m_plan->ranks[rank][k];
    if (node.kind == PlanNodeKind::COMPUTE)
    {
        m_fabric->Schedule(node.durationNs,
                           [this, rank, k]() { NodeDone(rank, k, m_fabric->Now()); });
        return;
    }
    const uint64_t i = m_instanceOf[rank][k];
    Instance& inst = m_instances[i];
    const int64_t now = m_fabric->Now();
    if (m_joined[i] == 0)
    {
        CollectiveRecord rec;
        rec.iteration = m_iteration;
        rec.index = i;
        rec.name = inst.name;
        rec.kind = inst.kind;
        rec.ranks = static_cast<uint32_t>(inst.ranks.size());
        rec.bytes = inst.bytes;
        rec.wireBytes = inst.wireBytes;
        rec.transfers = inst.wireTransfers;
        rec.firstReadyNs = now;
        rec.startNs = -1;
        m_record[i] = m_records.size();
        m_records.push_back(rec);
    }
    if (++m_joined[i] < inst.ranks.size())
    {
        return;
    }
    CollectiveRecord& rec = m_records[m_record[i]];
    rec.startNs = now;
    rec.slowestRank = rank;
    if (m_firstCollective < 0)
    {
        m_firstCollective = now;
    }
    m_lastByte[i] = now;
    if (inst.plan.transfers.empty())
    {
        m_fabric->Schedule(0, [this, i]() {
            m_transfersLeft[i] = 1;
            TransferDone(i, UINT64_MAX, m_fabric->Now());
        });
        return;
    }
    for (uint64_t t = 0; t < inst.plan.transfers.size(); ++t)
    {
        if (m_transferWait[i][t] == 0)
        {
            StartTransfer(i, t);
        }
    }
}

void
PlanRunner::StartTransfer(uint64_t i, uint64_t t)
{
    const Instance& inst = m_instances[i];
    const NcclTransfer& x = inst.plan.transfers[t];
    const uint32_t a = inst.ranks[x.src];
    const uint32_t b = inst.ranks[x.dst];
    const uint32_t ma = m_mapping.GetMember(a);
    const uint32_t mb = m_mapping.GetMember(b);
    if (ma == mb)
    {
        // inside a group (NVLink in a server): not the fabric's, no time
        m_fabric->Schedule(0, [this, i, t]() { TransferDone(i, t, m_fabric->Now()); });
        return;
    }
    TransferSpec spec;
    spec.src = m_groups[ma];
    spec.dst = m_groups[mb];
    spec.bytes = x.bytes;
    spec.trafficClass = m_class;
    spec.rail = m_mapping.GetRail(a) + x.rail;
    m_fabric->StartTransfer(spec,
                            [this, i, t](const TransferReport& r) { TransferDone(i, t, r.endNs); });
}

void
PlanRunner::TransferDone(uint64_t i, uint64_t t, int64_t endNs)
{
    m_lastByte[i] = std::max(m_lastByte[i], endNs);
    if (t != UINT64_MAX)
    {
        for (uint64_t next : m_instances[i].dependents[t])
        {
            if (--m_transferWait[i][next] == 0)
            {
                StartTransfer(i, next);
            }
        }
    }
    if (--m_transfersLeft[i] > 0)
    {
        return;
    }
    const int64_t end = m_lastByte[i];
    m_records[m_record[i]].endNs = end;
    m_records[m_record[i]].done = true;
    // a copy: NodeDone() starts nodes (new records) and may end the iteration
    const auto nodes = m_instances[i].nodes;
    for (const auto& [r, k] : nodes)
    {
        NodeDone(r, k, end);
    }
}

void
PlanRunner::NodeDone(uint32_t rank, uint64_t k, int64_t endNs)
{
    m_endNs = std::max(m_endNs, endNs);
    for (uint64_t next : m_next[rank][k])
    {
        if (--m_waiting[rank][next] == 0)
        {
            StartNode(rank, next);
        }
    }
    if (--m_nodesLeft == 0)
    {
        DoneCallback done = m_done;
        done(m_endNs);
    }
}

const std::vector<CollectiveRecord>&
PlanRunner::GetRecords() const
{
    return m_records;
}

uint64_t
PlanRunner::GetWireBytes() const
{
    return m_wireBytes;
}

uint64_t
PlanRunner::GetTransfers() const
{
    return m_wireTransfers;
}

int64_t
PlanRunner::GetFirstCollectiveStart() const
{
    return m_firstCollective;
}

} // namespace mose
} // namespace ns3
