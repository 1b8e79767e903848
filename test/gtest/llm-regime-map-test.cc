/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The LLM regime map: the verdict of a cell from hand-made figures, the runner on a tiny map
 * (a cell per load, interval and dark time with every policy, winners as the verdict function
 * gives them, byte-identical CSV), and the LLM experiment's circuit rate set on its own OCS
 * (no attribute default left changed; a user's default wins or fails loudly); a map on 2 seeds
 * against two one-seed maps; the host rate's one rule (option, attribute, both); the figures of
 * a time window (hand-made records, and the whole run against SummarizeLlmRun()), and
 * the confidence interval of a cell's margin over seeds and cycles.
 */

#include "mose-llm-regime-map.h"
#include "mose-llm-test-util.h"
#include "mose-program.h"
#include "mose-test-util.h"

#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-random.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <iomanip>
#include <sstream>
#include <unistd.h>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// a run's figures: mean TTFT, P99 TTFT, mean iteration time (s)
LlmSummary
Figures(Policy p, double ttft, double p99, double iter)
{
    LlmSummary s;
    s.policy = p;
    s.inference.requests = s.inference.served = 10;
    s.training.iterations = 5;
    s.inference.ttft.mean = ttft;
    s.inference.ttft.p99 = p99;
    s.training.iteration.mean = iter;
    return s;
}

/// a tiny map on 16 groups: small KV caches and collectives, fast prefill
LlmRegimeMapConfig
Tiny()
{
    LlmRegimeMapConfig m;
    m.base = MakeLlmConfig(16);
    m.base.llm.kvBytesPerToken = 1024;
    m.base.llm.prefillTokensPerSecond = 1e6;
    m.base.ocsRate = DataRate("10Gbps");
    m.base.hostRate = DataRate("10Gbps");
    m.base.llm.collectiveBytes = 64 * 1024;
    m.base.llm.computeTime = MilliSeconds(5);
    m.generator.input = {256.0, 0.5, 16, 1024};
    m.generator.output = {16.0, 0.5, 1, 64};
    m.loads = {100, 400};
    m.intervals = {MilliSeconds(40)};
    m.darkTimes = {MilliSeconds(1), MilliSeconds(5)};
    m.flowLevelFlows = 2000;
    m.flowLevelSeeds = 1;
    return m;
}

} // namespace

