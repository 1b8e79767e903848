/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-request.h"

#include "mose-file-io.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <system_error>
#include <unordered_set>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLlmRequest");

namespace
{

/// 100 ns ticks per second
constexpr uint64_t TICKS_PER_SECOND = 10000000;
/// ns per Azure tick
constexpr uint64_t NS_PER_TICK = 100;
/// ns per ms
constexpr uint64_t NS_PER_MS = 1000000;
/// pi, for the Box-Muller transform
constexpr double PI = 3.14159265358979323846;
/// How deep ignored JSON values may nest
constexpr int MAX_JSON_DEPTH = 64;
/// The Azure header
const std::string AZURE_HEADER = "TIMESTAMP,ContextTokens,GeneratedTokens";
/// The Azure columns
const std::vector<std::string> AZURE_COLUMNS = {"TIMESTAMP", "ContextTokens", "GeneratedTokens"};
/// The form of an Azure time, for messages
const std::string AZURE_TIME_FORM = "YYYY-MM-DD HH:MM:SS[.fffffff][+00:00]";

/// \return true for an ASCII digit
bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// \return true if the text is one or more digits
bool
AllDigits(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), IsDigit);
}

/**
 * \brief Reads a token count: digits only, at most MAX_REQUEST_TOKENS.
 * \param field the field's name, for the message
 * \param text the text
 * \param minimum the least value allowed (0 or 1)
 * \param[out] value the count
 * \return empty if fine, else the problem
 */
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

// ---------------------------------------------------------------------------------------------
// Civil dates (proleptic Gregorian; H. Hinnant's days_from_civil / civil_from_days)

/// \return days from 1970-01-01 to y-m-d
int64_t
DaysFromCivil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2 ? 1 : 0;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

/// \brief y-m-d of the day z days after 1970-01-01
void
CivilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = static_cast<int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2 ? 1 : 0;
}

/// Days from 0001-01-01 to 1970-01-01
const int64_t EPOCH_DAYS = -DaysFromCivil(1, 1, 1);
/// Ticks from 0001-01-01 to 10000-01-01: the first time that cannot be written
const uint64_t END_TICKS =
    static_cast<uint64_t>(DaysFromCivil(10000, 1, 1) + EPOCH_DAYS) * 86400 * TICKS_PER_SECOND;

