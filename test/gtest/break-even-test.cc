/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-cost-report.h"
#include "mose-switch-cost.h"
#include "mose-test-util.h"

#include "ns3/mose-break-even.h"
#include "ns3/mose-error.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-scenario.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

constexpr auto INF = WorkloadMode::INFERENCE_HEAVY; //!< shorthand
constexpr auto TR = WorkloadMode::TRAINING_HEAVY;   //!< shorthand

/// A static policy: 10 per second in inference-heavy mode, 2 in training-heavy mode
PolicyCostRates
StaticRates()
{
    PolicyCostRates p;
    p.rate = {10, 2};
    return p;
}

/// A switching policy: 4 per second in each mode, half its load on re-paired circuits
PolicyCostRates
SwitchingRates()
{
    PolicyCostRates p;
    p.rate = {4, 4};
    p.switchesInto = {true, true};
    p.unservedShare = {0.5, 0.5};
    return p;
}

/// Dark 1.5 s, factor 1: a switch of SwitchingRates() costs 1.5 * 0.5 * 1 * 4 = 3
SwitchCostParameters
HandParameters()
{
    SwitchCostParameters params;
    params.darkTime = 1.5;
    params.unservedFactor = 1;
    return params;
}

} // namespace

TEST(MoseBreakEven, PenaltyByHand)
{
    SwitchCostParameters params = HandParameters();
    EXPECT_EQ(SwitchPenalty(SwitchingRates(), INF, params), 3.0);
    EXPECT_EQ(SwitchPenalty(SwitchingRates(), TR, params), 3.0);
    EXPECT_EQ(SwitchPenalty(StaticRates(), TR, params), 0.0);
    params.unservedShare = 1.0; // the whole fabric dark: 1.5 * 1 * 1 * 4
    EXPECT_EQ(SwitchPenalty(SwitchingRates(), INF, params), 6.0);
    EXPECT_EQ(SwitchPenalty(StaticRates(), INF, params), 0.0); // no switch, no penalty
    params.unservedShare.reset();
    params.unservedFactor = 2; // waiting costs twice the served cost
    EXPECT_EQ(SwitchPenalty(SwitchingRates(), INF, params), 6.0);
}

TEST(MoseBreakEven, IntegratedCostByHand)
{
    const auto schedule =
        ParseSchedule("--schedule", "inference-heavy:3600,training-heavy:600,inference:100");
    ASSERT_EQ(schedule.size(), 3u);
    // switching: 4 * 4300 served + 2 switches * 3
    ScheduleCost m = IntegrateSchedule(SwitchingRates(), schedule, HandParameters());
    EXPECT_EQ(m.duration, 4300.0);
    EXPECT_EQ(m.servedCost, 17200.0);
    EXPECT_EQ(m.switches, 2u);
    EXPECT_EQ(m.penalty, 6.0);
    EXPECT_EQ(m.total, 17206.0);
    EXPECT_EQ(m.PerUnitTime(), 17206.0 / 4300.0);
    // static: 10 * 3600 + 2 * 600 + 10 * 100, never a switch
    ScheduleCost s = IntegrateSchedule(StaticRates(), schedule, HandParameters());
    EXPECT_EQ(s.servedCost, 38200.0);
    EXPECT_EQ(s.switches, 0u);
    EXPECT_EQ(s.penalty, 0.0);
    EXPECT_EQ(s.total, 38200.0);
}

TEST(MoseBreakEven, NoSwitchBetweenPeriodsOfOneModeNorBeforeTheFirst)
{
    const auto schedule = ParseSchedule("s", "training:10,training-heavy:10,inference:5");
    ScheduleCost m = IntegrateSchedule(SwitchingRates(), schedule, HandParameters());
    EXPECT_EQ(m.switches, 1u);
    EXPECT_EQ(m.total, 4.0 * 25 + 3);
}