TEST(LlmRegimeMap, VerdictFromHandMadeFigures)
{
    // MoSE best TTFT, S-Inf best iteration among statics; S-Comp best static overall
    const std::vector<LlmSummary> runs = {Figures(Policy::MOSE, 0.080, 0.200, 0.050),
                                          Figures(Policy::STATIC_TRAINING, 0.120, 0.300, 0.040),
                                          Figures(Policy::STATIC_INFERENCE, 0.085, 0.190, 0.080),
                                          Figures(Policy::STATIC_COMPROMISE, 0.100, 0.250, 0.045)};
    const LlmCellVerdict v = LlmCellVerdict::Compute(runs, 0.02);
    EXPECT_EQ(v.winner[0], Policy::MOSE);
    EXPECT_FALSE(v.tie[0]); // S-Inf 0.085 is 6.25% above
    EXPECT_EQ(v.winner[1], Policy::STATIC_INFERENCE);
    EXPECT_EQ(v.winner[2], Policy::STATIC_TRAINING);
    EXPECT_EQ(v.WinnerText(LlmCriterion::TTFT_MEAN), "MoSE");
    // scores (TTFT/0.080 + iter/0.040) / 2: S-Train 1.25, S-Inf 1.53125, S-Comp 1.1875
    ASSERT_TRUE(v.bestStatic.has_value());
    EXPECT_EQ(*v.bestStatic, Policy::STATIC_COMPROMISE);
    EXPECT_DOUBLE_EQ(v.margin[0], (0.080 - 0.100) / 0.100);
    EXPECT_DOUBLE_EQ(v.margin[1], (0.200 - 0.250) / 0.250);
    EXPECT_DOUBLE_EQ(v.margin[2], (0.050 - 0.045) / 0.045);
    EXPECT_DOUBLE_EQ(v.overallMargin, (-0.2 + (0.050 - 0.045) / 0.045) / 2);
    EXPECT_EQ(v.kind, LlmCellVerdict::PAYS); // -4.4%
    EXPECT_EQ(v.KindText(), "pays");

    // within the tolerance: a tie, and the runner-up marks the winner as tied
    const std::vector<LlmSummary> close = {Figures(Policy::MOSE, 0.101, 0.2, 0.050),
                                           Figures(Policy::STATIC_COMPROMISE, 0.100, 0.2, 0.050)};
    const LlmCellVerdict t = LlmCellVerdict::Compute(close, 0.02);
    EXPECT_EQ(t.winner[0], Policy::STATIC_COMPROMISE);
    EXPECT_TRUE(t.tie[0]);
    EXPECT_EQ(t.WinnerText(LlmCriterion::TTFT_MEAN), "tie:S-Comp");
    EXPECT_EQ(t.winner[2], Policy::MOSE); // exact equality: the first listed
    EXPECT_EQ(t.kind, LlmCellVerdict::TIE);
    EXPECT_NEAR(t.overallMargin, 0.005, 1e-12); // ((0.101 - 0.1) / 0.1 + 0) / 2

    // worse by more than the tolerance
    const std::vector<LlmSummary> worse = {Figures(Policy::MOSE, 0.2, 0.3, 0.1),
                                           Figures(Policy::STATIC_TRAINING, 0.1, 0.3, 0.1)};
    EXPECT_EQ(LlmCellVerdict::Compute(worse, 0.02).kind, LlmCellVerdict::DOES_NOT_PAY);

    // no training iterations anywhere: TTFT alone decides
    std::vector<LlmSummary> inferenceOnly = {Figures(Policy::MOSE, 0.09, 0.2, 0),
                                             Figures(Policy::STATIC_TRAINING, 0.1, 0.2, 0)};
    inferenceOnly[0].training.iterations = inferenceOnly[1].training.iterations = 0;
    const LlmCellVerdict i = LlmCellVerdict::Compute(inferenceOnly, 0.02);
    EXPECT_FALSE(i.used[2]);
    EXPECT_EQ(i.WinnerText(LlmCriterion::ITER_MEAN), "-");
    EXPECT_NEAR(i.overallMargin, -0.1, 1e-12);

    // no MoSE: no verdict; a policy twice or a bad tolerance: an error
    EXPECT_EQ(LlmCellVerdict::Compute({runs[1], runs[2]}, 0.02).kind, LlmCellVerdict::NO_VERDICT);
    EXPECT_CONTAINS(ErrorOf([&] {
                        LlmCellVerdict::Compute({runs[1], runs[1]}, 0.02);
                    }),
                    "S-Train twice");
    EXPECT_CONTAINS(ErrorOf([&] { LlmCellVerdict::Compute(runs, -1); }), "tolerance");
}

