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

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

constexpr uint64_t SECOND = 1000000000ULL;
const std::string HEADER = "TIMESTAMP,ContextTokens,GeneratedTokens\n";

/// Reads an Azure trace from text named "azure.csv"
std::vector<LlmRequest>
Azure(const std::string& text)
{
    std::istringstream in(text);
    return ReadAzureTraceCsv(in, "azure.csv");
}

/// Reads a Mooncake trace from text named "trace.jsonl"
std::vector<LlmRequest>
Mooncake(const std::string& text)
{
    std::istringstream in(text);
    return ReadMooncakeTraceJsonl(in, "trace.jsonl");
}

/**
 * \brief Expects f to throw a mose::Error whose message starts with "NAME:LINE: " and contains
 *        every fragment.
 */
void
ExpectFileError(const std::function<void()>& f,
                const std::string& name,
                uint64_t line,
                const std::vector<std::string>& fragments)
{
    try
    {
        f();
        ADD_FAILURE() << "expected a mose::Error at " << name << ":" << line;
    }
    catch (const Error& e)
    {
        std::string m = e.what();
        std::string prefix = name + ":" + std::to_string(line) + ": ";
        EXPECT_EQ(m.rfind(prefix, 0), 0U) << "message: " << m << "\nexpected prefix: " << prefix;
        for (const auto& fragment : fragments)
        {
            EXPECT_NE(m.find(fragment), std::string::npos)
                << "message: " << m << "\nexpected to contain: " << fragment;
        }
    }
}

/// Expects the Azure text to fail at a line with the fragments
void
ExpectAzureError(const std::string& text, uint64_t line, const std::vector<std::string>& fragments)
{
    ExpectFileError([&text] { Azure(text); }, "azure.csv", line, fragments);
}

/// Expects the Mooncake text to fail at a line with the fragments
void
ExpectMooncakeError(const std::string& text,
                    uint64_t line,
                    const std::vector<std::string>& fragments)
{
    ExpectFileError([&text] { Mooncake(text); }, "trace.jsonl", line, fragments);
}

/// \return the requests written in the Azure form
std::string
AzureText(const std::vector<LlmRequest>& r, const std::string& start = DEFAULT_AZURE_START)
{
    std::ostringstream out;
    WriteAzureTraceCsv(r, out, start);
    return out.str();
}