TEST(MoseBreakEven, BreakEvenByHand)
{
    // per cycle the switching policy saves T * ((10 + 2) - (4 + 4)) = 4 T and pays 2 * 3
    CycleCost m = ComputeCycleCost(SwitchingRates(), HandParameters());
    CycleCost s = ComputeCycleCost(StaticRates(), HandParameters());
    EXPECT_EQ(m.rateSum, 8.0);
    EXPECT_EQ(m.penaltySum, 6.0);
    EXPECT_EQ(s.rateSum, 12.0);
    EXPECT_EQ(s.penaltySum, 0.0);
    BreakEven b = ComputeBreakEven(m, s);
    EXPECT_EQ(b.kind, BreakEven::AT);
    EXPECT_EQ(b.duration, 1.5);
    EXPECT_EQ(b.rateSaving, 4.0);
    EXPECT_EQ(b.extraPenalty, 6.0);
    EXPECT_EQ(b.ToText(), "1.5 s");
    // the curves cross there: (1.5 * 8 + 6) / 3 = 6 = 12 / 2
    EXPECT_EQ(m.PerUnitTime(1.5), 6.0);
    EXPECT_EQ(s.PerUnitTime(1.5), 6.0);
    EXPECT_LT(m.PerUnitTime(2), s.PerUnitTime(2));
    EXPECT_GT(m.PerUnitTime(1), s.PerUnitTime(1));
    // and the alternating schedule integrates to equal costs at T*
    auto alt = AlternatingSchedule(1.5, 4);
    ASSERT_EQ(alt.size(), 8u);
    ScheduleCost mi = IntegrateSchedule(SwitchingRates(), alt, HandParameters());
    ScheduleCost si = IntegrateSchedule(StaticRates(), alt, HandParameters());
    EXPECT_EQ(mi.switches, 7u); // no switch before the first period
    EXPECT_EQ(mi.total + 3, si.total);
    // the whole fabric dark doubles the penalty: T* = 12 / 4
    SwitchCostParameters dark = HandParameters();
    dark.unservedShare = 1.0;
    EXPECT_EQ(ComputeBreakEven(ComputeCycleCost(SwitchingRates(), dark),
                               ComputeCycleCost(StaticRates(), dark))
                  .duration,
              3.0);
}

TEST(MoseBreakEven, NeverAndAlways)
{
    PolicyCostRates cheapStatic;
    cheapStatic.rate = {3, 4}; // R = 7 < 8: switching never pays
    BreakEven never = ComputeBreakEven(ComputeCycleCost(SwitchingRates(), HandParameters()),
                                       ComputeCycleCost(cheapStatic, HandParameters()));
    EXPECT_EQ(never.kind, BreakEven::NEVER);
    EXPECT_TRUE(std::isinf(never.duration));
    EXPECT_EQ(never.ToText(), "never");
    cheapStatic.rate = {4, 4}; // equal rates: never pays either
    EXPECT_EQ(ComputeBreakEven(ComputeCycleCost(SwitchingRates(), HandParameters()),
                               ComputeCycleCost(cheapStatic, HandParameters()))
                  .kind,
              BreakEven::NEVER);
    SwitchCostParameters free = HandParameters();
    free.darkTime = 0; // no dark time: no penalty, pays at every T
    BreakEven always = ComputeBreakEven(ComputeCycleCost(SwitchingRates(), free),
                                        ComputeCycleCost(StaticRates(), free));
    EXPECT_EQ(always.kind, BreakEven::ALWAYS);
    EXPECT_EQ(always.duration, 0.0);
    EXPECT_EQ(always.ToText(), "always");
}

TEST(MoseBreakEven, ScheduleParsing)
{
    auto s = ParseSchedule("--schedule", "Inference:1.5e3,TRAINING-HEAVY:0,training:7");
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].mode, INF);
    EXPECT_EQ(s[0].duration, 1500.0);
    EXPECT_EQ(s[1].mode, TR);
    EXPECT_EQ(s[1].duration, 0.0);
    EXPECT_EQ(s[2].duration, 7.0);
    EXPECT_EQ(FormatSchedule(s), "inference-heavy:1500,training-heavy:0,training-heavy:7");
    EXPECT_EQ(FormatSchedule(ParseSchedule("x", FormatSchedule(s))), FormatSchedule(s));
    // durations with units, as every duration option reads them; no unit is seconds
    auto u = ParseSchedule("--schedule", "inference:1h,training:10min,inference:250ms,training:5");
    ASSERT_EQ(u.size(), 4u);
    EXPECT_EQ(u[0].duration, 3600.0);
    EXPECT_EQ(u[1].duration, 600.0);
    EXPECT_EQ(u[2].duration, 250 * 1e-3);
    EXPECT_EQ(u[3].duration, 5.0);
    EXPECT_EQ(ParseSchedule("s", "inference:1e-3s")[0].duration, 1e-3);
    EXPECT_EQ(ParseSchedule("s", "inference:2us")[0].duration, 2 * 1e-6);
    EXPECT_EQ(ParseSchedule("s", "inference:7ns")[0].duration, 7 * 1e-9);
    EXPECT_EQ(FormatSchedule(AlternatingSchedule(60, 2)),
              "inference-heavy:60,training-heavy:60,inference-heavy:60,training-heavy:60");
}

