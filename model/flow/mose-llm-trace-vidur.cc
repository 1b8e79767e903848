/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace-vidur.h"

#include "mose-llm-trace-records.h"

#include "ns3/mose-parse.h"

#include <istream>
#include <ostream>

namespace ns3
{
namespace mose
{
namespace detail
{

const std::vector<std::string> VIDUR_COLUMNS = {"arrived_at",
                                                "num_prefill_tokens",
                                                "num_decode_tokens"};
const std::vector<std::string> VIDUR_REPLAY_COLUMNS = {"Date",
                                                       "Time",
                                                       "PromptTokenCount",
                                                       "CompletionTokenCount"};

LlmTrace
ReadVidur(std::istream& in, const std::string& name)
{
    CsvRecords csv(in, name, VIDUR_COLUMNS);
    csv.ReadHeader();
    LlmTrace trace;
    OrderCheck order;
    while (csv.Next())
    {
        ++trace.records;
        LlmRequest r;
        r.arrivalNs = csv.Seconds(0);
        order.Check(csv.GetSource(), csv.Column(0), csv[0], r.arrivalNs, "s");
        r.inputTokens = csv.Tokens(1, 1);
        r.outputTokens = csv.Tokens(2, 0);
        r.traceLine = csv.GetSource().GetLine();
        trace.requests.push_back(r);
    }
    RequireKept(csv.GetSource(), trace, "");
    return trace;
}

LlmTrace
ReadVidurReplay(std::istream& in, const std::string& name, const std::string& date)
{
    CsvRecords csv(in, name, VIDUR_REPLAY_COLUMNS);
    csv.ReadHeader();
    LlmTrace trace;
    OrderCheck order;
    std::string firstDate;
    uint64_t firstLine = 0;
    while (csv.Next())
    {
        ++trace.records;
        LlmRequest r;
        r.arrivalNs = csv.Seconds(1);
        r.inputTokens = csv.Tokens(2, 1);
        r.outputTokens = csv.Tokens(3, 0);
        r.traceLine = csv.GetSource().GetLine();
        if (date.empty())
        {
            if (trace.records == 1)
            {
                firstDate = std::string(csv[0]);
                firstLine = r.traceLine;
            }
            else if (csv[0] != firstDate)
            {
                csv.Fail("Date " + QuoteFileText(csv[0]) + " differs from the first row's, " +
                         QuoteFileText(firstDate) + " at line " + std::to_string(firstLine) +
                         ": the file holds several dates, and Vidur replays one; choose it "
                         "(mose-llm --traceDate)");
            }
        }
        else if (csv[0] != date)
        {
            ++trace.filtered;
            continue;
        }
        order.Check(csv.GetSource(), csv.Column(1), csv[1], r.arrivalNs, "s");
        trace.requests.push_back(r);
    }
    RequireKept(csv.GetSource(), trace, "no row has Date " + QuoteFileText(date));
    return trace;
}

void
PutVidur(const std::vector<LlmRequest>& requests, std::ostream& out)
{
    out << Join(VIDUR_COLUMNS, ",") << '\n';
    for (const LlmRequest& r : requests)
    {
        out << FormatSeconds(r.arrivalNs) << ',' << r.inputTokens << ',' << r.outputTokens << '\n';
    }
}

void
PutVidurReplay(const std::vector<LlmRequest>& requests, std::ostream& out)
{
    out << Join(VIDUR_REPLAY_COLUMNS, ",") << '\n';
    for (const LlmRequest& r : requests)
    {
        out << DEFAULT_VIDUR_DATE << ',' << FormatSeconds(r.arrivalNs) << ',' << r.inputTokens
            << ',' << r.outputTokens << '\n';
    }
}

} // namespace detail
} // namespace mose
} // namespace ns3
