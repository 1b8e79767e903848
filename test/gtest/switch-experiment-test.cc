/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The switching preset (InstallSwitchWorkload()): per mode interval the flow-level metrics of the
 * interval's graph and flows next to its packet-level results, one CSV row per interval, nothing
 * lost with drain on, and the policy comparison.
 */

#include "mose-switch-comparison.h"
#include "mose-switch-experiment-report.h"
#include "mose-switch-experiment.h"
#include "mose-test-util.h"

#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/mose-break-even.h"
#include "ns3/mose-error.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// 32 groups, 300 flows per mode, inference -> training (150 ms) -> inference (300 ms)
ExperimentConfig
SmallConfig(Policy policy, Time startWindow = MilliSeconds(100))
{
    ExperimentConfig c = MakeSwitchConfig(32, 300);
    c.policy = policy;
    c.SetSchedule(
        ParseSchedule("--schedule",
                      "inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms"));
    c.startWindow = startWindow;
    c.stopTime = Seconds(20);
    return c;
}

/// Sets the port queues' (DropTailQueue) size for the lifetime of the object
class QueueSizeGuard
{
  public:
    /// \param size e.g. "1000p"
    explicit QueueSizeGuard(const std::string& size)
    {
        Config::SetDefault("ns3::DropTailQueue<Packet>::MaxSize", StringValue(size));
    }

    ~QueueSizeGuard()
    {
        Config::SetDefault("ns3::DropTailQueue<Packet>::MaxSize", StringValue("100p"));
    }
};

} // namespace

TEST(SwitchWorkload, PerIntervalMetricsEqualEvaluateFlowsAndNothingIsLost)
{
    // queues deep enough for the burst when the fabric comes back after the K = 1 blackout
    // (see RestartBurstOverflowsShallowQueuesOnly)
    QueueSizeGuard queues("1000p");
    const ExperimentConfig config = SmallConfig(Policy::MOSE);
    Experiment experiment(config);
    const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
    experiment.Build();
    experiment.Run();

    const std::vector<SwitchInterval>& intervals = result->intervals;
    ASSERT_EQ(intervals.size(), 3u);
    ASSERT_EQ(experiment.GetSwitchRecords().size(), 2u);
    EXPECT_EQ(experiment.GetPacketsLost(), 0u) << "drain on: nothing lost";

    const ScenarioBuilder builder(config.scenario);
    const uint64_t seed = builder.BuildRoutingSeed(config.run);
    const WorkloadMode modes[] = {WorkloadMode::INFERENCE_HEAVY,
                                  WorkloadMode::TRAINING_HEAVY,
                                  WorkloadMode::INFERENCE_HEAVY};
    for (uint32_t i = 0; i < intervals.size(); ++i)
    {
        const SwitchInterval& iv = intervals[i];
        const ExperimentInterval& probe = experiment.GetIntervals().at(i);
        const MoseSwitchRecord* sw = experiment.GetIntervalSwitch(i);
        SCOPED_TRACE("interval " + std::to_string(i));
        EXPECT_EQ(iv.index, i);
        EXPECT_EQ(iv.mode, modes[i]);
        EXPECT_EQ(sw != nullptr, i > 0);
        if (sw)
        {
            EXPECT_TRUE(sw->done);
            EXPECT_EQ(sw->start, iv.start);
            EXPECT_EQ(sw->lost, 0u);
            EXPECT_GT(sw->removed, 0u) << "MoSE changes H^PD <-> H^U";
        }
        EXPECT_EQ(probe.packetsLost, 0u);
        EXPECT_TRUE(probe.graphRealised) << "the OCS carried the interval's template at its end";

        // the flow level of the interval: EvaluateFlows on its graph and flows
        const CircuitGraph graph = builder.BuildCircuitGraph(config.run, iv.mode, config.policy);
        const std::vector<Flow> flows = builder.BuildMode(config.run, iv.mode).flows;
        EXPECT_EQ(iv.graph.GetCircuits(), graph.GetCircuits());
        EXPECT_EQ(iv.flows, flows.size());
        const FlowMetrics expected =
            EvaluateFlows(ShortestPathRouting(graph, config.scenario.routing, seed), flows);
        EXPECT_EQ(iv.metrics.all.maxLoad, expected.all.maxLoad);
        EXPECT_EQ(iv.metrics.all.p95Load, expected.all.p95Load);
        EXPECT_EQ(iv.metrics.all.avgHop, expected.all.avgHop);
        EXPECT_EQ(iv.metrics.directKv, expected.directKv);
        EXPECT_EQ(iv.metrics.kvThreePlus, expected.kvThreePlus);
        EXPECT_EQ(iv.metrics.kv.avgCost, expected.kv.avgCost);
        EXPECT_EQ(iv.metrics.kv.p95Cost, expected.kv.p95Cost);
        EXPECT_EQ(iv.metrics.training.avgCost, expected.training.avgCost);
        EXPECT_EQ(iv.metrics.training.p95Cost, expected.training.p95Cost);
        EXPECT_EQ(iv.metrics.load, expected.load);

        // the packet level of the interval
        EXPECT_GT(iv.transfers.size(), 0u);
        EXPECT_EQ(iv.kv.completed, iv.kv.transfers);
        EXPECT_EQ(iv.training.completed, iv.training.transfers);
        EXPECT_EQ(iv.kv.transfers + iv.training.transfers, iv.transfers.size());
        EXPECT_GT(iv.kv.meanS, 0);
        EXPECT_GE(iv.kv.p99S, iv.kv.p50S);
        EXPECT_EQ(probe.circuitBytes.size(), graph.GetNCircuits());
        EXPECT_GT(probe.GetMaxCircuitBytes(), 0u);
        for (const MoseTransfer& t : iv.transfers)
        {
            EXPECT_GE(t.start, iv.start);
            EXPECT_LT(t.start, iv.end);
        }
    }

    // the goodput timeline holds every byte received
    uint64_t binned = 0;
    for (const auto& b : result->goodputBins)
    {
        binned += b[0] + b[1];
    }
    uint64_t received = 0;
    for (const auto& iv : intervals)
    {
        for (const MoseTransfer& t : iv.transfers)
        {
            received += t.received;
        }
    }
    EXPECT_EQ(binned, received);

    // one CSV row per interval; one circuits row per circuit of every interval
    const std::string dir = testing::TempDir() + "mose-switch-experiment";
    SwitchExperimentReport(experiment, *result).WriteCsv(dir, "t_");
    const std::vector<std::string> rows = ReadLines(dir + "/t_intervals.csv");
    ASSERT_EQ(rows.size(), 1 + intervals.size());
    EXPECT_EQ(rows[0].rfind("interval,mode,template,start_s,end_s,switch,", 0), 0u);
    for (uint32_t i = 0; i < intervals.size(); ++i)
    {
        EXPECT_EQ(rows[1 + i].rfind(std::to_string(i) + "," + ToString(modes[i]) + ",", 0), 0u)
            << rows[1 + i];
    }
    std::size_t circuits = 0;
    for (const auto& iv : intervals)
    {
        circuits += iv.graph.GetNCircuits();
    }
    EXPECT_EQ(ReadLines(dir + "/t_circuits.csv").size(), 1 + circuits);
    EXPECT_GT(ReadLines(dir + "/t_goodput.csv").size(), 1u);
}

