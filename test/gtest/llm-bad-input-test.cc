/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// mose-llm's options that the library checks under its own names (the controller's
// enterInferenceLoad, the generator's input.mean): read by LlmOptions, every message names the
// option as typed; and the report of requests a run did not serve.

#include "mose-llm-comparison.h"
#include "mose-llm-options.h"
#include "mose-llm-regime-map.h"
#include "mose-program.h"
#include "mose-test-util.h"

#include "ns3/command-line.h"
#include "ns3/mose-aicb-workload.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-training-job.h"
#include "ns3/mose-training-plan.h"

#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Reads mose-llm's options from the arguments (without the program's name)
void
ReadLlmOptions(std::vector<std::string> args)
{
    args.insert(args.begin(), "mose-llm");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    LlmOptions options;
    CommandLine cmd;
    options.AddOptions(cmd);
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
    options.Read();
}

} // namespace

TEST(LlmBadInput, PromptMeanAboveTheLargestPromptIsRefused)
{
    EXPECT_NO_THROW(ReadLlmOptions({"--map=false", "--requests=5", "--promptMean=32768"}));
    const std::string allowed = "a mean prompt length from 1 to 32768 tokens (the generator "
                                "clamps every prompt to 1..32768 tokens)";
    EXPECT_EQ(ErrorOf([] {
                  ReadLlmOptions({"--map=false", "--promptMean=100000"});
              }),
              "invalid --promptMean = \"100000\": " + allowed);
    EXPECT_EQ(ErrorOf([] {
                  ReadLlmOptions({"--map=false", "--promptMean=0"});
              }),
              "invalid --promptMean = \"0\": " + allowed);
    // the regime map's generator too
    EXPECT_EQ(ErrorOf([] { ReadLlmOptions({"--promptMean=40000"}); }),
              "invalid --promptMean = \"40000\": " + allowed);
}

TEST(LlmBadInput, ThresholdOptionsAreNamedAsTyped)
{
    const std::vector<std::string> t{"--map=false", "--requests=5", "--schedule=threshold"};
    auto with = [&t](const std::string& option) {
        std::vector<std::string> args = t;
        args.push_back(option);
        return ErrorOf([&args] { ReadLlmOptions(args); });
    };
    EXPECT_EQ(with("--enterLoad=40"),
              "invalid --enterLoad = \"40\": a finite load above --exitLoad = \"50\" requests/s "
              "(two thresholds give the hysteresis)");
    EXPECT_EQ(with("--exitLoad=-1"), "invalid --exitLoad = \"-1\": a finite load >= 0 requests/s");
    EXPECT_EQ(with("--period=0ms"),
              "invalid --period = \"0ms\": a decision period > 0 and at most --end = \"1.5s\"");
    EXPECT_EQ(with("--period=2s"),
              "invalid --period = \"2s\": a decision period > 0 and at most --end = \"1.5s\"");
    EXPECT_EQ(with("--window=0"), "invalid --window = \"0\": a sliding window of at least 1ns");
    // the keyword in any letter case, as the mode names
    EXPECT_NO_THROW(ReadLlmOptions({"--map=false", "--requests=5", "--schedule=Threshold"}));
    EXPECT_EQ(
        ErrorOf([] {
            ReadLlmOptions({"--map=false", "--requests=5", "--schedule=THRESHOLD", "--window=0"});
        }),
        "invalid --window = \"0\": a sliding window of at least 1ns");
}

TEST(LlmBadInput, ANoticeDelayThatServesNoRequestIsRefused)
{
    EXPECT_EQ(
        ErrorOf([] {
            ReadLlmOptions({"--map=false", "--requests=5", "--noticeDelay=30s", "--stopTime=30s"});
        }),
        "invalid --noticeDelay = \"30s\": a delay under 30 s: the run stops at 30 s, the "
        "first request arrives at 0 s, and a request is served only when the notice of its "
        "KV transfer arrives, --noticeDelay after the last byte");
    EXPECT_NO_THROW(ReadLlmOptions({"--map=false", "--requests=5", "--noticeDelay=29s"}));
}

TEST(LlmBadInput, UnservedRequestsAreCountedWithTheirReason)
{
    LlmSummary s;
    s.policy = Policy::MOSE;
    s.inference.requests = 40;
    s.inference.served = 30;
    s.stopTime = Seconds(30);
    s.noticeDelay = Seconds(29.5);
    s.unservedNoticeLate = 10;
    EXPECT_EQ(UnservedText(s),
              "MoSE: 10 of 40 requests not served when the run stopped at 30 s: 10 had their KV "
              "bytes delivered, but the completion notice (--noticeDelay = 29.5 s after the last "
              "byte) was due after the stop");
    s.inference.served = 20;
    s.unservedInPrefill = 4;
    s.unservedInFlight = 6;
    EXPECT_EQ(UnservedText(s),
              "MoSE: 20 of 40 requests not served when the run stopped at 30 s: 4 were in "
              "prefill, 6 had their KV transfer in flight and 10 had their KV bytes delivered, "
              "but the completion notice (--noticeDelay = 29.5 s after the last byte) was due "
              "after the stop");
}