TEST(MoseBreakEven, ScheduleErrors)
{
    auto parse = [](const char* text) { return [text]() { ParseSchedule("--schedule", text); }; };
    ExpectErrorContaining(parse(""), "invalid --schedule = \"\": the schedule is empty");
    ExpectErrorContaining(parse("inference-heavy"), "--schedule period 1 = \"inference-heavy\"");
    ExpectErrorContaining(parse("inference-heavy"), "exactly one ':'");
    ExpectErrorContaining(parse("inference-heavy:1:2"), "exactly one ':'");
    ExpectErrorContaining(parse("inference-heavy:10,"), "--schedule period 2");
    ExpectErrorContaining(parse("inference-heavy:10,"), "the period is empty");
    ExpectErrorContaining(parse(",training:1"), "--schedule period 1");
    ExpectErrorContaining(parse("foo:10"), "invalid --schedule period 1 mode = \"foo\"");
    ExpectErrorContaining(parse("foo:10"), "inference-heavy");
    ExpectErrorContaining(parse("training:10, inference:5"), "period 2 mode = \" inference\"");
    ExpectErrorContaining(parse("inference:abc"), "invalid --schedule period 1 duration");
    ExpectErrorContaining(parse("inference:"), "invalid --schedule period 1 duration");
    ExpectErrorContaining(parse("inference:inf"), "invalid --schedule period 1 duration");
    ExpectErrorContaining(parse("inference:nan"), "invalid --schedule period 1 duration");
    ExpectErrorContaining(parse("inference:10,training:-1"),
                          "invalid --schedule period 2 duration = \"-1\": a duration >= 0");
    ExpectErrorContaining(parse("inference:10,training:5 s"), "period 2 duration = \"5 s\"");
    ExpectErrorContaining(parse("inference:10,training:5sec"), "unit ns, us, ms, s, min or h");
    // the TIME:MODE boundaries mose-mode-switch read before: named, with the MODE:DURATION form
    ExpectErrorContaining(parse("0.2s:training-heavy,0.4s:inference-heavy"),
                          "invalid --schedule period 1 = \"0.2s:training-heavy\": the mode comes "
                          "first: a schedule is MODE:DURATION periods");
    ExpectErrorContaining(parse("0.2s:training-heavy"), "the TIME:MODE boundary form is no longer");
    ExpectErrorContaining(parse("inference:0,training:0"), "the durations add up to 0 s");
    ExpectErrorContaining(parse("inference:1e308,training:1e308"), "the durations add up to more");
    ExpectErrorContaining([]() { ValidateSchedule("schedule", {}); }, "the schedule is empty");
    ExpectErrorContaining(
        []() {
            ValidateSchedule("schedule", {{INF, std::numeric_limits<double>::quiet_NaN()}});
        },
        "invalid schedule period 1 duration = nan");
    ExpectErrorContaining(
        []() {
            ValidateSchedule("schedule", {{INF, 1}, {TR, -2}});
        },
        "invalid schedule period 2 duration = -2");
    ExpectErrorContaining([]() { AlternatingSchedule(0, 1); }, "invalid mode duration = 0");
    ExpectErrorContaining([]() { AlternatingSchedule(-1, 1); }, "invalid mode duration = -1");
    ExpectErrorContaining([]() { AlternatingSchedule(INFINITY, 1); },
                          "invalid mode duration = inf");
    ExpectErrorContaining([]() { AlternatingSchedule(1, 0); }, "invalid cycles = 0");
    ExpectErrorContaining([]() { IntegrateSchedule(SwitchingRates(), {}, HandParameters()); },
                          "invalid schedule");
    ExpectErrorContaining(
        []() {
            IntegrateSchedule(StaticRates(), {{INF, 1e308}, {TR, 1e308}}, HandParameters());
        },
        "invalid schedule");
}

