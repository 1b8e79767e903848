/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-circuit-keeping.h"
#include "ns3/mose-error.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-topology-template.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// \return whether `kept` is a subset of `candidates` within the budgets
bool
IsBudgetMatching(uint32_t n,
                 const std::vector<Circuit>& kept,
                 const std::vector<Circuit>& candidates,
                 const std::vector<uint32_t>& budget)
{
    std::vector<uint32_t> used(n, 0);
    for (const Circuit& c : kept)
    {
        if (std::find(candidates.begin(), candidates.end(), c) == candidates.end())
        {
            return false;
        }
        ++used[c.u];
        ++used[c.v];
    }
    for (uint32_t v = 0; v < n; ++v)
    {
        if (used[v] > budget[v])
        {
            return false;
        }
    }
    return std::adjacent_find(kept.begin(), kept.end()) == kept.end();
}

/// The largest b-matching by trying every subset (candidates: at most 20)
std::size_t
BruteForceMaximum(uint32_t n,
                  const std::vector<Circuit>& candidates,
                  const std::vector<uint32_t>& budget)
{
    std::size_t best = 0;
    const uint32_t e = static_cast<uint32_t>(candidates.size());
    for (uint32_t mask = 0; mask < (1U << e); ++mask)
    {
        std::vector<uint32_t> used(n, 0);
        bool ok = true;
        std::size_t size = 0;
        for (uint32_t i = 0; i < e && ok; ++i)
        {
            if ((mask >> i) & 1U)
            {
                ok = ++used[candidates[i].u] <= budget[candidates[i].u] &&
                     ++used[candidates[i].v] <= budget[candidates[i].v];
                ++size;
            }
        }
        if (ok)
        {
            best = std::max(best, size);
        }
    }
    return best;
}

/**
 * The matching bound on the free ports, computed by max flow (Boost's push-relabel), not by the
 * construction's matching: in the bipartite double cover (a left and a right copy of every
 * group, source -> left v and right v -> sink of capacity budget[v], left u -> right v and
 * left v -> right u of capacity 1 per candidate u-v) the maximum flow is twice the largest
 * fractional b-matching, an upper bound on every b-matching.
 */
uint64_t
FractionalBound(uint32_t n,
                const std::vector<Circuit>& candidates,
                const std::vector<uint32_t>& budget)
{
    using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
    using Flow = boost::adjacency_list<
        boost::vecS,
        boost::vecS,
        boost::directedS,
        boost::no_property,
        boost::property<
            boost::edge_capacity_t,
            long,
            boost::property<boost::edge_residual_capacity_t,
                            long,
                            boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
    Flow g(2 * n + 2);
    auto cap = boost::get(boost::edge_capacity, g);
    auto rev = boost::get(boost::edge_reverse, g);
    auto arc = [&](uint32_t a, uint32_t b, long c) {
        auto e = boost::add_edge(a, b, g).first;
        auto r = boost::add_edge(b, a, g).first;
        cap[e] = c;
        cap[r] = 0;
        rev[e] = r;
        rev[r] = e;
    };
    const uint32_t source = 2 * n;
    const uint32_t sink = 2 * n + 1;
    for (uint32_t v = 0; v < n; ++v)
    {
        arc(source, v, budget[v]);
        arc(n + v, sink, budget[v]);
    }
    for (const Circuit& c : candidates)
    {
        arc(c.u, n + c.v, 1);
        arc(c.v, n + c.u, 1);
    }
    return static_cast<uint64_t>(boost::push_relabel_max_flow(g, source, sink)) / 2;
}

/// \return the paper's roles scaled to n groups
RoleAssignment
ScaledRoles(uint32_t n)
{
    return RoleAssignment::Contiguous(RoleCounts::PaperScaled(n, WorkloadMode::INFERENCE_HEAVY));
}

/// \return the one-to-one P-D assignment of run 1
PdAssignment
OneToOneAssignment(const RoleAssignment& roles)
{
    Random rng = Random::Create(1, Stream::ASSIGNMENT);
    return PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, rng);
}

PdBiasedOptions
Options(uint32_t r, BipartiteCompletion completion)
{
    PdBiasedOptions o;
    o.reservedPorts = r;
    o.completion = completion;
    return o;
}

/// \return the circuits of `graph` that are not P-D circuits under `roles`
std::vector<Circuit>
NonPdCircuits(const CircuitGraph& graph, const RoleAssignment& roles)
{
    std::vector<Circuit> out;
    for (const Circuit& c : graph.GetCircuits())
    {
        GroupRole a = roles.Get(c.u);
        GroupRole b = roles.Get(c.v);
        if (a == GroupRole::TRAINING || b == GroupRole::TRAINING || a == b)
        {
            out.push_back(c);
        }
    }
    return out;
}