TEST(SwitchWorkload, RewiringAwareTargetsKeepCircuitsLitAndLoseNothing)
{
    // MoSE with rewiring-aware targets: each switch keeps exactly the circuits the two
    // templates share (DiffCircuits of the flow level), fewer are re-paired than with fresh
    // templates, and nothing is lost
    QueueSizeGuard queues("1000p");
    ExperimentConfig config = SmallConfig(Policy::MOSE);
    config.scenario.construction = TemplateConstruction::REWIRING_AWARE;
    Experiment experiment(config);
    const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
    experiment.Build();
    experiment.Run();
    EXPECT_EQ(experiment.GetPacketsLost(), 0u);
    const std::vector<SwitchInterval>& intervals = result->intervals;
    ASSERT_EQ(intervals.size(), 3u);
    const Scenario sc = ScenarioBuilder(config.scenario).Build(config.run);
    for (uint32_t i = 1; i < intervals.size(); ++i)
    {
        SCOPED_TRACE("interval " + std::to_string(i));
        const SwitchInterval& iv = intervals[i];
        const ExperimentInterval& probe = experiment.GetIntervals().at(i);
        const MoseSwitchRecord* sw = experiment.GetIntervalSwitch(i);
        ASSERT_NE(sw, nullptr);
        EXPECT_TRUE(probe.graphRealised);
        EXPECT_EQ(iv.graph.GetCircuits(), sc.GetGraph(Policy::MOSE, iv.mode).GetCircuits());
        const CircuitDiff diff = DiffCircuits(intervals[i - 1].graph, iv.graph);
        EXPECT_EQ(sw->kept, diff.kept.size());
        EXPECT_EQ(sw->added, diff.added.size());
        EXPECT_EQ(sw->lost, 0u);
        auto freshGraph = [&sc](WorkloadMode mode) {
            return sc.templates[static_cast<std::size_t>(SelectTemplate(Policy::MOSE, mode))];
        };
        const CircuitDiff freshDiff =
            DiffCircuits(freshGraph(intervals[i - 1].mode), freshGraph(iv.mode));
        EXPECT_LT(diff.added.size(), freshDiff.added.size());
    }
}

