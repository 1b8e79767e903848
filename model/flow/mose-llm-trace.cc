/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace.h"

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
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLlmTrace");

namespace
{

/// 100 ns ticks per second
constexpr uint64_t TICKS_PER_SECOND = 10000000;
/// ns per Azure tick
constexpr uint64_t NS_PER_TICK = 100;
/// ns per ms
constexpr uint64_t NS_PER_MS = 1000000;
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

    /// A key whose value must be a JSON number, and what Parse() found of it
    struct Wanted
    {
        const char* key;        //!< the key
        std::string_view value; //!< the number's text
        std::size_t column;     //!< 0-based position of the value
        bool seen;              //!< the key is present
    };

    /**
     * \brief Parses the line.
     * \param wanted the keys whose value must be a number: their text and position are filled
     *        in; every other key's value is checked and skipped
     * \return every key of the object, in order; throws a mose::Error
     *         `FILE:LINE: column C: problem`
     */
    std::vector<std::string_view> Parse(std::vector<Wanted>& wanted)
    {
        SkipSpace();
        if (!At('{'))
        {
            Fail(m_pos, "expected a JSON object starting with '{', found " + Describe(m_pos));
        }
        ++m_pos;
        std::vector<std::string_view> order;
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
                order.push_back(key);
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
        return order;
    }

    /**
     * \brief Fails for the first wanted key that is missing.
     * \param wanted the keys, after Parse()
     * \param form what a request of the form has, for the message
     */
    void RequireAll(const std::vector<Wanted>& wanted, const std::string& form) const
    {
        for (const Wanted& w : wanted)
        {
            if (!w.seen)
            {
                Fail(m_text.size(), std::string("missing key \"") + w.key + "\" (" + form + ")");
            }
        }
    }

    /// \brief Throws a mose::Error at a 0-based position of the line
    [[noreturn]] void Fail(std::size_t pos, const std::string& problem) const
    {
        m_source.Fail("column " + std::to_string(pos + 1) + ": " + problem);
    }

  private:
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

  public:
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

    /// \return a time in ns (checked: a non-negative integer, at most MAX_ARRIVAL_NS)
    uint64_t Nanoseconds(const std::string& key, std::string_view text, std::size_t column) const
    {
        if (text.front() == '-')
        {
            Fail(column, key + " " + std::string(text) + " is negative");
        }
        if (text.find_first_of(".eE") != std::string_view::npos)
        {
            Fail(column,
                 key + " " + std::string(text) +
                     " is not a whole number of ns (a JSON integer without fraction or exponent)");
        }
        uint64_t ns = 0;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), ns);
        if (ec != std::errc() || ptr != text.data() + text.size() || ns > MAX_ARRIVAL_NS)
        {
            Fail(column,
                 key + " " + std::string(text) + " is above the cap of " +
                     std::to_string(MAX_ARRIVAL_NS) + " ns");
        }
        return ns;
    }

  private:
    std::string_view m_text;    //!< the line
    const LineReader& m_source; //!< its source
    std::size_t m_pos{0};       //!< the parse position
};

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
    std::vector<JsonLineParser::Wanted> wanted = {{"timestamp", {}, 0, false},
                                                  {"input_length", {}, 0, false},
                                                  {"output_length", {}, 0, false}};
    parser.Parse(wanted);
    parser.RequireAll(wanted, "a Mooncake request has timestamp, input_length and output_length");
    LlmRequest r;
    r.arrivalNs = parser.Milliseconds(wanted[0].value, wanted[0].column);
    r.inputTokens = parser.Tokens("input_length", wanted[1].value, wanted[1].column, 1);
    r.outputTokens = parser.Tokens("output_length", wanted[2].value, wanted[2].column, 0);
    r.traceLine = source.GetLine();
    return r;
}

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

// ---------------------------------------------------------------------------------------------
// The serving simulators' forms and BurstGPT