/// \return the requests written in the Mooncake form
std::string
MooncakeText(const std::vector<LlmRequest>& r)
{
    std::ostringstream out;
    WriteMooncakeTraceJsonl(r, out);
    return out.str();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// KV bytes

TEST(LlmRequest, KvBytesAreTokensTimesBytesPerToken)
{
    const ModelShape l8 = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    const ModelShape l70 = ModelShape::FromPreset(ModelPreset::LLAMA_3_70B);
    const ModelShape dsv3 = ModelShape::FromPreset(ModelPreset::DEEPSEEK_V3);
    EXPECT_EQ(GetKvBytes({0, 1, 500}, l8), 131072U);
    EXPECT_EQ(GetKvBytes({0, 2000, 1}, l70), 655360000U);
    EXPECT_EQ(GetKvBytes({7, 4808, 10}, l8), 4808U * 131072);
    EXPECT_EQ(GetKvBytes({7, 4808, 10}, dsv3), 4808U * 70272);
    // output tokens do not count: the KV cache handed over is the prompt's
    EXPECT_EQ(GetKvBytes({0, 100, 0}, l8), GetKvBytes({0, 100, 99999}, l8));
    EXPECT_EQ(GetKvBytes({0, MAX_REQUEST_TOKENS, 0}, l70), 3276800000000ULL);
}

// ---------------------------------------------------------------------------------------------
// Azure timestamps

TEST(AzureTimestamp, KnownValues)
{
    EXPECT_EQ(ParseAzureTimestamp("t", "0001-01-01 00:00:00"), 0U);
    // the Unix epoch is 621355968000000000 ticks of 100 ns after 0001-01-01
    EXPECT_EQ(ParseAzureTimestamp("t", "1970-01-01 00:00:00.0000000"), 621355968000000000ULL);
    EXPECT_EQ(ParseAzureTimestamp("t", "1970-01-01 00:00:01.5"), 621355968015000000ULL);
    EXPECT_EQ(ParseAzureTimestamp("t", "1970-01-01 00:00:00.0000001+00:00"), 621355968000000001ULL);
    EXPECT_EQ(FormatAzureTimestamp(0), "0001-01-01 00:00:00.0000000");
    EXPECT_EQ(FormatAzureTimestamp(621355968000000000ULL), "1970-01-01 00:00:00.0000000");
    for (const char* t : {"2023-11-16 18:15:46.6805900",
                          "2000-02-29 23:59:59.9999999",
                          "1900-03-01 00:00:00.0000000",
                          "2024-12-31 12:34:56.0000001",
                          "9999-12-31 23:59:59.9999999"})
    {
        EXPECT_EQ(FormatAzureTimestamp(ParseAzureTimestamp("t", t)), t);
    }
    ExpectErrorContaining(
        [] { FormatAzureTimestamp(ParseAzureTimestamp("t", "9999-12-31 23:59:59.9999999") + 1); },
        "before 10000-01-01");
}

TEST(AzureTimestamp, BadText)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"2023-11-16T18:15:46.6805900", "is not a time of the form"},
        {"2023-11-16 18:15:46.", "is not a time of the form"},
        {"2023-11-16 18:15:46.68059001", "more than 7 fractional digits"},
        {"2023-11-16 18:15", "is not a time of the form"},
        {"2023-13-16 18:15:46", "month 13"},
        {"2023-00-16 18:15:46", "month 0"},
        {"2023-02-29 00:00:00", "day 29, which 2023-02 does not have"},
        {"1900-02-29 00:00:00", "day 29, which 1900-02 does not have"},
        {"2023-04-31 00:00:00", "day 31"},
        {"2023-04-00 00:00:00", "day 0"},
        {"0000-01-01 00:00:00", "year 0000"},
        {"2023-11-16 24:00:00", "time of day"},
        {"2023-11-16 23:60:00", "time of day"},
        {"2023-11-16 23:59:60", "time of day"},
        {"2023-11-16 18:15:46+01:00", "UTC offset other than +00:00"},
        {"2023-11-16 18:15:46Z", "is not a time of the form"},
        {"-023-11-16 18:15:46", "is not a time of the form"},
    };
    for (const auto& [text, fragment] : cases)
    {
        std::string m = ErrorOf([&text] { ParseAzureTimestamp("--start", text); });
        EXPECT_CONTAINS(m, "--start");
        EXPECT_CONTAINS(m, fragment);
    }
    EXPECT_NO_THROW(ParseAzureTimestamp("t", "2024-02-29 00:00:00"));
    EXPECT_NO_THROW(ParseAzureTimestamp("t", "2000-02-29 00:00:00"));
}

// ---------------------------------------------------------------------------------------------
// Azure reader

TEST(AzureTrace, ReadsArrivalsRelativeToTheFirstRow)
{
    std::vector<LlmRequest> r = Azure(HEADER + "2023-11-16 18:15:46.6805900,4808,10\n"
                                               "2023-11-16 18:15:50.9951690,3180,8\n"
                                               "2023-11-16 18:15:50.9951690,1,0\n"
                                               "2023-11-17 00:00:00.5,2,3\n");
    ASSERT_EQ(r.size(), 4U);
    EXPECT_EQ(r[0], (LlmRequest{0, 4808, 10}));
    EXPECT_EQ(r[1], (LlmRequest{4314579000ULL, 3180, 8})); // 4.3145790 s later
    EXPECT_EQ(r[2], (LlmRequest{4314579000ULL, 1, 0}));    // equal times are fine
    // to midnight: 5 h 44 min 13.3194100 s, then 0.5 s more
    EXPECT_EQ(r[3].arrivalNs, (5 * 3600 + 44 * 60 + 13) * SECOND + 319410000 + 500000000);
}