TEST(MoseBreakEven, ParameterErrors)
{
    auto penalty = [](SwitchCostParameters params) {
        return
            [params]() { IntegrateSchedule(SwitchingRates(), AlternatingSchedule(1, 1), params); };
    };
    SwitchCostParameters p = HandParameters();
    p.darkTime = -0.1;
    ExpectErrorContaining(penalty(p), "invalid dark time = -0.1: a finite number of seconds >= 0");
    p.darkTime = std::numeric_limits<double>::infinity();
    ExpectErrorContaining(penalty(p), "invalid dark time = inf");
    p.darkTime = std::numeric_limits<double>::quiet_NaN();
    ExpectErrorContaining(penalty(p), "invalid dark time = nan");
    p = HandParameters();
    p.unservedFactor = -1;
    ExpectErrorContaining(penalty(p), "invalid unserved factor = -1: a finite number >= 0");
    p.unservedFactor = std::numeric_limits<double>::quiet_NaN();
    ExpectErrorContaining(penalty(p), "invalid unserved factor = nan");
    p = HandParameters();
    p.unservedShare = 1.5;
    ExpectErrorContaining(penalty(p), "invalid unserved share = 1.5: a share in [0, 1]");
    p.unservedShare = -0.25;
    ExpectErrorContaining(penalty(p), "invalid unserved share = -0.25");
    p.unservedShare = std::numeric_limits<double>::quiet_NaN();
    ExpectErrorContaining(penalty(p), "invalid unserved share = nan");

    auto rates = [](PolicyCostRates r) { return [r]() { ComputeCycleCost(r, HandParameters()); }; };
    PolicyCostRates r = SwitchingRates();
    r.rate[1] = -1;
    ExpectErrorContaining(rates(r), "invalid cost rate (training-heavy) = -1");
    r.rate[1] = std::numeric_limits<double>::infinity();
    ExpectErrorContaining(rates(r), "invalid cost rate (training-heavy) = inf");
    r = SwitchingRates();
    r.unservedShare[0] = 2;
    ExpectErrorContaining(rates(r), "invalid unserved share (inference-heavy) = 2");
    ExpectErrorContaining(
        []() {
            ComputeBreakEven(CycleCost{std::numeric_limits<double>::quiet_NaN(), 0}, CycleCost{});
        },
        "invalid cycle cost = nan");
}

TEST(MoseBreakEven, MetricNames)
{
    EXPECT_EQ(ToString(Metric::AVG_COST), "avg_cost");
    EXPECT_EQ(ParseSwitchCostMetric("P95-Cost", "--metric"), Metric::P95_COST);
    ExpectErrorContaining([]() { ParseSwitchCostMetric("cost", "--metric"); },
                          "invalid --metric = \"cost\"");
    // a metric of the one enum that is not a cost rate (higher is better, or one class only)
    ExpectErrorContaining([]() { ParseSwitchCostMetric("direct_kv", "--metric"); },
                          "invalid --metric = \"direct_kv\": allowed values are avg_cost, "
                          "p95_cost, max_load, p95_load and avg_hop (any letter case; also "
                          "avg-cost, p95-cost, max-load, p95-load, avg-hop)");
    ExpectErrorContaining([]() { GetSwitchCostRate(FlowMetrics{}, Metric::KV_THREE_PLUS); },
                          "kv_3plus");
    FlowMetrics m;
    m.all.avgCost = 1;
    m.all.p95Cost = 2;
    m.all.maxLoad = 3;
    m.all.p95Load = 4;
    m.all.avgHop = 5;
    EXPECT_EQ(GetSwitchCostRate(m, Metric::AVG_COST), 1.0);
    EXPECT_EQ(GetSwitchCostRate(m, Metric::P95_COST), 2.0);
    EXPECT_EQ(GetSwitchCostRate(m, Metric::MAX_LOAD), 3.0);
    EXPECT_EQ(GetSwitchCostRate(m, Metric::P95_LOAD), 4.0);
    EXPECT_EQ(GetSwitchCostRate(m, Metric::AVG_HOP), 5.0);
}