TEST(SwitchWorkload, RestartBurstOverflowsShallowQueuesOnly)
{
    // with ns-3's default 100-packet port queues and no queue disc in front of them
    // (DefaultQueueDisc = false; the default FqCoDel absorbs the burst), the transfers that
    // waited through the blackout restart together and a few packets overflow a device queue
    // after the relink; the switch itself (drain, dark, hold) loses nothing
    Config::SetDefault("ns3::MoseTopologyHelper::DefaultQueueDisc", BooleanValue(false));
    Experiment experiment(SmallConfig(Policy::MOSE));
    const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
    experiment.Build();
    experiment.Run();
    for (const MoseSwitchRecord& r : experiment.GetSwitchRecords())
    {
        EXPECT_EQ(r.lost, 0u);
    }
    uint64_t lost = 0;
    for (const ExperimentInterval& iv : experiment.GetIntervals())
    {
        for (auto point : {MoseLossMonitor::DARK_PORT,
                           MoseLossMonitor::WIRE,
                           MoseLossMonitor::NO_ROUTE,
                           MoseLossMonitor::HOLD})
        {
            EXPECT_EQ(iv.drops[point], 0u) << MoseLossMonitor::GetPointName(point);
        }
        EXPECT_EQ(iv.packetsLost, iv.drops[MoseLossMonitor::DEVICE_QUEUE]);
        lost += iv.packetsLost;
    }
    EXPECT_EQ(lost, experiment.GetPacketsLost());
    EXPECT_GT(lost, 0u) << "the restart burst overflows a 100-packet device queue";
    Config::SetDefault("ns3::MoseTopologyHelper::DefaultQueueDisc", BooleanValue(true));
}

TEST(SwitchWorkload, QuietIntervalCarriesExactlyTheFlowLevelLoad)
{
    // interval 0's transfers all end long before the first boundary: every circuit then
    // carried exactly load x bytes per unit (one routing for both levels, nothing lost)
    Experiment experiment(SmallConfig(Policy::MOSE, MilliSeconds(5)));
    const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
    experiment.Build();
    experiment.Run();
    const SwitchInterval& iv = result->intervals.at(0);
    const ExperimentInterval& probe = experiment.GetIntervals().at(0);
    UintegerValue unit;
    CreateObject<MoseTrafficHelper>()->GetAttribute("BytesPerUnit", unit);
    ASSERT_EQ(probe.circuitBytes.size(), iv.metrics.load.size());
    for (std::size_t c = 0; c < probe.circuitBytes.size(); ++c)
    {
        EXPECT_EQ(static_cast<double>(probe.circuitBytes[c]),
                  iv.metrics.load[c] * static_cast<double>(unit.Get()))
            << "circuit " << c;
    }
}

TEST(SwitchWorkload, StaticPoliciesNeverChangeACircuitAndTheComparisonJudges)
{
    QueueSizeGuard queues("1000p");
    SwitchComparison comparison;
    for (Policy p : {Policy::STATIC_INFERENCE, Policy::MOSE})
    {
        Experiment experiment(SmallConfig(p));
        const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
        experiment.Build();
        experiment.Run();
        const SwitchRunSummary s = result->GetSummary(experiment);
        EXPECT_EQ(s.switches, 2u);
        EXPECT_EQ(s.completed, s.transfers);
        EXPECT_EQ(s.intervalMeanFctS.size(), 3u);
        if (p == Policy::STATIC_INFERENCE)
        {
            EXPECT_EQ(s.circuitsChanged, 0u);
            EXPECT_EQ(s.blackoutTime, Time(0));
            for (const auto& iv : result->intervals)
            {
                EXPECT_EQ(iv.templateId, TemplateId::PD_BIASED) << "stale in training-heavy";
            }
        }
        else
        {
            EXPECT_GT(s.circuitsChanged, 0u);
        }
        comparison.Add(s);
    }
    ASSERT_NE(comparison.GetBestStatic(), nullptr);
    EXPECT_EQ(comparison.GetBestStatic()->policy, Policy::STATIC_INFERENCE);
    ASSERT_NE(comparison.GetMose(), nullptr);
    const std::string verdict = DescribeSwitchVerdict(comparison);
    EXPECT_EQ(verdict.rfind("verdict: switching ", 0), 0u) << verdict;
    EXPECT_NE(verdict.find("S-Inf"), std::string::npos) << verdict;
    EXPECT_EQ(verdict.find("holds for"), std::string::npos) << verdict; // no workload set
    comparison.SetWorkload("N=16 d=4, run 1");
    const std::string named = DescribeSwitchVerdict(comparison);
    EXPECT_EQ(named, verdict + "\nthe verdict holds for this workload only: N=16 d=4, run 1");
    const std::string path = testing::TempDir() + "mose-switch-comparison.csv";
    WriteSwitchComparisonCsv(comparison, path);
    EXPECT_EQ(ReadLines(path).size(), 3u);
}

