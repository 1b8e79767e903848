/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace-splitwise.h"

#include "mose-llm-trace-records.h"

#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <istream>
#include <ostream>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace ns3
{
namespace mose
{
namespace detail
{

const std::vector<std::string> SPLITWISE_COLUMNS = {"request_id",
                                                    "request_type",
                                                    "application_id",
                                                    "arrival_timestamp",
                                                    "batch_size",
                                                    "prompt_size",
                                                    "token_size"};

namespace
{

/// The longest SplitwiseSim request_id
constexpr std::size_t MAX_ID_LENGTH = 256;

/**
 * \brief The problem of a SplitwiseSim request id, or empty: 1 to MAX_ID_LENGTH characters,
 *        none a comma, `"`, space, tab or control character.
 */
std::string
FindIdProblem(std::string_view id)
{
    if (id.empty() || id.size() > MAX_ID_LENGTH)
    {
        return "is not 1 to " + std::to_string(MAX_ID_LENGTH) + " characters long";
    }
    for (char c : id)
    {
        const auto u = static_cast<unsigned char>(c);
        if (c == ',' || c == '"' || c == ' ' || u < 0x20 || u == 0x7f)
        {
            return "holds a comma, '\"', space or control character, which an id may not";
        }
    }
    return "";
}

} // namespace

LlmTrace
ReadSplitwise(std::istream& in, const std::string& name, uint64_t requestType)
{
    CsvRecords csv(in, name, SPLITWISE_COLUMNS);
    csv.ReadHeader();
    LlmTrace trace;
    OrderCheck order;
    std::unordered_map<std::string, uint64_t> ids;
    while (csv.Next())
    {
        ++trace.records;
        LlmRequest r;
        r.traceLine = csv.GetSource().GetLine();
        const std::string problem = FindIdProblem(csv[0]);
        if (!problem.empty())
        {
            csv.Fail("request_id " + QuoteFileText(csv[0]) + " " + problem);
        }
        r.traceId = std::string(csv[0]);
        auto [it, added] = ids.emplace(r.traceId, r.traceLine);
        if (!added)
        {
            csv.Fail("request_id " + QuoteFileText(csv[0]) + " appears twice: first at line " +
                     std::to_string(it->second) + " (the export is keyed by it)");
        }
        const uint64_t type = csv.Count(1);
        csv.Count(2); // application_id: checked, not used
        r.arrivalNs = csv.Seconds(3);
        order.Check(csv.GetSource(), csv.Column(3), csv[3], r.arrivalNs, "s");
        const uint64_t batch = csv.Count(4);
        if (batch != 1)
        {
            csv.Fail("batch_size " + QuoteFileText(csv[4]) +
                     " is not modelled: a request is one sequence (batch_size 1), whose KV "
                     "cache is prompt_size tokens");
        }
        r.inputTokens = csv.Tokens(5, 1);
        r.outputTokens = csv.Tokens(6, 0);
        if (type != requestType)
        {
            ++trace.filtered;
            continue;
        }
        trace.requests.push_back(std::move(r));
    }
    RequireKept(csv.GetSource(), trace, "no row has request_type " + std::to_string(requestType));
    return trace;
}

void
CheckSplitwiseIds(const std::vector<LlmRequest>& requests)
{
    std::unordered_map<std::string, std::size_t> ids;
    const bool named = !requests.empty() && !requests.front().traceId.empty();
    for (std::size_t i = 0; i < requests.size(); ++i)
    {
        const std::string at = "requests[" + std::to_string(i) + "].traceId";
        const std::string& id = requests[i].traceId;
        if (id.empty() != !named)
        {
            ThrowBadParameter(at,
                              QuoteText(id),
                              "ids for every request or for none (then the index is written)");
        }
        if (!named)
        {
            continue;
        }
        const std::string problem = FindIdProblem(id);
        if (!problem.empty())
        {
            ThrowBadParameter(at,
                              QuoteText(id),
                              "an id of 1 to " + std::to_string(MAX_ID_LENGTH) +
                                  " characters, none a comma, '\"', space or control character");
        }
        auto [it, added] = ids.emplace(id, i);
        if (!added)
        {
            ThrowBadParameter(at,
                              QuoteText(id),
                              "unique ids: requests[" + std::to_string(it->second) +
                                  "] has it too");
        }
    }
}

void
PutSplitwise(const std::vector<LlmRequest>& requests, std::ostream& out)
{
    out << Join(SPLITWISE_COLUMNS, ",") << '\n';
    for (std::size_t i = 0; i < requests.size(); ++i)
    {
        const LlmRequest& r = requests[i];
        out << (r.traceId.empty() ? std::to_string(i) : r.traceId) << ','
            << SPLITWISE_LLM_REQUEST_TYPE << ",0," << FormatSeconds(r.arrivalNs) << ",1,"
            << r.inputTokens << ',' << r.outputTokens << '\n';
    }
}

} // namespace detail
} // namespace mose
} // namespace ns3