TEST(MoseBreakEven, LoadShareOfCircuits)
{
    CircuitGraph ring = Ring(4);
    std::vector<double> load(ring.GetNCircuits());
    double total = 0;
    for (std::size_t c = 0; c < load.size(); ++c)
    {
        load[c] = static_cast<double>(c + 1);
        total += load[c];
    }
    const auto& circuits = ring.GetCircuits();
    EXPECT_EQ(LoadShareOfCircuits(ring, load, {circuits[1], circuits[3]}), (2.0 + 4.0) / total);
    EXPECT_EQ(LoadShareOfCircuits(ring, load, {}), 0.0);
    EXPECT_EQ(LoadShareOfCircuits(ring, load, circuits), 1.0);
    EXPECT_EQ(LoadShareOfCircuits(ring, std::vector<double>(4, 0.0), circuits), 0.0);
    // parallel circuits: one of two copies of (0, 1) counts half the pair's load
    CircuitGraph multi(3, {{0, 1}, {0, 1}, {1, 2}});
    EXPECT_EQ(LoadShareOfCircuits(multi, {2, 4, 4}, {{0, 1}}), 0.3);
    EXPECT_EQ(LoadShareOfCircuits(multi, {2, 4, 4}, {{0, 1}, {0, 1}}), 0.6);
    ExpectErrorContaining(
        [&]() {
            LoadShareOfCircuits(multi, {2, 4, 4}, {{0, 1}, {0, 1}, {0, 1}});
        },
        "invalid circuits = (0, 1)");
    ExpectErrorContaining(
        [&]() {
            LoadShareOfCircuits(multi, {2, 4, 4}, {{0, 2}});
        },
        "invalid circuits = (0, 2)");
    ExpectErrorContaining(
        [&]() {
            LoadShareOfCircuits(multi, {2, 4}, {});
        },
        "invalid load = 2 entries");
    ExpectErrorContaining(
        [&]() {
            LoadShareOfCircuits(multi, {2, -4, 4}, {});
        },
        "invalid load of circuit 1 = -4");
}