TEST(LlmRegimeMap, TinyMapHasEveryCellAndPolicyAndADeterministicCsv)
{
    const LlmRegimeMapConfig config = Tiny();
    std::string csv[2];
    for (int k = 0; k < 2; ++k)
    {
        LlmRegimeMap map(config);
        uint32_t calls = 0;
        map.Run([&calls](uint32_t, uint32_t total, const std::string&) {
            ++calls;
            EXPECT_EQ(total, 2u * 1u * (3u + 2u)); // statics once per (load, T), MoSE per dark
        });
        EXPECT_EQ(calls, 11u);
        const auto& cells = map.GetCells();
        ASSERT_EQ(cells.size(), 4u); // 2 loads x 1 interval x 2 dark times
        for (std::size_t i = 0; i < cells.size(); ++i)
        {
            const LlmRegimeCell& c = cells[i];
            EXPECT_DOUBLE_EQ(c.load, config.loads[i / 2]);
            EXPECT_EQ(c.darkTime, config.darkTimes[i % 2]);
            ASSERT_EQ(c.runs.size(), 4u);
            for (std::size_t p = 0; p < 4; ++p)
            {
                EXPECT_EQ(c.runs[p].policy, config.policies[p]);
                EXPECT_EQ(c.runs[p].inference.served, c.requests);
                EXPECT_GT(c.runs[p].training.iterations, 0u);
                EXPECT_EQ(c.runs[p].errors, 0u);
            }
            // the winners are the verdict function's on the cell's own figures
            const LlmCellVerdict v = LlmCellVerdict::Compute(c.runs, config.tolerance);
            EXPECT_EQ(v.winner, c.verdict.winner);
            EXPECT_EQ(v.kind, c.verdict.kind);
            EXPECT_DOUBLE_EQ(v.overallMargin, c.verdict.overallMargin);
            EXPECT_TRUE(c.flow.has_value());
        }
        // the static runs do not depend on the dark time: shared between a load's cells
        EXPECT_DOUBLE_EQ(cells[0].runs[1].inference.ttft.mean,
                         cells[1].runs[1].inference.ttft.mean);
        EXPECT_EQ(map.GetCrossovers().size(), 4u);
        EXPECT_CONTAINS(map.GetVerdict(), "N=16");
        std::ostringstream os;
        map.WriteCsv(os);
        csv[k] = os.str();
        std::ostringstream plt;
        map.WritePlot(plt);
        EXPECT_CONTAINS(plt.str(), "regime_map.png");
        if (k == 0)
        {
            // without rendering: the CSV and the script as above, no PNG, and the command that
            // renders it
            const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                              ("mose-regime-map-" + std::to_string(getpid()));
            std::filesystem::remove_all(dir);
            std::filesystem::create_directories(dir);
            std::ostringstream lines;
            map.WriteOutputs(dir.string(), false, lines);
            EXPECT_EQ(ReadFileBytes(dir / "regime_map.csv"), csv[k]);
            EXPECT_EQ(ReadFileBytes(dir / "regime_map.plt"), plt.str());
            EXPECT_FALSE(std::filesystem::exists(dir / "regime_map.png"));
            EXPECT_CONTAINS(lines.str(), "&& gnuplot regime_map.plt");
            std::ostringstream timing;
            map.PrintTiming(timing);
            EXPECT_CONTAINS(timing.str(), std::to_string(map.GetEvents()) + " events");
            std::filesystem::remove_all(dir);
        }
    }
    EXPECT_EQ(csv[0], csv[1]);
    EXPECT_EQ(std::count(csv[0].begin(), csv[0].end(), '\n'), 5);
}

TEST(LlmRegimeMap, BadMapsGetClearErrors)
{
    LlmRegimeMapConfig m = Tiny();
    m.loads.clear();
    EXPECT_CONTAINS(ErrorOf([&] { m.Validate(); }), "at least one load");
    m = Tiny();
    m.loads = {-1};
    EXPECT_CONTAINS(ErrorOf([&] { m.Validate(); }), "loads");
    m = Tiny();
    m.policies = {Policy::STATIC_TRAINING, Policy::STATIC_INFERENCE};
    EXPECT_CONTAINS(ErrorOf([&] { m.Validate(); }), "MoSE and at least one static");
    m = Tiny();
    m.policies = {Policy::MOSE, Policy::MOSE};
    EXPECT_CONTAINS(ErrorOf([&] { m.Validate(); }), "MoSE twice");
    m = Tiny();
    m.base.darkTime = MilliSeconds(3);
    EXPECT_CONTAINS(ErrorOf([&] { m.Validate(); }), "base.darkTime");
}

