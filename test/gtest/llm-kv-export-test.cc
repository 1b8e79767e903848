/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-comparison.h"
#include "mose-llm-experiment.h"
#include "mose-llm-run-report.h"
#include "mose-llm-test-util.h"
#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/mose-llm-trace.h"
#include "ns3/mose-parse.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h> // getpid: a folder of its own per test process
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A SplitwiseSim trace: 12 LLM requests (ids s0..s11, over 44 ms), one request of another type
std::string
SplitwiseTrace()
{
    std::ostringstream os;
    os << "request_id,request_type,application_id,arrival_timestamp,batch_size,prompt_size,"
          "token_size\n";
    for (int i = 0; i < 12; ++i)
    {
        char arrival[16];
        std::snprintf(arrival, sizeof(arrival), "0.%03d", 4 * i); // 4 i ms
        os << "s" << i << ",2,0," << arrival << ",1," << 100 + 37 * i << "," << 1 + i << "\n";
        if (i == 5)
        {
            os << "other,1,0,0.02,1,500,5\n"; // line 8: not an LLM request
        }
    }
    return os.str();
}

/// SmallLlmConfig(16) with these requests
ExperimentConfig
Small(const std::vector<LlmRequest>& requests)
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.llm.requests = requests;
    return c;
}

/// One CSV export: the rows as column -> text, keyed by request_id
std::map<std::string, std::map<std::string, std::string>>
ParseExport(const std::string& text, std::size_t& rows)
{
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, GetLlmKvExportHeader());
    std::vector<std::string> columns;
    for (std::string_view c : SplitAtCommas(line))
    {
        columns.emplace_back(c);
    }
    std::map<std::string, std::map<std::string, std::string>> byId;
    rows = 0;
    while (std::getline(in, line))
    {
        ++rows;
        const std::vector<std::string_view> fields = SplitAtCommas(line);
        EXPECT_EQ(fields.size(), columns.size()) << line;
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < fields.size() && i < columns.size(); ++i)
        {
            row[columns[i]] = std::string(fields[i]);
        }
        EXPECT_TRUE(byId.emplace(row["request_id"], row).second)
            << "request_id " << row["request_id"] << " twice";
    }
    return byId;
}

} // namespace