void
ExpectTemplate(const CircuitGraph& g, uint32_t d)
{
    EXPECT_TRUE(g.IsSimple());
    EXPECT_TRUE(g.IsConnected());
    EXPECT_TRUE(g.IsRegular(d));
}

} // namespace

TEST(CircuitKeeping, HandComputedPath)
{
    // path 0-1-2-3 with budget 1 everywhere: the two end circuits, not the middle one
    std::vector<Circuit> path = {{0, 1}, {1, 2}, {2, 3}};
    auto kept = SelectKeptCircuits(4, path, {1, 1, 1, 1});
    EXPECT_EQ(kept, (std::vector<Circuit>{{0, 1}, {2, 3}}));
    // a star at 0 with budget 2 at the centre keeps two spokes
    std::vector<Circuit> star = {{0, 1}, {0, 2}, {0, 3}, {0, 4}};
    EXPECT_EQ(SelectKeptCircuits(5, star, {2, 1, 1, 1, 1}).size(), 2U);
    // budgets that do not bind keep everything; loops and repeats are dropped
    std::vector<Circuit> messy = {{0, 1}, {1, 0}, {2, 2}, {1, 2}};
    EXPECT_EQ(SelectKeptCircuits(3, messy, {4, 4, 4}), (std::vector<Circuit>{{0, 1}, {1, 2}}));
    // a zero budget keeps nothing at that group
    EXPECT_TRUE(SelectKeptCircuits(3, {{0, 1}, {1, 2}}, {1, 0, 1}).empty());
}

TEST(CircuitKeeping, MaximumAgainstBruteForce)
{
    // random small candidate sets and budgets: always a valid b-matching of maximum size
    Random rng = Random::Create(3, Stream::UNIFORM);
    for (int trial = 0; trial < 200; ++trial)
    {
        const uint32_t n = 5 + rng.Index(6);
        std::vector<Circuit> candidates;
        const uint32_t edges = 4 + rng.Index(13);
        for (uint32_t i = 0; i < edges; ++i)
        {
            uint32_t a = rng.Index(n);
            uint32_t b = rng.Index(n);
            if (a != b)
            {
                Circuit c{std::min(a, b), std::max(a, b)};
                if (std::find(candidates.begin(), candidates.end(), c) == candidates.end())
                {
                    candidates.push_back(c);
                }
            }
        }
        std::vector<uint32_t> budget(n);
        for (uint32_t& b : budget)
        {
            b = rng.Index(4);
        }
        auto kept = SelectKeptCircuits(n, candidates, budget);
        ASSERT_TRUE(IsBudgetMatching(n, kept, candidates, budget)) << "trial " << trial;
        ASSERT_EQ(kept.size(), BruteForceMaximum(n, candidates, budget)) << "trial " << trial;
    }
}

TEST(CircuitKeeping, Errors)
{
    ExpectErrorContaining([] { SelectKeptCircuits(3, {{0, 1}}, {1, 1}); }, "2 budgets");
    ExpectErrorContaining([] { SelectKeptCircuits(3, {{0, 5}}, {1, 1, 1}); }, "outside");
    EXPECT_EQ(ParseEnum<TemplateConstruction>("Rewiring-Aware", "construction"),
              TemplateConstruction::REWIRING_AWARE);
    ExpectErrorContaining([] { ParseEnum<TemplateConstruction>("stale", "construction"); },
                          "fresh");
}

TEST(RewiringTemplate, PdBiasedKeepsUpToTheMatchingBound)
{
    // U -> PD at N = 256, d = 4, r = 3: every template property holds, and the kept count
    // reaches the matching bound on the residual ports (d - r at P and D, d at T)
    const uint32_t n = 256;
    const uint32_t d = 4;
    RoleAssignment roles = ScaledRoles(n);
    PdAssignment assignment = OneToOneAssignment(roles);
    Random ur = Random::Create(1, Stream::UNIFORM);
    CircuitGraph current = BuildUniformTemplate(n, d, ur);
    for (auto completion : {BipartiteCompletion::CIRCULANT, BipartiteCompletion::RANDOM})
    {
        Random rng = Random::Create(1, Stream::PD_BIASED);
        CircuitGraph g =
            BuildPdBiasedTemplate(roles, d, assignment, Options(3, completion), current, rng);
        ExpectTemplate(g, d);
        for (uint32_t v = 0; v < n; ++v)
        {
            uint32_t expected = roles.Get(v) == GroupRole::TRAINING ? 0 : 3;
            ASSERT_EQ(CountPdCircuits(g, roles)[v], expected) << "group " << v;
        }
        std::vector<uint32_t> budget(n);
        for (uint32_t v = 0; v < n; ++v)
        {
            budget[v] = roles.Get(v) == GroupRole::TRAINING ? d : d - 3;
        }
        const std::vector<Circuit> other = NonPdCircuits(current, roles);
        const uint64_t bound = FractionalBound(n, other, budget);
        // kept non-P-D circuits: at most the bound, and here the bound exactly
        uint64_t keptOther = 0;
        for (const Circuit& c : DiffCircuits(current, g).kept)
        {
            GroupRole a = roles.Get(c.u);
            GroupRole b = roles.Get(c.v);
            keptOther += (a == GroupRole::TRAINING || b == GroupRole::TRAINING || a == b) ? 1 : 0;
        }
        EXPECT_LE(keptOther, bound);
        EXPECT_GE(keptOther, bound * 95 / 100) << "kept " << keptOther << " of bound " << bound;
        // the fresh template shares almost nothing with the current graph
        Random fr = Random::Create(1, Stream::PD_BIASED);
        CircuitGraph fresh =
            BuildPdBiasedTemplate(roles, d, assignment, Options(3, completion), fr);
        EXPECT_LT(DiffCircuits(current, fresh).kept.size() * 4, keptOther);
    }
}