TEST(LlmRegimeMap, TheCircuitRateIsSetOnTheRunsOwnOcs)
{
    const TypeId ocs = TypeId::LookupByName("ns3::MoseOcs");
    ASSERT_FALSE(IsAttributeDefaultSet(ocs, "DataRate"));
    LlmRegimeMapConfig m = Tiny();
    ExperimentConfig c = m.MakeCell(200, MilliSeconds(40), Policy::MOSE);
    c.scale = 4;
    {
        const LlmRun e = RunLlm(c);
        EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).inference.served,
                  c.llm.requests.size());
    }
    EXPECT_FALSE(IsAttributeDefaultSet(ocs, "DataRate"));
    EXPECT_EQ(GetAttributeDefaultText(ocs, "DataRate"), "400000000000bps");

    // a user's default: the unscaled rate, taken by MakeLlmConfig(); a different one fails loudly
    Config::SetDefault("ns3::MoseOcs::DataRate", DataRateValue(DataRate("10Gbps")));
    EXPECT_EQ(MakeLlmConfig(16).ocsRate, DataRate("10Gbps"));
    {
        const LlmRun e = RunLlm(c); // ocsRate 10 Gb/s: agrees
        EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).inference.served,
                  c.llm.requests.size());
    }
    c.ocsRate = DataRate("20Gbps");
    const std::string error = ErrorOf([&] { BuildLlmRun(c); });
    EXPECT_CONTAINS(error, "ns3::MoseOcs::DataRate = 10000000000bps");
    EXPECT_CONTAINS(error, "ocsRate = 20000000000bps");
    Simulator::Destroy();

    // the same for the dark time
    Config::SetDefault("ns3::MoseModeSwitcher::ReconfigurationDelay", TimeValue(MilliSeconds(2)));
    c.ocsRate = DataRate("10Gbps");
    c.darkTime = MilliSeconds(3);
    EXPECT_CONTAINS(ErrorOf([&] { BuildLlmRun(c); }),
                    "ns3::MoseModeSwitcher::ReconfigurationDelay");
    Simulator::Destroy();
    Config::Reset();
    EXPECT_FALSE(IsAttributeDefaultSet(ocs, "DataRate"));
}