TEST(AzureTrace, CalendarBoundaries)
{
    std::vector<LlmRequest> r = Azure(HEADER + "2023-12-31 23:59:59.9999999,1,1\n"
                                               "2024-01-01 00:00:00.0000000,1,1\n"
                                               "2024-02-28 12:00:00,1,1\n"
                                               "2024-03-01 12:00:00+00:00,1,1\n");
    EXPECT_EQ(r[1].arrivalNs, 100U);
    EXPECT_EQ(r[3].arrivalNs - r[2].arrivalNs, 2 * 86400 * SECOND); // 2024 is a leap year
}

TEST(AzureTrace, CsvRules)
{
    // comments and blank lines count as lines, CRLF and blanks around fields are accepted
    std::vector<LlmRequest> r = Azure(
        "# Azure sample\r\n\r\n" + std::string(" TIMESTAMP , ContextTokens,GeneratedTokens\r\n") +
        "2023-11-16 18:15:46.6805900 , 12 ,\t3\r\n# done\r\n");
    ASSERT_EQ(r.size(), 1U);
    EXPECT_EQ(r[0], (LlmRequest{0, 12, 3}));
    ExpectAzureError("# c\n\n" + HEADER + "2023-11-16 18:15:46,x,1\n", 4, {"ContextTokens"});
}

TEST(AzureTrace, BadFiles)
{
    const std::string row = "2023-11-16 18:15:46.6805900,4808,10\n";
    ExpectAzureError("", 1, {"at end of file", "no header line"});
    ExpectAzureError(HEADER, 1, {"at end of file", "no requests after the header"});
    ExpectAzureError("\n# only a comment\n", 2, {"no header line"});
    ExpectAzureError("timestamp,ContextTokens,GeneratedTokens\n" + row,
                     1,
                     {"expected the header \"TIMESTAMP,ContextTokens,GeneratedTokens\""});
    ExpectAzureError("TIMESTAMP,ContextTokens\n" + row, 1, {"expected the header"});
    ExpectAzureError(HEADER + row + "2023-11-16 18:15:47,4808\n",
                     3,
                     {"expected 3 fields", "found 2"});
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,1,2,3\n", 2, {"expected 3 fields", "found 4"});
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,,2\n", 2, {"empty ContextTokens field"});
    // non-numeric, negative, zero and huge token counts
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,48x8,2\n",
                     2,
                     {"ContextTokens \"48x8\"", "not a token count"});
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,1.5,2\n", 2, {"not a token count"});
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,+5,2\n", 2, {"not a token count"});
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,12,-3\n",
                     2,
                     {"GeneratedTokens \"-3\" is negative"});
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,0,3\n", 2, {"ContextTokens \"0\" is below 1"});
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,10000001,3\n",
                     2,
                     {"above the cap of 10000000 tokens"});
    ExpectAzureError(HEADER + "2023-11-16 18:15:47,1,99999999999999999999999\n",
                     2,
                     {"GeneratedTokens", "above the cap"});
    EXPECT_EQ(Azure(HEADER + "2023-11-16 18:15:47,10000000,10000000\n")[0].inputTokens,
              MAX_REQUEST_TOKENS);
    // timestamps: malformed, unsorted, too far apart
    ExpectAzureError(HEADER + row + "2023-11-16 18:15:47.0,1,2\n2023-02-30 00:00:00,1,1\n",
                     4,
                     {"TIMESTAMP \"2023-02-30 00:00:00\"", "day 30"});
    ExpectAzureError(HEADER + row + "2023-11-16 18:15:47,1,2\n\n2023-11-16 18:15:46.9,1,2\n",
                     5,
                     {"earlier than the previous request's",
                      "2023-11-16 18:15:47.0000000 at line 3",
                      "sorted by time"});
    ExpectAzureError(HEADER + row + "2100-01-01 00:00:00,1,2\n", 3, {"more than the cap of"});
    ExpectAzureError(HEADER + "1700000000,1,2\n", 2, {"is not a time of the form"});
}

TEST(AzureTrace, ReadsFiles)
{
    const std::string path = testing::TempDir() + "mose-llm-azure.csv";
    {
        std::ofstream f(path);
        f << HEADER << "2023-11-16 18:15:46.6805900,4808,10\n";
    }
    EXPECT_EQ(ReadAzureTraceCsv(path).size(), 1U);
    std::remove(path.c_str());
    ExpectErrorContaining([&path] { ReadAzureTraceCsv(path); }, "cannot open " + path);
}