TEST(SwitchWorkload, BadConfigurationsThrowNamingTheOption)
{
    ExperimentConfig c = SmallConfig(Policy::MOSE);
    c.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.3},
                  {WorkloadMode::TRAINING_HEAVY, -0.15},
                  {WorkloadMode::INFERENCE_HEAVY, 0.15}};
    try
    {
        Experiment e(c);
        InstallSwitchWorkload(e);
        FAIL() << "an unsorted schedule was accepted";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("invalid --schedule"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("strictly increasing"), std::string::npos);
    }
    c = SmallConfig(Policy::MOSE);
    c.stopTime = MilliSeconds(400);
    Experiment stopped(c);
    EXPECT_THROW(InstallSwitchWorkload(stopped), Error);
    EXPECT_EQ(ParseTimeOption("--x", "150ms"), MilliSeconds(150));
    EXPECT_EQ(ParseTimeOption("--x", "0.2s"), MilliSeconds(200));
    EXPECT_EQ(ParseTimeOption("--x", "150"), Seconds(150)); // no unit: s
    EXPECT_THROW(ParseTimeOption("--x", "-1ms"), Error);
    EXPECT_THROW(ParseTimeOption("--x", "1 ms"), Error);
    EXPECT_EQ(FormatSchedule(c.GetRunSchedule()),
              "inference-heavy:0.15,training-heavy:0.15,inference-heavy:0.15");
    // a period that does not last is named with its number
    c = SmallConfig(Policy::MOSE);
    ExpectErrorContaining(
        [&c]() {
            c.SetSchedule(ParseSchedule("--schedule", "inference-heavy:150ms,training-heavy:0"));
        },
        "invalid --schedule period 2 duration = 0 s: every period of a switching run must last");
}

TEST(SwitchWorkload, APeriodBetweenTwoSwitchesOutlastsTheLongestSwitch)
{
    // the defaults: Phases 1 x (DrainTimeout 100 ms + ReconfigurationDelay 10 ms) = 110 ms
    using P = mose::ModeSchedule::Period;
    const auto inf = mose::WorkloadMode::INFERENCE_HEAVY;
    const auto tr = mose::WorkloadMode::TRAINING_HEAVY;
    EXPECT_EQ(ErrorOf([&] {
                  CheckSwitchesFit(mose::ModeSchedule{P{inf, 0.25}, P{tr, 0.005}, P{inf, 0.25}});
              }),
              "invalid --schedule period 2 duration = 0.005 s: every period between two "
              "switches must last more than Phases x (DrainTimeout + ReconfigurationDelay) = "
              "0.11 s, the longest a switch can take (--ns3::MoseModeSwitcher::Phases, "
              "::DrainTimeout, ::ReconfigurationDelay), so that a switch never starts before the "
              "previous one ended");
    ExpectErrorContaining(
        [&] {
            CheckSwitchesFit(
                mose::ModeSchedule{P{inf, 0.25}, P{tr, 0.2}, P{inf, 0.11}, P{tr, 0.25}});
        },
        "invalid --schedule period 3 duration = 0.11 s");
    // the first and the last period have one switch only
    EXPECT_NO_THROW(
        CheckSwitchesFit(mose::ModeSchedule{P{inf, 0.001}, P{tr, 0.111}, P{inf, 0.001}}));
    // the defaults as the command line sets them
    Config::SetDefault("ns3::MoseModeSwitcher::ReconfigurationDelay", TimeValue(MilliSeconds(1)));
    EXPECT_NO_THROW(CheckSwitchesFit(mose::ModeSchedule{P{inf, 0.25}, P{tr, 0.102}, P{inf, 0.25}}));
    Config::SetDefault("ns3::MoseModeSwitcher::ReconfigurationDelay", TimeValue(MilliSeconds(10)));
}