/// \return true in a Gregorian leap year
bool
IsLeapYear(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/// \return the number of days of the month
unsigned
DaysInMonth(int64_t y, unsigned m)
{
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && IsLeapYear(y) ? 29 : days[m - 1];
}

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

// ---------------------------------------------------------------------------------------------
// JSON lines

/**
 * \brief A strict parser of one JSON line of the Mooncake form.
 *
 * Hand-rolled because the project has no JSON library among its dependencies: Debian 12 packages
 * nlohmann-json3-dev, but adding it would mean a new build dependency (utils/install-deps.sh,
 * the in-tree check) for one flat object per line. The grammar is RFC 8259's, restricted to what
 * a line holds: an object whose values may be any JSON value (strings with their escapes, numbers,
 * true, false, null, arrays and objects nested at most MAX_JSON_DEPTH deep); only the three keys
 * that matter are interpreted, the rest are checked and skipped.
 */
class JsonLineParser
{
  public:
    /**
     * \param text the line, without its line end
     * \param source the line's source, for messages
     */
    JsonLineParser(std::string_view text, const LineReader& source)
        : m_text(text),
          m_source(source)
    {
    }

    /**
     * \brief Parses the line.
     * \return the request it holds; throws a mose::Error `FILE:LINE: column C: problem`
     */
    LlmRequest Parse()
    {
        SkipSpace();
        if (!At('{'))
        {
            Fail(m_pos, "expected a JSON object starting with '{', found " + Describe(m_pos));
        }
        ++m_pos;

        struct Wanted
        {
            const char* key;
            std::string_view value;
            std::size_t column;
            bool seen;
        };

        Wanted wanted[] = {{"timestamp", {}, 0, false},
                           {"input_length", {}, 0, false},
                           {"output_length", {}, 0, false}};
        std::unordered_set<std::string_view> keys;
        SkipSpace();
        if (At('}'))
        {
            ++m_pos;
        }
        else
        {
            while (true)
            {
                SkipSpace();
                if (!At('"'))
                {
                    Fail(m_pos,
                         "expected a key (a string in double quotes), found " + Describe(m_pos));
                }
                const std::size_t keyAt = m_pos;
                std::string_view key = String();
                if (!keys.insert(key).second)
                {
                    Fail(keyAt, "the key " + QuoteFileText(key) + " appears twice");
                }
                SkipSpace();
                if (!At(':'))
                {
                    Fail(m_pos,
                         "expected ':' after the key " + QuoteFileText(key) + ", found " +
                             Describe(m_pos));
                }
                ++m_pos;
                SkipSpace();
                Wanted* w = nullptr;
                for (Wanted& candidate : wanted)
                {
                    if (key == candidate.key)
                    {
                        w = &candidate;
                    }
                }
                if (w != nullptr)
                {
                    if (!(At('-') || (m_pos < m_text.size() && IsDigit(m_text[m_pos]))))
                    {
                        Fail(m_pos,
                             QuoteFileText(key) + " must be a number, found " + Describe(m_pos));
                    }
                    w->column = m_pos;
                    w->value = Number();
                    w->seen = true;
                }
                else
                {
                    Value(1);
                }
                SkipSpace();
                if (At(','))
                {
                    ++m_pos;
                    continue;
                }
                if (At('}'))
                {
                    ++m_pos;
                    break;
                }
                Fail(m_pos,
                     "expected ',' or '}' after the value of " + QuoteFileText(key) + ", found " +
                         Describe(m_pos));
            }
        }
        SkipSpace();
        if (m_pos < m_text.size())
        {
            Fail(m_pos, "unexpected text after the object: " + QuoteFileText(m_text.substr(m_pos)));
        }
        for (const Wanted& w : wanted)
        {
            if (!w.seen)
            {
                Fail(m_text.size(),
                     std::string("missing key \"") + w.key +
                         "\" (a Mooncake request has timestamp, input_length and output_length)");
            }
        }
        LlmRequest r;
        r.arrivalNs = Milliseconds(wanted[0].value, wanted[0].column);
        r.inputTokens = Tokens("input_length", wanted[1].value, wanted[1].column, 1);
        r.outputTokens = Tokens("output_length", wanted[2].value, wanted[2].column, 0);
        return r;
    }

  private:
    /// \brief Throws a mose::Error at a 0-based position of the line
    [[noreturn]] void Fail(std::size_t pos, const std::string& problem) const
    {
        m_source.Fail("column " + std::to_string(pos + 1) + ": " + problem);
    }

    /// \return true if the character at the position is c
    bool At(char c) const
    {
        return m_pos < m_text.size() && m_text[m_pos] == c;
    }

    /// \return the character at pos for a message: 'x', \xNN or "end of line"
    std::string Describe(std::size_t pos) const
    {
        if (pos >= m_text.size())
        {
            return "end of line";
        }
        auto u = static_cast<unsigned char>(m_text[pos]);
        if (u >= 0x20 && u < 0x7f)
        {
            return std::string("'") + m_text[pos] + "'";
        }
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\x%02X", static_cast<unsigned>(u));
        return buf;
    }

    /// \brief Skips JSON whitespace (space, tab, CR; a line holds no LF)
    void SkipSpace()
    {
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\r'))
        {
            ++m_pos;
        }
    }

    /// \return the contents of the string at m_pos (escapes checked, not decoded)
    std::string_view String()
    {
        const std::size_t open = m_pos++;
        while (true)
        {
            if (m_pos >= m_text.size())
            {
                Fail(open, "unterminated string");
            }
            auto c = static_cast<unsigned char>(m_text[m_pos]);
            if (c == '"')
            {
                ++m_pos;
                return m_text.substr(open + 1, m_pos - open - 2);
            }
            if (c < 0x20)
            {
                Fail(m_pos, "control character " + Describe(m_pos) + " in a string");
            }
            if (c == '\\')
            {
                ++m_pos;
                if (m_pos >= m_text.size())
                {
                    Fail(open, "unterminated string");
                }
                char e = m_text[m_pos];
                if (e == 'u')
                {
                    for (int k = 1; k <= 4; ++k)
                    {
                        if (m_pos + k >= m_text.size() ||
                            !std::isxdigit(static_cast<unsigned char>(m_text[m_pos + k])))
                        {
                            Fail(m_pos - 1, "\\u must be followed by 4 hexadecimal digits");
                        }
                    }
                    m_pos += 4;
                }
                else if (std::strchr("\"\\/bfnrt", e) == nullptr || e == '\0')
                {
                    Fail(m_pos - 1, "invalid escape \\" + std::string(1, e) + " in a string");
                }
            }
            ++m_pos;
        }
    }

    /// \return the text of the number at m_pos, checked against JSON's number grammar
    std::string_view Number()
    {
        const std::size_t start = m_pos;
        auto digits = [this]() {
            std::size_t n = 0;
            while (m_pos < m_text.size() && IsDigit(m_text[m_pos]))
            {
                ++m_pos;
                ++n;
            }
            return n;
        };
        if (At('-'))
        {
            ++m_pos;
        }
        if (At('0'))
        {
            ++m_pos;
            if (m_pos < m_text.size() && IsDigit(m_text[m_pos]))
            {
                Fail(start, "malformed number: a JSON number has no leading zeros");
            }
        }
        else if (digits() == 0)
        {
            Fail(start,
                 "malformed number " + QuoteFileText(m_text.substr(start, m_pos - start + 1)));
        }
        if (At('.'))
        {
            ++m_pos;
            if (digits() == 0)
            {
                Fail(start, "malformed number: digits must follow the decimal point");
            }
        }
        if (At('e') || At('E'))
        {
            ++m_pos;
            if (At('+') || At('-'))
            {
                ++m_pos;
            }
            if (digits() == 0)
            {
                Fail(start, "malformed number: digits must follow the exponent");
            }
        }
        return m_text.substr(start, m_pos - start);
    }

    /// \brief Checks and skips a literal (true, false, null)
    void Literal(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
        {
            Fail(m_pos, "expected a JSON value, found " + Describe(m_pos));
        }
        m_pos += word.size();
    }

    /// \brief Checks and skips any JSON value at m_pos \param depth its nesting depth
    void Value(int depth)
    {
        if (depth > MAX_JSON_DEPTH)
        {
            Fail(m_pos, "values nest deeper than " + std::to_string(MAX_JSON_DEPTH) + " levels");
        }
        if (m_pos >= m_text.size())
        {
            Fail(m_pos, "expected a JSON value, found end of line");
        }
        const char c = m_text[m_pos];
        if (c == '"')
        {
            String();
        }
        else if (c == '-' || IsDigit(c))
        {
            Number();
        }
        else if (c == 't')
        {
            Literal("true");
        }
        else if (c == 'f')
        {
            Literal("false");
        }
        else if (c == 'n')
        {
            Literal("null");
        }
        else if (c == '[' || c == '{')
        {
            const char close = c == '[' ? ']' : '}';
            ++m_pos;
            SkipSpace();
            if (At(close))
            {
                ++m_pos;
                return;
            }
            while (true)
            {
                SkipSpace();
                if (c == '{')
                {
                    if (!At('"'))
                    {
                        Fail(m_pos,
                             "expected a key (a string in double quotes), found " +
                                 Describe(m_pos));
                    }
                    String();
                    SkipSpace();
                    if (!At(':'))
                    {
                        Fail(m_pos, "expected ':' after a key, found " + Describe(m_pos));
                    }
                    ++m_pos;
                    SkipSpace();
                }
                Value(depth + 1);
                SkipSpace();
                if (At(','))
                {
                    ++m_pos;
                    continue;
                }
                if (At(close))
                {
                    ++m_pos;
                    return;
                }
                Fail(m_pos,
                     std::string("expected ',' or '") + close + "', found " + Describe(m_pos));
            }
        }
        else
        {
            Fail(m_pos, "expected a JSON value, found " + Describe(m_pos));
        }
    }

    /// \return the timestamp in ms as ns (checked: non-negative, <= 6 decimals, no exponent)
    uint64_t Milliseconds(std::string_view text, std::size_t column) const
    {
        if (text.front() == '-')
        {
            Fail(column, "timestamp " + std::string(text) + " is negative");
        }
        if (text.find_first_of("eE") != std::string_view::npos)
        {
            Fail(column,
                 "timestamp " + std::string(text) +
                     " is in exponent notation; write milliseconds as digits, e.g. 1500 or 1.5");
        }
        std::string_view whole = text.substr(0, text.find('.'));
        std::string_view fraction =
            whole.size() < text.size() ? text.substr(whole.size() + 1) : std::string_view();
        if (fraction.size() > 6)
        {
            Fail(column,
                 "timestamp " + std::string(text) +
                     " has more than 6 fractional digits (the resolution is 1 ns)");
        }
        const uint64_t maxMs = MAX_ARRIVAL_NS / NS_PER_MS;
        uint64_t ms = 0;
        auto [ptr, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), ms);
        if (ec != std::errc() || ptr != whole.data() + whole.size() || ms > maxMs)
        {
            Fail(column,
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
            Fail(column,
                 "timestamp " + std::string(text) + " is above the cap of " +
                     std::to_string(maxMs) + " ms (" + std::to_string(MAX_ARRIVAL_NS) + " ns)");
        }
        return total;
    }

    /// \return a token count (checked: integer, within the cap, at least minimum)
    uint64_t Tokens(const std::string& key,
                    std::string_view text,
                    std::size_t column,
                    uint64_t minimum) const
    {
        if (text.front() != '-' && text.find_first_of(".eE") != std::string_view::npos)
        {
            Fail(column,
                 key + " " + std::string(text) +
                     " is not a token count (a non-negative integer without fraction or "
                     "exponent)");
        }
        uint64_t v = 0;
        std::string problem = TryParseTokens(key, text, minimum, v);
        if (!problem.empty())
        {
            Fail(column, problem);
        }
        return v;
    }

    std::string_view m_text;    //!< the line
    const LineReader& m_source; //!< its source
    std::size_t m_pos{0};       //!< the parse position
};

// ---------------------------------------------------------------------------------------------
// Writers

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

// ---------------------------------------------------------------------------------------------
// Generator

/// \brief Checks a token-length distribution; names its fields "NAME.mean", ...
void
ValidateDistribution(const TokenLengthDistribution& d, const std::string& name)
{
    if (!(d.mean > 0.0 && std::isfinite(d.mean)))
    {
        ThrowBadParameter(name + ".mean", FormatNumber(d.mean), "a positive, finite mean");
    }
    if (!(d.sigma >= 0.0 && d.sigma <= 10.0))
    {
        ThrowBadParameter(name + ".sigma", FormatNumber(d.sigma), "0 <= sigma <= 10");
    }
    if (d.min < 1)
    {
        ThrowBadParameter(name + ".min", std::to_string(d.min), "at least 1 token");
    }
    if (d.max < d.min || d.max > MAX_REQUEST_TOKENS)
    {
        ThrowBadParameter(name + ".max",
                          std::to_string(d.max),
                          name + ".min = " + std::to_string(d.min) +
                              " <= max <= " + std::to_string(MAX_REQUEST_TOKENS));
    }
}

/// \return a standard normal from two uniform draws (Box-Muller, cosine half)
double
DrawNormal(Random& rng)
{
    const double u1 = rng.Uniform01();
    const double u2 = rng.Uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * PI * u2);
}