namespace
{

/// ns per second
constexpr uint64_t NS_PER_S = 1000000000;
/// The longest SplitwiseSim request_id
constexpr std::size_t MAX_ID_LENGTH = 256;
/// Vidur's columns
const std::vector<std::string> VIDUR_COLUMNS = {"arrived_at",
                                                "num_prefill_tokens",
                                                "num_decode_tokens"};
/// Vidur's replay columns
const std::vector<std::string> VIDUR_REPLAY_COLUMNS = {"Date",
                                                       "Time",
                                                       "PromptTokenCount",
                                                       "CompletionTokenCount"};
/// SplitwiseSim's columns
const std::vector<std::string> SPLITWISE_COLUMNS = {"request_id",
                                                    "request_type",
                                                    "application_id",
                                                    "arrival_timestamp",
                                                    "batch_size",
                                                    "prompt_size",
                                                    "token_size"};
/// BurstGPT's columns
const std::vector<std::string> BURSTGPT_COLUMNS =
    {"Timestamp", "Model", "Request tokens", "Response tokens", "Total tokens", "Log Type"};

/// \return the items joined with sep
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

/// \return the CSV forms with their columns, in the order detection tries them
const std::vector<std::pair<LlmTraceFormat, const std::vector<std::string>*>>&
CsvForms()
{
    static const std::vector<std::pair<LlmTraceFormat, const std::vector<std::string>*>> forms = {
        {LlmTraceFormat::AZURE, &AZURE_COLUMNS},
        {LlmTraceFormat::VIDUR, &VIDUR_COLUMNS},
        {LlmTraceFormat::VIDUR_REPLAY, &VIDUR_REPLAY_COLUMNS},
        {LlmTraceFormat::SPLITWISE, &SPLITWISE_COLUMNS},
        {LlmTraceFormat::BURSTGPT, &BURSTGPT_COLUMNS}};
    return forms;
}

/**
 * \brief Reads a non-negative integer written with digits only.
 * \param field the field's name, for the message
 * \param text the text
 * \param[out] value the value
 * \return empty if fine, else the problem
 */
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

/**
 * \brief Reads a time in seconds: digits with an optional decimal point and an optional
 *        exponent, no sign; converted exactly and rounded to the nearest ns, halves up.
 * \param field the field's name, for the message
 * \param text the text
 * \param[out] ns the time in ns
 * \return empty if fine, else the problem
 */
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

/// \return ns as seconds: an integer when whole, else with the fractional digits needed
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

/**
 * \brief The records of a CSV trace: the module's CSV rules (blank and comment lines skipped,
 *        fields trimmed), the header exactly the form's columns, every record as many fields,
 *        none empty.
 */
class CsvRecords
{
  public:
    /**
     * \param in the stream
     * \param name its name in messages
     * \param columns the form's columns
     */
    CsvRecords(std::istream& in, const std::string& name, const std::vector<std::string>& columns)
        : m_source(in, name),
          m_columns(columns),
          m_header(Join(columns, ","))
    {
    }

    /// \brief Reads and checks the header
    void ReadHeader()
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

