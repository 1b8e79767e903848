/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace-llmservingsim.h"

#include "mose-llm-trace-records.h"

#include "ns3/mose-json-line.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>
#include <system_error>

namespace ns3
{
namespace mose
{
namespace detail
{

namespace
{

/**
 * \brief Reads a time in ns of an LLMServingSim line.
 * \param parser the line's parser, which reports the problem
 * \param key the key, for the message
 * \param text the number's text
 * \param column its position
 * \return the time (checked: a non-negative integer, at most MAX_ARRIVAL_NS)
 */
uint64_t
ReadNanoseconds(const JsonLineParser& parser,
                const std::string& key,
                std::string_view text,
                std::size_t column)
{
    if (text.front() == '-')
    {
        parser.Fail(column, key + " " + std::string(text) + " is negative");
    }
    if (text.find_first_of(".eE") != std::string_view::npos)
    {
        parser.Fail(
            column,
            key + " " + std::string(text) +
                " is not a whole number of ns (a JSON integer without fraction or exponent)");
    }
    uint64_t ns = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), ns);
    if (ec != std::errc() || ptr != text.data() + text.size() || ns > MAX_ARRIVAL_NS)
    {
        parser.Fail(column,
                    key + " " + std::string(text) + " is above the cap of " +
                        std::to_string(MAX_ARRIVAL_NS) + " ns");
    }
    return ns;
}

} // namespace

LlmTrace
ReadLlmServingSim(std::istream& in, const std::string& name)
{
    LineReader source(in, name);
    std::string_view line;
    LlmTrace trace;
    OrderCheck order;
    while (source.Next(line))
    {
        if (IsBlankLine(line))
        {
            continue;
        }
        ++trace.records;
        JsonLineParser parser(line, source);
        std::vector<JsonLineParser::Wanted> wanted = {{"input_toks"},
                                                      {"output_toks"},
                                                      {"arrival_time_ns"}};
        const std::vector<std::string_view> keys = parser.Parse(wanted);
        if (std::find(keys.begin(), keys.end(), "sub_requests") != keys.end())
        {
            source.Fail("the agentic form (key \"sub_requests\": a request that spawns further "
                        "requests) is not modelled; give the requests flat, one per line");
        }
        parser.RequireAll(wanted,
                          "an LLMServingSim request has input_toks, output_toks and "
                          "arrival_time_ns");
        LlmRequest r;
        r.inputTokens = ReadJsonTokens(parser, "input_toks", wanted[0].value, wanted[0].column, 1);
        r.outputTokens =
            ReadJsonTokens(parser, "output_toks", wanted[1].value, wanted[1].column, 0);
        r.arrivalNs = ReadNanoseconds(parser, "arrival_time_ns", wanted[2].value, wanted[2].column);
        order.Check(source, "arrival_time_ns", wanted[2].value, r.arrivalNs, "ns");
        r.traceLine = source.GetLine();
        trace.requests.push_back(r);
    }
    if (trace.requests.empty())
    {
        source.Fail("at end of file: no requests (one JSON object per line expected)");
    }
    return trace;
}

void
PutLlmServingSim(const std::vector<LlmRequest>& requests, std::ostream& out)
{
    for (const LlmRequest& r : requests)
    {
        out << "{\"input_toks\": " << r.inputTokens << ", \"output_toks\": " << r.outputTokens
            << ", \"arrival_time_ns\": " << r.arrivalNs << "}\n";
    }
}

} // namespace detail
} // namespace mose
} // namespace ns3
