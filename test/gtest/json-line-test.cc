/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The JSON lines parser (mose-json-line.h): what it accepts, the numbers it hands back with
// their columns, and the message of each thing it refuses. Columns are counted by hand from the
// lines as written here (1-based in messages, 0-based in Wanted::column).

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-json-line.h"
#include "ns3/mose-text-io.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// One line of a file "t.jsonl", read through a LineReader as the trace readers read it
class OneLine
{
  public:
    /**
     * \param text the line, without its line end
     * \param before lines before it, so that it is line before + 1
     */
    explicit OneLine(const std::string& text, int before = 0)
        : m_in(std::string(static_cast<std::size_t>(before), '\n') + text + "\n"),
          m_source(m_in, "t.jsonl")
    {
        for (int i = 0; i <= before; ++i)
        {
            m_source.Next(m_line);
        }
    }

    /// \return the keys of the object, wanted filled in
    std::vector<std::string> Parse(std::vector<JsonLineParser::Wanted>& wanted)
    {
        JsonLineParser parser(m_line, m_source);
        std::vector<std::string> keys;
        for (std::string_view key : parser.Parse(wanted))
        {
            keys.emplace_back(key);
        }
        return keys;
    }

    /// \return the keys of the object, no key wanted
    std::vector<std::string> Parse()
    {
        std::vector<JsonLineParser::Wanted> none;
        return Parse(none);
    }

    /// \return the message of the error Parse() throws
    std::string ErrorOfParse(std::vector<JsonLineParser::Wanted> wanted = {})
    {
        return ErrorOf([this, &wanted] { Parse(wanted); });
    }

    /// \return the parser of the line, for RequireAll() and Fail()
    JsonLineParser Parser() const
    {
        return JsonLineParser(m_line, m_source);
    }

  private:
    std::istringstream m_in; //!< the file
    LineReader m_source;     //!< its lines
    std::string_view m_line; //!< the line
};

/// \return the message of the error the line's parse throws (no key wanted)
std::string
ErrorOfLine(const std::string& text)
{
    return OneLine(text).ErrorOfParse();
}

TEST(JsonLine, FlatObjectHandsBackTheWantedNumbersAndEveryKey)
{
    // columns: { 0, "a" 1-3, : 4, 1 at 6; ", " 7-8, "b" 9-11, : 12, -2.5e+3 at 14
    OneLine line(R"({"a": 1, "b": -2.5e+3, "c": "x", "d": true})");
    std::vector<JsonLineParser::Wanted> wanted = {{"a"}, {"b"}, {"z"}};
    EXPECT_EQ(line.Parse(wanted), (std::vector<std::string>{"a", "b", "c", "d"}));
    EXPECT_TRUE(wanted[0].seen);
    EXPECT_EQ(wanted[0].value, "1");
    EXPECT_EQ(wanted[0].column, 6U);
    EXPECT_TRUE(wanted[1].seen);
    EXPECT_EQ(wanted[1].value, "-2.5e+3");
    EXPECT_EQ(wanted[1].column, 14U);
    EXPECT_FALSE(wanted[2].seen);
    EXPECT_EQ(wanted[2].value, "");
}

TEST(JsonLine, EmptyObjectAndWhitespace)
{
    EXPECT_TRUE(OneLine("{}").Parse().empty());
    // space, tab and CR are JSON whitespace, around the object and between its tokens
    EXPECT_EQ(OneLine(" \t{ \"a\" \t:\t1 , \"b\":2 }\r ").Parse(),
              (std::vector<std::string>{"a", "b"}));
}

