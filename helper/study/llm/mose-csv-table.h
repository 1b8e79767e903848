/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_CSV_TABLE_H
#define MOSE_CSV_TABLE_H

#include "ns3/mose-text-io.h"

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief A CSV file with a header line, read row by row: its columns looked up by name, its
 *        fields read as texts or as checked numbers.
 *
 * The header is the first line: the column names between its commas, trimmed of blanks (after
 * a UTF-8 byte-order mark, which is skipped; a UTF-16 or UTF-32 one, or a name given twice,
 * is an error "FILE:1: ..."). A row
 * is any later line that is not blank; its fields are the items between its commas, trimmed of
 * blanks, and there are as many as the header names. Every error is a mose::Error that names
 * FILE:LINE, and the column for a field:
 * - "FILE:1: empty: WHAT starts with its column names" (no header),
 * - "FILE:1: no column NAME (COLUMNS)" (RequireColumn()),
 * - "FILE:LINE: N fields, the header names M" (NextRow()),
 * - "FILE:LINE: column NAME = \"TEXT\": problem" (GetNumber(), FailField()),
 * - "FILE:LINE: problem" (Fail()).
 *
 * The study's readers of regime_map.csv (LlmRegimeFigure::AddCsv(),
 * LlmLevelValidation::FromCsv()) read through it.
 */
class CsvTable
{
  public:
    /**
     * \brief Opens the file and reads its header; throws "cannot open FILE: reason"
     *        (OpenForReading()) or the empty file's error.
     * \param path the file; its name in every message
     * \param what the kind of file, for the message of an empty one ("a regime_map.csv")
     * \param columns the columns such a file has, for the message of a missing one
     */
    CsvTable(const std::string& path, const std::string& what, const std::string& columns);

    /**
     * \brief Reads a CSV text from a stream (a table built into the program) and its header;
     *        every message names it as `name`.
     * \param in the stream, read until the table is destroyed
     * \param name the text's name in every message
     * \param what the kind of file, for the message of an empty one
     * \param columns the columns such a file has, for the message of a missing one
     */
    CsvTable(std::istream& in,
             const std::string& name,
             const std::string& what,
             const std::string& columns);

    CsvTable(const CsvTable&) = delete;            //!< the reader holds its own stream
    CsvTable& operator=(const CsvTable&) = delete; //!< the reader holds its own stream

    /**
     * \param name a column's name
     * \return its index, or none if the header does not name it (the first, if it names it twice)
     */
    std::optional<std::size_t> FindColumn(const std::string& name) const;

    /**
     * \param name a column's name
     * \return its index (the first, if the header names it twice); throws
     *         "FILE:1: no column NAME (COLUMNS)" if the header does not name it
     */
    std::size_t RequireColumn(const std::string& name) const;

    /// \return the number of columns the header names
    std::size_t GetColumnCount() const;

    /**
     * \param column a column's index
     * \return its name
     */
    const std::string& GetColumnName(std::size_t column) const;

    /**
     * \brief Reads the next row, skipping blank lines; throws
     *        "FILE:LINE: N fields, the header names M" if it has another number of fields.
     * \return false at the end of the file
     */
    bool NextRow();

    /// \return the line of the current row (of the header before the first row)
    uint64_t GetLine() const;

    /**
     * \param column a column's index
     * \return the current row's field in that column, trimmed of blanks; valid until the next
     *         NextRow()
     */
    std::string_view GetText(std::size_t column) const;

    /**
     * \param column a column's index
     * \return whether the current row's field in that column is empty
     */
    bool IsEmpty(std::size_t column) const;

    /**
     * \param column a column's index
     * \return the current row's field in that column as a finite number (TryParseReal());
     *         throws "FILE:LINE: column NAME = \"TEXT\": problem" if it is not one
     */
    double GetNumber(std::size_t column) const;

    /**
     * \param column a column's index
     * \return none if the current row's field in that column is empty, else GetNumber()
     */
    std::optional<double> GetOptionalNumber(std::size_t column) const;

    /**
     * \param column a column's index
     * \param words the words allowed there
     * \return the current row's field in that column; throws
     *         "FILE:LINE: column NAME = \"TEXT\": not one of W1, W2 or W3" if it is none of them
     */
    std::string_view GetWord(std::size_t column, const std::vector<std::string>& words) const;
    /**
     * \brief Throws a mose::Error "FILE:LINE: problem" at the current row.
     * \param problem what is wrong
     */
    [[noreturn]] void Fail(const std::string& problem) const;

    /**
     * \brief Throws a mose::Error "FILE:LINE: column NAME = \"TEXT\": problem" for a field of
     *        the current row.
     * \param column the field's column
     * \param problem what is wrong with its text
     */
    [[noreturn]] void FailField(std::size_t column, const std::string& problem) const;

  private:
    /// \brief Reads the header (both constructors) \param what as the constructors
    void ReadHeader(const std::string& what);

    std::ifstream m_file;                //!< the file (a table read from a path)
    LineReader m_in;                     //!< its lines
    std::string m_columns;               //!< the columns such a file has, for messages
    uint64_t m_headerLine{0};            //!< the header's line
    std::vector<std::string> m_header;   //!< the column names
    std::vector<std::string_view> m_row; //!< the current row's fields, trimmed
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_CSV_TABLE_H */