TEST(SwitchWorkload, ScheduleOfPeriodsStartsAtTimeZero)
{
    ExperimentConfig c = MakeSwitchConfig(32, 300);
    // mose-mode-switch's default: the same boundaries and end as before the periods syntax
    EXPECT_EQ(c.GetInitialMode(), WorkloadMode::INFERENCE_HEAVY);
    ASSERT_EQ(c.schedule.size(), 3u);
    std::vector<Time> times = MoseScheduleTimes(c.schedule);
    EXPECT_EQ(times[1], MilliSeconds(200));
    EXPECT_EQ(c.schedule[1].mode, WorkloadMode::TRAINING_HEAVY);
    EXPECT_EQ(times[2], MilliSeconds(400));
    EXPECT_EQ(c.schedule[2].mode, WorkloadMode::INFERENCE_HEAVY);
    EXPECT_EQ(c.end, MilliSeconds(600));
    EXPECT_EQ(times[3], c.end);
    c.SetSchedule(ParseSchedule("--schedule", "training:1s,inference:0.5s,training:250ms"));
    EXPECT_EQ(c.GetInitialMode(), WorkloadMode::TRAINING_HEAVY);
    ASSERT_EQ(c.schedule.size(), 3u);
    times = MoseScheduleTimes(c.schedule);
    EXPECT_EQ(times[1], Seconds(1));
    EXPECT_EQ(times[2], MilliSeconds(1500));
    EXPECT_EQ(c.end, MilliSeconds(1750));
    EXPECT_EQ(FormatSchedule(c.GetRunSchedule()),
              "training-heavy:1,inference-heavy:0.5,training-heavy:0.25");
    // one period: no switch at all
    c.SetSchedule(ParseSchedule("--schedule", "inference:100ms"));
    EXPECT_EQ(c.schedule.size(), 1u);
    EXPECT_EQ(c.end, MilliSeconds(100));
    // the first period must outlast the first transfers' start (1 ms)
    c.SetSchedule(ParseSchedule("--schedule", "inference:1ms,training:10ms"));
    ExpectErrorContaining([&c]() { ValidateSwitchConfig(c); }, "the first period must last longer");
}

namespace
{

/// Sets a MoseModeSwitcher attribute's default for the lifetime of the object
class SwitcherDefaultGuard
{
  public:
    /// \param name the attribute \param value its value \param restore its default
    SwitcherDefaultGuard(const std::string& name,
                         const AttributeValue& value,
                         const AttributeValue& restore)
        : m_name("ns3::MoseModeSwitcher::" + name),
          m_restore(restore.Copy())
    {
        Config::SetDefault(m_name, value);
    }

    ~SwitcherDefaultGuard()
    {
        Config::SetDefault(m_name, *m_restore);
    }

  private:
    std::string m_name;            //!< the attribute's path
    Ptr<AttributeValue> m_restore; //!< its default
};

/// \return the CSV line split at commas
std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ','))
    {
        fields.push_back(field);
    }
    if (!line.empty() && line.back() == ',')
    {
        fields.emplace_back();
    }
    return fields;
}

/// \return the value of column `column` in row `row` (0: the first data row) of a CSV file
std::string
CsvField(const std::string& path, std::size_t row, const std::string& column)
{
    const std::vector<std::string> lines = ReadLines(path);
    const std::vector<std::string> header = SplitCsv(lines.at(0));
    const auto it = std::find(header.begin(), header.end(), column);
    if (it == header.end())
    {
        ADD_FAILURE() << "no column " << column << " in " << path;
        return "";
    }
    const std::vector<std::string> fields = SplitCsv(lines.at(row + 1));
    EXPECT_EQ(fields.size(), header.size()) << path << " row " << row;
    return fields.at(static_cast<std::size_t>(it - header.begin()));
}

} // namespace