TEST(SwitchCostStudy, SmallStudyEndToEnd)
{
    const FlowExperimentConfig c = SmallStudyConfig(1000);
    SwitchCostStudy study(c, SeedPlan{2, 2});
    uint32_t calls = 0;
    study.Run([&calls](uint32_t done, uint32_t total) {
        ++calls;
        EXPECT_LE(done, total);
        EXPECT_EQ(total, 2u);
    });
    EXPECT_EQ(calls, 2u);
    ASSERT_EQ(study.GetSeedsDone(), 2u);
    SwitchCostParameters params;
    const auto schedule = AlternatingSchedule(3600, 3);
    for (uint32_t seed = 0; seed < 2; ++seed)
    {
        const SwitchCostSeed& s = study.GetSeed(seed);
        EXPECT_EQ(s.run, c.firstRun + seed);
        const Scenario scenario = study.GetStudy().BuildScenario(s.run);
        for (std::size_t pi = 0; pi < ALL_POLICIES.size(); ++pi)
        {
            const Policy policy = ALL_POLICIES[pi];
            const PolicyCostRates& p = s.policies[pi];
            for (WorkloadMode mode : ALL_MODES)
            {
                const auto m = static_cast<std::size_t>(mode);
                EXPECT_EQ(p.rate[m], study.GetStudy().GetMetrics(seed, mode, policy).all.avgCost);
                EXPECT_GE(p.unservedShare[m], 0.0);
                EXPECT_LE(p.unservedShare[m], 1.0);
                EXPECT_EQ(p.unservedShare[m],
                          study.GetStudy().GetSwitchCount(seed, mode, policy).addedLoadShare);
                const SwitchCircuits& k = s.circuits[pi][m];
                EXPECT_EQ(k.kept + k.added, k.circuits);
                EXPECT_EQ(k.circuits, scenario.GetGraph(policy, mode).GetNCircuits());
                EXPECT_EQ(k.kept + k.removed,
                          scenario.GetPreviousGraph(policy, mode).GetNCircuits());
                if (policy == Policy::MOSE)
                {
                    EXPECT_TRUE(p.switchesInto[m]);
                    EXPECT_GT(k.added, 0u);
                    EXPECT_GT(p.unservedShare[m], 0.0);
                }
                else
                {
                    EXPECT_FALSE(p.switchesInto[m]);
                    EXPECT_EQ(k.added, 0u);
                    EXPECT_EQ(k.kept, k.circuits);
                    EXPECT_EQ(p.unservedShare[m], 0.0);
                    EXPECT_EQ(SwitchPenalty(p, mode, params), 0.0);
                }
            }
            ScheduleCost cost = IntegrateSchedule(p, schedule, params);
            EXPECT_EQ(cost.switches, policy == Policy::MOSE ? 5u : 0u);
            if (policy != Policy::MOSE)
            {
                EXPECT_EQ(cost.penalty, 0.0);
            }
        }
    }
    // seed 0's loads are kept by the study: the unserved share by an independent count
    for (WorkloadMode mode : ALL_MODES)
    {
        const Scenario scenario = study.GetStudy().BuildScenario(c.firstRun);
        const CircuitGraph& after = scenario.GetGraph(Policy::MOSE, mode);
        CircuitDiff diff = DiffCircuits(scenario.GetPreviousGraph(Policy::MOSE, mode), after);
        std::map<std::pair<uint32_t, uint32_t>, int> added;
        for (const Circuit& a : diff.added)
        {
            ++added[{a.u, a.v}];
        }
        const FlowMetrics& fm = study.GetStudy().GetMetrics(0, mode, Policy::MOSE);
        ASSERT_EQ(fm.load.size(), after.GetNCircuits());
        double onAdded = 0;
        double total = 0;
        for (std::size_t e = 0; e < fm.load.size(); ++e)
        {
            total += fm.load[e];
            auto it = added.find({after.GetCircuits()[e].u, after.GetCircuits()[e].v});
            if (it != added.end() && it->second > 0) // the templates are simple graphs
            {
                onAdded += fm.load[e];
                --it->second;
            }
        }
        EXPECT_NEAR(study.GetSeed(0)
                        .policies[static_cast<std::size_t>(Policy::MOSE)]
                        .unservedShare[static_cast<std::size_t>(mode)],
                    onAdded / total,
                    1e-12);
    }
    // summaries: static policies pay nothing, the break-even of the means is the closed form
    for (Policy other :
         {Policy::STATIC_TRAINING, Policy::STATIC_INFERENCE, Policy::STATIC_COMPROMISE})
    {
        Summary sw;
        study.SummarizeSchedule(other, schedule, params, nullptr, &sw);
        EXPECT_EQ(sw.mean, 0.0);
        EXPECT_EQ(study.SummarizePenalty(other, INF, params).mean, 0.0);
        BreakEvenSummary b = study.SummarizeBreakEven(Policy::MOSE, other, params);
        BreakEven expected = ComputeBreakEven(study.MeanCycleCost(Policy::MOSE, params),
                                              study.MeanCycleCost(other, params));
        EXPECT_EQ(b.ofMeans.kind, expected.kind);
        EXPECT_EQ(b.perSeed.n + b.always + b.never, 2u);
    }
    SwitchCostParameters dark = params;
    dark.unservedShare = 1.0;
    EXPECT_EQ(study.SummarizeUnservedShare(Policy::MOSE, TR, &dark).mean, 1.0);
    EXPECT_EQ(study.SummarizeUnservedShare(Policy::STATIC_TRAINING, TR, &dark).mean, 0.0);
    EXPECT_EQ(study.SummarizeUnservedShare(Policy::MOSE, TR, &params).mean,
              study.SummarizeUnservedShare(Policy::MOSE, TR).mean);
    Summary sw;
    study.SummarizeSchedule(Policy::MOSE, schedule, params, nullptr, &sw);
    EXPECT_EQ(sw.mean, 5.0);
    EXPECT_EQ(study.SummarizeCircuits(Policy::MOSE, INF, true).mean +
                  study.SummarizeCircuits(Policy::MOSE, INF, false).mean,
              64.0 * 4 / 2);
    ExpectErrorContaining([&]() { study.GetSeed(2); }, "seed 2 has not been analysed");
}