TEST(LlmRegimeMap, TwoSeedsAreTwoOneSeedMapsAndTheVerdictIsOnTheirMean)
{
    LlmRegimeMapConfig config = Tiny();
    config.loads = {400};
    config.darkTimes = {MilliSeconds(1)};
    config.flowLevelFlows = 0;
    // two one-seed maps, runs 1 and 2
    std::vector<LlmRegimeCell> single;
    for (uint64_t run : {1, 2})
    {
        LlmRegimeMapConfig one = config;
        one.base.run = run;
        LlmRegimeMap map(one);
        map.Run();
        ASSERT_EQ(map.GetCells().size(), 1u);
        single.push_back(map.GetCells()[0]);
    }
    config.seeds = 2;
    config.base.run = 1;
    LlmRegimeMap map(config);
    uint32_t calls = 0;
    map.Run([&calls](uint32_t, uint32_t total, const std::string&) {
        ++calls;
        EXPECT_EQ(total, 2u * (3u + 1u)); // per seed: 3 statics and MoSE
    });
    EXPECT_EQ(calls, 9u);
    ASSERT_EQ(map.GetCells().size(), 1u);
    const LlmRegimeCell& c = map.GetCells()[0];
    ASSERT_EQ(c.seedVerdicts.size(), 2u);
    ASSERT_EQ(c.seedRuns.size(), 2u);
    std::vector<double> margins;
    uint32_t pays = 0;
    for (std::size_t k = 0; k < 2; ++k)
    {
        // seed k is exactly the one-seed map of run k + 1
        EXPECT_EQ(c.seedVerdicts[k].overallMargin, single[k].verdict.overallMargin);
        EXPECT_EQ(c.seedVerdicts[k].bestStatic, single[k].verdict.bestStatic);
        EXPECT_EQ(c.seedVerdicts[k].kind, single[k].verdict.kind);
        for (std::size_t p = 0; p < 4; ++p)
        {
            EXPECT_EQ(c.seedRuns[k][p].inference.ttft.mean, single[k].runs[p].inference.ttft.mean);
            EXPECT_EQ(c.seedRuns[k][p].training.iteration.mean,
                      single[k].runs[p].training.iteration.mean);
        }
        margins.push_back(single[k].verdict.overallMargin);
        pays += single[k].verdict.kind == LlmCellVerdict::PAYS;
    }
    // the two seeds' traces differ (runs 1 and 2 of the request stream)
    EXPECT_NE(c.seedRuns[0][1].inference.ttft.mean, c.seedRuns[1][1].inference.ttft.mean);
    EXPECT_DOUBLE_EQ(c.verdict.overallMargin, (margins[0] + margins[1]) / 2);
    EXPECT_EQ(c.marginMin, std::min(margins[0], margins[1]));
    EXPECT_EQ(c.marginMax, std::max(margins[0], margins[1]));
    EXPECT_EQ(c.paysSeeds, pays);
    const double tol = config.tolerance;
    const double mean = c.verdict.overallMargin;
    EXPECT_EQ(c.verdict.kind,
              mean < -tol  ? LlmCellVerdict::PAYS
              : mean > tol ? LlmCellVerdict::DOES_NOT_PAY
                           : LlmCellVerdict::TIE);
    // the policy figures are the means over the seeds, counts the totals
    EXPECT_DOUBLE_EQ(
        c.runs[0].inference.ttft.mean,
        (single[0].runs[0].inference.ttft.mean + single[1].runs[0].inference.ttft.mean) / 2);
    EXPECT_EQ(c.runs[0].inference.served,
              single[0].runs[0].inference.served + single[1].runs[0].inference.served);
    // the confident verdict: the two seeds' margins are the samples, the interval is
    // 12.706 x |m0 - m1| / 2 around their mean (n = 2: s / sqrt(2) = |m0 - m1| / 2)
    EXPECT_EQ(c.marginSamples, margins);
    ASSERT_EQ(c.marginInterval.n, 2u);
    EXPECT_DOUBLE_EQ(c.marginInterval.mean, mean);
    ASSERT_TRUE(c.marginInterval.halfWidth.has_value());
    const double byHand = 12.706 * std::abs(margins[0] - margins[1]) / 2;
    EXPECT_NEAR(*c.marginInterval.halfWidth, byHand, 1e-4 * byHand + 1e-15);
    EXPECT_EQ(c.intervalVerdict, DecideMargin(c.marginInterval, tol));
    // the per-seed columns and the verdict's words
    std::ostringstream csv;
    map.WriteCsv(csv);
    EXPECT_CONTAINS(csv.str(),
                    ",flow_break_even_s,samples,margin_mean,margin_ci_low,margin_ci_high,"
                    "ci_verdict,seeds,margin_min,margin_max,pays_seeds,seed0_run,");
    std::ostringstream row; // samples .. ci_verdict, then seeds
    row << std::setprecision(10) << ",2," << c.marginInterval.mean << ','
        << *c.marginInterval.GetLow() << ',' << *c.marginInterval.GetHigh() << ','
        << ToString(c.intervalVerdict) << ",2,";
    EXPECT_CONTAINS(csv.str(), row.str());
    EXPECT_CONTAINS(map.GetVerdict(), "over 2 samples per cell, one per seed;");
    EXPECT_CONTAINS(map.GetVerdict(), ": " + ToString(c.intervalVerdict) + " (mean ");
    EXPECT_CONTAINS(csv.str(), "seed1_margin,seed1_verdict\n");
    EXPECT_CONTAINS(map.GetVerdict(), "pays in " + std::to_string(pays) + " of 2 seeds");
    std::ostringstream table;
    map.PrintTable(table);
    EXPECT_CONTAINS(table.str(), std::to_string(pays) + "/2");
    // no seed at all: an error naming the field
    LlmRegimeMapConfig none = config;
    none.seeds = 0;
    EXPECT_CONTAINS(ErrorOf([&] { none.Validate(); }), "seeds");
}

