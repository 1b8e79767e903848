/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-topology-template.h"

#include <gtest/gtest.h>
#include <set>
#include <tuple>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

PdAssignment
DrawAssignment(const RoleAssignment& roles, PdAssignmentKind kind, uint32_t cap, uint64_t run)
{
    Random rng = Random::Create(run, Stream::ASSIGNMENT);
    return PdAssignment::Draw(roles, kind, cap, rng);
}

PdBiasedOptions
Options(uint32_t r, BipartiteCompletion completion, bool biregular = false)
{
    PdBiasedOptions o;
    o.reservedPorts = r;
    o.completion = completion;
    o.allowBiregular = biregular;
    return o;
}

CircuitGraph
PdBiased(const RoleAssignment& roles,
         uint32_t d,
         const PdAssignment& a,
         const PdBiasedOptions& o,
         uint64_t run = 1)
{
    Random rng = Random::Create(run, Stream::PD_BIASED);
    return BuildPdBiasedTemplate(roles, d, a, o, rng);
}

CircuitGraph
Uniform(uint32_t n, uint32_t d, uint64_t run)
{
    Random rng = Random::Create(run, Stream::UNIFORM);
    return BuildUniformTemplate(n, d, rng);
}

/// Mean BFS hop count over all ordered pairs of distinct nodes (the graph is connected)
double
AverageHops(const CircuitGraph& g)
{
    const uint32_t n = g.GetNNodes();
    std::vector<std::vector<uint32_t>> adj(n);
    for (const Circuit& c : g.GetCircuits())
    {
        adj[c.u].push_back(c.v);
        adj[c.v].push_back(c.u);
    }
    std::vector<uint32_t> dist(n);
    std::vector<uint32_t> queue(n);
    uint64_t total = 0;
    for (uint32_t s = 0; s < n; ++s)
    {
        std::fill(dist.begin(), dist.end(), UINT32_MAX);
        dist[s] = 0;
        std::size_t head = 0;
        std::size_t tail = 0;
        queue[tail++] = s;
        while (head < tail)
        {
            uint32_t v = queue[head++];
            total += dist[v];
            for (uint32_t w : adj[v])
            {
                if (dist[w] == UINT32_MAX)
                {
                    dist[w] = dist[v] + 1;
                    queue[tail++] = w;
                }
            }
        }
        EXPECT_EQ(tail, n) << "not connected";
    }
    return static_cast<double>(total) / (static_cast<double>(n) * (n - 1));
}

/// Checks the P-D-biased invariants: fabric invariants, exactly rP / rD P-D circuits per group
void
ExpectPdBiased(const CircuitGraph& g,
               const RoleAssignment& roles,
               uint32_t d,
               uint32_t rP,
               uint32_t rD,
               const std::string& what)
{
    EXPECT_EQ(g.FindProblem(d), "") << what;
    EXPECT_EQ(g.GetNCircuits(), roles.GetN() * d / 2) << what;
    std::vector<uint32_t> pd = CountPdCircuits(g, roles);
    for (uint32_t v = 0; v < roles.GetN(); ++v)
    {
        uint32_t expected = roles.Get(v) == GroupRole::PREFILL  ? rP
                            : roles.Get(v) == GroupRole::DECODE ? rD
                                                                : 0;
        ASSERT_EQ(pd[v], expected)
            << what << ": node " << v << " (" << ToString(roles.Get(v)) << ")";
    }
}

} // namespace

TEST(TopologyTemplate, CompletionNamesRoundTrip)
{
    EXPECT_EQ(ToString(BipartiteCompletion::RANDOM), "random");
    EXPECT_EQ(ToString(BipartiteCompletion::CIRCULANT), "circulant");
    EXPECT_EQ(ParseEnum<BipartiteCompletion>("random", "--completion"),
              BipartiteCompletion::RANDOM);
    EXPECT_EQ(ParseEnum<BipartiteCompletion>("Circulant", "--completion"),
              BipartiteCompletion::CIRCULANT);
    std::string m = ErrorOf([] { ParseEnum<BipartiteCompletion>("ring", "--completion"); });
    EXPECT_CONTAINS(m, "invalid --completion = \"ring\"");
    EXPECT_CONTAINS(m, "circulant");
}