TEST(SwitchWorkload, SwitchCutShortByTheStopIsUnfinishedAndTheWholeRunAgreesWithTheIntervals)
{
    // one boundary at 150 ms, a 100 s reconfiguration delay, a stop at 3 s: the K=1 batch is
    // dark from the end of its drain to the stop
    SwitcherDefaultGuard delay("ReconfigurationDelay",
                               TimeValue(Seconds(100)),
                               TimeValue(MilliSeconds(10)));
    ExperimentConfig c = SmallConfig(Policy::MOSE);
    c.SetSchedule(ParseSchedule("--schedule", "inference-heavy:150ms,training-heavy:150ms"));
    c.stopTime = Seconds(3); // after HoldTime (2 s): held packets expire
    Experiment experiment(c);
    const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
    experiment.Build();
    experiment.Run();
    ASSERT_EQ(experiment.GetSwitchRecords().size(), 1u);
    const MoseSwitchRecord& r = experiment.GetSwitchRecords()[0];
    EXPECT_FALSE(r.done);
    EXPECT_EQ(r.until, Seconds(3));
    ASSERT_EQ(r.batches.size(), 1u);
    EXPECT_EQ(r.darkTime, Seconds(3) - r.batches[0].darkStart) << "exactly up to the stop";
    EXPECT_GT(r.darkTime, MilliSeconds(800));
    EXPECT_EQ(r.drainTime, r.batches[0].darkStart - r.batches[0].drainStart);
    EXPECT_EQ(r.blackoutTime, Seconds(3) - MilliSeconds(150)) << "K=1 cuts groups off";
    EXPECT_GT(r.packetsHeld, 0u);
    EXPECT_GT(r.drops[MoseLossMonitor::HOLD], 0u) << "held packets expire in the dark";
    EXPECT_GE(r.longestHold, Seconds(2)) << "dropped after HoldTime (2 s)";
    EXPECT_LE(r.longestHold, Seconds(3) - MilliSeconds(150));

    // the switch's interval: its drops are the switch's (the switch runs to the stop)
    const std::vector<SwitchInterval>& intervals = result->intervals;
    ASSERT_EQ(intervals.size(), 2u);
    const MoseSwitchRecord* second = experiment.GetIntervalSwitch(1);
    ASSERT_NE(second, nullptr);
    EXPECT_FALSE(second->done);
    EXPECT_EQ(second->darkTime, r.darkTime);
    EXPECT_EQ(experiment.GetIntervals().at(1).drops, r.drops);
    EXPECT_EQ(experiment.GetIntervals().at(1).packetsLost, r.lost);

    // the whole run is the sum of its intervals
    const SwitchRunSummary s = result->GetSummary(experiment);
    uint64_t lost = 0;
    uint64_t held = 0;
    Time blackout;
    Time switching;
    for (const SwitchInterval& iv : intervals)
    {
        lost += experiment.GetIntervals().at(iv.index).packetsLost;
        if (const MoseSwitchRecord* sw = experiment.GetIntervalSwitch(iv.index))
        {
            held += sw->packetsHeld;
            blackout += sw->blackoutTime;
            switching += sw->GetDuration();
        }
    }
    EXPECT_EQ(s.packetsLost, lost);
    EXPECT_EQ(experiment.GetPacketsLost(), lost);
    EXPECT_EQ(s.packetsHeld, held);
    EXPECT_EQ(s.blackoutTime, blackout);
    EXPECT_EQ(s.switchTime, switching);
    EXPECT_EQ(s.switchTime, Seconds(3) - MilliSeconds(150));

    std::ostringstream report;
    SwitchExperimentReport(experiment, *result).Print(report);
    const std::string text = report.str();
    EXPECT_NE(text.find("150.000 ms .. UNFINISHED (the run stopped at 3000.000 ms; figures up "
                        "to then)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("dark " + std::to_string(r.darkTime.GetInteger() / 1000000) + "."),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("packets held " + std::to_string(r.packetsHeld) + " "), std::string::npos)
        << text;
    EXPECT_EQ(text.find("requested"), std::string::npos) << "K=1 used its one batch";

    const std::string dir = testing::TempDir() + "mose-unfinished-switch";
    SwitchExperimentReport(experiment, *result).WriteCsv(dir, "");
    const std::string csv = dir + "/intervals.csv";
    EXPECT_EQ(CsvField(csv, 1, "switch_done"), "0");
    EXPECT_EQ(CsvField(csv, 1, "switch_end_s"), "");
    EXPECT_EQ(CsvField(csv, 1, "switch_until_s"), "3");
    EXPECT_EQ(CsvField(csv, 1, "batches"), "1");
    EXPECT_EQ(CsvField(csv, 1, "packets_held"), std::to_string(r.packetsHeld));
    EXPECT_EQ(CsvField(csv, 1, "switch_lost"), std::to_string(r.lost));
    EXPECT_EQ(CsvField(csv, 1, "packets_lost"), std::to_string(r.lost));
    EXPECT_EQ(CsvField(csv, 0, "switch_done"), "") << "interval 0 has no switch";
}

TEST(SwitchWorkload, ReportGivesTheBatchesUsedWhenKExceedsTheRemovedCircuits)
{
    SwitcherDefaultGuard phases("Phases", UintegerValue(1000), UintegerValue(1));
    ExperimentConfig c = SmallConfig(Policy::MOSE);
    c.SetSchedule(ParseSchedule("--schedule", "inference-heavy:150ms,training-heavy:150ms"));
    Experiment experiment(c);
    const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
    experiment.Build();
    experiment.Run();
    ASSERT_EQ(experiment.GetSwitchRecords().size(), 1u);
    const MoseSwitchRecord& r = experiment.GetSwitchRecords()[0];
    EXPECT_TRUE(r.done);
    EXPECT_EQ(r.phases, 1000u);
    ASSERT_GT(r.removed, 0u);
    EXPECT_LT(r.removed, 1000u);
    EXPECT_EQ(r.batches.size(), r.removed) << "one batch per removed circuit at most";
    std::ostringstream report;
    SwitchExperimentReport(experiment, *result).Print(report);
    const std::string text = report.str();
    EXPECT_NE(text.find("added " + std::to_string(r.added) + ", " +
                        std::to_string(r.batches.size()) +
                        " batches (K=1000 requested: at most one batch per removed circuit);"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("switcher: K=1000, drain on, drain timeout 100.000 ms, reconfiguration "
                        "delay 10.000 ms (requested; a switch makes at most one batch per "
                        "removed circuit, so some used fewer: see their batches)"),
              std::string::npos)
        << text;
    const std::string dir = testing::TempDir() + "mose-k1000-switch";
    SwitchExperimentReport(experiment, *result).WriteCsv(dir, "");
    EXPECT_EQ(CsvField(dir + "/intervals.csv", 1, "batches"), std::to_string(r.removed));
}

TEST(SwitchWorkload, ZeroPortQueueIsRefusedNamingTheAttribute)
{
    for (const char* size : {"0p", "0B"})
    {
        QueueSizeGuard queues(size);
        Experiment experiment(SmallConfig(Policy::MOSE));
        InstallSwitchWorkload(experiment);
        ExpectErrorContaining([&experiment]() { experiment.Build(); },
                              std::string("invalid ns3::DropTailQueue<Packet>::MaxSize = ") + size +
                                  ": the optical port devices' queues need room for at least 1 "
                                  "packet or 1 byte");
        Simulator::Destroy();
    }
    // the host links' queues (ns-3's default DropTailQueue) too, with deep port queues
    QueueSizeGuard queues("0p");
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(16));
    topo->SetAttribute("PortsPerGroup", UintegerValue(2));
    topo->SetAttribute("HostsPerGroup", UintegerValue(1));
    topo->SetCircuitGraph(Ring(16));
    topo->SetPortQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100p"));
    ExpectErrorContaining([&topo]() { topo->Install(); },
                          "invalid ns3::DropTailQueue<Packet>::MaxSize = 0p: the host links' "
                          "queues need room");
    Simulator::Destroy();
    // a port queue of 0 given to the helper itself, with ns-3's default elsewhere
    QueueSizeGuard restored("100p");
    topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(16));
    topo->SetAttribute("PortsPerGroup", UintegerValue(2));
    topo->SetCircuitGraph(Ring(16));
    topo->SetPortQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("0B"));
    ExpectErrorContaining([&topo]() { topo->Install(); },
                          "invalid ns3::DropTailQueue<Packet>::MaxSize = 0B: the optical port "
                          "devices' queues need room for at least 1 packet or 1 byte (e.g. "
                          "100p, ns-3's default); ns-3 would read 0 as no limit");
    Simulator::Destroy();
}