// ---------------------------------------------------------------------------------------------
// Mooncake reader

TEST(MooncakeTrace, ReadsRequests)
{
    std::vector<LlmRequest> r = Mooncake(
        "{\"timestamp\": 0, \"input_length\": 6955, \"output_length\": 52, \"hash_ids\": [46, 47, "
        "48]}\n"
        "\n"
        "{\"output_length\":20,\"input_length\":1024,\"timestamp\":3052}\r\n"
        "  { \"timestamp\" : 3052.5 , \"input_length\" : 1 , \"output_length\" : 0 }  \n"
        "{\"timestamp\": 4000.000001, \"input_length\": 7, \"output_length\": 8, \"hash_ids\": [], "
        "\"note\": \"a \\\"quoted\\\" \\u00e9 \\\\ string\", \"meta\": {\"a\": [1, -2.5e3, true, "
        "false, null, {\"b\": {}}]}}\n");
    ASSERT_EQ(r.size(), 4U);
    EXPECT_EQ(r[0], (LlmRequest{0, 6955, 52}));
    EXPECT_EQ(r[1], (LlmRequest{3052000000ULL, 1024, 20}));
    EXPECT_EQ(r[2], (LlmRequest{3052500000ULL, 1, 0}));
    EXPECT_EQ(r[3], (LlmRequest{4000000001ULL, 7, 8}));
    // arrivals are as given, not relative to the first line
    EXPECT_EQ(
        Mooncake("{\"timestamp\": 250, \"input_length\": 1, \"output_length\": 1}\n")[0].arrivalNs,
        250000000U);
}

TEST(MooncakeTrace, BadValues)
{
    const std::string ok = "{\"timestamp\": 10, \"input_length\": 100, \"output_length\": 10}\n";
    auto line = [](const std::string& ts, const std::string& in, const std::string& out) {
        return "{\"timestamp\": " + ts + ", \"input_length\": " + in +
               ", \"output_length\": " + out + "}\n";
    };
    ExpectMooncakeError(ok + line("-1", "1", "1"), 2, {"column 15", "timestamp -1 is negative"});
    ExpectMooncakeError(ok + line("9", "1", "1"),
                        2,
                        {"earlier than the previous request's, 10 at line 1", "sorted"});
    ExpectMooncakeError(line("1e3", "1", "1"), 1, {"exponent notation"});
    ExpectMooncakeError(line("1.0000001", "1", "1"), 1, {"more than 6 fractional digits"});
    ExpectMooncakeError(line("1000000000001", "1", "1"), 1, {"above the cap of 1000000000000 ms"});
    EXPECT_EQ(Mooncake(line("1000000000000", "1", "1"))[0].arrivalNs, MAX_ARRIVAL_NS);
    ExpectMooncakeError(line("1", "\"12\"", "1"),
                        1,
                        {"\"input_length\" must be a number", "found '\"'"});
    ExpectMooncakeError(line("1", "1.5", "1"), 1, {"input_length 1.5 is not a token count"});
    ExpectMooncakeError(line("1", "2", "1e2"), 1, {"output_length 1e2 is not a token count"});
    ExpectMooncakeError(line("1", "-2", "1"), 1, {"input_length \"-2\" is negative"});
    ExpectMooncakeError(line("1", "0", "1"), 1, {"input_length \"0\" is below 1"});
    ExpectMooncakeError(line("1", "10000001", "1"), 1, {"above the cap of 10000000 tokens"});
    ExpectMooncakeError(line("1", "1", "123456789012345678901234567890"),
                        1,
                        {"output_length", "above the cap"});
    ExpectMooncakeError(line("1", "1", "true"), 1, {"\"output_length\" must be a number"});
    ExpectMooncakeError("{\"timestamp\": 1, \"input_length\": 5}\n",
                        1,
                        {"missing key \"output_length\""});
    ExpectMooncakeError("{}\n", 1, {"missing key \"timestamp\""});
    ExpectMooncakeError(
        "{\"timestamp\": 1, \"timestamp\": 2, \"input_length\": 5, \"output_length\": 1}\n",
        1,
        {"column 18", "the key \"timestamp\" appears twice"});
    ExpectMooncakeError(
        "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"x\": 1, \"x\": 2}\n",
        1,
        {"\"x\" appears twice"});
}

