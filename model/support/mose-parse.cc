/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-parse.h"

#include "mose-error.h"

#include "ns3/log.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>
#include <vector>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseParse");

std::string
QuoteText(std::string_view text)
{
    return "\"" + std::string(text) + "\"";
}

std::string
QuoteFileText(std::string_view text)
{
    constexpr std::size_t maxQuoted = 80; // characters of offending text in a message
    std::string out = "\"";
    std::size_t count = 0;
    for (char c : text)
    {
        if (count++ == maxQuoted)
        {
            out += "...";
            break;
        }
        auto u = static_cast<unsigned char>(c);
        if (u == '"' || u == '\\')
        {
            out += '\\';
            out += c;
        }
        else if (u >= 0x20 && u < 0x7f)
        {
            out += c;
        }
        else
        {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\x%02X", static_cast<unsigned>(u));
            out += buf;
        }
    }
    out += '"';
    return out;
}

uint64_t
ParseUnsigned64(const std::string& parameter, std::string_view text)
{
    NS_LOG_FUNCTION(parameter << text);
    bool digits = !text.empty();
    for (char c : text)
    {
        digits = digits && c >= '0' && c <= '9';
    }
    if (!digits)
    {
        ThrowBadParameter(parameter,
                          QuoteText(text),
                          text.empty() ? "the value is empty; expected an unsigned decimal integer"
                                       : "expected an unsigned decimal integer");
    }
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size())
    {
        ThrowBadParameter(parameter,
                          QuoteText(text),
                          "the value must be at most 18446744073709551615");
    }
    return v;
}

uint32_t
ParseUnsigned32(const std::string& parameter, std::string_view text)
{
    NS_LOG_FUNCTION(parameter << text);
    uint64_t v = ParseUnsigned64(parameter, text);
    if (v > std::numeric_limits<uint32_t>::max())
    {
        ThrowBadParameter(parameter, QuoteText(text), "the value must be at most 4294967295");
    }
    return static_cast<uint32_t>(v);
}

std::string
TryParseReal(std::string_view text, double& value)
{
    if (text.empty())
    {
        return "is empty, expected a number";
    }
    double v = 0;
    // from_chars reads the C locale's format whatever the global locale is; it takes no '+',
    // no leading space and no hexadecimal without a prefix, but it reads "inf" and "nan"
    auto [ptr, ec] =
        std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
    if (ec == std::errc::result_out_of_range)
    {
        return "is out of the range of a double";
    }
    if (ec != std::errc() || ptr != text.data() + text.size())
    {
        return "is not a number";
    }
    if (!std::isfinite(v))
    {
        return "is not a finite number";
    }
    value = v;
    return "";
}

double
ParseReal(const std::string& parameter, std::string_view text)
{
    NS_LOG_FUNCTION(parameter << text);
    double v = 0;
    std::string problem = TryParseReal(text, v);
    if (!problem.empty())
    {
        ThrowBadParameter(parameter, QuoteText(text), "the value " + problem);
    }
    return v;
}

std::string
DurationSyntax()
{
    return "a duration >= 0: a number with an optional unit ns, us, ms, s, min or h (no unit: "
           "seconds), e.g. 0.025, 25ms or 1h";
}

double
ParseDuration(const std::string& parameter, std::string_view text)
{
    NS_LOG_FUNCTION(parameter << text);
    // the unit is the run of letters at the end; "1e-3s" keeps its exponent's 'e' in the number
    static const std::vector<std::pair<std::string_view, double>> units =
        {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}, {"min", 60.0}, {"h", 3600.0}};
    std::size_t letters = text.size();
    while (letters > 0 && ((text[letters - 1] >= 'a' && text[letters - 1] <= 'z') ||
                           (text[letters - 1] >= 'A' && text[letters - 1] <= 'Z')))
    {
        --letters;
    }
    const std::string_view number = text.substr(0, letters);
    const std::string_view unit = text.substr(letters);
    double factor = unit.empty() ? 1.0 : 0.0;
    for (const auto& [name, f] : units)
    {
        factor = unit == name ? f : factor;
    }
    double value = 0;
    if (factor == 0.0 || number.empty() || !TryParseReal(number, value).empty() || value < 0)
    {
        ThrowBadParameter(parameter, QuoteText(text), DurationSyntax());
    }
    // the old parsers computed value * factor; kept, so that "150ms" is the same double as before
    const double seconds = value * factor;
    if (!std::isfinite(seconds))
    {
        ThrowBadParameter(parameter,
                          QuoteText(text),
                          "the duration is out of the range of a double number of seconds");
    }
    return seconds;
}

