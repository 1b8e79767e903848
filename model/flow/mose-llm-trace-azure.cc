/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace-azure.h"

#include "mose-llm-trace-records.h"

#include "ns3/log.h"
#include "ns3/mose-civil-calendar.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLlmTraceAzure");

namespace detail
{
const std::vector<std::string> AZURE_COLUMNS = {"TIMESTAMP", "ContextTokens", "GeneratedTokens"};
} // namespace detail

namespace
{

using detail::AZURE_COLUMNS;
using detail::IsDigit;
using detail::TryParseTokens;

/// 100 ns ticks per second
constexpr uint64_t TICKS_PER_SECOND = 10000000;
/// ns per Azure tick
constexpr uint64_t NS_PER_TICK = 100;
/// The Azure header
const std::string AZURE_HEADER = "TIMESTAMP,ContextTokens,GeneratedTokens";
/// The form of an Azure time, for messages
const std::string AZURE_TIME_FORM = "YYYY-MM-DD HH:MM:SS[.fffffff][+00:00]";
/// Days from 0001-01-01 to 1970-01-01
const int64_t EPOCH_DAYS = -DaysFromCivil(1, 1, 1);
/// Ticks from 0001-01-01 to 10000-01-01: the first time that cannot be written
const uint64_t END_TICKS =
    static_cast<uint64_t>(DaysFromCivil(10000, 1, 1) + EPOCH_DAYS) * 86400 * TICKS_PER_SECOND;

/**
 * \brief Reads an Azure wall-clock time.
 * \param text the text
 * \param[out] ticks 100 ns ticks since 0001-01-01 00:00:00
 * \return empty if fine, else the problem, a phrase following the quoted text
 */
std::string
TryParseAzureTime(std::string_view text, uint64_t& ticks)
{
    const std::string form = "is not a time of the form " + AZURE_TIME_FORM;
    // fixed part: YYYY-MM-DD HH:MM:SS
    static const char* const pattern = "dddd-dd-dd dd:dd:dd";
    const std::size_t fixed = std::strlen(pattern);
    if (text.size() < fixed)
    {
        return form;
    }
    for (std::size_t i = 0; i < fixed; ++i)
    {
        if (pattern[i] == 'd' ? !IsDigit(text[i]) : text[i] != pattern[i])
        {
            return form;
        }
    }
    auto number = [&text](std::size_t at, std::size_t digits) {
        unsigned v = 0;
        for (std::size_t i = 0; i < digits; ++i)
        {
            v = v * 10 + static_cast<unsigned>(text[at + i] - '0');
        }
        return v;
    };
    const unsigned year = number(0, 4);
    const unsigned month = number(5, 2);
    const unsigned day = number(8, 2);
    const unsigned hour = number(11, 2);
    const unsigned minute = number(14, 2);
    const unsigned second = number(17, 2);
    std::size_t pos = fixed;
    uint64_t fraction = 0;
    if (pos < text.size() && text[pos] == '.')
    {
        ++pos;
        std::size_t digits = 0;
        while (pos < text.size() && IsDigit(text[pos]))
        {
            if (++digits > 7)
            {
                return "has more than 7 fractional digits (the form's resolution is 100 ns)";
            }
            fraction = fraction * 10 + static_cast<uint64_t>(text[pos] - '0');
            ++pos;
        }
        if (digits == 0)
        {
            return form;
        }
        for (std::size_t k = digits; k < 7; ++k)
        {
            fraction *= 10;
        }
    }
    if (pos < text.size())
    {
        if (text.substr(pos) != "+00:00")
        {
            return text[pos] == '+' || text[pos] == '-'
                       ? "has a UTC offset other than +00:00, which is not accepted"
                       : form;
        }
    }
    if (year == 0)
    {
        return "has year 0000: years run from 0001 to 9999";
    }
    if (month < 1 || month > 12)
    {
        return "has month " + std::to_string(month) + ": months run from 01 to 12";
    }
    if (day < 1 || day > DaysInMonth(year, month))
    {
        return "has day " + std::to_string(day) + ", which " + std::to_string(year) + "-" +
               (month < 10 ? "0" : "") + std::to_string(month) + " does not have";
    }
    if (hour > 23 || minute > 59 || second > 59)
    {
        return "has a time of day outside 00:00:00-23:59:59";
    }
    const auto days = static_cast<uint64_t>(DaysFromCivil(year, month, day) + EPOCH_DAYS);
    const uint64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second;
    ticks = seconds * TICKS_PER_SECOND + fraction;
    return "";
}

/**
 * \brief Writes the header and the requests.
 * \param requests the requests, checked (PrepareAzure())
 * \param startTicks the wall-clock time of arrival 0
 * \param out the stream
 */
void
PutAzureTraceCsv(const std::vector<LlmRequest>& requests, uint64_t startTicks, std::ostream& out)
{
    out << AZURE_HEADER << '\n';
    for (const LlmRequest& r : requests)
    {
        out << FormatAzureTimestamp(startTicks + r.arrivalNs / NS_PER_TICK) << ',' << r.inputTokens
            << ',' << r.outputTokens << '\n';
    }
}

/**
 * \brief Checks the requests for the Azure writer and returns the start in ticks.
 */
uint64_t
PrepareAzure(const std::vector<LlmRequest>& requests, const std::string& start)
{
    ValidateLlmRequests(requests, "requests");
    const uint64_t startTicks = ParseAzureTimestamp("start", start);
    for (std::size_t i = 0; i < requests.size(); ++i)
    {
        if (requests[i].arrivalNs % NS_PER_TICK != 0)
        {
            ThrowBadParameter("requests[" + std::to_string(i) + "].arrivalNs",
                              std::to_string(requests[i].arrivalNs),
                              "the Azure form writes whole 100 ns ticks; generate with tickNs a "
                              "multiple of 100");
        }
    }
    if (!requests.empty() && startTicks + requests.back().arrivalNs / NS_PER_TICK >= END_TICKS)
    {
        ThrowBadParameter(
            "requests[" + std::to_string(requests.size() - 1) + "].arrivalNs",
            std::to_string(requests.back().arrivalNs),
            "start + arrival must be before the year 10000 (start = " + QuoteText(start) + ")");
    }
    return startTicks;
}

} // namespace