TEST(LlmKvExport, SplitwiseIdsJoinBackOneRowPerServedRequest)
{
    std::istringstream trace(SplitwiseTrace());
    const LlmTrace t = ReadLlmTrace(trace, "splitwise.csv");
    ASSERT_EQ(t.requests.size(), 12U);
    EXPECT_EQ(t.filtered, 1U);
    const LlmRun e = RunLlm(Small(t.requests));
    EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).inference.served, 12U);
    std::ostringstream csv;
    WriteLlmKvExport(csv, true, false, *e.experiment, *e.result);
    std::size_t rows = 0;
    auto byId = ParseExport(csv.str(), rows);
    EXPECT_EQ(rows, 12U); // one row per served request
    // the join: every trace id once, with the trace's own values, KV bytes exact
    for (std::size_t i = 0; i < t.requests.size(); ++i)
    {
        const LlmRequest& q = t.requests[i];
        const std::string id = "s" + std::to_string(i);
        ASSERT_EQ(q.traceId, id);
        ASSERT_EQ(byId.count(id), 1U) << id;
        auto& row = byId[id];
        EXPECT_EQ(row["policy"], "MoSE");
        EXPECT_EQ(row["line"], std::to_string(i < 6 ? i + 2 : i + 3)); // line 8 is the other type
        EXPECT_EQ(row["index"], std::to_string(i));
        EXPECT_EQ(row["input_tokens"], std::to_string(100 + 37 * i));
        EXPECT_EQ(row["output_tokens"], std::to_string(1 + i));
        EXPECT_EQ(row["kv_bytes"], std::to_string((100 + 37 * i) * 1024));
        EXPECT_EQ(row["wire_bytes"], row["kv_bytes"]); // scale 1
        EXPECT_EQ(row["arrival_ns"], std::to_string(4000000 * i));
        const int64_t kvStart = std::stoll(row["kv_start_ns"]);
        const int64_t kvEnd = std::stoll(row["kv_end_ns"]);
        const int64_t arrival = std::stoll(row["arrival_ns"]);
        EXPECT_EQ(std::stoll(row["kv_ns"]), kvEnd - kvStart);
        EXPECT_EQ(std::stoll(row["ttft_ns"]), kvEnd - arrival);
        // prefill of 100 + 37 i tokens at 10^6 tokens/s
        EXPECT_EQ(std::stoll(row["prefill_ns"]), (100 + 37 * static_cast<int64_t>(i)) * 1000);
        EXPECT_EQ(arrival + std::stoll(row["queue_ns"]) + std::stoll(row["prefill_ns"]), kvStart);
        EXPECT_GT(kvEnd, kvStart);
        // direct means one circuit
        EXPECT_EQ(row["direct"] == "1", row["hops"] == "1") << id;
        EXPECT_GE(std::stoi(row["hops"]), 1);
        // the same as requests.csv's record
        const MoseRequestRecord& r = e.result->requests[i];
        EXPECT_EQ(row["prefill"], std::to_string(r.prefill));
        EXPECT_EQ(row["decode"], std::to_string(r.decode));
        EXPECT_EQ(row["mode"], "inference-heavy");
    }
    EXPECT_EQ(byId.count("other"), 0U);
    // the JSON lines carry the same rows, request_id a string
    std::ostringstream jsonl;
    WriteLlmKvExport(jsonl, true, true, *e.experiment, *e.result);
    std::istringstream in(jsonl.str());
    std::string line;
    std::size_t lines = 0;
    while (std::getline(in, line))
    {
        if (lines == 0)
        {
            auto& row = byId["s0"];
            EXPECT_EQ(line,
                      "{\"policy\": \"MoSE\", \"request_id\": \"s0\", \"line\": 2, \"index\": 0, "
                      "\"input_tokens\": 100, \"output_tokens\": 1, \"kv_bytes\": 102400, "
                      "\"wire_bytes\": 102400, \"mode\": \"inference-heavy\", \"prefill\": " +
                          row["prefill"] + ", \"decode\": " + row["decode"] + ", \"direct\": " +
                          (row["direct"] == "1" ? "true" : "false") + ", \"hops\": " + row["hops"] +
                          ", \"arrival_ns\": 0, \"queue_ns\": " + row["queue_ns"] +
                          ", \"prefill_ns\": 100000, \"kv_start_ns\": " + row["kv_start_ns"] +
                          ", \"kv_end_ns\": " + row["kv_end_ns"] + ", \"kv_ns\": " + row["kv_ns"] +
                          ", \"ttft_ns\": " + row["ttft_ns"] + "}");
        }
        ++lines;
    }
    EXPECT_EQ(lines, 12U);
}

TEST(LlmKvExport, VidurLinesAreTheIdsAndTheComparisonKeepsEveryPolicy)
{
    // Vidur has no request id: the export is keyed by the line (pandas' index + 2)
    const std::string text = "arrived_at,num_prefill_tokens,num_decode_tokens\n"
                             "0,300,3\n"
                             "# a comment line counts\n"
                             "0.005,400,4\n"
                             "0.01,500,5\n";
    std::istringstream trace(text);
    const LlmTrace t = ReadLlmTrace(trace, "vidur.csv");
    ASSERT_EQ(t.requests.size(), 3U);
    LlmComparison comparison(Small(t.requests), {Policy::MOSE, Policy::STATIC_COMPROMISE});
    comparison.KeepKvExport(false);
    std::ostringstream table;
    comparison.Run(table);
    const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                       ("mose-kv-export-test-" + std::to_string(getpid()) + ".csv");
    comparison.WriteKvExport(path.string());
    const std::vector<std::string> lines = ReadLines(path.string());
    std::filesystem::remove(path);
    ASSERT_EQ(lines.size(), 7U); // header + 3 requests x 2 policies
    const std::vector<std::string> ids = {"2", "4", "5"};
    const std::vector<uint64_t> kv = {300 * 1024, 400 * 1024, 500 * 1024};
    for (std::size_t k = 0; k < 6; ++k)
    {
        const std::vector<std::string_view> f = SplitAtCommas(lines[k + 1]);
        ASSERT_EQ(f.size(), 20U);
        EXPECT_EQ(f[0], k < 3 ? "MoSE" : "S-Comp");
        EXPECT_EQ(f[1], ids[k % 3]); // request_id = line
        EXPECT_EQ(f[2], ids[k % 3]);
        EXPECT_EQ(f[6], std::to_string(kv[k % 3]));
    }
    // without KeepKvExport() there is nothing to write
    LlmComparison other(Small(t.requests), {Policy::MOSE});
    EXPECT_CONTAINS(ErrorOf([&] { other.WriteKvExport(path.string()); }), "KeepKvExport");
}