TEST(SwitchCostReport, TablesAndCsvFiles)
{
    const FlowExperimentConfig c = SmallStudyConfig(200);
    SwitchCostStudy study(c, SeedPlan{2, 2});
    study.Run();
    ASSERT_EQ(study.GetSeedsDone(), 2u);
    SwitchCostParameters params;
    const std::vector<double> durations = SwitchCostReport::LogSpacedDurations(1e-3, 1e4, 8);
    ASSERT_EQ(durations.size(), 8u);
    EXPECT_DOUBLE_EQ(durations.front(), 1e-3);
    EXPECT_NEAR(durations.back(), 1e4, 1e-8);
    const SwitchCostReport report(study, params, AlternatingSchedule(3600, 3), durations, true);

    std::ostringstream tables;
    tables << std::setprecision(2);
    report.PrintTables(tables);
    EXPECT_EQ(tables.precision(), 2); // the stream's format is restored
    EXPECT_CONTAINS(tables.str(), "When switching pays: N=64 d=4 flows=200 seeds=2");
    EXPECT_CONTAINS(tables.str(), "Schedule: 3 cycles of ");
    EXPECT_CONTAINS(tables.str(), "verdict: switching ");
    std::ostringstream moseRow;
    moseRow << std::fixed << std::setprecision(2)
            << study.SummarizeRate(Policy::MOSE, WorkloadMode::INFERENCE_HEAVY).mean << " +-";
    EXPECT_CONTAINS(tables.str(), moseRow.str());

    const std::string dir = ::testing::TempDir() + "mose-switch-cost-report-test";
    std::filesystem::remove_all(dir);
    report.WriteCsv(dir);
    std::ifstream rates(dir + "/rates.csv");
    std::string line;
    std::getline(rates, line);
    EXPECT_EQ(line,
              "policy,mode,rate_mean,rate_ci95,unserved_share_mean,unserved_share_ci95,"
              "circuits_kept_mean,circuits_added_mean,penalty_mean,penalty_ci95,n");
    uint32_t rows = 0;
    bool found = false;
    const std::string prefix =
        ToString(Policy::MOSE) + "," + ToString(WorkloadMode::TRAINING_HEAVY) + ",";
    while (std::getline(rates, line))
    {
        ++rows;
        if (line.rfind(prefix, 0) == 0)
        {
            found = true;
            const double rate = std::stod(line.substr(prefix.size()));
            const double expected =
                study.SummarizeRate(Policy::MOSE, WorkloadMode::TRAINING_HEAVY).mean;
            EXPECT_NEAR(rate, expected, 1e-9 * std::abs(expected));
        }
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(rows, ALL_POLICIES.size() * ALL_MODES.size());
    for (const char* file :
         {"per_seed.csv", "break_even.csv", "schedule.csv", "cost_vs_duration.csv"})
    {
        EXPECT_TRUE(std::filesystem::exists(dir + "/" + file)) << file;
    }
    EXPECT_EQ(ReadLines(dir + "/per_seed.csv").size(),
              1 + 2 * ALL_POLICIES.size() * ALL_MODES.size());
    const std::vector<std::string> plots = report.WritePlots(dir);
    ASSERT_EQ(plots.size(), 1u);
    EXPECT_EQ(plots[0], dir + "/break_even.plt");
    EXPECT_TRUE(std::filesystem::exists(plots[0]));
    // the names a program declares before the study are the files written, and no other
    EXPECT_EQ(SwitchCostReport::GetCsvFileNames().size(), 5u);
    EXPECT_EQ(SwitchCostReport::GetPlotFileNames(), std::vector<std::string>{"break_even.plt"});
    EXPECT_EQ(
        ListFileNames(dir),
        SortedNames({SwitchCostReport::GetCsvFileNames(), SwitchCostReport::GetPlotFileNames()}));
    std::filesystem::remove_all(dir);

    ExpectErrorContaining([]() { SwitchCostReport::LogSpacedDurations(1, 1, 10); },
                          "invalid maxT = 1");
}