/// \return one token length drawn from the distribution
uint64_t
DrawLength(const TokenLengthDistribution& d, Random& rng)
{
    const double z = DrawNormal(rng);
    const double mu = std::log(d.mean) - d.sigma * d.sigma / 2.0;
    const double x = std::exp(mu + d.sigma * z);
    const double clamped =
        std::min(std::max(x, static_cast<double>(d.min)), static_cast<double>(d.max));
    return static_cast<uint64_t>(std::llround(clamped));
}

} // namespace

void
ValidateLlmRequests(const std::vector<LlmRequest>& requests, const std::string& name)
{
    NS_LOG_FUNCTION(requests.size() << name);
    for (std::size_t i = 0; i < requests.size(); ++i)
    {
        const LlmRequest& r = requests[i];
        const std::string at = name + "[" + std::to_string(i) + "]";
        if (r.arrivalNs > MAX_ARRIVAL_NS)
        {
            ThrowBadParameter(at + ".arrivalNs",
                              std::to_string(r.arrivalNs),
                              "at most " + std::to_string(MAX_ARRIVAL_NS) + " ns");
        }
        if (i > 0 && r.arrivalNs < requests[i - 1].arrivalNs)
        {
            ThrowBadParameter(at + ".arrivalNs",
                              std::to_string(r.arrivalNs),
                              "requests sorted by arrival: the previous one arrives at " +
                                  std::to_string(requests[i - 1].arrivalNs) + " ns");
        }
        if (r.inputTokens < 1 || r.inputTokens > MAX_REQUEST_TOKENS)
        {
            ThrowBadParameter(at + ".inputTokens",
                              std::to_string(r.inputTokens),
                              "1 <= inputTokens <= " + std::to_string(MAX_REQUEST_TOKENS));
        }
        if (r.outputTokens > MAX_REQUEST_TOKENS)
        {
            ThrowBadParameter(at + ".outputTokens",
                              std::to_string(r.outputTokens),
                              "outputTokens <= " + std::to_string(MAX_REQUEST_TOKENS));
        }
    }
}

