/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-llm-trace.h"
#include "ns3/mose-model-shape.h"
#include "ns3/mose-random.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

constexpr uint64_t MS = 1000000ULL;
constexpr uint64_t SECOND = 1000000000ULL;

const std::string VIDUR = "arrived_at,num_prefill_tokens,num_decode_tokens\n";
const std::string REPLAY = "Date,Time,PromptTokenCount,CompletionTokenCount\n";
const std::string SPLITWISE =
    "request_id,request_type,application_id,arrival_timestamp,batch_size,prompt_size,token_size\n";
const std::string BURST = "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n";

/// Reads a trace from text named "t"
LlmTrace
Read(const std::string& text, const LlmTraceReadOptions& options = LlmTraceReadOptions())
{
    std::istringstream in(text);
    return ReadLlmTrace(in, "t", options);
}

/// \return options forcing a form
LlmTraceReadOptions
Forced(LlmTraceFormat format)
{
    LlmTraceReadOptions o;
    o.format = format;
    return o;
}

/// Detects the form of text named "t"
LlmTraceFormat
Detect(const std::string& text)
{
    std::istringstream in(text);
    return DetectLlmTraceFormat(in, "t");
}

/// Expects reading the text to throw "t:LINE: ..." with every fragment
void
ExpectTraceError(const std::string& text,
                 uint64_t line,
                 const std::vector<std::string>& fragments,
                 const LlmTraceReadOptions& options = LlmTraceReadOptions())
{
    const std::string m = ErrorOf([&] { Read(text, options); });
    const std::string prefix = "t:" + std::to_string(line) + ": ";
    EXPECT_EQ(m.rfind(prefix, 0), 0U) << "message: " << m << "\nexpected prefix: " << prefix;
    for (const std::string& fragment : fragments)
    {
        EXPECT_CONTAINS(m, fragment);
    }
}

/// \return the requests written in a form
std::string
Text(const std::vector<LlmRequest>& requests, LlmTraceFormat format)
{
    std::ostringstream out;
    WriteLlmTrace(requests, format, out);
    return out.str();
}

/// \return a request
LlmRequest
Req(uint64_t arrivalNs, uint64_t input, uint64_t output, uint64_t line, const std::string& id = "")
{
    LlmRequest r{arrivalNs, input, output};
    r.traceLine = line;
    r.traceId = id;
    return r;
}