TEST(LlmRegimeMap, TheHostRateHasOneRule)
{
    const std::string attribute = "ns3::MoseTopologyHelper::HostDataRate";
    ExperimentConfig c = MakeLlmConfig(16);
    // neither: the program's default
    c.ResolveHostRate("hostRate", std::nullopt, DataRate("1600Gbps"));
    EXPECT_EQ(c.hostRate, DataRate("1600Gbps"));
    // the option alone
    c.ResolveHostRate("hostRate", std::string("800Gbps"), DataRate("1600Gbps"));
    EXPECT_EQ(c.hostRate, DataRate("800Gbps"));
    EXPECT_CONTAINS(
        ErrorOf([&] { c.ResolveHostRate("hostRate", std::string("fast"), DataRate("1600Gbps")); }),
        "--hostRate = \"fast\"");
    EXPECT_CONTAINS(
        ErrorOf([&] { c.ResolveHostRate("hostRate", std::string("0bps"), DataRate("1600Gbps")); }),
        "a data rate > 0 and at most 18446744073709549568bps");
    // a rate above the largest names the largest
    EXPECT_EQ(ErrorOf([&] {
                  c.ResolveHostRate("hostRate",
                                    std::string("18446744073709551615bps"),
                                    DataRate("1600Gbps"));
              }),
              "invalid --hostRate = \"18446744073709551615bps\": a data rate > 0 and at most "
              "18446744073709549568bps (ns-3's DataRate holds a 64-bit count of bit/s), a number "
              "without an exponent and a unit (bps, kbps, Mbps, Gbps, B/s, ...), e.g. 1600Gbps");
    c.ResolveHostRate("hostRate", std::string("18446744073709549568bps"), DataRate("1600Gbps"));
    EXPECT_EQ(c.hostRate->GetBitRate(), 18446744073709549568ULL);
    // the attribute alone wins
    Config::SetDefault(attribute, DataRateValue(DataRate("200Gbps")));
    c.ResolveHostRate("hostRate", std::nullopt, DataRate("1600Gbps"));
    EXPECT_EQ(c.hostRate, DataRate("200Gbps"));
    // both, the same rate in other words: fine
    c.ResolveHostRate("hostRate", std::string("200000Mbps"), DataRate("1600Gbps"));
    EXPECT_EQ(c.hostRate, DataRate("200Gbps"));
    // both, different: an error naming both
    const std::string error = ErrorOf(
        [&] { c.ResolveHostRate("hostRate", std::string("800Gbps"), DataRate("1600Gbps")); });
    EXPECT_CONTAINS(error, "--hostRate = \"800Gbps\"");
    EXPECT_CONTAINS(error, "--" + attribute);
    EXPECT_CONTAINS(error, "disagree");
    Config::Reset();
}