// Counts that size memory are refused above what the machine can hold, before anything is
// allocated; the limit (the memory available over what each keeps) is in the message (an
// enormous --cycles allocated for minutes before)
TEST(LlmBadInput, CountsThatSizeMemoryAreBoundedByTheMachine)
{
    const uint64_t available = AvailableMemoryBytes();
    const std::string fit =
        " fit in the " + FormatBytes(static_cast<double>(available)) + " available to this process";
    // the default map: 2 loads x 2 intervals x (3 static policies + 1 dark time), one seed
    LlmRegimeMapConfig defaults;
    defaults.seeds = 1;
    ASSERT_EQ(LlmRegimeMap::CountRuns(defaults), 16U);
    const uint64_t cycle = LLM_MAP_CYCLE_BYTES;
    EXPECT_EQ(cycle, LlmMapRunBytes(3) - LlmMapRunBytes(2));     // the same per cycle
    EXPECT_EQ(LlmMapRunBytes(2), LlmMapRunBytes(1) + 2 * cycle); // from 2 cycles on
    // one load, one interval, one dark time: 3 static policies + MoSE = 4 runs a seed
    const std::vector<std::string> cell{"--loads=25", "--intervals=100ms", "--darkTimes=10ms"};
    auto with = [&cell](const std::string& option) {
        std::vector<std::string> args = cell;
        args.push_back(option);
        return args;
    };
    EXPECT_EQ(ErrorOf([&] { ReadLlmOptions(with("--cycles=4000000000")); }),
              "invalid --cycles = \"4000000000\": 4000000000 cycles keep at least " +
                  FormatBytes(4e9 * 4 * static_cast<double>(cycle)) + " (" +
                  FormatBytes(4.0 * cycle) +
                  " each: a summary per cycle of each of the map's 4 runs, 4 runs (--loads x "
                  "--intervals x (the static --policies + --darkTimes) x --level) x --seeds); at "
                  "most " +
                  std::to_string(available / (4 * cycle)) + " cycles" + fit);
    // 10,000 cycles of a short cell were the old bound; 10,001 fit now
    EXPECT_NO_THROW(ReadLlmOptions({"--cycles=10001", "--loads=1", "--intervals=1ms"}));
    EXPECT_NO_THROW(ReadLlmOptions({"--seeds=10001"}));
    const uint64_t seed = 4 * LlmMapRunBytes(1);
    EXPECT_EQ(ErrorOf([&] { ReadLlmOptions(with("--seeds=4000000000")); }),
              "invalid --seeds = \"4000000000\": 4000000000 seeds keep at least " +
                  FormatBytes(4e9 * static_cast<double>(seed)) + " (" +
                  FormatBytes(static_cast<double>(seed)) +
                  " each: the figures of 4 runs (--loads x --intervals x (the static --policies "
                  "+ --darkTimes) x --level)); at most " +
                  std::to_string(available / seed) + " seeds" + fit);
    // 4e9 requests x 1.4 kB = 5.6 TB
    EXPECT_EQ(ErrorOf([] {
                  ReadLlmOptions({"--map=false", "--requests=4000000000"});
              }),
              "invalid --requests = \"4000000000\": 4000000000 requests keep at least 5.6 TB "
              "(1.4 kB each: a request, its record and its state in the run); at most " +
                  std::to_string(available / LlmOptions::REQUEST_BYTES) + " requests" + fit);
    // 1000/s x 2 x 10 cycles x 100,000 s = 2e9 requests in the cell: 2.8 TB
    EXPECT_EQ(ErrorOf([] {
                  ReadLlmOptions({"--loads=1000", "--intervals=100000s", "--cycles=10"});
              }),
              "--loads = \"1000\", --cycles = \"10\" and --intervals = \"100000s\" give too "
              "large a cell: 2000000000 requests keep at least 2.8 TB (1.4 kB each: a request of "
              "the largest cell, its load x 2 cycles' intervals, which one run keeps at once); at "
              "most " +
                  std::to_string(available / LlmOptions::REQUEST_BYTES) + " requests" + fit);
    std::string many;
    for (int i = 1; i <= 1001; ++i)
    {
        many += (i == 1 ? "" : ",") + std::to_string(i) + "ms";
    }
    ExpectErrorContaining([&] { ReadLlmOptions({"--intervals=" + many}); },
                          "invalid --intervals = \"1ms,2ms,3ms,4ms,5ms,6ms,7ms,8ms,9ms,10ms...\": "
                          "at most 1000 items (1001 given)");
}