TEST(JsonLine, NestedValuesAreCheckedAndSkipped)
{
    OneLine line(R"({"h": [1, [2, {"k": [true, false, null]}], {}], "o": {"x": {"y": "z"}}, )"
                 R"("e": [], "n": 7})");
    std::vector<JsonLineParser::Wanted> wanted = {{"n"}};
    EXPECT_EQ(line.Parse(wanted), (std::vector<std::string>{"h", "o", "e", "n"}));
    EXPECT_EQ(wanted[0].value, "7");
    // keys of nested objects are not compared: a repeat there is accepted
    EXPECT_EQ(OneLine(R"({"o": {"a": 1, "a": 2}})").Parse(), (std::vector<std::string>{"o"}));
    // a nested problem is still found, at its own column
    EXPECT_EQ(ErrorOfLine(R"({"h": [1, 2,]})"),
              "t.jsonl:1: column 13: expected a JSON value, "
              "found ']'");
    EXPECT_EQ(ErrorOfLine(R"({"o": {"a" 1}})"),
              "t.jsonl:1: column 12: expected ':' after a key, found '1'");
    EXPECT_EQ(ErrorOfLine(R"({"o": {1: 2}})"),
              "t.jsonl:1: column 8: expected a key (a string in double quotes), found '1'");
    EXPECT_EQ(ErrorOfLine(R"({"h": [1 2]})"),
              "t.jsonl:1: column 10: expected ',' or ']', found '2'");
    EXPECT_EQ(ErrorOfLine(R"({"o": {"a": 1)"),
              "t.jsonl:1: column 14: expected ',' or '}', found end of line");
}

TEST(JsonLine, NestingDepthIsCapped)
{
    // an object's value is at depth 1; the element of the 64th nested array would be at 65
    const std::string deepest = "{\"a\": " + std::string(64, '[') + std::string(64, ']') + "}";
    EXPECT_EQ(OneLine(deepest).Parse(), (std::vector<std::string>{"a"}));
    const std::string tooDeep = "{\"a\": " + std::string(65, '[') + std::string(65, ']') + "}";
    // the 65th '[' is at 0-based 6 + 64 = 70
    EXPECT_EQ(ErrorOfLine(tooDeep), "t.jsonl:1: column 71: values nest deeper than 64 levels");
    EXPECT_EQ(JsonLineParser::MAX_DEPTH, 64);
}

TEST(JsonLine, DuplicateKeysAreRefused)
{
    // the second "a" starts at 0-based 9
    EXPECT_EQ(ErrorOfLine(R"({"a": 1, "a": 2})"),
              "t.jsonl:1: column 10: the key \"a\" appears twice");
    // also when the key is wanted
    OneLine line(R"({"b": 1, "a": [], "b": 2})");
    EXPECT_EQ(line.ErrorOfParse({{"b"}}), "t.jsonl:1: column 19: the key \"b\" appears twice");
}

TEST(JsonLine, NumbersFollowJsonsGrammar)
{
    for (const std::string number : {"0",
                                     "-0",
                                     "7",
                                     "-12",
                                     "1.5",
                                     "0.25",
                                     "1e5",
                                     "1E-5",
                                     "2.5e+10",
                                     "-0.0e0",
                                     "123456789012345678901234567890"})
    {
        OneLine line("{\"n\": " + number + ", \"m\": " + number + "}");
        std::vector<JsonLineParser::Wanted> wanted = {{"n"}};
        EXPECT_EQ(line.Parse(wanted).size(), 2U) << number;
        EXPECT_EQ(wanted[0].value, number); // the text as written, not interpreted
        EXPECT_EQ(wanted[0].column, 6U);
    }
    // every refusal is reported at the number's first character, 0-based 6
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"01", "malformed number: a JSON number has no leading zeros"},
        {"-01", "malformed number: a JSON number has no leading zeros"},
        {"1.", "malformed number: digits must follow the decimal point"},
        {"1.e5", "malformed number: digits must follow the decimal point"},
        {"1e", "malformed number: digits must follow the exponent"},
        {"1e+", "malformed number: digits must follow the exponent"},
        {"-", "malformed number \"-}\""},
        {"-x", "malformed number \"-x\""},
    };
    for (const auto& [number, problem] : bad)
    {
        const std::string expected = "t.jsonl:1: column 7: " + problem;
        EXPECT_EQ(ErrorOfLine("{\"n\": " + number + "}"), expected) << number;
        // a wanted key's number is checked the same way
        EXPECT_EQ(OneLine("{\"n\": " + number + "}").ErrorOfParse({{"n"}}), expected) << number;
    }
    // a sign or point first is no JSON value
    EXPECT_EQ(ErrorOfLine(R"({"n": +1})"), "t.jsonl:1: column 7: expected a JSON value, found '+'");
    EXPECT_EQ(ErrorOfLine(R"({"n": .5})"), "t.jsonl:1: column 7: expected a JSON value, found '.'");
    // after a number, only ',' or '}'
    EXPECT_EQ(ErrorOfLine(R"({"n": 1.5.2})"),
              "t.jsonl:1: column 10: expected ',' or '}' after the value of \"n\", found '.'");
}