TEST(LlmRegimeMap, AWindowsFiguresAreThoseOfItsRequestsAndIterations)
{
    // requests arriving at 0, 10, 20 ms (the one at 20 ms not served) and 30 ms; iterations
    // starting at 5 and 25 ms (the second not done)
    std::vector<MoseRequestRecord> requests(4);
    const int64_t arrivals[] = {0, 10, 20, 30};
    const int64_t ttfts[] = {4, 6, 0, 9};
    for (std::size_t i = 0; i < 4; ++i)
    {
        MoseRequestRecord& r = requests[i];
        r.index = static_cast<uint32_t>(i);
        r.arrived = true;
        r.done = i != 2;
        r.arrival = MilliSeconds(arrivals[i]);
        r.kvStart = r.arrival + MilliSeconds(1);
        r.kvEnd = r.arrival + MilliSeconds(ttfts[i]);
    }
    std::vector<MoseIterationRecord> iterations(2);
    iterations[0].start = MilliSeconds(5);
    iterations[0].collectiveStart = MilliSeconds(7);
    iterations[0].collectiveEnd = MilliSeconds(12);
    iterations[0].done = true;
    iterations[1].start = MilliSeconds(25);

    // [0, 20 ms): requests 0 and 1 (TTFT 4 and 6 ms, KV 3 and 5 ms), iteration 0 (7 ms)
    const LlmSummary a =
        SummarizeLlmWindow(Policy::MOSE, requests, iterations, MilliSeconds(0), MilliSeconds(20));
    EXPECT_EQ(a.policy, Policy::MOSE);
    EXPECT_EQ(a.inference.requests, 2u);
    EXPECT_EQ(a.inference.served, 2u);
    EXPECT_DOUBLE_EQ(a.inference.ttft.mean, 0.005);
    EXPECT_DOUBLE_EQ(a.inference.kv.mean, 0.004);
    EXPECT_EQ(a.training.iterations, 1u);
    EXPECT_DOUBLE_EQ(a.training.iteration.mean, 0.007);
    EXPECT_DOUBLE_EQ(a.training.collective.mean, 0.005);
    // [20 ms, end): request 2 (not served) and 3 (TTFT 9 ms); iteration 1 is not done
    const LlmSummary b = SummarizeLlmWindow(Policy::STATIC_TRAINING,
                                            requests,
                                            iterations,
                                            MilliSeconds(20),
                                            Time::Max());
    EXPECT_EQ(b.inference.requests, 2u);
    EXPECT_EQ(b.inference.served, 1u);
    EXPECT_DOUBLE_EQ(b.inference.ttft.mean, 0.009);
    EXPECT_DOUBLE_EQ(b.inference.ttft.p99, 0.009);
    EXPECT_EQ(b.training.iterations, 0u);
    EXPECT_EQ(b.training.iteration.mean, 0);
    // an empty or reversed window: an error naming it
    EXPECT_CONTAINS(ErrorOf([&] {
                        SummarizeLlmWindow(Policy::MOSE,
                                           requests,
                                           iterations,
                                           MilliSeconds(20),
                                           MilliSeconds(20));
                    }),
                    "window");
}

TEST(LlmRegimeMap, TheWholeRunAsAWindowIsTheRunsSummary)
{
    const LlmRegimeMapConfig m = Tiny();
    const LlmRun e = RunLlm(m.MakeCell(400, MilliSeconds(40), Policy::MOSE));
    const LlmSummary whole = SummarizeLlmRun(*e.experiment, *e.result);
    const LlmSummary w = SummarizeLlmWindow(Policy::MOSE,
                                            e.result->requests,
                                            e.result->iterations,
                                            Time(0),
                                            Time::Max());
    EXPECT_GT(whole.inference.served, 0u);
    EXPECT_GT(whole.training.iterations, 0u);
    EXPECT_EQ(w.inference.requests, whole.inference.requests);
    EXPECT_EQ(w.inference.served, whole.inference.served);
    EXPECT_EQ(w.training.iterations, whole.training.iterations);
    for (double SampleStatistics::*f :
         {&SampleStatistics::mean, &SampleStatistics::p50, &SampleStatistics::p99})
    {
        EXPECT_EQ(w.inference.kv.*f, whole.inference.kv.*f);
        EXPECT_EQ(w.inference.ttft.*f, whole.inference.ttft.*f);
        EXPECT_EQ(w.training.iteration.*f, whole.training.iteration.*f);
        EXPECT_EQ(w.training.collective.*f, whole.training.collective.*f);
    }
}