// The messages name the option as typed, the value and what is allowed
TEST(LlmBadInput, ModelAndScaleErrorsNameTheirOptions)
{
    EXPECT_EQ(ErrorOf([] {
                  ReadLlmOptions({"--map=false", "--model=llama-3-8b"});
              }),
              "invalid --collective = \"all-to-all\": --model = \"llama-3-8b\" is dense (no "
              "experts), and the all-to-all carries an MoE model's tokens to its experts; give "
              "--collective=ring-all-reduce, or an MoE --model (mixtral-8x7b or deepseek-v3)");
    EXPECT_NO_THROW(ReadLlmOptions(
        {"--map=false", "--requests=5", "--model=llama-3-8b", "--collective=ring-all-reduce"}));
    const std::string m = ErrorOf([] {
        ReadLlmOptions({"--map=false", "--tokensPerMember=18446744073709551615"});
    });
    EXPECT_EQ(m.rfind("invalid --tokensPerMember = \"18446744073709551615\": 1 to ", 0), 0u) << m;
    EXPECT_NE(m.find("does not fit in 64 bits"), std::string::npos) << m;
    // the ring all-reduce moves the gradients: the all-to-all's tokens would not be used
    EXPECT_EQ(ErrorOf([] {
                  ReadLlmOptions(
                      {"--map=false", "--collective=ring-all-reduce", "--tokensPerMember=1000"});
              }),
              "invalid --tokensPerMember = \"1000\": the option would not be used: it sizes the "
              "all-to-all (--collective=all-to-all); --collective = \"ring-all-reduce\" moves "
              "--model's gradients");
}

// Issue 42's probe: the trace-only options without a trace, zero counts and a rank mapping
// shorter than the trace, each named as typed (they were accepted and did nothing, or ended in
// "vector::_M_range_check")
TEST(LlmBadInput, ProbeFindingsNameTheirOptions)
{
    for (const char* option :
         {"--rankMapping=ranks.txt", "--ncclChannels=4", "--ncclAlgorithm=tree"})
    {
        const std::string name = std::string(option).substr(0, std::string(option).find('='));
        ExpectErrorContaining(
            [&] {
                ReadLlmOptions({"--map=false", "--requests=5", option});
            },
            "invalid " + name + " = \"");
        ExpectErrorContaining(
            [&] {
                ReadLlmOptions({"--map=false", "--requests=5", option});
            },
            "the option would not be used: only with --trainingTrace");
    }
    EXPECT_EQ(ErrorOf([] { ReadLlmOptions({"--cycles=0"}); }),
              "invalid --cycles = \"0\": at least 1");
    EXPECT_EQ(ErrorOf([] {
                  ReadLlmOptions({"--map=false", "--requests=0"});
              }),
              "invalid --requests = \"0\": at least 1");
    ExpectErrorContaining(
        [] {
            ReadLlmOptions({"--map=false", "--requests=5", "--scale=0"});
        },
        "invalid --scale = \"0\": an integer >= 1");
    // a rail is one of the group's hosts (it wrapped round in silence)
    const std::string rails = ::testing::TempDir() + "mose-rails.txt";
    std::ofstream(rails) << "0 0 0\n1 0 1\n2 1 2\n";
    EXPECT_EQ(ErrorOf([&] {
                  ReadLlmOptions({"--map=false",
                                  "--requests=5",
                                  "--hostsPerGroup=2",
                                  "--trainingTrace=aicb:" + (TracesDir() / "moe-aicb.txt").string(),
                                  "--rankMapping=" + rails});
              }),
              "invalid --rankMapping = \"" + rails +
                  "\": rank 2 is on rail 2: a rail is one of the group's hosts, 0 to 1 "
                  "(--hostsPerGroup = 2)");
    // the sample AICB workload has 8 ranks; a mapping of one rank names both files
    const std::string mapping = ::testing::TempDir() + "mose-one-rank.txt";
    std::ofstream(mapping) << "0 0 0\n";
    TrainingSettings settings;
    settings.plan = std::make_shared<const TrainingPlan>(
        ReadAicbWorkload((TracesDir() / "moe-aicb.txt").string()).ToPlan());
    settings.rankMapping = std::make_shared<const RankMapping>(ReadRankMapping(mapping));
    ExpectErrorContaining([&] { settings.Validate(4); },
                          mapping + ": the rank mapping lists ranks 0 to 0, and ");
    ExpectErrorContaining([&] { settings.Validate(4); },
                          "has 8 ranks: a line \"rank member rail\" for each of ranks 0 to 7");
}
