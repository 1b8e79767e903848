/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// One LLM experiment's clock: where a trace starts (mose-llm --traceStart), when the run ends
// (--stopTime, or DefaultLlmStopTime() derived from the requests), and the refusal of a run in
// which no request, or too many, arrive before the end. Values computed by hand. And the
// approximation --rateEpoch, which carries its error measured against the exact rates.

#include "mose-llm-comparison.h"
#include "mose-llm-experiment.h"
#include "mose-llm-options.h"
#include "mose-llm-test-util.h"
#include "mose-test-util.h"

#include "ns3/command-line.h"
#include "ns3/mose-error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Reads mose-llm's options from the arguments (without the program's name)
std::unique_ptr<LlmOptions>
ReadOptions(std::vector<std::string> args)
{
    args.insert(args.begin(), "mose-llm");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    auto options = std::make_unique<LlmOptions>();
    CommandLine cmd;
    options->AddOptions(cmd);
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
    options->Read();
    return options;
}

/// \return a Vidur trace (arrived_at in s) in the test's temporary folder, one request of
///         1000 prompt tokens and 10 output tokens per arrival
std::string
WriteVidurTrace(const std::string& name, const std::vector<std::string>& arrivals)
{
    const std::string path = testing::TempDir() + "mose-trace-clock-" + name + ".csv";
    std::ofstream out(path);
    out << "arrived_at,num_prefill_tokens,num_decode_tokens\n";
    for (const std::string& a : arrivals)
    {
        out << a << ",1000,10\n";
    }
    return path;
}

/// \return the arrivals of an experiment's requests in ns
std::vector<uint64_t>
Arrivals(const LlmOptions& options)
{
    std::vector<uint64_t> out;
    for (const LlmRequest& r : options.GetExperimentConfig().llm.requests)
    {
        out.push_back(r.arrivalNs);
    }
    return out;
}

} // namespace

TEST(LlmTraceClock, TheServeAllowanceIsPrefillAndKvTimeSummedPlusTheNotice)
{
    ExperimentConfig c = MakeLlmConfig(16);
    c.ocsRate = DataRate("400Gbps");
    c.hostRate = DataRate("800Gbps");
    c.llm.kvBytesPerToken = 1000;
    c.llm.prefillTokensPerSecond = 1e6;
    c.llm.requests = {LlmRequest{0, 1000, 1}, LlmRequest{2000000000, 3000, 1}};
    // prefill 4000 / 1e6 = 4 ms; KV 4000 x 1000 x 8 bits at the slower 400 Gb/s = 80 us
    EXPECT_EQ(LlmServeAllowance(c), MicroSeconds(4080));
    c.llm.noticeDelay = Seconds(1);
    EXPECT_EQ(LlmServeAllowance(c), MicroSeconds(1004080));
    // the last arrival (2 s) + 1.00408 s is under the least stop time, 30 s
    EXPECT_EQ(DefaultLlmStopTime(c), Seconds(30));
    c.llm.requests[1].arrivalNs = 40000000000;
    EXPECT_EQ(DefaultLlmStopTime(c), MicroSeconds(41004080));
    // a schedule that ends later: its end
    c.end = Seconds(45);
    EXPECT_EQ(DefaultLlmStopTime(c), Seconds(45));
    c.llm.requests.clear();
    EXPECT_EQ(LlmServeAllowance(c), Time(0));
    EXPECT_EQ(DefaultLlmStopTime(c), Seconds(45));
}

TEST(LlmTraceClock, TheGeneratorKeepsThirtySecondsAndSaysNothing)
{
    const auto options = ReadOptions({"--map=false", "--requests=5"});
    EXPECT_EQ(options->GetExperimentConfig().stopTime, Seconds(30));
    EXPECT_EQ(options->GetClockNote(), "");
}