TEST(SwitchWorkload, SameRunWritesByteIdenticalFiles)
{
    // mose-mode-switch's files of one run, twice: the CSVs of every policy, the comparison
    // (no wall-clock column: wall time goes to standard output) and the plot script
    std::vector<std::vector<std::string>> bodies;
    for (const char* dirName : {"mose-same-run-a", "mose-same-run-b"})
    {
        const std::string dir = testing::TempDir() + dirName;
        SwitchComparison comparison;
        std::vector<std::string> files;
        for (Policy p : {Policy::MOSE, Policy::STATIC_INFERENCE})
        {
            // 16 groups and one switch: the same files as at 32 groups and two switches, at a
            // quarter of the events (this case ran about 7 minutes under ASan at 32 groups)
            ExperimentConfig c = MakeSwitchConfig(16, 150);
            c.policy = p;
            c.SetSchedule(
                ParseSchedule("--schedule", "inference-heavy:100ms,training-heavy:100ms"));
            c.startWindow = MilliSeconds(60);
            c.stopTime = Seconds(20);
            Experiment experiment(c);
            const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
            experiment.Build();
            experiment.Run();
            ASSERT_EQ(experiment.GetSwitchRecords().size(), 1u) << "a record per boundary";
            SwitchExperimentReport(experiment, *result).WriteCsv(dir, ToString(p) + "_");
            comparison.Add(result->GetSummary(experiment));
            for (const char* name : {"intervals", "circuits", "goodput", "transfers"})
            {
                files.push_back(dir + "/" + ToString(p) + "_" + name + ".csv");
            }
            std::ostringstream script;
            Gnuplot plot = SwitchExperimentReport(experiment, *result)
                               .MakeGoodputPlot("goodput_" + ToString(p) + ".png");
            plot.GenerateOutput(script);
            files.push_back(script.str());
        }
        WriteSwitchComparisonCsv(comparison, dir + "/comparison.csv");
        files.push_back(dir + "/comparison.csv");
        EXPECT_EQ(ReadLines(dir + "/comparison.csv").at(0).find("wall"), std::string::npos);
        std::vector<std::string> body;
        for (const std::string& f : files)
        {
            body.push_back(f.find('/') == 0 ? ReadFileBytes(f) : f);
        }
        bodies.push_back(body);
    }
    ASSERT_EQ(bodies[0].size(), bodies[1].size());
    for (std::size_t i = 0; i < bodies[0].size(); ++i)
    {
        EXPECT_FALSE(bodies[0][i].empty()) << "file " << i;
        EXPECT_EQ(bodies[0][i], bodies[1][i]) << "file " << i;
    }
}

