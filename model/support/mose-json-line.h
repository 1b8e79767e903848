/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_JSON_LINE_H
#define MOSE_JSON_LINE_H

#include "mose-text-io.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

/**
 * \file
 * \ingroup mose-support
 * \brief JsonLineParser: a strict parser of one line of a JSON lines file, one object a line
 *        (the Mooncake and LLMServingSim request traces, mose-llm-trace.h).
 *
 * Hand-written because the project has no JSON library among its dependencies: Debian 12
 * packages nlohmann-json3-dev, but adding it would mean a new build dependency
 * (utils/install-deps.sh, the in-tree check) for one flat object per line.
 *
 * The grammar is RFC 8259's, restricted to what a line holds: one object, alone on its line
 * (JSON whitespace around it: space, tab, CR), whose values may be any JSON value: strings with
 * their escapes, numbers, true, false, null, arrays and objects nested at most
 * JsonLineParser::MAX_DEPTH deep. What it checks and refuses:
 *
 * - a key of the object may appear only once (keys of nested objects are not compared); keys
 *   are compared as written, escapes not decoded;
 * - strings end on their line, hold no control character (below 0x20), and use only the
 *   escapes \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\u with 4 hexadecimal digits;
 * - numbers follow JSON: an optional minus, no leading zero, no `+`, digits after a decimal
 *   point and after an exponent;
 * - nothing but whitespace may follow the object.
 *
 * The caller names the keys whose value must be a number (JsonLineParser::Wanted): their text
 * and column are handed back, for the caller to interpret; every other value is checked and
 * skipped. The first problem throws a mose::Error `FILE:LINE: column C: problem` through the
 * line's LineReader, C being the 1-based column of the problem.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief A strict parser of one JSON lines line: one object, the numbers of some keys handed
 *        back, every other value checked and skipped (see the file's documentation).
 */
class JsonLineParser
{
  public:
    /// How deep values may nest (an object's values are at depth 1)
    static constexpr int MAX_DEPTH = 64;

    /**
     * \param text the line, without its line end (it must outlive the parser)
     * \param source the line's source, whose Fail() reports the problems (file and line)
     */
    JsonLineParser(std::string_view text, const LineReader& source);

    /// A key whose value must be a JSON number, and what Parse() found of it
    struct Wanted
    {
        const char* key;          //!< the key, as written in the line
        std::string_view value{}; //!< the number's text, JSON's grammar checked
        std::size_t column{0};    //!< 0-based position of the value in the line
        bool seen{false};         //!< the key is present
    };

    /**
     * \brief Parses the line.
     * \param wanted the keys whose value must be a number: their text and position are filled
     *        in; every other key's value is checked and skipped
     * \return every key of the object, in order, as written; throws a mose::Error
     *         `FILE:LINE: column C: problem`
     */
    std::vector<std::string_view> Parse(std::vector<Wanted>& wanted);

    /**
     * \brief Fails for the first wanted key that is missing, at the end of the line.
     * \param wanted the keys, after Parse()
     * \param form what an object of the form has, for the message
     */
    void RequireAll(const std::vector<Wanted>& wanted, const std::string& form) const;

    /**
     * \brief Throws a mose::Error `FILE:LINE: column C: problem`.
     * \param pos a 0-based position of the line (C is pos + 1)
     * \param problem what is wrong
     */
    [[noreturn]] void Fail(std::size_t pos, const std::string& problem) const;

  private:
    /// \return true if the character at the position is c
    bool At(char c) const;

    /// \return the character at pos for a message: 'x', \xNN or "end of line"
    std::string Describe(std::size_t pos) const;

    /// \brief Skips JSON whitespace (space, tab, CR; a line holds no LF)
    void SkipSpace();

    /**
     * \brief Parses one member of the object at m_pos: its key, ':' and its value
     * \param wanted the keys whose value must be a number
     * \param keys the keys seen so far, the new one added (a repeated key fails)
     * \return the member's key
     */
    std::string_view Member(std::vector<Wanted>& wanted,
                            std::unordered_set<std::string_view>& keys);

    /// \return the contents of the string at m_pos (escapes checked, not decoded)
    std::string_view String();

    /**
     * \brief Checks the escape sequence whose backslash is at m_pos; leaves m_pos on its last
     *        character
     * \param open where the string starts, for the message of an unterminated one
     */
    void Escape(std::size_t open);

    /// \return the text of the number at m_pos, checked against JSON's number grammar
    std::string_view Number();

    /// \return the number of digits skipped from m_pos
    std::size_t Digits();

    /// \brief Checks and skips a literal (true, false, null) \param word the literal
    void Literal(std::string_view word);

    /// \brief Checks and skips any JSON value at m_pos \param depth its nesting depth
    void Value(int depth);

    /// \brief Checks and skips the array or object at m_pos \param depth its nesting depth
    void Container(int depth);

    std::string_view m_text;    //!< the line
    const LineReader& m_source; //!< its source
    std::size_t m_pos{0};       //!< the parse position
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_JSON_LINE_H */