TEST(TopologyTemplate, UniformIsSimpleConnectedRegular)
{
    for (auto [n, d] : std::vector<std::pair<uint32_t, uint32_t>>{{1024, 4},
                                                                  {16, 3},
                                                                  {10, 4},
                                                                  {4, 3},
                                                                  {6, 3},
                                                                  {12, 6},
                                                                  {9, 2},
                                                                  {2, 1},
                                                                  {2048, 8}})
    {
        for (uint64_t run = 1; run <= 3; ++run)
        {
            CircuitGraph g = Uniform(n, d, run);
            EXPECT_EQ(g.GetNNodes(), n);
            EXPECT_EQ(g.GetNCircuits(), n * d / 2) << n << " " << d;
            EXPECT_EQ(g.FindProblem(d), "") << "N = " << n << ", d = " << d << ", run " << run;
        }
    }
}

TEST(TopologyTemplate, UniformIsDeterministicAndVariesAcrossRuns)
{
    EXPECT_EQ(Uniform(1024, 4, 7).GetCircuits(), Uniform(1024, 4, 7).GetCircuits());
    std::set<std::vector<Circuit>> seen;
    for (uint64_t run = 1; run <= 5; ++run)
    {
        seen.insert(Uniform(1024, 4, run).GetCircuits());
    }
    EXPECT_EQ(seen.size(), 5U);
    // small graphs too: 5 runs of N = 10, d = 3 give more than one graph
    std::set<std::vector<Circuit>> small;
    for (uint64_t run = 1; run <= 5; ++run)
    {
        small.insert(Uniform(10, 3, run).GetCircuits());
    }
    EXPECT_GT(small.size(), 1U);
}

TEST(TopologyTemplate, UniformAverageHopCountMatchesRandomRegularGraphs)
{
    // DESIGN.md section 3: about 5.65 hops for a random 4-regular graph on 1024 nodes
    double sum = 0.0;
    for (uint64_t run = 1; run <= 20; ++run)
    {
        sum += AverageHops(Uniform(1024, 4, run));
    }
    double mean = sum / 20.0;
    EXPECT_GT(mean, 5.6);
    EXPECT_LT(mean, 5.7);
}

TEST(TopologyTemplate, PdBiasedHasExactlyRPdCircuitsPerGroup)
{
    const uint32_t d = 4;
    std::vector<RoleAssignment> roleSets = {PaperRoles(),
                                            RoleAssignment::Contiguous({6, 6, 4}),
                                            RoleAssignment::Contiguous({10, 10, 0})};
    // non-contiguous ids: the training-heavy roles after a swap transition
    Random rolesRng = Random::Create(1, Stream::ROLES);
    roleSets.push_back(PaperRoles().Transition(RoleCounts::TrainingHeavyDefault(),
                                               RoleTransition::SWAP,
                                               rolesRng));
    for (const RoleAssignment& roles : roleSets)
    {
        for (uint32_t r : {1U, 2U, 3U})
        {
            for (auto kind : {PdAssignmentKind::ONE_TO_ONE, PdAssignmentKind::MANY_TO_ONE})
            {
                for (auto completion :
                     {BipartiteCompletion::RANDOM, BipartiteCompletion::CIRCULANT})
                {
                    for (uint64_t run = 1; run <= 2; ++run)
                    {
                        PdAssignment a = DrawAssignment(roles, kind, r, run);
                        CircuitGraph g = PdBiased(roles, d, a, Options(r, completion), run);
                        std::string what = "N = " + std::to_string(roles.GetN()) +
                                           ", r = " + std::to_string(r) + ", " + ToString(kind) +
                                           ", " + ToString(completion) + ", run " +
                                           std::to_string(run);
                        ExpectPdBiased(g, roles, d, r, r, what);
                        // with cap = r every pair fits the reserved ports: all are circuits
                        for (const PdPair& p : a.GetPairs())
                        {
                            ASSERT_TRUE(g.HasCircuit(p.prefill, p.decode))
                                << what << ": pair (" << p.prefill << ", " << p.decode << ")";
                        }
                    }
                }
            }
        }
    }
}