TEST(MooncakeTrace, MalformedJson)
{
    const std::string good = "\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{" + good, "expected ',' or '}' after the value of \"output_length\", found end of line"},
        {good + "}", "expected a JSON object starting with '{'"},
        {"[{" + good + "}]", "expected a JSON object starting with '{'"},
        {"{" + good + ",}", "expected a key"},
        {"{" + good + "} {}", "unexpected text after the object"},
        {"{" + good + "}x", "unexpected text after the object"},
        {"{'timestamp': 1}", "expected a key"},
        {"{\"timestamp\" 1}", "expected ':' after the key \"timestamp\""},
        {"{\"timestamp\": 1 \"input_length\": 5}", "expected ',' or '}'"},
        {"{\"timestamp\": 012, \"input_length\": 5, \"output_length\": 1}", "leading zeros"},
        {"{\"timestamp\": 1., \"input_length\": 5, \"output_length\": 1}",
         "digits must follow the decimal point"},
        {"{\"timestamp\": -, \"input_length\": 5, \"output_length\": 1}", "malformed number"},
        {"{\"timestamp\": 12abc, \"input_length\": 5, \"output_length\": 1}", "found 'a'"},
        {"{" + good + ", \"hash_ids\": [1, 2}", "expected ',' or ']'"},
        {"{" + good + ", \"hash_ids\": [1, 2,]}", "expected a JSON value, found ']'"},
        {"{" + good + ", \"s\": \"open}", "unterminated string"},
        {"{" + good + ", \"s\": \"a\\qb\"}", "invalid escape \\q"},
        {"{" + good + ", \"s\": \"\\u12g4\"}", "\\u must be followed by 4 hexadecimal digits"},
        {"{" + good + ", \"s\": \"tab\there\"}", "control character"},
        {"{" + good + ", \"s\": tru}", "expected a JSON value"},
        {"{" + good + ", \"s\": nul}", "expected a JSON value"},
        {"{" + good + ", \"s\": {\"a\" 1}}", "expected ':' after a key"},
        {"{" + good + ", \"s\": +1}", "expected a JSON value, found '+'"},
        {"# comment", "expected a JSON object"},
    };
    for (const auto& [text, fragment] : cases)
    {
        ExpectMooncakeError("\n" + text + "\n", 2, {"column ", fragment});
    }
    // nesting is bounded
    std::string deep = "{" + good + ", \"d\": " + std::string(64, '[') + std::string(64, ']') + "}";
    EXPECT_EQ(Mooncake(deep).size(), 1U);
    deep = "{" + good + ", \"d\": " + std::string(65, '[') + std::string(65, ']') + "}";
    ExpectMooncakeError(deep, 1, {"nest deeper than 64"});
}

TEST(MooncakeTrace, EmptyFiles)
{
    ExpectMooncakeError("", 1, {"at end of file", "no requests"});
    ExpectMooncakeError("\n  \n\t\n", 3, {"at end of file", "no requests"});
    ExpectErrorContaining([] { ReadMooncakeTraceJsonl("/nonexistent/mose-trace.jsonl"); },
                          "cannot open /nonexistent/mose-trace.jsonl");
}

// ---------------------------------------------------------------------------------------------
// Writers

