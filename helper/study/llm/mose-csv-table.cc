/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-csv-table.h"

#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

CsvTable::CsvTable(const std::string& path, const std::string& what, const std::string& columns)
    : m_in(m_file, path),
      m_columns(columns)
{
    OpenForReading(path, m_file);
    ReadHeader(what);
}

CsvTable::CsvTable(std::istream& in,
                   const std::string& name,
                   const std::string& what,
                   const std::string& columns)
    : m_in(in, name),
      m_columns(columns)
{
    ReadHeader(what);
}

void
CsvTable::ReadHeader(const std::string& what)
{
    std::string_view line;
    if (!m_in.Next(line))
    {
        m_in.Fail("empty: " + what + " starts with its column names");
    }
    m_headerLine = m_in.GetLine();
    // a byte-order mark: UTF-8's (a spreadsheet's "CSV UTF-8") is skipped, so that the first
    // column keeps its name; UTF-16's and UTF-32's would leave every other byte 0: refused
    const std::string_view utf8Bom = "\xEF\xBB\xBF";
    if (line.substr(0, utf8Bom.size()) == utf8Bom)
    {
        line.remove_prefix(utf8Bom.size());
    }
    else if (line.substr(0, 2) == "\xFF\xFE" || line.substr(0, 2) == "\xFE\xFF" ||
             line.substr(0, 4) == std::string_view("\0\0\xFE\xFF", 4))
    {
        m_in.Fail("a UTF-16 or UTF-32 file (its byte-order mark): " + what +
                  " is read as UTF-8 or ASCII text; save it as UTF-8");
    }
    for (std::string_view h : SplitAtCommas(line))
    {
        m_header.emplace_back(TrimBlanks(h));
        if (std::count(m_header.begin(), m_header.end(), m_header.back()) > 1)
        {
            m_in.Fail("column " + QuoteFileText(m_header.back()) + " is named twice in the " +
                      "header: a column's fields would be read from either");
        }
    }
}

std::optional<std::size_t>
CsvTable::FindColumn(const std::string& name) const
{
    const auto at = std::find(m_header.begin(), m_header.end(), name);
    if (at == m_header.end())
    {
        return std::nullopt;
    }
    return static_cast<std::size_t>(at - m_header.begin());
}

std::size_t
CsvTable::RequireColumn(const std::string& name) const
{
    const std::optional<std::size_t> at = FindColumn(name);
    if (!at)
    {
        ThrowFileError(m_in.GetName(), m_headerLine, "no column " + name + " (" + m_columns + ")");
    }
    return *at;
}

std::size_t
CsvTable::GetColumnCount() const
{
    return m_header.size();
}

const std::string&
CsvTable::GetColumnName(std::size_t column) const
{
    return m_header.at(column);
}

bool
CsvTable::NextRow()
{
    std::string_view line;
    while (m_in.Next(line))
    {
        if (TrimBlanks(line).empty())
        {
            continue;
        }
        SplitAtCommas(line, m_row);
        if (m_row.size() != m_header.size())
        {
            m_in.Fail(std::to_string(m_row.size()) + " fields, the header names " +
                      std::to_string(m_header.size()));
        }
        for (auto& field : m_row)
        {
            field = TrimBlanks(field);
        }
        return true;
    }
    m_row.clear();
    return false;
}

uint64_t
CsvTable::GetLine() const
{
    return m_in.GetLine();
}

std::string_view
CsvTable::GetText(std::size_t column) const
{
    return m_row.at(column);
}

bool
CsvTable::IsEmpty(std::size_t column) const
{
    return GetText(column).empty();
}

double
CsvTable::GetNumber(std::size_t column) const
{
    double value = 0;
    const std::string problem = TryParseReal(GetText(column), value);
    if (!problem.empty())
    {
        FailField(column, problem);
    }
    return value;
}

std::optional<double>
CsvTable::GetOptionalNumber(std::size_t column) const
{
    if (IsEmpty(column))
    {
        return std::nullopt;
    }
    return GetNumber(column);
}

std::string_view
CsvTable::GetWord(std::size_t column, const std::vector<std::string>& words) const
{
    const std::string_view text = GetText(column);
    if (std::find(words.begin(), words.end(), text) == words.end())
    {
        std::string list;
        for (std::size_t i = 0; i < words.size(); ++i)
        {
            list += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
        }
        FailField(column, "not one of " + list);
    }
    return text;
}

void
CsvTable::Fail(const std::string& problem) const
{
    m_in.Fail(problem);
}

void
CsvTable::FailField(std::size_t column, const std::string& problem) const
{
    Fail("column " + GetColumnName(column) + " = \"" + std::string(GetText(column)) +
         "\": " + problem);
}

} // namespace mose
} // namespace ns3