TEST(SwitchWorkload, TheVerdictOverSeedsIsDecidedOnTheMarginsInterval)
{
    // one seed's comparison: MoSE's mean FCT and the static policies' (seconds)
    auto comparison = [](double mose, double sTrain, double sInf) {
        SwitchComparison c;
        for (const auto& [policy, fct] : {std::pair{Policy::MOSE, mose},
                                          std::pair{Policy::STATIC_TRAINING, sTrain},
                                          std::pair{Policy::STATIC_INFERENCE, sInf}})
        {
            SwitchRunSummary s;
            s.policy = policy;
            s.meanFctS = fct;
            c.Add(s);
        }
        return c;
    };
    // margins against each seed's best static policy: -0.051 (S-Inf), -0.049 (S-Train)
    const SwitchComparison a = comparison(0.949, 1.2, 1.0);
    const SwitchComparison b = comparison(0.951, 1.0, 1.1);
    ASSERT_TRUE(a.GetMargin().has_value());
    EXPECT_NEAR(*a.GetMargin(), -0.051, 1e-12);
    EXPECT_NEAR(*b.GetMargin(), -0.049, 1e-12);
    // n = 2: -0.05 +- 12.706 x 0.001 = [-6.3%, -3.7%], below -2%: pays
    const std::string pays = DescribeSeedsVerdict({a, b}, 4, 0.02);
    EXPECT_CONTAINS(pays, "over 2 seeds (runs 4 to 5;");
    EXPECT_CONTAINS(pays,
                    "tie band +-2%): pays: mean -5.0%, 95% interval [-6.3%, -3.7%] over 2 "
                    "samples (-5.1% vs S-Inf, -4.9% vs S-Train)");
    // a wider band takes the interval in: undecided
    EXPECT_CONTAINS(DescribeSeedsVerdict({a, b}, 4, 0.05), "): undecided: mean");
    // one seed: no interval, undecided however large the margin
    EXPECT_CONTAINS(DescribeSeedsVerdict({comparison(2.0, 1.0, 1.0)}, 1, 0.02),
                    "over 1 seed (run 1; MoSE's margin on the mean FCT against each seed's best "
                    "static policy, tie band +-2%): undecided: one sample (+100.0% vs S-Train) "
                    "gives no interval");
    // no static policy: no margin, no verdict
    SwitchComparison alone;
    SwitchRunSummary m;
    alone.Add(m);
    EXPECT_FALSE(alone.GetMargin().has_value());
    EXPECT_CONTAINS(DescribeSeedsVerdict({alone}, 1, 0.02),
                    "none: no seed has MoSE and a static policy");
    EXPECT_CONTAINS(ErrorOf([&] { DescribeSeedsVerdict({a, b}, 1, -0.1); }), "tolerance");
}