TEST(RewiringTemplate, UniformKeepsEveryUnbiasedCircuit)
{
    // PD -> U: every non-P-D circuit of the P-D-biased graph stays, the P-D circuits are
    // re-paired at random; the result is a simple connected d-regular graph
    const uint32_t n = 256;
    const uint32_t d = 4;
    RoleAssignment roles = ScaledRoles(n);
    PdAssignment assignment = OneToOneAssignment(roles);
    Random pr = Random::Create(1, Stream::PD_BIASED);
    CircuitGraph pd =
        BuildPdBiasedTemplate(roles, d, assignment, Options(3, BipartiteCompletion::CIRCULANT), pr);
    Random rng = Random::Create(1, Stream::UNIFORM);
    CircuitGraph u = BuildUniformTemplate(n, d, pd, roles, rng);
    ExpectTemplate(u, d);
    const std::vector<Circuit> other = NonPdCircuits(pd, roles);
    CircuitDiff diff = DiffCircuits(pd, u);
    EXPECT_GE(diff.kept.size(), other.size());
    for (const Circuit& c : other)
    {
        EXPECT_TRUE(u.HasCircuit(c.u, c.v)) << c.u << "-" << c.v;
    }
    // deterministic
    Random again = Random::Create(1, Stream::UNIFORM);
    EXPECT_EQ(BuildUniformTemplate(n, d, pd, roles, again).GetCircuits(), u.GetCircuits());
    // without roles to release, a d-regular simple connected graph is kept whole
    Random whole = Random::Create(1, Stream::UNIFORM);
    EXPECT_EQ(BuildUniformTemplate(n, d, pd, RoleAssignment(), whole).GetCircuits(),
              pd.GetCircuits());
}

TEST(RewiringTemplate, OtherDegreesAndErrors)
{
    // a current graph of another degree: kept circuits fit the new budget
    const uint32_t n = 64;
    RoleAssignment roles = ScaledRoles(n);
    Random r6 = Random::Create(2, Stream::UNIFORM);
    CircuitGraph six = BuildUniformTemplate(n, 6, r6);
    Random rng = Random::Create(2, Stream::UNIFORM);
    CircuitGraph four = BuildUniformTemplate(n, 4, six, RoleAssignment(), rng);
    ExpectTemplate(four, 4);
    // a 6-regular graph has a 4-factor (Petersen), so all 128 circuits could be kept; a
    // disconnected factor makes an attempt release a few
    EXPECT_LE(DiffCircuits(six, four).kept.size(), 128U);
    EXPECT_GE(DiffCircuits(six, four).kept.size(), 120U);
    // r = 0 is the rewiring-aware uniform template releasing the P-D circuits
    Random z = Random::Create(2, Stream::PD_BIASED);
    CircuitGraph r0 = BuildPdBiasedTemplate(roles,
                                            4,
                                            OneToOneAssignment(roles),
                                            Options(0, BipartiteCompletion::CIRCULANT),
                                            four,
                                            z);
    ExpectTemplate(r0, 4);
    for (const Circuit& c : NonPdCircuits(four, roles))
    {
        EXPECT_TRUE(r0.HasCircuit(c.u, c.v));
    }
    // a current graph of another N
    Random e = Random::Create(2, Stream::UNIFORM);
    ExpectErrorContaining([&] { BuildUniformTemplate(32, 4, four, RoleAssignment(), e); },
                          "current");
    ExpectErrorContaining(
        [&] {
            BuildPdBiasedTemplate(roles,
                                  4,
                                  OneToOneAssignment(roles),
                                  Options(3, BipartiteCompletion::CIRCULANT),
                                  CircuitGraph(10, {}),
                                  e);
        },
        "current");
    ExpectErrorContaining([&] { BuildUniformTemplate(n, 4, four, ScaledRoles(32), e); },
                          "releasedPdRoles");
}