uint64_t
ParseAzureTimestamp(const std::string& parameter, std::string_view text)
{
    NS_LOG_FUNCTION(parameter << text);
    uint64_t ticks = 0;
    std::string problem = TryParseAzureTime(text, ticks);
    if (!problem.empty())
    {
        ThrowBadParameter(parameter, QuoteFileText(text), "the value " + problem);
    }
    return ticks;
}

std::string
FormatAzureTimestamp(uint64_t ticks)
{
    if (ticks >= END_TICKS)
    {
        ThrowBadParameter("ticks",
                          std::to_string(ticks),
                          "a time before 10000-01-01 (" + std::to_string(END_TICKS) + " ticks)");
    }
    const uint64_t fraction = ticks % TICKS_PER_SECOND;
    uint64_t seconds = ticks / TICKS_PER_SECOND;
    const uint64_t days = seconds / 86400;
    seconds %= 86400;
    const CivilDate date = CivilFromDays(static_cast<int64_t>(days) - EPOCH_DAYS);
    char buf[64];
    std::snprintf(buf,
                  sizeof(buf),
                  "%04lld-%02u-%02u %02u:%02u:%02u.%07llu",
                  static_cast<long long>(date.year),
                  date.month,
                  date.day,
                  static_cast<unsigned>(seconds / 3600),
                  static_cast<unsigned>(seconds / 60 % 60),
                  static_cast<unsigned>(seconds % 60),
                  static_cast<unsigned long long>(fraction));
    return buf;
}