TEST(TopologyTemplate, PdBiasedWithDegreeEight)
{
    RoleAssignment roles = RoleAssignment::Contiguous({410, 410, 204});
    PdAssignment a = DrawAssignment(roles, PdAssignmentKind::ONE_TO_ONE, 1, 3);
    for (uint32_t r : {1U, 4U, 7U})
    {
        for (auto completion : {BipartiteCompletion::RANDOM, BipartiteCompletion::CIRCULANT})
        {
            CircuitGraph g = PdBiased(roles, 8, a, Options(r, completion), 3);
            ExpectPdBiased(g, roles, 8, r, r, "d = 8, r = " + std::to_string(r));
        }
    }
}

TEST(TopologyTemplate, CirculantCompletionGivesABand)
{
    // one-to-one, |P| = |D|: prefill p takes decodes a(p), a(p)+1, ..., a(p)+r-1 in the ring
    // order of decode ids (also with non-contiguous ids)
    Random rolesRng = Random::Create(2, Stream::ROLES);
    std::vector<RoleAssignment> roleSets = {
        PaperRoles(),
        PaperRoles().Transition(RoleCounts::TrainingHeavyDefault(), RoleTransition::SWAP, rolesRng),
        RoleAssignment::Contiguous({5, 5, 2})};
    for (const RoleAssignment& roles : roleSets)
    {
        const std::vector<uint32_t>& dec = roles.GetDecode();
        std::vector<uint32_t> indexOf(roles.GetN(), 0);
        for (uint32_t j = 0; j < dec.size(); ++j)
        {
            indexOf[dec[j]] = j;
        }
        for (uint32_t r : {1U, 2U, 3U})
        {
            PdAssignment a = DrawAssignment(roles, PdAssignmentKind::ONE_TO_ONE, 1, 5);
            CircuitGraph g = PdBiased(roles, 4, a, Options(r, BipartiteCompletion::CIRCULANT), 5);
            ASSERT_EQ(g.FindProblem(4), "");
            for (const PdPair& p : a.GetPairs())
            {
                std::set<uint32_t> expected;
                for (uint32_t k = 0; k < r; ++k)
                {
                    expected.insert(dec[(indexOf[p.decode] + k) % dec.size()]);
                }
                std::set<uint32_t> actual;
                for (uint32_t w : g.GetNeighbours(p.prefill))
                {
                    if (roles.Get(w) == GroupRole::DECODE)
                    {
                        actual.insert(w);
                    }
                }
                ASSERT_EQ(actual, expected) << "prefill " << p.prefill << ", r = " << r;
            }
        }
    }
}

TEST(TopologyTemplate, RandomCompletionIsNotABand)
{
    // the random completion with r = 3 must not reproduce the band for most prefills
    RoleAssignment roles = PaperRoles();
    PdAssignment a = DrawAssignment(roles, PdAssignmentKind::ONE_TO_ONE, 1, 1);
    CircuitGraph g = PdBiased(roles, 4, a, Options(3, BipartiteCompletion::RANDOM), 1);
    uint32_t band = 0;
    for (const PdPair& p : a.GetPairs())
    {
        uint32_t next = 410 + (p.decode - 410 + 1) % 410;
        band += g.HasCircuit(p.prefill, next) ? 1 : 0;
    }
    EXPECT_LT(band, 20U);
}

