/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace-burstgpt.h"

#include "mose-llm-trace-records.h"

#include "ns3/mose-parse.h"

#include <algorithm>
#include <istream>
#include <ostream>

namespace ns3
{
namespace mose
{

const std::vector<std::string> BURSTGPT_MODELS = {"ChatGPT", "GPT-4"};
const std::vector<std::string> BURSTGPT_LOG_TYPES = {"Conversation log", "API log"};

namespace detail
{

const std::vector<std::string> BURSTGPT_COLUMNS =
    {"Timestamp", "Model", "Request tokens", "Response tokens", "Total tokens", "Log Type"};

LlmTrace
ReadBurstGpt(std::istream& in, const std::string& name, const LlmTraceReadOptions& options)
{
    CsvRecords csv(in, name, BURSTGPT_COLUMNS);
    csv.ReadHeader();
    LlmTrace trace;
    OrderCheck order;
    auto checkValue = [&csv](std::size_t i, const std::vector<std::string>& allowed) {
        if (std::find(allowed.begin(), allowed.end(), csv[i]) == allowed.end())
        {
            csv.Fail(csv.Column(i) + " " + QuoteFileText(csv[i]) + " is not one of " +
                     Join(allowed, ", "));
        }
    };
    while (csv.Next())
    {
        ++trace.records;
        LlmRequest r;
        r.traceLine = csv.GetSource().GetLine();
        r.arrivalNs = csv.Seconds(0);
        order.Check(csv.GetSource(), csv.Column(0), csv[0], r.arrivalNs, "s");
        checkValue(1, BURSTGPT_MODELS);
        r.inputTokens = csv.Tokens(2, 1);
        r.outputTokens = csv.Tokens(3, 0);
        const uint64_t total = csv.Count(4);
        if (total != r.inputTokens + r.outputTokens)
        {
            csv.Fail("Total tokens " + QuoteFileText(csv[4]) +
                     " is not Request tokens + Response tokens = " +
                     std::to_string(r.inputTokens + r.outputTokens));
        }
        checkValue(5, BURSTGPT_LOG_TYPES);
        if ((!options.model.empty() && csv[1] != options.model) ||
            (!options.logType.empty() && csv[5] != options.logType))
        {
            ++trace.filtered;
            continue;
        }
        if (r.outputTokens == 0 && !options.keepFailed)
        {
            ++trace.failed;
            continue;
        }
        trace.requests.push_back(r);
    }
    RequireKept(csv.GetSource(),
                trace,
                std::to_string(trace.filtered) + " left out by the Model and Log Type filters, " +
                    std::to_string(trace.failed) +
                    " failed (Response tokens 0; mose-llm --traceFailed=keep keeps them)");
    return trace;
}

void
PutBurstGpt(const std::vector<LlmRequest>& requests, std::ostream& out)
{
    out << Join(BURSTGPT_COLUMNS, ",") << '\n';
    for (const LlmRequest& r : requests)
    {
        out << FormatSeconds(r.arrivalNs) << ',' << BURSTGPT_MODELS[0] << ',' << r.inputTokens
            << ',' << r.outputTokens << ',' << r.inputTokens + r.outputTokens << ','
            << BURSTGPT_LOG_TYPES[0] << '\n';
    }
}

} // namespace detail
} // namespace mose
} // namespace ns3