uint64_t
GetKvBytes(const LlmRequest& request, const ModelShape& shape)
{
    return shape.GetKvBytes(request.inputTokens);
}

std::vector<LlmRequest>
GenerateLlmRequests(const LlmRequestGeneratorOptions& options, Random& rng)
{
    NS_LOG_FUNCTION(options.requests << options.rate << options.tickNs << &rng);
    if (options.requests == 0)
    {
        ThrowBadParameter("requests", "0", "at least 1 request");
    }
    if (!(options.rate > 0.0 && std::isfinite(options.rate)))
    {
        ThrowBadParameter("rate",
                          FormatNumber(options.rate),
                          "a positive, finite arrival rate in requests per second");
    }
    ValidateDistribution(options.input, "input");
    ValidateDistribution(options.output, "output");
    if (options.tickNs == 0 || options.tickNs > MAX_ARRIVAL_NS)
    {
        ThrowBadParameter("tickNs",
                          std::to_string(options.tickNs),
                          "1 <= tickNs <= " + std::to_string(MAX_ARRIVAL_NS));
    }
    std::vector<LlmRequest> requests;
    requests.reserve(static_cast<std::size_t>(std::min<uint64_t>(options.requests, 1 << 20)));
    const auto tick = static_cast<double>(options.tickNs);
    const uint64_t maxTicks = MAX_ARRIVAL_NS / options.tickNs;
    double seconds = 0.0;
    for (uint64_t i = 0; i < options.requests; ++i)
    {
        if (i > 0)
        {
            seconds += -std::log(rng.Uniform01()) / options.rate;
        }
        const double ticks = std::nearbyint(seconds * 1e9 / tick);
        if (!(ticks <= static_cast<double>(maxTicks)))
        {
            ThrowBadParameter("requests",
                              std::to_string(options.requests),
                              "arrivals within " + std::to_string(MAX_ARRIVAL_NS) +
                                  " ns: at rate = " + FormatNumber(options.rate) + "/s request " +
                                  std::to_string(i) + " arrives after " + FormatNumber(seconds) +
                                  " s");
        }
        LlmRequest r;
        r.arrivalNs = static_cast<uint64_t>(ticks) * options.tickNs;
        r.inputTokens = DrawLength(options.input, rng);
        r.outputTokens = DrawLength(options.output, rng);
        requests.push_back(r);
    }
    NS_LOG_INFO("generated " << requests.size() << " requests over "
                             << static_cast<double>(requests.back().arrivalNs) * 1e-9 << " s");
    return requests;
}

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
    int64_t y = 0;
    unsigned m = 0;
    unsigned d = 0;
    CivilFromDays(static_cast<int64_t>(days) - EPOCH_DAYS, y, m, d);
    char buf[64];
    std::snprintf(buf,
                  sizeof(buf),
                  "%04lld-%02u-%02u %02u:%02u:%02u.%07llu",
                  static_cast<long long>(y),
                  m,
                  d,
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
        if (std::all_of(line.begin(), line.end(), [](char c) { return IsBlank(c) || c == '\r'; }))
        {
            continue;
        }
        LlmRequest r = JsonLineParser(line, source).Parse();
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
