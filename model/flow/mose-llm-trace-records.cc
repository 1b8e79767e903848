/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace-records.h"

#include "ns3/mose-parse.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <system_error>

namespace ns3
{
namespace mose
{
namespace detail
{

bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool
AllDigits(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), IsDigit);
}

bool
IsBlankLine(std::string_view line)
{
    return std::all_of(line.begin(), line.end(), [](char c) { return IsBlank(c) || c == '\r'; });
}

std::string
Join(const std::vector<std::string>& items, const std::string& sep)
{
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        text += (i > 0 ? sep : "") + items[i];
    }
    return text;
}

std::string
TryParseTokens(const std::string& field, std::string_view text, uint64_t minimum, uint64_t& value)
{
    if (!text.empty() && text.front() == '-' && AllDigits(text.substr(1)))
    {
        return field + " " + QuoteFileText(text) + " is negative";
    }
    if (!AllDigits(text))
    {
        return field + " " + QuoteFileText(text) +
               " is not a token count (a non-negative integer written with digits only)";
    }
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || v > MAX_REQUEST_TOKENS)
    {
        return field + " " + QuoteFileText(text) + " is above the cap of " +
               std::to_string(MAX_REQUEST_TOKENS) + " tokens per request";
    }
    if (v < minimum)
    {
        return field + " " + QuoteFileText(text) + " is below " + std::to_string(minimum) +
               ": a request has at least one prompt token";
    }
    value = v;
    return "";
}

std::string
TryParseCount(const std::string& field, std::string_view text, uint64_t& value)
{
    if (!text.empty() && text.front() == '-' && AllDigits(text.substr(1)))
    {
        return field + " " + QuoteFileText(text) + " is negative";
    }
    if (!AllDigits(text))
    {
        return field + " " + QuoteFileText(text) +
               " is not a non-negative integer written with digits only";
    }
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size())
    {
        return field + " " + QuoteFileText(text) + " does not fit 64 bits";
    }
    return "";
}

std::string
TryParseSeconds(const std::string& field, std::string_view text, uint64_t& ns)
{
    const std::string quoted = field + " " + QuoteFileText(text);
    const std::string form =
        quoted + " is not a time in seconds (a non-negative decimal number such as 12, 0.25 or "
                 "1e-05)";
    const std::string cap = quoted + " is above the cap of " +
                            std::to_string(MAX_ARRIVAL_NS / NS_PER_S) + " s (" +
                            std::to_string(MAX_ARRIVAL_NS) + " ns)";
    if (!text.empty() && text.front() == '-')
    {
        uint64_t ignored = 0;
        return TryParseSeconds(field, text.substr(1), ignored).empty() ? quoted + " is negative"
                                                                       : form;
    }
    std::size_t pos = 0;
    std::string digits;
    int64_t fractionDigits = 0;
    while (pos < text.size() && IsDigit(text[pos]))
    {
        digits += text[pos++];
    }
    if (pos < text.size() && text[pos] == '.')
    {
        ++pos;
        while (pos < text.size() && IsDigit(text[pos]))
        {
            digits += text[pos++];
            ++fractionDigits;
        }
    }
    if (digits.empty())
    {
        return form;
    }
    int64_t exponent = 0;
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E'))
    {
        ++pos;
        bool negative = false;
        if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        {
            negative = text[pos] == '-';
            ++pos;
        }
        std::size_t n = 0;
        for (; pos < text.size() && IsDigit(text[pos]); ++pos, ++n)
        {
            exponent = std::min<int64_t>(exponent * 10 + (text[pos] - '0'), 1000000);
        }
        if (n == 0)
        {
            return form;
        }
        exponent = negative ? -exponent : exponent;
    }
    if (pos != text.size())
    {
        return form;
    }
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos)
    {
        ns = 0;
        return "";
    }
    digits.erase(0, first);
    // the value is digits x 10^scale ns
    const int64_t scale = 9 + exponent - fractionDigits;
    const auto length = static_cast<int64_t>(digits.size());
    std::string whole;
    bool roundUp = false;
    if (scale >= 0)
    {
        if (length + scale > 19)
        {
            return cap;
        }
        whole = digits + std::string(static_cast<std::size_t>(scale), '0');
    }
    else if (length + scale < 0)
    {
        whole = "0"; // below 0.1 ns
    }
    else
    {
        const auto keep = static_cast<std::size_t>(length + scale);
        whole = keep == 0 ? "0" : digits.substr(0, keep);
        roundUp = digits[keep] >= '5';
        if (whole.size() > 19)
        {
            return cap;
        }
    }
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), v);
    if (ec != std::errc() || ptr != whole.data() + whole.size())
    {
        return cap;
    }
    v += roundUp ? 1 : 0;
    if (v > MAX_ARRIVAL_NS)
    {
        return cap;
    }
    ns = v;
    return "";
}