std::vector<LlmRequest>
ReadAzureTraceCsv(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(name);
    LineReader source(in, name);
    std::string_view line;
    auto nextContent = [&source, &line]() {
        while (source.Next(line))
        {
            line = TrimBlanks(line);
            if (!line.empty() && line.front() != '#')
            {
                return true;
            }
        }
        return false;
    };
    std::vector<std::string_view> fields;
    auto split = [&fields](std::string_view text) {
        SplitAtCommas(text, fields);
        for (std::string_view& field : fields)
        {
            field = TrimBlanks(field);
        }
    };
    if (!nextContent())
    {
        source.Fail("at end of file: no header line; expected " + QuoteFileText(AZURE_HEADER));
    }
    split(line);
    if (fields.size() != AZURE_COLUMNS.size() ||
        !std::equal(fields.begin(), fields.end(), AZURE_COLUMNS.begin()))
    {
        source.Fail("expected the header " + QuoteFileText(AZURE_HEADER) + ", found " +
                    QuoteFileText(line));
    }
    std::vector<LlmRequest> requests;
    uint64_t firstTicks = 0;
    uint64_t previousTicks = 0;
    uint64_t previousLine = 0;
    while (nextContent())
    {
        split(line);
        if (fields.size() != AZURE_COLUMNS.size())
        {
            source.Fail("expected 3 fields (" + AZURE_HEADER + "), found " +
                        std::to_string(fields.size()) + ": " + QuoteFileText(line));
        }
        for (std::size_t i = 0; i < fields.size(); ++i)
        {
            if (fields[i].empty())
            {
                source.Fail("empty " + AZURE_COLUMNS[i] + " field in " + QuoteFileText(line));
            }
        }
        uint64_t ticks = 0;
        std::string problem = TryParseAzureTime(fields[0], ticks);
        if (!problem.empty())
        {
            source.Fail("TIMESTAMP " + QuoteFileText(fields[0]) + " " + problem);
        }
        if (requests.empty())
        {
            firstTicks = ticks;
        }
        else if (ticks < previousTicks)
        {
            source.Fail("TIMESTAMP " + QuoteFileText(fields[0]) + " is earlier than the previous " +
                        "request's, " + FormatAzureTimestamp(previousTicks) + " at line " +
                        std::to_string(previousLine) + ": the trace must be sorted by time");
        }
        if (ticks - firstTicks > MAX_ARRIVAL_NS / NS_PER_TICK)
        {
            source.Fail("TIMESTAMP " + QuoteFileText(fields[0]) + " is more than the cap of " +
                        std::to_string(MAX_ARRIVAL_NS) + " ns after the first request's, " +
                        FormatAzureTimestamp(firstTicks));
        }
        LlmRequest r;
        r.arrivalNs = (ticks - firstTicks) * NS_PER_TICK;
        problem = TryParseTokens(AZURE_COLUMNS[1], fields[1], 1, r.inputTokens);
        if (problem.empty())
        {
            problem = TryParseTokens(AZURE_COLUMNS[2], fields[2], 0, r.outputTokens);
        }
        if (!problem.empty())
        {
            source.Fail(problem);
        }
        previousTicks = ticks;
        previousLine = source.GetLine();
        r.traceLine = previousLine;
        requests.push_back(r);
    }
    if (requests.empty())
    {
        source.Fail("at end of file: no requests after the header");
    }
    NS_LOG_INFO("read " << name << ": " << requests.size() << " requests");
    return requests;
}

std::vector<LlmRequest>
ReadAzureTraceCsv(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ifstream file;
    OpenForReading(path, file);
    return ReadAzureTraceCsv(file, path);
}

void
WriteAzureTraceCsv(const std::vector<LlmRequest>& requests,
                   std::ostream& out,
                   const std::string& start)
{
    NS_LOG_FUNCTION(requests.size() << start);
    const uint64_t startTicks = PrepareAzure(requests, start);
    PutAzureTraceCsv(requests, startTicks, out);
    CheckWritten(out, "output stream");
}

void
WriteAzureTraceCsv(const std::vector<LlmRequest>& requests,
                   const std::string& path,
                   const std::string& start)
{
    NS_LOG_FUNCTION(requests.size() << path << start);
    const uint64_t startTicks = PrepareAzure(requests, start);
    WriteTextFile(path, [&](std::ostream& out) { PutAzureTraceCsv(requests, startTicks, out); });
}

} // namespace mose
} // namespace ns3
