/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace-mooncake.h"

#include "mose-llm-trace-records.h"

#include "ns3/log.h"
#include "ns3/mose-json-line.h"
#include "ns3/mose-text-io.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <istream>
#include <ostream>
#include <system_error>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLlmTraceMooncake");

namespace
{

using detail::IsBlankLine;
using detail::ReadJsonTokens;

/// ns per ms
constexpr uint64_t NS_PER_MS = 1000000;

/**
 * \brief Reads the timestamp of a Mooncake line.
 * \param parser the line's parser, which reports the problem
 * \param text the number's text
 * \param column its position
 * \return the timestamp in ms as ns (checked: non-negative, <= 6 decimals, no exponent)
 */
uint64_t
ReadMilliseconds(const JsonLineParser& parser, std::string_view text, std::size_t column)
{
    if (text.front() == '-')
    {
        parser.Fail(column, "timestamp " + std::string(text) + " is negative");
    }
    if (text.find_first_of("eE") != std::string_view::npos)
    {
        parser.Fail(column,
                    "timestamp " + std::string(text) +
                        " is in exponent notation; write milliseconds as digits, e.g. 1500 or 1.5");
    }
    std::string_view whole = text.substr(0, text.find('.'));
    std::string_view fraction =
        whole.size() < text.size() ? text.substr(whole.size() + 1) : std::string_view();
    if (fraction.size() > 6)
    {
        parser.Fail(column,
                    "timestamp " + std::string(text) +
                        " has more than 6 fractional digits (the resolution is 1 ns)");
    }
    const uint64_t maxMs = MAX_ARRIVAL_NS / NS_PER_MS;
    uint64_t ms = 0;
    auto [ptr, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), ms);
    if (ec != std::errc() || ptr != whole.data() + whole.size() || ms > maxMs)
    {
        parser.Fail(column,
                    "timestamp " + std::string(text) + " is above the cap of " +
                        std::to_string(maxMs) + " ms (" + std::to_string(MAX_ARRIVAL_NS) + " ns)");
    }
    uint64_t ns = 0;
    for (std::size_t k = 0; k < 6; ++k)
    {
        ns = ns * 10 + (k < fraction.size() ? static_cast<uint64_t>(fraction[k] - '0') : 0);
    }
    const uint64_t total = ms * NS_PER_MS + ns;
    if (total > MAX_ARRIVAL_NS)
    {
        parser.Fail(column,
                    "timestamp " + std::string(text) + " is above the cap of " +
                        std::to_string(maxMs) + " ms (" + std::to_string(MAX_ARRIVAL_NS) + " ns)");
    }
    return total;
}

/**
 * \brief Reads one line of the Mooncake form.
 * \param line the line
 * \param source its source
 * \return the request, traceLine set
 */
LlmRequest
ParseMooncakeLine(std::string_view line, const LineReader& source)
{
    JsonLineParser parser(line, source);
    std::vector<JsonLineParser::Wanted> wanted = {{"timestamp"},
                                                  {"input_length"},
                                                  {"output_length"}};
    parser.Parse(wanted);
    parser.RequireAll(wanted, "a Mooncake request has timestamp, input_length and output_length");
    LlmRequest r;
    r.arrivalNs = ReadMilliseconds(parser, wanted[0].value, wanted[0].column);
    r.inputTokens = ReadJsonTokens(parser, "input_length", wanted[1].value, wanted[1].column, 1);
    r.outputTokens = ReadJsonTokens(parser, "output_length", wanted[2].value, wanted[2].column, 0);
    r.traceLine = source.GetLine();
    return r;
}

/// \return ns as milliseconds: integer when whole, else with the fractional digits needed
std::string
FormatMilliseconds(uint64_t ns)
{
    std::string text = std::to_string(ns / NS_PER_MS);
    uint64_t rest = ns % NS_PER_MS;
    if (rest != 0)
    {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "%06llu", static_cast<unsigned long long>(rest));
        std::string digits(buf);
        while (digits.back() == '0')
        {
            digits.pop_back();
        }
        text += "." + digits;
    }
    return text;
}

/**
 * \brief Writes the requests, one JSON object a line.
 * \param requests the requests, checked (ValidateLlmRequests())
 * \param out the stream
 */
void
PutMooncakeTraceJsonl(const std::vector<LlmRequest>& requests, std::ostream& out)
{
    for (const LlmRequest& r : requests)
    {
        out << "{\"timestamp\": " << FormatMilliseconds(r.arrivalNs)
            << ", \"input_length\": " << r.inputTokens << ", \"output_length\": " << r.outputTokens
            << "}\n";
    }
}

} // namespace

std::vector<LlmRequest>
ReadMooncakeTraceJsonl(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(name);
    LineReader source(in, name);
    std::string_view line;
    std::vector<LlmRequest> requests;
    uint64_t previousLine = 0;
    while (source.Next(line))
    {
        if (IsBlankLine(line))
        {
            continue;
        }
        LlmRequest r = ParseMooncakeLine(line, source);
        if (!requests.empty() && r.arrivalNs < requests.back().arrivalNs)
        {
            source.Fail("timestamp " + FormatMilliseconds(r.arrivalNs) +
                        " is earlier than the previous request's, " +
                        FormatMilliseconds(requests.back().arrivalNs) + " at line " +
                        std::to_string(previousLine) + ": the trace must be sorted by time");
        }
        previousLine = source.GetLine();
        requests.push_back(r);
    }
    if (requests.empty())
    {
        source.Fail("at end of file: no requests (one JSON object per line expected)");
    }
    NS_LOG_INFO("read " << name << ": " << requests.size() << " requests");
    return requests;
}

std::vector<LlmRequest>
ReadMooncakeTraceJsonl(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ifstream file;
    OpenForReading(path, file);
    return ReadMooncakeTraceJsonl(file, path);
}

void
WriteMooncakeTraceJsonl(const std::vector<LlmRequest>& requests, std::ostream& out)
{
    NS_LOG_FUNCTION(requests.size());
    ValidateLlmRequests(requests, "requests");
    PutMooncakeTraceJsonl(requests, out);
    CheckWritten(out, "output stream");
}

void
WriteMooncakeTraceJsonl(const std::vector<LlmRequest>& requests, const std::string& path)
{
    NS_LOG_FUNCTION(requests.size() << path);
    ValidateLlmRequests(requests, "requests");
    WriteTextFile(path, [&requests](std::ostream& out) { PutMooncakeTraceJsonl(requests, out); });
}

} // namespace mose
} // namespace ns3