TEST(TopologyTemplate, CirculantRepairsAStuckPrefill)
{
    // P = {0,1,2}, D = {3,4,5}, r = 2. Prefills 0 and 1 both send to decode 3; the greedy scan
    // gives 0 -> {3,4}, 1 -> {3,4} and leaves prefill 2 with decode 5 only, every other decode
    // full. Only a bipartite switch completes it.
    RoleAssignment roles = RoleAssignment::Contiguous({3, 3, 4});
    PdAssignment a({{0, 3, 1.0}, {1, 3, 1.0}});
    for (uint64_t run = 1; run <= 5; ++run)
    {
        CircuitGraph g = PdBiased(roles, 4, a, Options(2, BipartiteCompletion::CIRCULANT), run);
        ExpectPdBiased(g, roles, 4, 2, 2, "stuck case, run " + std::to_string(run));
        EXPECT_TRUE(g.HasCircuit(0, 3));
        EXPECT_TRUE(g.HasCircuit(1, 3));
        EXPECT_TRUE(g.HasCircuit(2, 5));
    }
}

TEST(TopologyTemplate, ReservedPortsEqualDegreeWithoutTraining)
{
    // r = d and no training group: the graph is the complete bipartite K_{4,4}
    RoleAssignment roles = RoleAssignment::Contiguous({4, 4, 0});
    PdAssignment a = DrawAssignment(roles, PdAssignmentKind::ONE_TO_ONE, 1, 1);
    for (auto completion : {BipartiteCompletion::RANDOM, BipartiteCompletion::CIRCULANT})
    {
        CircuitGraph g = PdBiased(roles, 4, a, Options(4, completion));
        ExpectPdBiased(g, roles, 4, 4, 4, "K_{4,4}");
    }
}

TEST(TopologyTemplate, BiregularSplit)
{
    // |P| = 4, |D| = 8, r = 2: prefills keep 2 P-D ports, decodes 2 * 4 / 8 = 1
    RoleAssignment roles = RoleAssignment::Contiguous({4, 8, 4});
    PdAssignment a = DrawAssignment(roles, PdAssignmentKind::MANY_TO_ONE, 1, 1);
    for (auto completion : {BipartiteCompletion::RANDOM, BipartiteCompletion::CIRCULANT})
    {
        for (uint64_t run = 1; run <= 3; ++run)
        {
            CircuitGraph g = PdBiased(roles, 4, a, Options(2, completion, true), run);
            ExpectPdBiased(g, roles, 4, 2, 1, "biregular " + ToString(completion));
            for (const PdPair& p : a.GetPairs())
            {
                EXPECT_TRUE(g.HasCircuit(p.prefill, p.decode));
            }
        }
    }
    // and the other way round: |P| = 8, |D| = 4
    RoleAssignment more = RoleAssignment::Contiguous({8, 4, 4});
    CircuitGraph g =
        PdBiased(more, 4, PdAssignment(), Options(2, BipartiteCompletion::CIRCULANT, true));
    ExpectPdBiased(g, more, 4, 1, 2, "biregular 8/4");
}

TEST(TopologyTemplate, BiregularSplitMustBeWhole)
{
    RoleAssignment roles = RoleAssignment::Contiguous({3, 8, 5});
    std::string m = ErrorOf(
        [&] { PdBiased(roles, 4, PdAssignment(), Options(2, BipartiteCompletion::RANDOM, true)); });
    EXPECT_CONTAINS(m, "invalid reservedPorts = 2");
    EXPECT_CONTAINS(m, "6 / 8");
    EXPECT_CONTAINS(m, "whole number");
}

TEST(TopologyTemplate, ZeroReservedPortsIsTheUniformTemplate)
{
    RoleAssignment roles = PaperRoles();
    PdAssignment a = DrawAssignment(roles, PdAssignmentKind::ONE_TO_ONE, 1, 1);
    Random r1 = Random::Create(9, Stream::PD_BIASED);
    Random r2 = Random::Create(9, Stream::PD_BIASED);
    CircuitGraph pd =
        BuildPdBiasedTemplate(roles, 4, a, Options(0, BipartiteCompletion::RANDOM), r1);
    CircuitGraph u = BuildUniformTemplate(1024, 4, r2);
    EXPECT_EQ(pd.GetCircuits(), u.GetCircuits());
}