TEST(TraceWriters, ByHand)
{
    const std::vector<LlmRequest> r = {{0, 4808, 10},
                                       {4314579000ULL, 3180, 8},
                                       {86400 * SECOND, 1, 0}};
    EXPECT_EQ(AzureText(r, "2023-11-16 18:15:46.6805900"),
              HEADER + "2023-11-16 18:15:46.6805900,4808,10\n"
                       "2023-11-16 18:15:50.9951690,3180,8\n"
                       "2023-11-17 18:15:46.6805900,1,0\n");
    EXPECT_EQ(AzureText({{0, 1, 1}}), HEADER + "2024-01-01 00:00:00.0000000,1,1\n");
    const std::vector<LlmRequest> m = {{0, 6955, 52}, {1500000, 2, 3}, {1, 4, 5}};
    EXPECT_EQ(MooncakeText({m[0], m[1]}),
              "{\"timestamp\": 0, \"input_length\": 6955, \"output_length\": 52}\n"
              "{\"timestamp\": 1.5, \"input_length\": 2, \"output_length\": 3}\n");
    EXPECT_EQ(MooncakeText({{1, 4, 5}, {3052000123ULL, 1, 1}}),
              "{\"timestamp\": 0.000001, \"input_length\": 4, \"output_length\": 5}\n"
              "{\"timestamp\": 3052.000123, \"input_length\": 1, \"output_length\": 1}\n");
}

TEST(TraceWriters, RoundTrips)
{
    LlmRequestGeneratorOptions o;
    o.requests = 300;
    Random rng = Random::Create(3, Stream::LLM_REQUESTS);
    std::vector<LlmRequest> r = GenerateLlmRequests(o, rng);
    EXPECT_EQ(Azure(AzureText(r)), r);
    EXPECT_EQ(Azure(AzureText(r, "1999-12-31 23:59:59.9999999")), r);
    EXPECT_EQ(Mooncake(MooncakeText(r)), r);
    // any nanosecond survives the Mooncake form, and an arrival other than 0 first
    std::vector<LlmRequest> odd = {{7, 1, 0},
                                   {123456789, 2, 3},
                                   {MAX_ARRIVAL_NS, MAX_REQUEST_TOKENS, MAX_REQUEST_TOKENS}};
    EXPECT_EQ(Mooncake(MooncakeText(odd)), odd);
    // the Azure form shifts arrivals to the first request
    std::vector<LlmRequest> shifted = {{500, 1, 1}, {1500, 1, 1}};
    std::vector<LlmRequest> back = Azure(AzureText(shifted));
    EXPECT_EQ(back[0].arrivalNs, 0U);
    EXPECT_EQ(back[1].arrivalNs, 1000U);
    // files
    const std::string path = testing::TempDir() + "mose-llm-roundtrip.jsonl";
    WriteMooncakeTraceJsonl(r, path);
    EXPECT_EQ(ReadMooncakeTraceJsonl(path), r);
    WriteAzureTraceCsv(r, path);
    EXPECT_EQ(ReadAzureTraceCsv(path), r);
    std::remove(path.c_str());
}

TEST(TraceWriters, BadInput)
{
    ExpectErrorContaining([] { AzureText({{150, 1, 1}}); }, "requests[0].arrivalNs = 150");
    ExpectErrorContaining(
        [] {
            AzureText({{0, 1, 1}}, "yesterday");
        },
        "invalid start = \"yesterday\"");
    ExpectErrorContaining(
        [] {
            AzureText({{0, 1, 1}, {MAX_ARRIVAL_NS, 1, 1}}, "9990-01-01 00:00:00");
        },
        "before the year 10000");
    ExpectErrorContaining(
        [] {
            MooncakeText({{10, 1, 1}, {9, 1, 1}});
        },
        "requests[1].arrivalNs = 9");
    ExpectErrorContaining([] { MooncakeText({{0, 0, 1}}); }, "requests[0].inputTokens = 0");
    ExpectErrorContaining(
        [] {
            MooncakeText({{0, 1, MAX_REQUEST_TOKENS + 1}});
        },
        "requests[0].outputTokens = 10000001");
    ExpectErrorContaining([] { MooncakeText({{MAX_ARRIVAL_NS + 1, 1, 1}}); }, "arrivalNs");
    ExpectErrorContaining(
        [] {
            WriteMooncakeTraceJsonl({{0, 1, 1}}, "/nonexistent/dir/x.jsonl");
        },
        "cannot write /nonexistent/dir/x.jsonl");
}

// ---------------------------------------------------------------------------------------------
// Generator