TEST(JsonLine, WantedValuesMustBeNumbers)
{
    EXPECT_EQ(OneLine(R"({"a": "1"})").ErrorOfParse({{"a"}}),
              "t.jsonl:1: column 7: \"a\" must be a number, found '\"'");
    EXPECT_EQ(OneLine(R"({"a": null})").ErrorOfParse({{"a"}}),
              "t.jsonl:1: column 7: \"a\" must be a number, found 'n'");
    EXPECT_EQ(OneLine(R"({"a": [1]})").ErrorOfParse({{"a"}}),
              "t.jsonl:1: column 7: \"a\" must be a number, found '['");
    EXPECT_EQ(OneLine(R"({"a":)").ErrorOfParse({{"a"}}),
              "t.jsonl:1: column 6: \"a\" must be a number, found end of line");
}

TEST(JsonLine, StringsAndTheirEscapes)
{
    // every escape JSON has; keys come back as written, escapes not decoded
    OneLine line(R"({"s": "q\" b\\ s\/ \b\f\n\r\t \u00e9\uABCD", "a\"b": 1})");
    std::vector<JsonLineParser::Wanted> wanted = {{"a\\\"b"}};
    EXPECT_EQ(line.Parse(wanted), (std::vector<std::string>{"s", "a\\\"b"}));
    EXPECT_TRUE(wanted[0].seen);
    // the backslash of a bad escape is at 0-based 9
    EXPECT_EQ(ErrorOfLine(R"({"s": "ab\x"})"),
              "t.jsonl:1: column 10: invalid escape \\x in a string");
    EXPECT_EQ(ErrorOfLine(R"({"s": "ab\u12g4"})"),
              "t.jsonl:1: column 10: \\u must be followed by 4 hexadecimal digits");
    EXPECT_EQ(ErrorOfLine(R"({"s": "ab\u12"})"),
              "t.jsonl:1: column 10: \\u must be followed by 4 hexadecimal digits");
    // an unterminated string is reported at its opening quote
    EXPECT_EQ(ErrorOfLine(R"({"s": "abc)"), "t.jsonl:1: column 7: unterminated string");
    EXPECT_EQ(ErrorOfLine(R"({"s": "abc\)"), "t.jsonl:1: column 7: unterminated string");
    EXPECT_EQ(ErrorOfLine(R"({"abc)"), "t.jsonl:1: column 2: unterminated string");
    // a control character inside a string, at its own column
    EXPECT_EQ(ErrorOfLine("{\"s\": \"a\tb\"}"),
              "t.jsonl:1: column 9: control character \\x09 in a string");
}

TEST(JsonLine, KeysAreComparedAsWritten)
{
    // "\u0061" is "a" once decoded, but keys are not decoded
    OneLine line(R"({"\u0061": 1})");
    std::vector<JsonLineParser::Wanted> wanted = {{"a"}};
    EXPECT_EQ(line.Parse(wanted), (std::vector<std::string>{"\\u0061"}));
    EXPECT_FALSE(wanted[0].seen);
    // RequireAll() names the first missing key, at the end of the line (13 characters)
    EXPECT_EQ(ErrorOf([&line, &wanted] { line.Parser().RequireAll(wanted, "it has a"); }),
              "t.jsonl:1: column 14: missing key \"a\" (it has a)");
    // nothing missing: no error
    OneLine full(R"({"a": 1, "b": 2})");
    std::vector<JsonLineParser::Wanted> both = {{"a"}, {"b"}};
    full.Parse(both);
    EXPECT_NO_THROW(full.Parser().RequireAll(both, "it has a and b"));
}

TEST(JsonLine, OnlyOneObjectAloneOnItsLine)
{
    EXPECT_EQ(ErrorOfLine(""),
              "t.jsonl:1: column 1: expected a JSON object starting with '{', found end of line");
    EXPECT_EQ(ErrorOfLine("[1]"),
              "t.jsonl:1: column 1: expected a JSON object starting with '{', found '['");
    EXPECT_EQ(ErrorOfLine(R"({"a": 1} x)"),
              "t.jsonl:1: column 10: unexpected text after the object: \"x\"");
    EXPECT_EQ(ErrorOfLine(R"({"a": 1}{"b": 2})"),
              "t.jsonl:1: column 9: unexpected text after the object: \"{\\\"b\\\": 2}\"");
    EXPECT_EQ(ErrorOfLine(R"({"a": 1)"),
              "t.jsonl:1: column 8: expected ',' or '}' after the value of \"a\", found end of "
              "line");
    EXPECT_EQ(ErrorOfLine(R"({"a" 1})"),
              "t.jsonl:1: column 6: expected ':' after the key \"a\", found '1'");
    EXPECT_EQ(ErrorOfLine(R"({"a": 1 "b": 2})"),
              "t.jsonl:1: column 9: expected ',' or '}' after the value of \"a\", found '\"'");
    EXPECT_EQ(ErrorOfLine(R"({"a": 1,})"),
              "t.jsonl:1: column 9: expected a key (a string in double quotes), found '}'");
    EXPECT_EQ(ErrorOfLine(R"({a: 1})"),
              "t.jsonl:1: column 2: expected a key (a string in double quotes), found 'a'");
    EXPECT_EQ(ErrorOfLine(R"({"a": })"), "t.jsonl:1: column 7: expected a JSON value, found '}'");
}

TEST(JsonLine, LiteralsAndUnprintableCharacters)
{
    EXPECT_EQ(OneLine(R"({"t": true, "f": false, "n": null})").Parse().size(), 3U);
    EXPECT_EQ(ErrorOfLine(R"({"t": tru})"),
              "t.jsonl:1: column 7: expected a JSON value, found 't'");
    EXPECT_EQ(ErrorOfLine(R"({"n": nul})"),
              "t.jsonl:1: column 7: expected a JSON value, found 'n'");
    EXPECT_EQ(ErrorOfLine(R"({"t": True})"),
              "t.jsonl:1: column 7: expected a JSON value, found 'T'");
    // a byte that is not printable ASCII is shown as \xNN
    EXPECT_EQ(ErrorOfLine("{\"a\": \x01}"),
              "t.jsonl:1: column 7: expected a JSON value, found \\x01");
    EXPECT_EQ(ErrorOfLine("\xEF\xBB\xBF{}"),
              "t.jsonl:1: column 1: expected a JSON object starting with '{', found \\xEF");
}

TEST(JsonLine, MessagesNameTheFileAndLine)
{
    // the parser reports through the line's LineReader: its name and line number
    OneLine third(R"({"a": 1, "a": 2})", 2);
    EXPECT_EQ(third.ErrorOfParse(), "t.jsonl:3: column 10: the key \"a\" appears twice");
    EXPECT_EQ(ErrorOf([&third] { third.Parser().Fail(0, "a problem of the caller's"); }),
              "t.jsonl:3: column 1: a problem of the caller's");
}

} // namespace
