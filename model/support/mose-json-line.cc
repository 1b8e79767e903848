/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-json-line.h"

#include "mose-parse.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace ns3
{
namespace mose
{

namespace
{

/// \return true for an ASCII digit
bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

} // namespace

JsonLineParser::JsonLineParser(std::string_view text, const LineReader& source)
    : m_text(text),
      m_source(source)
{
}

std::vector<std::string_view>
JsonLineParser::Parse(std::vector<Wanted>& wanted)
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
            const std::string_view key = Member(wanted, keys);
            order.push_back(key);
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

std::string_view
JsonLineParser::Member(std::vector<Wanted>& wanted, std::unordered_set<std::string_view>& keys)
{
    SkipSpace();
    if (!At('"'))
    {
        Fail(m_pos, "expected a key (a string in double quotes), found " + Describe(m_pos));
    }
    const std::size_t keyAt = m_pos;
    const std::string_view key = String();
    if (!keys.insert(key).second)
    {
        Fail(keyAt, "the key " + QuoteFileText(key) + " appears twice");
    }
    SkipSpace();
    if (!At(':'))
    {
        Fail(m_pos,
             "expected ':' after the key " + QuoteFileText(key) + ", found " + Describe(m_pos));
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
    if (w == nullptr)
    {
        Value(1);
        return key;
    }
    if (!(At('-') || (m_pos < m_text.size() && IsDigit(m_text[m_pos]))))
    {
        Fail(m_pos, QuoteFileText(key) + " must be a number, found " + Describe(m_pos));
    }
    w->column = m_pos;
    w->value = Number();
    w->seen = true;
    return key;
}

void
JsonLineParser::RequireAll(const std::vector<Wanted>& wanted, const std::string& form) const
{
    for (const Wanted& w : wanted)
    {
        if (!w.seen)
        {
            Fail(m_text.size(), std::string("missing key \"") + w.key + "\" (" + form + ")");
        }
    }
}

void
JsonLineParser::Fail(std::size_t pos, const std::string& problem) const
{
    m_source.Fail("column " + std::to_string(pos + 1) + ": " + problem);
}

bool
JsonLineParser::At(char c) const
{
    return m_pos < m_text.size() && m_text[m_pos] == c;
}

std::string
JsonLineParser::Describe(std::size_t pos) const
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

void
JsonLineParser::SkipSpace()
{
    while (m_pos < m_text.size() &&
           (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\r'))
    {
        ++m_pos;
    }
}

std::string_view
JsonLineParser::String()
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
            Escape(open);
        }
        ++m_pos;
    }
}

void
JsonLineParser::Escape(std::size_t open)
{
    ++m_pos;
    if (m_pos >= m_text.size())
    {
        Fail(open, "unterminated string");
    }
    const char e = m_text[m_pos];
    if (e == 'u')
    {
        for (std::size_t k = 1; k <= 4; ++k)
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

std::size_t
JsonLineParser::Digits()
{
    std::size_t n = 0;
    while (m_pos < m_text.size() && IsDigit(m_text[m_pos]))
    {
        ++m_pos;
        ++n;
    }
    return n;
}

std::string_view
JsonLineParser::Number()
{
    const std::size_t start = m_pos;
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
    else if (Digits() == 0)
    {
        Fail(start, "malformed number " + QuoteFileText(m_text.substr(start, m_pos - start + 1)));
    }
    if (At('.'))
    {
        ++m_pos;
        if (Digits() == 0)
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
        if (Digits() == 0)
        {
            Fail(start, "malformed number: digits must follow the exponent");
        }
    }
    return m_text.substr(start, m_pos - start);
}

void
JsonLineParser::Literal(std::string_view word)
{
    if (m_text.substr(m_pos, word.size()) != word)
    {
        Fail(m_pos, "expected a JSON value, found " + Describe(m_pos));
    }
    m_pos += word.size();
}

void
JsonLineParser::Value(int depth)
{
    if (depth > MAX_DEPTH)
    {
        Fail(m_pos, "values nest deeper than " + std::to_string(MAX_DEPTH) + " levels");
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
        Container(depth);
    }
    else
    {
        Fail(m_pos, "expected a JSON value, found " + Describe(m_pos));
    }
}

void
JsonLineParser::Container(int depth)
{
    const char c = m_text[m_pos];
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
                Fail(m_pos, "expected a key (a string in double quotes), found " + Describe(m_pos));
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
        Fail(m_pos, std::string("expected ',' or '") + close + "', found " + Describe(m_pos));
    }
}

} // namespace mose
} // namespace ns3