TEST(GenerateLlmRequests, SameRunSameRequestsOtherRunOthers)
{
    LlmRequestGeneratorOptions o;
    o.requests = 500;
    Random a = Random::Create(1, Stream::LLM_REQUESTS);
    Random b = Random::Create(1, Stream::LLM_REQUESTS);
    Random c = Random::Create(2, Stream::LLM_REQUESTS);
    const std::vector<LlmRequest> ra = GenerateLlmRequests(o, a);
    const std::vector<LlmRequest> rb = GenerateLlmRequests(o, b);
    const std::vector<LlmRequest> rc = GenerateLlmRequests(o, c);
    EXPECT_EQ(ra, rb);
    ASSERT_EQ(rc.size(), ra.size());
    std::size_t same = 0;
    for (std::size_t i = 0; i < ra.size(); ++i)
    {
        same += ra[i].inputTokens == rc[i].inputTokens ? 1 : 0;
    }
    EXPECT_LT(same, 50U);
    EXPECT_NE(ra, rc);
    // the stream is the generator's own: another stream number gives other requests
    Random d = Random::Create(1, Stream::TRAFFIC);
    EXPECT_NE(GenerateLlmRequests(o, d), ra);
}

TEST(GenerateLlmRequests, Shape)
{
    LlmRequestGeneratorOptions o;
    o.requests = 20000;
    o.rate = 100.0;
    o.input = {1000.0, 0.5, 1, MAX_REQUEST_TOKENS};
    o.output = {50.0, 1.5, 10, 200};
    o.tickNs = 1000;
    Random rng = Random::Create(5, Stream::LLM_REQUESTS);
    const std::vector<LlmRequest> r = GenerateLlmRequests(o, rng);
    ASSERT_EQ(r.size(), 20000U);
    EXPECT_EQ(r[0].arrivalNs, 0U);
    double inputSum = 0;
    bool hitMin = false;
    bool hitMax = false;
    for (std::size_t i = 0; i < r.size(); ++i)
    {
        EXPECT_EQ(r[i].arrivalNs % 1000, 0U);
        if (i > 0)
        {
            EXPECT_GE(r[i].arrivalNs, r[i - 1].arrivalNs);
        }
        EXPECT_GE(r[i].outputTokens, 10U);
        EXPECT_LE(r[i].outputTokens, 200U);
        hitMin = hitMin || r[i].outputTokens == 10;
        hitMax = hitMax || r[i].outputTokens == 200;
        inputSum += static_cast<double>(r[i].inputTokens);
    }
    EXPECT_TRUE(hitMin);
    EXPECT_TRUE(hitMax);
    // mean gap 1/rate = 10 ms and mean prompt 1000 (sigma 0.5: standard error about 0.4%)
    const double meanGap = static_cast<double>(r.back().arrivalNs) / (r.size() - 1) * 1e-9;
    EXPECT_NEAR(meanGap, 0.01, 0.01 * 0.03);
    EXPECT_NEAR(inputSum / r.size(), 1000.0, 30.0);
    ValidateLlmRequests(r, "generated");
}

TEST(GenerateLlmRequests, DegenerateDistributions)
{
    LlmRequestGeneratorOptions o;
    o.requests = 10;
    o.input = {100.4, 0.0, 1, 1000};
    o.output = {100.6, 0.0, 1, 1000};
    Random rng = Random::Create(1, Stream::LLM_REQUESTS);
    for (const LlmRequest& r : GenerateLlmRequests(o, rng))
    {
        EXPECT_EQ(r.inputTokens, 100U);
        EXPECT_EQ(r.outputTokens, 101U);
    }
    o.input = {5000.0, 2.0, 7, 7};
    for (const LlmRequest& r : GenerateLlmRequests(o, rng))
    {
        EXPECT_EQ(r.inputTokens, 7U);
    }
    o.requests = 1;
    std::vector<LlmRequest> one = GenerateLlmRequests(o, rng);
    ASSERT_EQ(one.size(), 1U);
    EXPECT_EQ(one[0].arrivalNs, 0U);
}