TEST(LlmTraceClock, ATraceLaterThanZeroRunsToItsEndAndTraceStartMovesIt)
{
    const std::string trace = WriteVidurTrace("late", {"1200", "1200.5", "1201"});
    // as written: the run ends after the last arrival (1201 s + 3 x (0.5 ms prefill + KV time))
    const auto asWritten = ReadOptions({"--map=false", "--trace=" + trace});
    EXPECT_EQ(Arrivals(*asWritten),
              (std::vector<uint64_t>{1200000000000, 1200500000000, 1201000000000}));
    EXPECT_GT(asWritten->GetExperimentConfig().stopTime, Seconds(1201));
    EXPECT_LT(asWritten->GetExperimentConfig().stopTime, Seconds(1202));
    EXPECT_NE(asWritten->GetClockNote().find("arrivals from 1200 s to 1201 s (the trace's clock "
                                             "as written"),
              std::string::npos)
        << asWritten->GetClockNote();
    EXPECT_NE(asWritten->GetClockNote().find("note: every request arrives after the schedule's "
                                             "end, 1.5 s"),
              std::string::npos);

    const auto first = ReadOptions({"--map=false", "--trace=" + trace, "--traceStart=first"});
    EXPECT_EQ(Arrivals(*first), (std::vector<uint64_t>{0, 500000000, 1000000000}));
    EXPECT_EQ(first->GetExperimentConfig().stopTime, Seconds(30));
    EXPECT_NE(first->GetClockNote().find(
                  "arrivals from 0 s to 1 s (--traceStart=first: the trace's clock minus 1200 s)"),
              std::string::npos)
        << first->GetClockNote();

    const auto at = ReadOptions({"--map=false", "--trace=" + trace, "--traceStart=1200.5s"});
    EXPECT_EQ(Arrivals(*at), (std::vector<uint64_t>{0, 500000000}));
    EXPECT_NE(at->GetClockNote().find("(--traceStart=1200.5s: the trace's clock minus 1200.5 s, "
                                      "1 requests before it left out)"),
              std::string::npos)
        << at->GetClockNote();
}

TEST(LlmTraceClock, AStartOrEndThatLeavesNoRequestIsRefused)
{
    const std::string trace = WriteVidurTrace("refused", {"1200", "1200.5", "1201"});
    EXPECT_EQ(ErrorOf([&trace] {
                  ReadOptions({"--map=false", "--trace=" + trace, "--traceStart=1300s"});
              }),
              "invalid --traceStart = \"1300s\": first (the trace's first request) or a time of "
              "the trace's clock up to its last arrival: the requests of --trace=" +
                  trace + " arrive from 1200 s to 1201 s, none at or after 1300 s");
    const std::string noneArrives = ErrorOf([&trace] {
        ReadOptions({"--map=false", "--trace=" + trace, "--stopTime=10s"});
    });
    EXPECT_EQ(noneArrives.rfind("invalid --stopTime = \"10s\": an end that at least 90% of the "
                                "requests arrive before: 3 of the 3 requests of --trace=" +
                                    trace +
                                    " arrive at or after it (first arrival 1200 s, last 1201 s, "
                                    "run end 10 s); without --stopTime the run ends at 1201.",
                                0),
              0u)
        << noneArrives;
    EXPECT_EQ(
        ErrorOf([&trace] {
            ReadOptions({"--map=false", "--trace=" + trace, "--traceStart=first", "--stopTime=1s"});
        }),
        "invalid --stopTime = \"1s\": a time at or after the schedule's end, 1.5 s (the run "
        "would stop in its last mode interval)");
    EXPECT_EQ(ErrorOf([] {
                  ReadOptions({"--map=false", "--requests=5", "--traceStart=first"});
              }),
              "invalid --traceStart = \"first\": only with --trace: it says how the trace is read");
    EXPECT_EQ(ErrorOf([] { ReadOptions({"--stopTime=60s"}); }),
              "invalid --stopTime = \"60s\": only with --map=false: the regime map generates the "
              "requests of each --loads rate and alternates the modes for each of --intervals");
}