    /// \return false at the end of the file; else the next record is read and checked
    bool Next()
    {
        if (!NextContent())
        {
            return false;
        }
        Split();
        if (m_fields.size() != m_columns.size())
        {
            Fail("expected " + std::to_string(m_columns.size()) + " fields (" + m_header +
                 "), found " + std::to_string(m_fields.size()) + ": " + QuoteFileText(m_line));
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

    /// \param i a column \return the current record's field
    std::string_view operator[](std::size_t i) const
    {
        return m_fields[i];
    }

    /// \param i a column \return its name
    const std::string& Column(std::size_t i) const
    {
        return m_columns[i];
    }

    /// \return the lines
    const LineReader& GetSource() const
    {
        return m_source;
    }

    /// \brief Throws a mose::Error at the current line \param problem what is wrong
    [[noreturn]] void Fail(const std::string& problem) const
    {
        m_source.Fail(problem);
    }

    /// \brief Fails if the problem is not empty \param problem a Try* function's result
    void Check(const std::string& problem) const
    {
        if (!problem.empty())
        {
            Fail(problem);
        }
    }

    /// \return a token count of column i (at least minimum)
    uint64_t Tokens(std::size_t i, uint64_t minimum) const
    {
        uint64_t v = 0;
        Check(TryParseTokens(m_columns[i], m_fields[i], minimum, v));
        return v;
    }

    /// \return the non-negative integer of column i
    uint64_t Count(std::size_t i) const
    {
        uint64_t v = 0;
        Check(TryParseCount(m_columns[i], m_fields[i], v));
        return v;
    }

    /// \return the seconds of column i, as ns
    uint64_t Seconds(std::size_t i) const
    {
        uint64_t v = 0;
        Check(TryParseSeconds(m_columns[i], m_fields[i], v));
        return v;
    }

  private:
    /// \return false at the end of the file; else m_line is the next line with content
    bool NextContent()
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

    /// \brief Splits m_line into trimmed fields
    void Split()
    {
        SplitAtCommas(m_line, m_fields);
        for (std::string_view& field : m_fields)
        {
            field = TrimBlanks(field);
        }
    }

    LineReader m_source;                       //!< the lines
    const std::vector<std::string>& m_columns; //!< the form's columns
    std::string m_header;                      //!< the header line
    std::string_view m_line;                   //!< the current line
    std::vector<std::string_view> m_fields;    //!< its fields
};

/**
 * \brief The sort check of a trace: every arrival at or after the previous one.
 */
class OrderCheck
{
  public:
    /**
     * \brief Fails unless ns is at or after the previous arrival; then remembers it.
     * \param source the lines (the current one holds the arrival)
     * \param field the arrival's field, for the message
     * \param text its text
     * \param ns the arrival
     * \param unit how the previous arrival is written: "s" or "ns"
     */
    void Check(const LineReader& source,
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

  private:
    bool m_any{false};  //!< an arrival was seen
    uint64_t m_ns{0};   //!< the previous arrival
    uint64_t m_line{0}; //!< its line
};

/**
 * \brief Fails at the end of a CSV trace that kept no request.
 * \param source the lines
 * \param trace what was read
 * \param why what left the requests out, when some were
 */
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

/// \return the requests of a Vidur trace
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

/// \return the requests of a Vidur replay trace, the rows of one Date
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

/// \return the requests of a SplitwiseSim trace of one request_type
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

/// \return the requests of a BurstGPT trace, filtered
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

/// \return the requests of an LLMServingSim trace
LlmTrace
ReadLlmServingSim(std::istream& in, const std::string& name)
{
    LineReader source(in, name);
    std::string_view line;
    LlmTrace trace;
    OrderCheck order;
    while (source.Next(line))
    {
        if (std::all_of(line.begin(), line.end(), [](char c) { return IsBlank(c) || c == '\r'; }))
        {
            continue;
        }
        ++trace.records;
        JsonLineParser parser(line, source);
        std::vector<JsonLineParser::Wanted> wanted = {{"input_toks", {}, 0, false},
                                                      {"output_toks", {}, 0, false},
                                                      {"arrival_time_ns", {}, 0, false}};
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
        r.inputTokens = parser.Tokens("input_toks", wanted[0].value, wanted[0].column, 1);
        r.outputTokens = parser.Tokens("output_toks", wanted[1].value, wanted[1].column, 0);
        r.arrivalNs = parser.Nanoseconds("arrival_time_ns", wanted[2].value, wanted[2].column);
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

/// \brief Checks the filters' values and that each given one belongs to the form read
void
CheckTraceOptions(const LlmTraceReadOptions& options, LlmTraceFormat format)
{
    auto checkValue = [](const std::string& name,
                         const std::string& value,
                         const std::vector<std::string>& allowed) {
        if (!value.empty() && std::find(allowed.begin(), allowed.end(), value) == allowed.end())
        {
            ThrowBadParameter(name, QuoteText(value), "one of " + Join(allowed, ", "));
        }
    };
    checkValue("model", options.model, BURSTGPT_MODELS);
    checkValue("logType", options.logType, BURSTGPT_LOG_TYPES);
    if (format == LlmTraceFormat::AUTO)
    {
        return;
    }
    auto only = [format](const std::string& name, const std::string& value, LlmTraceFormat form) {
        if (format != form)
        {
            ThrowBadParameter(name,
                              value,
                              "only for the " + ToString(form) + " form; the trace is read as " +
                                  ToString(format) + ", which has no such filter");
        }
    };
    if (!options.model.empty())
    {
        only("model", QuoteText(options.model), LlmTraceFormat::BURSTGPT);
    }
    if (!options.logType.empty())
    {
        only("logType", QuoteText(options.logType), LlmTraceFormat::BURSTGPT);
    }
    if (options.keepFailed)
    {
        only("keepFailed", "true", LlmTraceFormat::BURSTGPT);
    }
    if (options.requestType != SPLITWISE_LLM_REQUEST_TYPE)
    {
        only("requestType", std::to_string(options.requestType), LlmTraceFormat::SPLITWISE);
    }
    if (!options.date.empty())
    {
        only("date", QuoteText(options.date), LlmTraceFormat::VIDUR_REPLAY);
    }
}

/// \brief Writes requests in one of the forms this section adds
void
PutLlmTrace(const std::vector<LlmRequest>& requests, LlmTraceFormat format, std::ostream& out)
{
    switch (format)
    {
    case LlmTraceFormat::VIDUR:
        out << Join(VIDUR_COLUMNS, ",") << '\n';
        for (const LlmRequest& r : requests)
        {
            out << FormatSeconds(r.arrivalNs) << ',' << r.inputTokens << ',' << r.outputTokens
                << '\n';
        }
        break;
    case LlmTraceFormat::VIDUR_REPLAY:
        out << Join(VIDUR_REPLAY_COLUMNS, ",") << '\n';
        for (const LlmRequest& r : requests)
        {
            out << DEFAULT_VIDUR_DATE << ',' << FormatSeconds(r.arrivalNs) << ',' << r.inputTokens
                << ',' << r.outputTokens << '\n';
        }
        break;
    case LlmTraceFormat::SPLITWISE:
        out << Join(SPLITWISE_COLUMNS, ",") << '\n';
        for (std::size_t i = 0; i < requests.size(); ++i)
        {
            const LlmRequest& r = requests[i];
            out << (r.traceId.empty() ? std::to_string(i) : r.traceId) << ','
                << SPLITWISE_LLM_REQUEST_TYPE << ",0," << FormatSeconds(r.arrivalNs) << ",1,"
                << r.inputTokens << ',' << r.outputTokens << '\n';
        }
        break;
    case LlmTraceFormat::LLMSERVINGSIM:
        for (const LlmRequest& r : requests)
        {
            out << "{\"input_toks\": " << r.inputTokens << ", \"output_toks\": " << r.outputTokens
                << ", \"arrival_time_ns\": " << r.arrivalNs << "}\n";
        }
        break;
    case LlmTraceFormat::BURSTGPT:
        out << Join(BURSTGPT_COLUMNS, ",") << '\n';
        for (const LlmRequest& r : requests)
        {
            out << FormatSeconds(r.arrivalNs) << ',' << BURSTGPT_MODELS[0] << ',' << r.inputTokens
                << ',' << r.outputTokens << ',' << r.inputTokens + r.outputTokens << ','
                << BURSTGPT_LOG_TYPES[0] << '\n';
        }
        break;
    default:
        throw Error("PutLlmTrace: " + ToString(format) + " is not a form of this section");
    }
}

/// \brief Checks requests for WriteLlmTrace() in a form of this section
void
PrepareLlmTrace(const std::vector<LlmRequest>& requests, LlmTraceFormat format)
{
    ValidateLlmRequests(requests, "requests");
    if (format != LlmTraceFormat::SPLITWISE)
    {
        return;
    }
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

} // namespace

const std::vector<std::string> BURSTGPT_MODELS = {"ChatGPT", "GPT-4"};
const std::vector<std::string> BURSTGPT_LOG_TYPES = {"Conversation log", "API log"};

const std::vector<EnumEntry<LlmTraceFormat>>&
EnumTable<LlmTraceFormat>::Get()
{
    static const std::vector<EnumEntry<LlmTraceFormat>> names = {
        {LlmTraceFormat::AUTO, "auto", {}},
        {LlmTraceFormat::AZURE, "azure", {}},
        {LlmTraceFormat::MOONCAKE, "mooncake", {}},
        {LlmTraceFormat::VIDUR, "vidur", {}},
        {LlmTraceFormat::VIDUR_REPLAY, "vidur-replay", {}},
        {LlmTraceFormat::SPLITWISE, "splitwise", {"splitwisesim"}},
        {LlmTraceFormat::LLMSERVINGSIM, "llmservingsim", {}},
        {LlmTraceFormat::BURSTGPT, "burstgpt", {}},
    };
    return names;
}

LlmTraceFormat
DetectLlmTraceFormat(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(name);
    LineReader source(in, name);
    std::string_view line;
    while (source.Next(line))
    {
        const std::string_view text = TrimBlanks(line);
        if (text.empty() || text.front() == '#' || text == "\r")
        {
            continue;
        }
        if (text.front() == '{')
        {
            JsonLineParser parser(line, source);
            std::vector<JsonLineParser::Wanted> none;
            const std::vector<std::string_view> keys = parser.Parse(none);
            auto has = [&keys](std::string_view key) {
                return std::find(keys.begin(), keys.end(), key) != keys.end();
            };
            if (has("input_length"))
            {
                return LlmTraceFormat::MOONCAKE;
            }
            if (has("input_toks") || has("sub_requests"))
            {
                return LlmTraceFormat::LLMSERVINGSIM;
            }
            source.Fail("a JSON object with neither \"input_length\" (Mooncake) nor "
                        "\"input_toks\" (LLMServingSim): the form cannot be told from it");
        }
        std::vector<std::string_view> fields = SplitAtCommas(text);
        for (std::string_view& field : fields)
        {
            field = TrimBlanks(field);
        }
        std::string known;
        for (const auto& [format, columns] : CsvForms())
        {
            if (fields.size() == columns->size() &&
                std::equal(fields.begin(), fields.end(), columns->begin()))
            {
                return format;
            }
            known += ToString(format) + " " + QuoteText(Join(*columns, ",")) + "; ";
        }
        source.Fail("the first line " + QuoteFileText(text) +
                    " is the header of no known trace form: " + known +
                    "or a JSON object per line (mooncake, llmservingsim)");
    }
    source.Fail("at end of file: no header or JSON line (an empty file is no trace)");
}

LlmTraceFormat
DetectLlmTraceFormat(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ifstream file;
    OpenForReading(path, file);
    return DetectLlmTraceFormat(file, path);
}

LlmTrace
ReadLlmTrace(std::istream& in, const std::string& name, const LlmTraceReadOptions& options)
{
    NS_LOG_FUNCTION(name << ToString(options.format));
    CheckTraceOptions(options, LlmTraceFormat::AUTO);
    LlmTraceFormat format = options.format;
    if (format == LlmTraceFormat::AUTO)
    {
        const std::istream::pos_type start = in.tellg();
        if (start == std::istream::pos_type(-1))
        {
            throw Error(name + ": the form of a stream that cannot be rewound cannot be "
                               "detected; give the form");
        }
        format = DetectLlmTraceFormat(in, name);
        in.clear();
        in.seekg(start);
        if (!in)
        {
            throw Error(name + ": cannot rewind the stream after detecting its form");
        }
    }
    CheckTraceOptions(options, format);
    LlmTrace trace;
    switch (format)
    {
    case LlmTraceFormat::AZURE:
        trace.requests = ReadAzureTraceCsv(in, name);
        trace.records = trace.requests.size();
        break;
    case LlmTraceFormat::MOONCAKE:
        trace.requests = ReadMooncakeTraceJsonl(in, name);
        trace.records = trace.requests.size();
        break;
    case LlmTraceFormat::VIDUR:
        trace = ReadVidur(in, name);
        break;
    case LlmTraceFormat::VIDUR_REPLAY:
        trace = ReadVidurReplay(in, name, options.date);
        break;
    case LlmTraceFormat::SPLITWISE:
        trace = ReadSplitwise(in, name, options.requestType);
        break;
    case LlmTraceFormat::LLMSERVINGSIM:
        trace = ReadLlmServingSim(in, name);
        break;
    case LlmTraceFormat::BURSTGPT:
        trace = ReadBurstGpt(in, name, options);
        break;
    default:
        throw Error("ReadLlmTrace: no form");
    }
    trace.format = format;
    NS_LOG_INFO("read " << name << " (" << ToString(format) << "): " << trace.requests.size()
                        << " of " << trace.records << " requests, " << trace.filtered
                        << " filtered, " << trace.failed << " failed");
    return trace;
}

LlmTrace
ReadLlmTrace(const std::string& path, const LlmTraceReadOptions& options)
{
    NS_LOG_FUNCTION(path);
    std::ifstream file;
    OpenForReading(path, file);
    return ReadLlmTrace(file, path, options);
}

void
WriteLlmTrace(const std::vector<LlmRequest>& requests, LlmTraceFormat format, std::ostream& out)
{
    NS_LOG_FUNCTION(requests.size() << ToString(format));
    switch (format)
    {
    case LlmTraceFormat::AUTO:
        ThrowBadParameter("format",
                          "auto",
                          "a form to write (" + AllowedEnumNames<LlmTraceFormat>() + ")");
    case LlmTraceFormat::AZURE:
        WriteAzureTraceCsv(requests, out);
        return;
    case LlmTraceFormat::MOONCAKE:
        WriteMooncakeTraceJsonl(requests, out);
        return;
    default:
        PrepareLlmTrace(requests, format);
        PutLlmTrace(requests, format, out);
        CheckWritten(out, "output stream");
    }
}

void
WriteLlmTrace(const std::vector<LlmRequest>& requests,
              LlmTraceFormat format,
              const std::string& path)
{
    NS_LOG_FUNCTION(requests.size() << ToString(format) << path);
    switch (format)
    {
    case LlmTraceFormat::AUTO:
        ThrowBadParameter("format",
                          "auto",
                          "a form to write (" + AllowedEnumNames<LlmTraceFormat>() + ")");
    case LlmTraceFormat::AZURE:
        WriteAzureTraceCsv(requests, path);
        return;
    case LlmTraceFormat::MOONCAKE:
        WriteMooncakeTraceJsonl(requests, path);
        return;
    default:
        PrepareLlmTrace(requests, format);
        WriteTextFile(path, [&](std::ostream& out) { PutLlmTrace(requests, format, out); });
    }
}

} // namespace mose
} // namespace ns3