TEST(GenerateLlmRequests, BadOptions)
{
    Random rng = Random::Create(1, Stream::LLM_REQUESTS);
    auto expect = [&rng](const std::function<void(LlmRequestGeneratorOptions&)>& change,
                         const std::string& fragment) {
        LlmRequestGeneratorOptions o;
        o.requests = 10;
        change(o);
        ExpectErrorContaining([&] { GenerateLlmRequests(o, rng); }, fragment);
    };
    expect([](auto& o) { o.requests = 0; }, "requests = 0");
    expect([](auto& o) { o.rate = 0; }, "rate = 0");
    expect([](auto& o) { o.rate = -2; }, "rate = -2");
    expect([](auto& o) { o.rate = std::numeric_limits<double>::infinity(); }, "rate = inf");
    expect([](auto& o) { o.rate = std::nan(""); }, "rate = nan");
    expect([](auto& o) { o.input.mean = 0; }, "input.mean = 0");
    expect([](auto& o) { o.output.sigma = -1; }, "output.sigma = -1");
    expect([](auto& o) { o.output.sigma = 11; }, "0 <= sigma <= 10");
    expect([](auto& o) { o.input.min = 0; }, "input.min = 0");
    expect([](auto& o) { o.input.max = 0; }, "input.max = 0");
    expect([](auto& o) { o.output.max = MAX_REQUEST_TOKENS + 1; }, "output.max = 10000001");
    expect([](auto& o) { o.tickNs = 0; }, "tickNs = 0");
    expect([](auto& o) { o.rate = 1e-12; }, "invalid requests = 10");
}

// ---------------------------------------------------------------------------------------------
// The sample traces shipped in examples/traces

namespace
{

/// examples/traces/azure-sample.csv: 150 requests of a prompt-heavy service at 4 per second
std::vector<LlmRequest>
AzureSample()
{
    LlmRequestGeneratorOptions o;
    o.requests = 150;
    o.rate = 4.0;
    o.input = {2048.0, 1.0, 16, 16384};
    o.output = {32.0, 1.0, 1, 1024};
    o.tickNs = 100;
    Random rng = Random::Create(1, Stream::LLM_REQUESTS);
    return GenerateLlmRequests(o, rng);
}

/// examples/traces/mooncake-sample.jsonl: 150 long-context requests at 1 per second
std::vector<LlmRequest>
MooncakeSample()
{
    LlmRequestGeneratorOptions o;
    o.requests = 150;
    o.rate = 1.0;
    o.input = {8192.0, 1.0, 128, 131072};
    o.output = {256.0, 0.8, 1, 4096};
    o.tickNs = 1000000; // whole milliseconds, as the Mooncake traces have
    Random rng = Random::Create(2, Stream::LLM_REQUESTS);
    return GenerateLlmRequests(o, rng);
}

} // namespace

TEST(SampleTraces, ShippedFilesAreTheGeneratorsOutput)
{
    const std::filesystem::path azure = TracesDir() / "azure-sample.csv";
    const std::filesystem::path mooncake = TracesDir() / "mooncake-sample.jsonl";
    // MOSE_WRITE_SAMPLE_TRACES=1 rewrites them (after a deliberate change of the generator)
    if (std::getenv("MOSE_WRITE_SAMPLE_TRACES") != nullptr)
    {
        WriteAzureTraceCsv(AzureSample(), azure.string());
        WriteMooncakeTraceJsonl(MooncakeSample(), mooncake.string());
    }
    ASSERT_TRUE(std::filesystem::exists(azure)) << azure;
    ASSERT_TRUE(std::filesystem::exists(mooncake)) << mooncake;
    EXPECT_EQ(ReadFileBytes(azure), AzureText(AzureSample()))
        << azure << " differs from the generator's output";
    EXPECT_EQ(ReadFileBytes(mooncake), MooncakeText(MooncakeSample()))
        << mooncake << " differs from the generator's output";
    // and the readers read them back
    EXPECT_EQ(ReadAzureTraceCsv(azure.string()), AzureSample());
    EXPECT_EQ(ReadMooncakeTraceJsonl(mooncake.string()), MooncakeSample());
    EXPECT_EQ(AzureSample().size(), 150U);
}