TEST(LlmRegimeMap, CyclesAreSamplesOfTheMargin)
{
    LlmRegimeMapConfig config = Tiny();
    // the samples and their interval are the map's, whatever the level: the fluid level runs
    // the map in a fraction of a second (the packet level took 23 s, 10 minutes under ASan)
    config.base.level = LlmLevel::FLUID;
    config.loads = {200};
    config.darkTimes = {MilliSeconds(1)};
    config.flowLevelFlows = 0;
    // a period between two switches must outlast a switch (110 ms at most here)
    config.intervals = {MilliSeconds(120)};
    config.cycles = 2;
    LlmRegimeMap map(config);
    map.Run();
    ASSERT_EQ(map.GetCells().size(), 1u);
    const LlmRegimeCell& c = map.GetCells()[0];
    // one seed, two cycles: two samples (a cycle in which no criterion had a value for every
    // policy would have none)
    ASSERT_EQ(c.marginSamples.size(), 2u);
    EXPECT_NE(c.marginSamples[0], c.marginSamples[1]);
    const MeanInterval expected = ComputeMeanInterval(c.marginSamples);
    EXPECT_EQ(c.marginInterval.n, expected.n);
    EXPECT_DOUBLE_EQ(c.marginInterval.mean, expected.mean);
    ASSERT_TRUE(c.marginInterval.halfWidth.has_value());
    EXPECT_DOUBLE_EQ(*c.marginInterval.halfWidth, *expected.halfWidth);
    EXPECT_EQ(c.intervalVerdict, DecideMargin(expected, config.tolerance));
    // the cell's own verdict stays that of the whole run
    EXPECT_DOUBLE_EQ(c.verdict.overallMargin, c.seedVerdicts[0].overallMargin);
    EXPECT_CONTAINS(map.GetVerdict(), "one per seed and cycle, the cycles of a run counted");

    // one seed and one cycle: one sample, no interval, undecided whatever the margin
    config.cycles = 1;
    LlmRegimeMap one(config);
    one.Run();
    const LlmRegimeCell& o = one.GetCells()[0];
    EXPECT_EQ(o.marginSamples, std::vector<double>{o.verdict.overallMargin});
    EXPECT_FALSE(o.marginInterval.halfWidth.has_value());
    EXPECT_EQ(o.intervalVerdict, MarginVerdict::UNDECIDED);
    std::ostringstream csv;
    one.WriteCsv(csv);
    std::ostringstream row;
    row << std::setprecision(10) << ",1," << o.verdict.overallMargin << ",,,undecided\n";
    EXPECT_CONTAINS(csv.str(), row.str());
    EXPECT_CONTAINS(one.GetVerdict(), ": undecided (1 sample: no 95% interval); on the mean: ");
    EXPECT_CONTAINS(one.GetVerdict(), "one sample gives no interval");
    std::ostringstream table;
    one.PrintTable(table);
    EXPECT_CONTAINS(table.str(), "undecided");
    // the figure: the tie band, 0 in the y range, error bars
    std::ostringstream plt;
    one.WritePlot(plt);
    EXPECT_CONTAINS(plt.str(), "set object 1 rectangle from graph 0, first -2 to graph 1, first 2");
    EXPECT_CONTAINS(plt.str(), "with yerrorlines");
    const auto [low, high] = ReadYRange(plt.str());
    EXPECT_LT(low, -2); // the band and 0 inside, whatever the margins
    EXPECT_GT(high, 2);
    EXPECT_LE(low, o.verdict.overallMargin * 100);
    EXPECT_GE(high, o.verdict.overallMargin * 100);
}

// The verdict's header names the training job the map ran: the synthetic job's collective and
// compute, or the trace (whose iterations have no one collective or compute time).
TEST(LlmRegimeMap, TheVerdictHeaderNamesTheTrainingJob)
{
    LlmRegimeMapConfig m = Tiny();
    std::ostringstream synthetic;
    LlmRegimeMap(m).PrintVerdictHeader(synthetic);
    EXPECT_CONTAINS(synthetic.str(), "all-to-all of 65536 B per member after 5 ms compute");
    auto plan = std::make_shared<TrainingPlan>();
    plan->source = "chakra:moe";
    plan->ranks.resize(8);
    m.base.llm.trainingPlan = plan;
    std::ostringstream traced;
    LlmRegimeMap(m).PrintVerdictHeader(traced);
    EXPECT_CONTAINS(traced.str(), "training trace chakra:moe (8 ranks, 0 nodes)");
    EXPECT_EQ(traced.str().find("B per member"), std::string::npos) << traced.str();
    m.base.llm.training = false;
    std::ostringstream none;
    LlmRegimeMap(m).PrintVerdictHeader(none);
    EXPECT_CONTAINS(none.str(), "no training");
}