TEST(LlmTraceClock, AtMostATenthOfTheRequestsMayArriveAfterTheEnd)
{
    // ten requests at 0, 1, ..., 9 s
    const std::string trace =
        WriteVidurTrace("share", {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"});
    // 9 s: one request (at 9 s) arrives at the end, 10 %: allowed
    const auto tenth = ReadOptions({"--map=false", "--trace=" + trace, "--stopTime=9s"});
    EXPECT_EQ(tenth->GetExperimentConfig().stopTime, Seconds(9));
    EXPECT_NE(tenth->GetClockNote().find("the run stops at 9 s at the latest (--stopTime)"),
              std::string::npos)
        << tenth->GetClockNote();
    // 7.5 s: two (at 8 and 9 s, 20 %): refused
    const std::string two = ErrorOf([&trace] {
        ReadOptions({"--map=false", "--trace=" + trace, "--stopTime=7.5s"});
    });
    EXPECT_NE(two.find("2 of the 10 requests of --trace=" + trace +
                       " arrive at or after it (first arrival 0 s, last 9 s, run end 7.5 s)"),
              std::string::npos)
        << two;
}

TEST(LlmTraceClock, ANoticeDelayIsCheckedAgainstTheRunsEnd)
{
    // the derived end makes room for the notice
    const auto derived = ReadOptions({"--map=false", "--requests=5", "--noticeDelay=30s"});
    EXPECT_GT(derived->GetExperimentConfig().stopTime, Seconds(30));
    // a given end that leaves none is refused
    EXPECT_EQ(
        ErrorOf([] {
            ReadOptions({"--map=false", "--requests=5", "--noticeDelay=30s", "--stopTime=30s"});
        }),
        "invalid --noticeDelay = \"30s\": a delay under 30 s: the run stops at 30 s, the "
        "first request arrives at 0 s, and a request is served only when the notice of its "
        "KV transfer arrives, --noticeDelay after the last byte");
}

TEST(LlmRateEpochError, TheTextGivesBothRunsAndTheRelativeErrors)
{
    LlmSummary a;
    a.policy = Policy::MOSE;
    a.inference.requests = 40;
    a.inference.served = 40;
    a.inference.kv.mean = 0.486;
    a.inference.ttft.mean = 0.5;
    a.training.iterations = 3;
    a.training.iteration.mean = 0.3;
    a.wallSeconds = 0.1;
    LlmSummary e = a;
    e.inference.kv.mean = 0.008;
    e.inference.ttft.mean = 0.01;
    e.training.iterations = 60;
    e.training.iteration.mean = 0.025;
    e.wallSeconds = 0.5;
    // (0.486 - 0.008) / 0.008 = 59.75; (0.5 - 0.01) / 0.01 = 49; (0.3 - 0.025) / 0.025 = 11
    EXPECT_EQ(RateEpochErrorText(a, e, MilliSeconds(1)),
              "MoSE with rate epoch 1 ms (--rateEpoch) against exact rates: served 40/40 (exact "
              "40/40), kv_mean 486.000 ms (exact 8.000 ms, +5975.0%), ttft_mean 500.000 ms (exact "
              "10.000 ms, +4900.0%), iterations 3 (exact 60), iter_mean 300.000 ms (exact 25.000 "
              "ms, +1100.0%), wall 0.100 s (exact 0.500 s)");
}

// A comparison at the fluid level with a rate epoch runs the exact rates beside it: its exact
// summary is that of the same comparison without the epoch, and the line follows the row
TEST(LlmRateEpochError, AComparisonWithAnEpochRunsTheExactRatesToo)
{
    ExperimentConfig c = SmallLlmConfig(16);
    for (uint64_t i = 0; i < 20; ++i)
    {
        c.llm.requests.push_back(LlmRequest{i * 1000000, 2000, 10, "", 0});
    }
    c.SetSchedule(
        ModeSchedule{{WorkloadMode::INFERENCE_HEAVY, 0.02}, {WorkloadMode::TRAINING_HEAVY, 0.03}});
    c.llm.training = true;
    c.llm.collectiveBytes = 1 << 20;
    c.llm.computeTime = MilliSeconds(2);
    LlmComparison exact(c, {Policy::MOSE}, {LlmLevel::FLUID});
    std::ostringstream exactTable;
    exact.Run(exactTable);
    EXPECT_TRUE(exact.GetExactSummaries().empty());
    EXPECT_EQ(exactTable.str().find("against exact rates"), std::string::npos);

    c.llm.fluidRateEpoch = MilliSeconds(5);
    LlmComparison coarse(c, {Policy::MOSE}, {LlmLevel::FLUID});
    std::ostringstream table;
    coarse.Run(table);
    ASSERT_EQ(coarse.GetExactSummaries().size(), 1u);
    const LlmSummary& beside = coarse.GetExactSummaries()[0];
    const LlmSummary& reference = exact.GetSummaries()[0];
    EXPECT_EQ(beside.inference.served, reference.inference.served);
    EXPECT_EQ(beside.training.iterations, reference.training.iterations);
    EXPECT_EQ(beside.inference.kv.mean, reference.inference.kv.mean);
    EXPECT_EQ(beside.inference.ttft.mean, reference.inference.ttft.mean);
    EXPECT_NE(table.str().find("MoSE with rate epoch 5 ms (--rateEpoch) against exact rates: "
                               "served " +
                               std::to_string(coarse.GetSummaries()[0].inference.served) +
                               "/20 (exact " + std::to_string(reference.inference.served) + "/20)"),
              std::string::npos)
        << table.str();
}