Time
ParseTimeOption(const std::string& parameter, const std::string& text)
{
    NS_LOG_FUNCTION(parameter << text);
    const double seconds = ParseDuration(parameter, text);
    if (seconds > Time::Max().GetSeconds() || (seconds > 0 && Seconds(seconds).IsZero()))
    {
        ThrowBadParameter(parameter,
                          QuoteText(text),
                          "a duration from 1ns to " +
                              std::to_string(static_cast<uint64_t>(Time::Max().GetSeconds())) +
                              " s (ns-3's time range)");
    }
    return Seconds(seconds);
}

bool
ParseBool(const std::string& parameter, std::string_view text)
{
    NS_LOG_FUNCTION(parameter << text);
    std::string t = ToLowerAscii(text);
    if (t == "true" || t == "t" || t == "1")
    {
        return true;
    }
    if (t == "false" || t == "f" || t == "0")
    {
        return false;
    }
    ThrowBadParameter(parameter,
                      QuoteText(text),
                      "allowed values are true, false, t, f, 1 and 0 (any letter case)");
}

std::string
ToLowerAscii(std::string_view text)
{
    std::string lower(text);
    for (char& c : lower)
    {
        if (c >= 'A' && c <= 'Z')
        {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return lower;
}

void
ThrowUnknownName(const std::string& parameter, std::string_view text, const std::string& allowed)
{
    NS_LOG_FUNCTION(parameter << text << allowed);
    ThrowBadParameter(
        parameter,
        QuoteText(text),
        (text.empty() ? "the value is empty; allowed values are " : "allowed values are ") +
            allowed);
}

std::vector<std::string>
SplitList(const std::string& text, const std::string& parameter, const std::string& items)
{
    NS_LOG_FUNCTION(text << parameter);
    if (text.empty())
    {
        ThrowBadParameter(parameter,
                          QuoteText(text),
                          "the list is empty; name at least one of " + items);
    }
    std::vector<std::string> list;
    for (std::string_view item : SplitAtCommas(text))
    {
        if (item.empty())
        {
            ThrowBadParameter(parameter,
                              QuoteText(text),
                              "an item of the comma-separated list is empty");
        }
        list.emplace_back(item);
    }
    return list;
}

void
SplitAtCommas(std::string_view text, std::vector<std::string_view>& items)
{
    items.clear();
    while (true)
    {
        const std::size_t comma = text.find(',');
        items.push_back(text.substr(0, comma));
        if (comma == std::string_view::npos)
        {
            return;
        }
        text.remove_prefix(comma + 1);
    }
}

std::vector<std::string_view>
SplitAtCommas(std::string_view text)
{
    std::vector<std::string_view> items;
    SplitAtCommas(text, items);
    return items;
}

void
ThrowRepeatedItem(const std::string& text, const std::string& parameter, const std::string& value)
{
    ThrowBadParameter(parameter, QuoteText(text), value + " is named twice");
}

namespace detail
{

std::optional<std::size_t>
FindName(const std::vector<std::vector<std::string>>& names, std::string_view text)
{
    const std::string t = ToLowerAscii(text);
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        for (const std::string& name : names[i])
        {
            if (ToLowerAscii(name) == t)
            {
                return i;
            }
        }
    }
    return std::nullopt;
}

std::string
AllowedNames(const std::vector<std::vector<std::string>>& names)
{
    std::string canonical;
    std::string aliases;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        canonical += (i == 0 ? "" : (i + 1 == names.size() ? " and " : ", ")) + names[i][0];
        for (std::size_t k = 1; k < names[i].size(); ++k)
        {
            aliases += (aliases.empty() ? "" : ", ") + names[i][k];
        }
    }
    return canonical + " (any letter case" + (aliases.empty() ? "" : "; also " + aliases) + ")";
}

} // namespace detail

} // namespace mose
} // namespace ns3