TEST(TopologyTemplate, PdBiasedIsDeterministicAndVariesAcrossRuns)
{
    RoleAssignment roles = PaperRoles();
    PdAssignment a = DrawAssignment(roles, PdAssignmentKind::ONE_TO_ONE, 1, 1);
    for (uint32_t r : {1U, 3U})
    {
        for (auto completion : {BipartiteCompletion::RANDOM, BipartiteCompletion::CIRCULANT})
        {
            PdBiasedOptions o = Options(r, completion);
            EXPECT_EQ(PdBiased(roles, 4, a, o, 11).GetCircuits(),
                      PdBiased(roles, 4, a, o, 11).GetCircuits());
            std::set<std::vector<Circuit>> seen;
            for (uint64_t run = 1; run <= 5; ++run)
            {
                seen.insert(PdBiased(roles, 4, a, o, run).GetCircuits());
            }
            EXPECT_EQ(seen.size(), 5U) << "r = " << r << ", " << ToString(completion);
        }
    }
}

TEST(TopologyTemplate, CountPdCircuitsOnAHandmadeGraph)
{
    // P 0,1  D 2,3  T 4: circuits 0-2, 0-3, 1-2, 0-1 (P-P), 2-4 (D-T), 3-4
    RoleAssignment roles = RoleAssignment::Contiguous({2, 2, 1});
    CircuitGraph g(5, {{0, 2}, {0, 3}, {1, 2}, {0, 1}, {2, 4}, {3, 4}});
    EXPECT_EQ(CountPdCircuits(g, roles), (std::vector<uint32_t>{2, 1, 2, 1, 0}));
    EXPECT_THROW(CountPdCircuits(CircuitGraph(4, {}), roles), Error);
}

// --- bad input: one test each, the message names the parameter and the value -----------------

TEST(TopologyTemplateErrors, OddPortSum)
{
    std::string m = ErrorOf([] { ValidateRegularParameters(1023, 3); });
    EXPECT_CONTAINS(m, "invalid degree = 3");
    EXPECT_CONTAINS(m, "1023 * 3");
    EXPECT_CONTAINS(m, "even");
    Random rng = Random::Create(1, Stream::UNIFORM);
    EXPECT_THROW(BuildUniformTemplate(1023, 3, rng), Error);
}

TEST(TopologyTemplateErrors, DegreeZero)
{
    EXPECT_EQ(ErrorOf([] { ValidateRegularParameters(1024, 0); }),
              "invalid degree = 0: need 1 <= degree < nodes = 1024");
}

TEST(TopologyTemplateErrors, DegreeNotBelowNodes)
{
    std::string m = ErrorOf([] {
        Random rng = Random::Create(1, Stream::UNIFORM);
        BuildUniformTemplate(16, 16, rng);
    });
    EXPECT_EQ(m, "invalid degree = 16: need 1 <= degree < nodes = 16");
    EXPECT_CONTAINS(ErrorOf([] { ValidateRegularParameters(1, 0); }), "invalid nodes = 1");
}

TEST(TopologyTemplateErrors, DisconnectedDegreeOne)
{
    std::string m = ErrorOf([] {
        Random rng = Random::Create(1, Stream::UNIFORM);
        BuildUniformTemplate(8, 1, rng);
    });
    EXPECT_CONTAINS(m, "invalid degree = 1");
    EXPECT_CONTAINS(m, "nodes = 8");
}

TEST(TopologyTemplateErrors, RoleCountsNotSummingToNodes)
{
    std::string m = ErrorOf([] { RoleCounts{410, 410, 200}.Validate(1024, "inference-heavy"); });
    EXPECT_CONTAINS(m, "inference-heavy role counts");
    EXPECT_CONTAINS(m, "= 1020");
    EXPECT_CONTAINS(m, "N = 1024");
}

TEST(TopologyTemplateErrors, ReservedPortsAboveDegree)
{
    std::string m = ErrorOf(
        [] { PdBiased(PaperRoles(), 4, PdAssignment(), Options(5, BipartiteCompletion::RANDOM)); });
    EXPECT_EQ(m, "invalid reservedPorts = 5: need reservedPorts <= degree = 4");
}

