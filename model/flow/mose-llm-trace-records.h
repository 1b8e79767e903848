/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRACE_RECORDS_H
#define MOSE_LLM_TRACE_RECORDS_H

#include "mose-llm-request.h"
#include "mose-llm-trace.h"

#include "ns3/mose-json-line.h"
#include "ns3/mose-text-io.h"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief What the request trace forms share (internal to the trace readers and writers, in
 *        ns3::mose::detail): the readers of token counts, counts and seconds with their
 *        messages, the records of a CSV trace (CsvRecords), the sort check (OrderCheck), and the
 *        token counts of the JSON lines forms. The rules are in mose-llm-trace.h.
 */

namespace ns3
{
namespace mose
{
namespace detail
{

/// ns per second
constexpr uint64_t NS_PER_S = 1000000000;

/// \return true for an ASCII digit \param c a character
bool IsDigit(char c);

/// \return true if the text is one or more digits \param text the text
bool AllDigits(std::string_view text);

/// \return true if the line holds only spaces, tabs and CRs (a blank JSON line)
/// \param line the line
bool IsBlankLine(std::string_view line);

/**
 * \param items the items
 * \param sep the separator
 * \return the items joined with sep
 */
std::string Join(const std::vector<std::string>& items, const std::string& sep);

/**
 * \brief Reads a token count: digits only, at most MAX_REQUEST_TOKENS.
 * \param field the field's name, for the message
 * \param text the text
 * \param minimum the least value allowed (0 or 1)
 * \param[out] value the count
 * \return empty if fine, else the problem
 */
std::string TryParseTokens(const std::string& field,
                           std::string_view text,
                           uint64_t minimum,
                           uint64_t& value);

/**
 * \brief Reads a non-negative integer written with digits only.
 * \param field the field's name, for the message
 * \param text the text
 * \param[out] value the value
 * \return empty if fine, else the problem
 */
std::string TryParseCount(const std::string& field, std::string_view text, uint64_t& value);

/**
 * \brief Reads a time in seconds: digits with an optional decimal point and an optional
 *        exponent, no sign; converted exactly and rounded to the nearest ns, halves up.
 * \param field the field's name, for the message
 * \param text the text
 * \param[out] ns the time in ns
 * \return empty if fine, else the problem
 */
std::string TryParseSeconds(const std::string& field, std::string_view text, uint64_t& ns);

/// \return ns as seconds: an integer when whole, else with the fractional digits needed
/// \param ns a time in ns
std::string FormatSeconds(uint64_t ns);

/**
 * \brief Reads the token count of a JSON lines form.
 * \param parser the line's parser, which reports the problem
 * \param key the key, for the message
 * \param text the number's text (JsonLineParser::Wanted::value)
 * \param column its position
 * \param minimum the least value allowed (0 or 1)
 * \return the count (checked: integer, within the cap, at least minimum)
 */
uint64_t ReadJsonTokens(const JsonLineParser& parser,
                        const std::string& key,
                        std::string_view text,
                        std::size_t column,
                        uint64_t minimum);

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
     * \param columns the form's columns (they must outlive the records)
     */
    CsvRecords(std::istream& in, const std::string& name, const std::vector<std::string>& columns);

    /// \brief Reads and checks the header
    void ReadHeader();

    /// \return false at the end of the file; else the next record is read and checked
    bool Next();

    /// \param i a column \return the current record's field
    std::string_view operator[](std::size_t i) const;

    /// \param i a column \return its name
    const std::string& Column(std::size_t i) const;

    /// \return the lines
    const LineReader& GetSource() const;

    /// \brief Throws a mose::Error at the current line \param problem what is wrong
    [[noreturn]] void Fail(const std::string& problem) const;

    /// \brief Fails if the problem is not empty \param problem a Try* function's result
    void Check(const std::string& problem) const;

    /// \return a token count of column i (at least minimum) \param i a column \param minimum 0, 1
    uint64_t Tokens(std::size_t i, uint64_t minimum) const;

    /// \return the non-negative integer of column i \param i a column
    uint64_t Count(std::size_t i) const;

    /// \return the seconds of column i, as ns \param i a column
    uint64_t Seconds(std::size_t i) const;

  private:
    /// \return false at the end of the file; else m_line is the next line with content
    bool NextContent();

    /// \brief Splits m_line into trimmed fields
    void Split();

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
               const std::string& unit);

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
void RequireKept(const LineReader& source, const LlmTrace& trace, const std::string& why);

} // namespace detail
} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TRACE_RECORDS_H */