/// Expects the requests equal, where they were read included
void
ExpectRequests(const std::vector<LlmRequest>& got, const std::vector<LlmRequest>& want)
{
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
    {
        EXPECT_EQ(got[i].arrivalNs, want[i].arrivalNs) << "request " << i;
        EXPECT_EQ(got[i].inputTokens, want[i].inputTokens) << "request " << i;
        EXPECT_EQ(got[i].outputTokens, want[i].outputTokens) << "request " << i;
        EXPECT_EQ(got[i].traceLine, want[i].traceLine) << "request " << i;
        EXPECT_EQ(got[i].traceId, want[i].traceId) << "request " << i;
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Detection

TEST(LlmTraceFormats, DetectsEveryFormFromItsHeaderOrFirstLine)
{
    EXPECT_EQ(Detect("TIMESTAMP,ContextTokens,GeneratedTokens\n"), LlmTraceFormat::AZURE);
    EXPECT_EQ(Detect("\n# comment\n  arrived_at , num_prefill_tokens,num_decode_tokens\n"),
              LlmTraceFormat::VIDUR);
    EXPECT_EQ(Detect(REPLAY), LlmTraceFormat::VIDUR_REPLAY);
    EXPECT_EQ(Detect(SPLITWISE), LlmTraceFormat::SPLITWISE);
    EXPECT_EQ(Detect(BURST), LlmTraceFormat::BURSTGPT);
    EXPECT_EQ(Detect("{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 1}\n"),
              LlmTraceFormat::MOONCAKE);
    EXPECT_EQ(Detect("\n{\"input_toks\": 5, \"output_toks\": 1, \"arrival_time_ns\": 0}\n"),
              LlmTraceFormat::LLMSERVINGSIM);
    EXPECT_EQ(Detect("{\"sub_requests\": []}\n"), LlmTraceFormat::LLMSERVINGSIM);
    // the read reports what it detected
    EXPECT_EQ(Read(VIDUR + "0,1,1\n").format, LlmTraceFormat::VIDUR);
    EXPECT_EQ(Read("TIMESTAMP,ContextTokens,GeneratedTokens\n2024-01-01 00:00:00,3,1\n").format,
              LlmTraceFormat::AZURE);
}

TEST(LlmTraceFormats, DetectionErrorsNameTheLineAndTheForms)
{
    auto expect = [](const std::string& text, uint64_t line, const std::string& fragment) {
        const std::string m = ErrorOf([&] { Detect(text); });
        EXPECT_EQ(m.rfind("t:" + std::to_string(line) + ": ", 0), 0U) << m;
        EXPECT_CONTAINS(m, fragment);
    };
    expect("", 1, "at end of file: no header or JSON line");
    expect("# only a comment\n\n", 2, "at end of file");
    expect("a,b,c\n", 1, "is the header of no known trace form");
    expect("a,b,c\n", 1, "splitwise \"request_id,request_type,application_id");
    // case matters, as in every reader
    expect("timestamp,contexttokens,generatedtokens\n", 1, "no known trace form");
    expect("{\"x\": 1}\n", 1, "neither \"input_length\" (Mooncake) nor \"input_toks\"");
    expect("{\"x\": }\n", 1, "column 7: expected a JSON value");
}

TEST(LlmTraceFormats, AForcedFormReadsItsHeaderOnly)
{
    ExpectTraceError(VIDUR + "0,1,1\n",
                     1,
                     {"expected the header \"request_id,request_type,"},
                     Forced(LlmTraceFormat::SPLITWISE));
    ExpectTraceError(VIDUR + "0,1,1\n",
                     1,
                     {"expected the header \"TIMESTAMP,ContextTokens,GeneratedTokens\""},
                     Forced(LlmTraceFormat::AZURE));
    EXPECT_EQ(Read(VIDUR + "0,1,1\n", Forced(LlmTraceFormat::VIDUR)).requests.size(), 1U);
}

// ---------------------------------------------------------------------------------------------
// Vidur

TEST(LlmTraceFormats, VidurReadsEveryRequestWithExactTimes)
{
    const LlmTrace t = Read("# a Vidur trace\n" + VIDUR +
                            "0,4808,10\n"
                            "1e-05,1,0\n"
                            "\n"
                            "0.5,3180,8\n"
                            "2.0000000015,7,1\n"
                            "2.0000000024999,9,2\n"
                            ".75E+1,20,3\n");
    EXPECT_EQ(t.format, LlmTraceFormat::VIDUR);
    EXPECT_EQ(t.records, 6U);
    EXPECT_EQ(t.filtered, 0U);
    EXPECT_EQ(t.failed, 0U);
    // 1e-05 s = 10000 ns; 1.5 ns rounds up to 2 ns; 2.4999 ns down to 2 ns; .75E+1 = 7.5 s
    ExpectRequests(t.requests,
                   {Req(0, 4808, 10, 3),
                    Req(10000, 1, 0, 4),
                    Req(SECOND / 2, 3180, 8, 6),
                    Req(2 * SECOND + 2, 7, 1, 7),
                    Req(2 * SECOND + 2, 9, 2, 8),
                    Req(7 * SECOND + SECOND / 2, 20, 3, 9)});
    // the KV cache is the prompt's: 4808 x 327680 B for Llama-3-70B
    const ModelShape l70 = ModelShape::FromPreset(ModelPreset::LLAMA_3_70B);
    EXPECT_EQ(GetKvBytes(t.requests[0], l70), 1575485440U);
    EXPECT_EQ(GetKvBytes(t.requests[2], l70), 1042022400U); // 3180 x 327680
}

TEST(LlmTraceFormats, VidurErrors)
{
    ExpectTraceError(VIDUR + "0,1\n", 2, {"expected 3 fields", "found 2"});
    ExpectTraceError(VIDUR + "0,,1\n", 2, {"empty num_prefill_tokens field"});
    ExpectTraceError(VIDUR + "-1,1,1\n", 2, {"arrived_at \"-1\" is negative"});
    ExpectTraceError(VIDUR + "abc,1,1\n", 2, {"arrived_at \"abc\" is not a time in seconds"});
    ExpectTraceError(VIDUR + "nan,1,1\n", 2, {"arrived_at \"nan\" is not a time in seconds"});
    ExpectTraceError(VIDUR + "1e,1,1\n", 2, {"is not a time in seconds"});
    ExpectTraceError(VIDUR + "+1,1,1\n", 2, {"is not a time in seconds"});
    ExpectTraceError(VIDUR + "1000000001,1,1\n", 2, {"above the cap of 1000000000 s"});
    ExpectTraceError(VIDUR + "1e300,1,1\n", 2, {"above the cap"});
    ExpectTraceError(VIDUR + "0,1.0,1\n", 2, {"num_prefill_tokens \"1.0\" is not a token count"});
    ExpectTraceError(VIDUR + "0,0,1\n", 2, {"num_prefill_tokens \"0\" is below 1"});
    ExpectTraceError(VIDUR + "0,1,-2\n", 2, {"num_decode_tokens \"-2\" is negative"});
    ExpectTraceError(VIDUR + "0,10000001,1\n", 2, {"above the cap of 10000000 tokens"});
    ExpectTraceError(
        VIDUR + "1,1,1\n0.5,1,1\n",
        3,
        {"arrived_at \"0.5\" is earlier than the previous request's, 1 s at line 2", "sorted"});
    ExpectTraceError(VIDUR, 1, {"at end of file: no requests after the header"});
    ExpectTraceError("arrived_at,num_prefill_tokens\n", 1, {"no known trace form"}); // detection
}

// ---------------------------------------------------------------------------------------------
// Vidur replay (Date, Time)

TEST(LlmTraceFormats, VidurReplayReadsOneDate)
{
    const std::string text = REPLAY + "2023-11-16,0,100,10\n"
                                      "2023-11-16,1.5,200,20\n"
                                      "2023-11-17,0.25,300,30\n";
    // two dates and no choice: refused, naming both
    ExpectTraceError(text,
                     4,
                     {"Date \"2023-11-17\" differs from the first row's, \"2023-11-16\" at line 2",
                      "--traceDate"});
    LlmTraceReadOptions o;
    o.date = "2023-11-17";
    LlmTrace t = Read(text, o);
    EXPECT_EQ(t.records, 3U);
    EXPECT_EQ(t.filtered, 2U);
    ExpectRequests(t.requests, {Req(SECOND / 4, 300, 30, 4)});
    const ModelShape dsv3 = ModelShape::FromPreset(ModelPreset::DEEPSEEK_V3);
    EXPECT_EQ(GetKvBytes(t.requests[0], dsv3), 21081600U); // 300 x 70272
    o.date = "2023-11-16";
    t = Read(text, o);
    EXPECT_EQ(t.filtered, 1U);
    ExpectRequests(t.requests, {Req(0, 100, 10, 2), Req(3 * SECOND / 2, 200, 20, 3)});
    // one date throughout needs no choice
    t = Read(REPLAY + "d,0,1,1\nd,2,3,4\n");
    ExpectRequests(t.requests, {Req(0, 1, 1, 2), Req(2 * SECOND, 3, 4, 3)});
    // a date no row has
    o.date = "2023-11-18";
    ExpectTraceError(text,
                     4,
                     {"none of the 3 requests is kept", "no row has Date \"2023-11-18\""},
                     o);
    // the kept rows must be sorted; every row is checked
    o.date = "a";
    ExpectTraceError(REPLAY + "a,2,1,1\nb,0,1,1\na,1,1,1\n",
                     4,
                     {"Time \"1\" is earlier than the previous request's, 2 s at line 2"},
                     o);
    ExpectTraceError(REPLAY + "a,2,1,1\nb,x,1,1\n", 3, {"Time \"x\" is not a time"}, o);
}

// ---------------------------------------------------------------------------------------------
// SplitwiseSim

TEST(LlmTraceFormats, SplitwiseCarriesItsIdsAndKeepsOneRequestType)
{
    const std::string text = SPLITWISE + "r7,2,0,0.0,1,4808,10\n"
                                         "r9,1,3,0.1,1,100,1\n"
                                         "42,2,1,0.25,1,3180,0\n";
    LlmTrace t = Read(text);
    EXPECT_EQ(t.format, LlmTraceFormat::SPLITWISE);
    EXPECT_EQ(t.records, 3U);
    EXPECT_EQ(t.filtered, 1U); // request_type 1 is not an LLM request
    ExpectRequests(t.requests, {Req(0, 4808, 10, 2, "r7"), Req(SECOND / 4, 3180, 0, 4, "42")});
    const ModelShape l8 = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    EXPECT_EQ(GetKvBytes(t.requests[0], l8), 630194176U); // 4808 x 131072
    EXPECT_EQ(GetKvBytes(t.requests[1], l8), 416808960U); // 3180 x 131072
    LlmTraceReadOptions o;
    o.requestType = 1;
    t = Read(text, o);
    EXPECT_EQ(t.filtered, 2U);
    ExpectRequests(t.requests, {Req(SECOND / 10, 100, 1, 3, "r9")});
}

TEST(LlmTraceFormats, SplitwiseErrors)
{
    ExpectTraceError(SPLITWISE + "a,2,0,0,1,5,1\na,2,0,1,1,5,1\n",
                     3,
                     {"request_id \"a\" appears twice: first at line 2"});
    ExpectTraceError(SPLITWISE + "a\"b,2,0,0,1,5,1\n", 2, {"request_id", "holds a comma"});
    ExpectTraceError(SPLITWISE + "a b,2,0,0,1,5,1\n", 2, {"request_id \"a b\""});
    ExpectTraceError(SPLITWISE + "a,x,0,0,1,5,1\n",
                     2,
                     {"request_type \"x\" is not a non-negative integer"});
    ExpectTraceError(SPLITWISE + "a,2,-1,0,1,5,1\n", 2, {"application_id \"-1\" is negative"});
    ExpectTraceError(SPLITWISE + "a,2,0,0,4,5,1\n",
                     2,
                     {"batch_size \"4\" is not modelled", "batch_size 1"});
    ExpectTraceError(SPLITWISE + "a,2,0,0,0,5,1\n", 2, {"batch_size \"0\" is not modelled"});
    ExpectTraceError(SPLITWISE + "a,2,0,0,1,0,1\n", 2, {"prompt_size \"0\" is below 1"});
    ExpectTraceError(SPLITWISE + "a,2,0,0,1,5,1.5\n", 2, {"token_size \"1.5\""});
    ExpectTraceError(SPLITWISE + "a,2,0,5,1,5,1\nb,2,0,4,1,5,1\n",
                     3,
                     {"arrival_timestamp \"4\" is earlier"});
    // every row is checked, also a filtered one; and none kept is an error
    ExpectTraceError(SPLITWISE + "a,1,0,0,1,0,1\n", 2, {"prompt_size \"0\" is below 1"});
    ExpectTraceError(SPLITWISE + "a,1,0,0,1,5,1\n",
                     2,
                     {"at end of file: none of the 1 requests is kept", "request_type 2"});
}

// ---------------------------------------------------------------------------------------------
// LLMServingSim

TEST(LlmTraceFormats, LlmServingSimReadsNanosecondsAndIgnoresTokenIds)
{
    const LlmTrace t =
        Read("{\"input_toks\": 4, \"output_toks\": 2, \"arrival_time_ns\": 0, "
             "\"input_tok_ids\": [1, 2, 3, 4]}\n"
             "\n"
             "{\"arrival_time_ns\": 1500, \"output_toks\": 0, \"input_toks\": 8}\r\n");
    EXPECT_EQ(t.format, LlmTraceFormat::LLMSERVINGSIM);
    EXPECT_EQ(t.records, 2U);
    ExpectRequests(t.requests, {Req(0, 4, 2, 1), Req(1500, 8, 0, 3)});
    const ModelShape l70 = ModelShape::FromPreset(ModelPreset::LLAMA_3_70B);
    EXPECT_EQ(GetKvBytes(t.requests[1], l70), 2621440U); // 8 x 327680
}

TEST(LlmTraceFormats, LlmServingSimErrors)
{
    const std::string ok = "{\"input_toks\": 4, \"output_toks\": 2, \"arrival_time_ns\": 0}\n";
    ExpectTraceError(ok + "{\"input_toks\": 4, \"output_toks\": 2, \"arrival_time_ns\": 0, "
                          "\"sub_requests\": [{\"input_toks\": 1}]}\n",
                     2,
                     {"agentic form", "\"sub_requests\"", "not modelled"});
    ExpectTraceError("{\"sub_requests\": []}\n", 1, {"agentic form"});
    ExpectTraceError(ok + "{\"input_toks\": 4, \"output_toks\": 2}\n",
                     2,
                     {"missing key \"arrival_time_ns\"", "LLMServingSim request has"});
    ExpectTraceError(ok + "{\"input_toks\": 4, \"output_toks\": 2, \"arrival_time_ns\": 1.5}\n",
                     2,
                     {"column 56", "arrival_time_ns 1.5 is not a whole number of ns"});
    ExpectTraceError(ok + "{\"input_toks\": 4, \"output_toks\": 2, \"arrival_time_ns\": -1}\n",
                     2,
                     {"arrival_time_ns -1 is negative"});
    ExpectTraceError(ok + "{\"input_toks\": 4, \"output_toks\": 2, \"arrival_time_ns\": "
                          "1000000000000000001}\n",
                     2,
                     {"above the cap of 1000000000000000000 ns"});
    ExpectTraceError(ok + "{\"input_toks\": 0, \"output_toks\": 2, \"arrival_time_ns\": 0}\n",
                     2,
                     {"input_toks \"0\" is below 1"});
    ExpectTraceError(ok + "{\"input_toks\": \"4\", \"output_toks\": 2, \"arrival_time_ns\": 0}\n",
                     2,
                     {"\"input_toks\" must be a number"});
    ExpectTraceError("{\"input_toks\": 4, \"output_toks\": 2, \"arrival_time_ns\": 9}\n" + ok,
                     2,
                     {"arrival_time_ns \"0\" is earlier than the previous request's, 9 ns at "
                      "line 1"});
    ExpectTraceError(ok + "{\"input_toks\": 4,}\n", 2, {"expected a key"});
    ExpectTraceError("\n\n", 2, {"at end of file"}, Forced(LlmTraceFormat::LLMSERVINGSIM));
}

// ---------------------------------------------------------------------------------------------
// BurstGPT

namespace
{

/// A BurstGPT trace with both models, both log types and a failed request
const std::string BURST_TEXT = BURST +
                               "5,ChatGPT,472,18,490,Conversation log\n"     // line 2
                               "45,GPT-4,1087,0,1087,Conversation log\n"     // line 3: failed
                               "118,ChatGPT,417,276,693,API log\n"           // line 4
                               "118.5,GPT-4,1360,193,1553,API log\n"         // line 5
                               "130,ChatGPT,2000,0,2000,Conversation log\n"; // line 6: failed

} // namespace

TEST(LlmTraceFormats, BurstGptLeavesFailedRequestsOutAndCountsThem)
{
    LlmTrace t = Read(BURST_TEXT);
    EXPECT_EQ(t.format, LlmTraceFormat::BURSTGPT);
    EXPECT_EQ(t.records, 5U);
    EXPECT_EQ(t.filtered, 0U);
    EXPECT_EQ(t.failed, 2U);
    ExpectRequests(t.requests,
                   {Req(5 * SECOND, 472, 18, 2),
                    Req(118 * SECOND, 417, 276, 4),
                    Req(118 * SECOND + 500 * MS, 1360, 193, 5)});
    const ModelShape mixtral = ModelShape::FromPreset(ModelPreset::MIXTRAL_8X7B);
    EXPECT_EQ(GetKvBytes(t.requests[2], mixtral), 178257920U); // 1360 x 131072
    LlmTraceReadOptions o;
    o.keepFailed = true;
    t = Read(BURST_TEXT, o);
    EXPECT_EQ(t.failed, 0U);
    ExpectRequests(t.requests,
                   {Req(5 * SECOND, 472, 18, 2),
                    Req(45 * SECOND, 1087, 0, 3),
                    Req(118 * SECOND, 417, 276, 4),
                    Req(118 * SECOND + 500 * MS, 1360, 193, 5),
                    Req(130 * SECOND, 2000, 0, 6)});
}

TEST(LlmTraceFormats, BurstGptFiltersModelAndLogType)
{
    LlmTraceReadOptions o;
    o.model = "GPT-4";
    LlmTrace t = Read(BURST_TEXT, o);
    EXPECT_EQ(t.filtered, 3U);
    EXPECT_EQ(t.failed, 1U);
    ExpectRequests(t.requests, {Req(118 * SECOND + 500 * MS, 1360, 193, 5)});
    o.model = "ChatGPT";
    o.logType = "Conversation log";
    t = Read(BURST_TEXT, o);
    EXPECT_EQ(t.filtered, 3U);
    EXPECT_EQ(t.failed, 1U);
    ExpectRequests(t.requests, {Req(5 * SECOND, 472, 18, 2)});
    o.model = "";
    o.logType = "API log";
    t = Read(BURST_TEXT, o);
    EXPECT_EQ(t.filtered, 3U);
    ExpectRequests(t.requests,
                   {Req(118 * SECOND, 417, 276, 4), Req(118 * SECOND + 500 * MS, 1360, 193, 5)});
    // nothing left
    o.model = "GPT-4";
    o.logType = "Conversation log";
    ExpectTraceError(BURST_TEXT,
                     6,
                     {"none of the 5 requests is kept",
                      "4 left out by the Model and Log Type filters, 1 failed"},
                     o);
}

TEST(LlmTraceFormats, BurstGptErrors)
{
    ExpectTraceError(BURST + "5,Claude,4,1,5,API log\n",
                     2,
                     {"Model \"Claude\" is not one of ChatGPT, GPT-4"});
    ExpectTraceError(BURST + "5,ChatGPT,4,1,5,api log\n",
                     2,
                     {"Log Type \"api log\" is not one of Conversation log, API log"});
    ExpectTraceError(BURST + "5,ChatGPT,4,1,6,API log\n",
                     2,
                     {"Total tokens \"6\" is not Request tokens + Response tokens = 5"});
    ExpectTraceError(BURST + "5,ChatGPT,0,1,1,API log\n", 2, {"Request tokens \"0\" is below 1"});
    ExpectTraceError(BURST + "5,ChatGPT,4,x,5,API log\n", 2, {"Response tokens \"x\""});
    ExpectTraceError(BURST + "5,ChatGPT,4,1,5,API log\n4,ChatGPT,4,1,5,API log\n",
                     3,
                     {"Timestamp \"4\" is earlier than the previous request's, 5 s at line 2"});
    ExpectTraceError(BURST + "5,ChatGPT,4,1,5\n", 2, {"expected 6 fields"});
}

// ---------------------------------------------------------------------------------------------
// Options

TEST(LlmTraceFormats, AFilterOfAnotherFormIsRefused)
{
    auto expect = [](const LlmTraceReadOptions& o, const std::string& fragment) {
        EXPECT_CONTAINS(ErrorOf([&] { Read(VIDUR + "0,1,1\n", o); }), fragment);
    };
    LlmTraceReadOptions o;
    o.model = "GPT-4";
    expect(o, "invalid model = \"GPT-4\": only for the burstgpt form; the trace is read as vidur");
    o = LlmTraceReadOptions();
    o.keepFailed = true;
    expect(o, "invalid keepFailed = true: only for the burstgpt form");
    o = LlmTraceReadOptions();
    o.requestType = 1;
    expect(o, "invalid requestType = 1: only for the splitwise form");
    o = LlmTraceReadOptions();
    o.date = "d";
    expect(o, "invalid date = \"d\": only for the vidur-replay form");
    o = LlmTraceReadOptions();
    o.model = "gpt-4";
    expect(o, "invalid model = \"gpt-4\": one of ChatGPT, GPT-4");
    o = LlmTraceReadOptions();
    o.logType = "API";
    expect(o, "invalid logType = \"API\": one of Conversation log, API log");
    EXPECT_EQ(ParseEnum<LlmTraceFormat>("splitwisesim", "f"), LlmTraceFormat::SPLITWISE);
    EXPECT_EQ(ToString(LlmTraceFormat::VIDUR_REPLAY), "vidur-replay");
}

// ---------------------------------------------------------------------------------------------
// Writers: every form round-trips

TEST(LlmTraceFormats, EveryFormRoundTrips)
{
    std::vector<LlmRequest> requests = {Req(0, 10, 1, 0),
                                        Req(1, 20, 0, 0),
                                        Req(1500000000, 30, 3, 0),
                                        Req(2 * SECOND + 123456789, 40, 4, 0)};
    // the time written as seconds with the digits needed
    EXPECT_EQ(Text(requests, LlmTraceFormat::VIDUR),
              VIDUR + "0,10,1\n0.000000001,20,0\n1.5,30,3\n2.123456789,40,4\n");
    EXPECT_EQ(Text(requests, LlmTraceFormat::VIDUR_REPLAY),
              REPLAY + "2024-01-01,0,10,1\n2024-01-01,0.000000001,20,0\n2024-01-01,1.5,30,3\n"
                       "2024-01-01,2.123456789,40,4\n");
    EXPECT_EQ(Text(requests, LlmTraceFormat::SPLITWISE),
              SPLITWISE + "0,2,0,0,1,10,1\n1,2,0,0.000000001,1,20,0\n2,2,0,1.5,1,30,3\n"
                          "3,2,0,2.123456789,1,40,4\n");
    EXPECT_EQ(Text({requests[2]}, LlmTraceFormat::LLMSERVINGSIM),
              "{\"input_toks\": 30, \"output_toks\": 3, \"arrival_time_ns\": 1500000000}\n");
    EXPECT_EQ(Text({requests[3]}, LlmTraceFormat::BURSTGPT),
              BURST + "2.123456789,ChatGPT,40,4,44,Conversation log\n");
    for (LlmTraceFormat f : {LlmTraceFormat::VIDUR,
                             LlmTraceFormat::VIDUR_REPLAY,
                             LlmTraceFormat::SPLITWISE,
                             LlmTraceFormat::LLMSERVINGSIM,
                             LlmTraceFormat::MOONCAKE})
    {
        const LlmTrace t = Read(Text(requests, f));
        EXPECT_EQ(t.format, f);
        EXPECT_EQ(t.requests, requests) << ToString(f);
    }
    // BurstGPT reads a request without output as failed; kept, it round-trips
    LlmTraceReadOptions keep;
    keep.keepFailed = true;
    EXPECT_EQ(Read(Text(requests, LlmTraceFormat::BURSTGPT), keep).requests, requests);
    EXPECT_EQ(Read(Text(requests, LlmTraceFormat::BURSTGPT)).failed, 1U);
    // SplitwiseSim writes the ids it is given, and reads them back
    requests[0].traceId = "x";
    requests[1].traceId = "y";
    requests[2].traceId = "z-1";
    requests[3].traceId = "0";
    const LlmTrace t = Read(Text(requests, LlmTraceFormat::SPLITWISE));
    ASSERT_EQ(t.requests.size(), 4U);
    EXPECT_EQ(t.requests[2].traceId, "z-1");
    EXPECT_EQ(t.requests[3].traceId, "0");
}

TEST(LlmTraceFormats, WriterErrors)
{
    std::vector<LlmRequest> r = {Req(0, 10, 1, 0, "a"), Req(1, 20, 0, 0, "a")};
    EXPECT_CONTAINS(ErrorOf([&] { Text(r, LlmTraceFormat::SPLITWISE); }),
                    "invalid requests[1].traceId = \"a\": unique ids: requests[0] has it too");
    r[1].traceId = "";
    EXPECT_CONTAINS(ErrorOf([&] { Text(r, LlmTraceFormat::SPLITWISE); }),
                    "ids for every request or for none");
    r[1].traceId = "b,c";
    EXPECT_CONTAINS(ErrorOf([&] { Text(r, LlmTraceFormat::SPLITWISE); }),
                    "invalid requests[1].traceId = \"b,c\"");
    EXPECT_CONTAINS(ErrorOf([&] { Text(r, LlmTraceFormat::AUTO); }), "a form to write");
    r[1].arrivalNs = 0;
    r[0].arrivalNs = 5;
    EXPECT_CONTAINS(ErrorOf([&] { Text(r, LlmTraceFormat::VIDUR); }),
                    "invalid requests[1].arrivalNs = 0");
}

// ---------------------------------------------------------------------------------------------
// The sample traces shipped in examples/traces

namespace
{

/// The generator's requests of a sample: 40 requests at 2 per second, whole microseconds
std::vector<LlmRequest>
Sample(uint64_t run)
{
    LlmRequestGeneratorOptions o;
    o.requests = 40;
    o.rate = 2.0;
    o.input = {2048.0, 1.0, 16, 16384};
    o.output = {128.0, 1.0, 1, 2048};
    o.tickNs = 1000;
    Random rng = Random::Create(run, Stream::LLM_REQUESTS);
    return GenerateLlmRequests(o, rng);
}

/// A sample file: its name, form and requests
struct SampleFile
{
    std::string name;                 //!< in examples/traces
    LlmTraceFormat format;            //!< its form
    std::vector<LlmRequest> requests; //!< what it holds
};

/// \return the samples of the forms beyond Azure and Mooncake
std::vector<SampleFile>
Samples()
{
    std::vector<LlmRequest> splitwise = Sample(5);
    for (std::size_t i = 0; i < splitwise.size(); ++i)
    {
        splitwise[i].traceId = "req-" + std::to_string(1000 + i);
    }
    return {{"vidur-sample.csv", LlmTraceFormat::VIDUR, Sample(3)},
            {"vidur-replay-sample.csv", LlmTraceFormat::VIDUR_REPLAY, Sample(4)},
            {"splitwise-sample.csv", LlmTraceFormat::SPLITWISE, splitwise},
            {"llmservingsim-sample.jsonl", LlmTraceFormat::LLMSERVINGSIM, Sample(6)},
            {"burstgpt-sample.csv", LlmTraceFormat::BURSTGPT, Sample(7)}};
}

} // namespace

TEST(LlmTraceFormats, ShippedSamplesAreTheWritersOutput)
{
    for (const SampleFile& s : Samples())
    {
        const std::filesystem::path path = TracesDir() / s.name;
        // MOSE_WRITE_SAMPLE_TRACES=1 rewrites them (after a deliberate change of a writer)
        if (std::getenv("MOSE_WRITE_SAMPLE_TRACES") != nullptr)
        {
            WriteLlmTrace(s.requests, s.format, path.string());
        }
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        EXPECT_EQ(ReadFileBytes(path.string()), Text(s.requests, s.format))
            << path << " differs from the writer's output";
        const LlmTrace t = ReadLlmTrace(path.string());
        EXPECT_EQ(t.format, s.format) << path;
        EXPECT_EQ(t.requests, s.requests) << path;
        ASSERT_EQ(t.requests.size(), 40U);
        EXPECT_EQ(t.requests.back().traceLine,
                  s.format == LlmTraceFormat::LLMSERVINGSIM ? 40U : 41U);
        if (s.format == LlmTraceFormat::SPLITWISE)
        {
            EXPECT_EQ(t.requests.back().traceId, "req-1039");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Robustness: mutated samples are read or refused with a mose::Error, never anything else

TEST(LlmTraceFormats, MutatedSamplesAreReadExactlyOrRefused)
{
    // a deterministic stand-in for the fuzzer: bytes replaced, deleted, inserted, lines repeated
    const std::string alphabet = std::string(",.-+eE0123456789\"{}[]: \n\r\t#aZ\\") + '\0' + '\xff';
    std::mt19937_64 rng(29);
    uint64_t read = 0;
    uint64_t refused = 0;
    for (const char* name : {"azure-sample.csv",
                             "mooncake-sample.jsonl",
                             "vidur-sample.csv",
                             "vidur-replay-sample.csv",
                             "splitwise-sample.csv",
                             "llmservingsim-sample.jsonl",
                             "burstgpt-sample.csv"})
    {
        const std::string original = ReadFileBytes((TracesDir() / name).string());
        ASSERT_FALSE(original.empty()) << name;
        for (int k = 0; k < 2000; ++k)
        {
            std::string text = original.substr(0, 600); // the header and a few requests
            const int edits = 1 + static_cast<int>(rng() % 3);
            for (int e = 0; e < edits && !text.empty(); ++e)
            {
                const std::size_t at = rng() % text.size();
                const char c = alphabet[rng() % alphabet.size()];
                switch (rng() % 4)
                {
                case 0:
                    text[at] = c;
                    break;
                case 1:
                    text.erase(at, 1);
                    break;
                case 2:
                    text.insert(at, 1, c);
                    break;
                default: {
                    const std::size_t begin =
                        text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
                    const std::size_t end = text.find('\n', at);
                    if (end != std::string::npos)
                    {
                        text.insert(end + 1, text.substr(begin, end + 1 - begin));
                    }
                }
                }
            }
            LlmTrace t;
            try
            {
                t = Read(text);
            }
            catch (const Error&)
            {
                ++refused;
                continue;
            }
            ++read;
            // what was read satisfies the guarantees and round-trips in its form
            ASSERT_NO_THROW(ValidateLlmRequests(t.requests, "read")) << text;
            ASSERT_FALSE(t.requests.empty());
            const LlmTrace back = Read(Text(t.requests, t.format), Forced(t.format));
            EXPECT_EQ(back.requests, t.requests) << name << ":\n" << text;
        }
    }
    // both outcomes occur
    EXPECT_GT(read, 100U);
    EXPECT_GT(refused, 100U);
}