TEST(TopologyTemplateErrors, UnequalSidesWithoutBiregular)
{
    RoleAssignment roles = RoleAssignment::Contiguous({4, 8, 4});
    std::string m = ErrorOf(
        [&] { PdBiased(roles, 4, PdAssignment(), Options(2, BipartiteCompletion::CIRCULANT)); });
    EXPECT_CONTAINS(m, "invalid reservedPorts = 2");
    EXPECT_CONTAINS(m, "|P| = 4, |D| = 8");
    EXPECT_CONTAINS(m, "allowBiregular");
}

TEST(TopologyTemplateErrors, ReservedPortsLargerThanTheOtherSide)
{
    RoleAssignment roles = RoleAssignment::Contiguous({2, 2, 12});
    std::string m = ErrorOf(
        [&] { PdBiased(roles, 4, PdAssignment(), Options(3, BipartiteCompletion::RANDOM)); });
    EXPECT_CONTAINS(m, "invalid reservedPorts = 3");
    EXPECT_CONTAINS(m, "r larger than the other side");
    EXPECT_CONTAINS(m, "|D| = 2");
}

TEST(TopologyTemplateErrors, ReservedPortsEqualDegreeWithTraining)
{
    std::string m = ErrorOf(
        [] { PdBiased(PaperRoles(), 4, PdAssignment(), Options(4, BipartiteCompletion::RANDOM)); });
    EXPECT_CONTAINS(m, "invalid reservedPorts = 4");
    EXPECT_CONTAINS(m, "204 training groups");
}

TEST(TopologyTemplateErrors, NoPrefillOrDecodeGroups)
{
    RoleAssignment roles = RoleAssignment::Contiguous({0, 0, 16});
    std::string m = ErrorOf(
        [&] { PdBiased(roles, 4, PdAssignment(), Options(1, BipartiteCompletion::RANDOM)); });
    EXPECT_CONTAINS(m, "invalid reservedPorts = 1");
    EXPECT_CONTAINS(m, "|P| = 0");
}

TEST(TopologyTemplateErrors, OneToOneWithUnequalSides)
{
    RoleAssignment roles = RoleAssignment::Contiguous({400, 420, 204});
    Random rng = Random::Create(1, Stream::ASSIGNMENT);
    std::string m =
        ErrorOf([&] { PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, rng); });
    EXPECT_CONTAINS(m, "invalid assignment = one-to-one");
    EXPECT_CONTAINS(m, "400 prefill and 420 decode");
}

TEST(TopologyTemplateErrors, ManyToOneOverCap)
{
    RoleAssignment roles = RoleAssignment::Contiguous({410, 136, 478});
    Random rng = Random::Create(1, Stream::ASSIGNMENT);
    std::string m =
        ErrorOf([&] { PdAssignment::Draw(roles, PdAssignmentKind::MANY_TO_ONE, 3, rng); });
    EXPECT_CONTAINS(m, "invalid assignment = many-to-one");
    EXPECT_CONTAINS(m, "410 prefill > 3 * 136");
}

TEST(TopologyTemplateErrors, AssignmentPairWithATrainingNode)
{
    PdAssignment a({{0, 410, 1.0}, {1, 1000, 1.0}});
    std::string m =
        ErrorOf([&] { PdBiased(PaperRoles(), 4, a, Options(3, BipartiteCompletion::CIRCULANT)); });
    EXPECT_CONTAINS(m, "invalid assignment pair (1, 1000)");
    EXPECT_CONTAINS(m, "training");
}

TEST(TopologyTemplateErrors, ImpossibleResidualWithoutTraining)
{
    // no training group, 3 prefills with 1 residual port each cannot pair among themselves
    RoleAssignment roles = RoleAssignment::Contiguous({3, 3, 0});
    std::string m = ErrorOf(
        [&] { PdBiased(roles, 3, PdAssignment(), Options(2, BipartiteCompletion::RANDOM)); });
    EXPECT_CONTAINS(m, "invalid reservedPorts = 2");
    EXPECT_CONTAINS(m, "prefill");
}