std::string
FormatSeconds(uint64_t ns)
{
    std::string text = std::to_string(ns / NS_PER_S);
    const uint64_t rest = ns % NS_PER_S;
    if (rest != 0)
    {
        char buf[16];
        std::snprintf(buf, sizeof(buf), "%09llu", static_cast<unsigned long long>(rest));
        std::string digits(buf);
        while (digits.back() == '0')
        {
            digits.pop_back();
        }
        text += "." + digits;
    }
    return text;
}

uint64_t
ReadJsonTokens(const JsonLineParser& parser,
               const std::string& key,
               std::string_view text,
               std::size_t column,
               uint64_t minimum)
{
    if (text.front() != '-' && text.find_first_of(".eE") != std::string_view::npos)
    {
        parser.Fail(column,
                    key + " " + std::string(text) +
                        " is not a token count (a non-negative integer without fraction or "
                        "exponent)");
    }
    uint64_t v = 0;
    std::string problem = TryParseTokens(key, text, minimum, v);
    if (!problem.empty())
    {
        parser.Fail(column, problem);
    }
    return v;
}

// ---------------------------------------------------------------------------------------------
// CsvRecords

CsvRecords::CsvRecords(std::istream& in,
                       const std::string& name,
                       const std::vector<std::string>& columns)
    : m_source(in, name),
      m_columns(columns),
      m_header(Join(columns, ","))
{
}

void
CsvRecords::ReadHeader()
{
    if (!NextContent())
    {
        Fail("at end of file: no header line; expected " + QuoteText(m_header));
    }
    Split();
    if (m_fields.size() != m_columns.size() ||
        !std::equal(m_fields.begin(), m_fields.end(), m_columns.begin()))
    {
        Fail("expected the header " + QuoteText(m_header) + ", found " + QuoteFileText(m_line));
    }
}

bool
CsvRecords::Next()
{
    if (!NextContent())
    {
        return false;
    }
    Split();
    if (m_fields.size() != m_columns.size())
    {
        Fail("expected " + std::to_string(m_columns.size()) + " fields (" + m_header + "), found " +
             std::to_string(m_fields.size()) + ": " + QuoteFileText(m_line));
    }
    for (std::size_t i = 0; i < m_fields.size(); ++i)
    {
        if (m_fields[i].empty())
        {
            Fail("empty " + m_columns[i] + " field in " + QuoteFileText(m_line));
        }
    }
    return true;
}

std::string_view
CsvRecords::operator[](std::size_t i) const
{
    return m_fields[i];
}

const std::string&
CsvRecords::Column(std::size_t i) const
{
    return m_columns[i];
}

const LineReader&
CsvRecords::GetSource() const
{
    return m_source;
}

void
CsvRecords::Fail(const std::string& problem) const
{
    m_source.Fail(problem);
}

void
CsvRecords::Check(const std::string& problem) const
{
    if (!problem.empty())
    {
        Fail(problem);
    }
}

uint64_t
CsvRecords::Tokens(std::size_t i, uint64_t minimum) const
{
    uint64_t v = 0;
    Check(TryParseTokens(m_columns[i], m_fields[i], minimum, v));
    return v;
}

uint64_t
CsvRecords::Count(std::size_t i) const
{
    uint64_t v = 0;
    Check(TryParseCount(m_columns[i], m_fields[i], v));
    return v;
}

uint64_t
CsvRecords::Seconds(std::size_t i) const
{
    uint64_t v = 0;
    Check(TryParseSeconds(m_columns[i], m_fields[i], v));
    return v;
}

bool
CsvRecords::NextContent()
{
    while (m_source.Next(m_line))
    {
        m_line = TrimBlanks(m_line);
        if (!m_line.empty() && m_line.front() != '#')
        {
            return true;
        }
    }
    return false;
}

void
CsvRecords::Split()
{
    SplitAtCommas(m_line, m_fields);
    for (std::string_view& field : m_fields)
    {
        field = TrimBlanks(field);
    }
}

// ---------------------------------------------------------------------------------------------
// OrderCheck, RequireKept

void
OrderCheck::Check(const LineReader& source,
                  const std::string& field,
                  std::string_view text,
                  uint64_t ns,
                  const std::string& unit)
{
    if (m_any && ns < m_ns)
    {
        source.Fail(field + " " + QuoteFileText(text) + " is earlier than the previous " +
                    "request's, " + (unit == "s" ? FormatSeconds(m_ns) : std::to_string(m_ns)) +
                    " " + unit + " at line " + std::to_string(m_line) +
                    ": the trace must be sorted by time");
    }
    m_any = true;
    m_ns = ns;
    m_line = source.GetLine();
}

void
RequireKept(const LineReader& source, const LlmTrace& trace, const std::string& why)
{
    if (!trace.requests.empty())
    {
        return;
    }
    if (trace.records == 0)
    {
        source.Fail("at end of file: no requests after the header");
    }
    source.Fail("at end of file: none of the " + std::to_string(trace.records) +
                " requests is kept (" + why + ")");
}

} // namespace detail
} // namespace mose
} // namespace ns3
