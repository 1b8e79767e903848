/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CsvTable (mose-csv-table.h): a CSV file's columns by name, its rows' texts and checked
// numbers, and its errors, each naming FILE:LINE (and the column).

#include "mose-csv-table.h"
#include "mose-test-util.h"

#include "ns3/mose-error.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// a file of the test's own under the temporary folder
std::string
TempFile(const std::string& name, const std::string& text)
{
    return ns3::mose::test::TempFile("mose-csv-table", name, text);
}

/// a table of the test's kind ("a test table") with the columns a, b and c
const std::string WHAT = "a test table";
const std::string COLUMNS = "a test table has a, b and c";

// The header's names, trimmed, are looked up by name; blank lines are skipped; the fields are
// trimmed; an empty field is an absent optional number; each row knows its line.
TEST(CsvTable, ColumnsByNameAndRowsWithTheirLines)
{
    CsvTable t(TempFile("good.csv", " a ,b,c\r\n1, x ,\n\n  \n-2.5e1,y,3\n"), WHAT, COLUMNS);
    ASSERT_EQ(t.GetColumnCount(), 3u);
    EXPECT_EQ(t.GetColumnName(0), "a");
    EXPECT_EQ(t.RequireColumn("a"), 0u);
    EXPECT_EQ(t.FindColumn("c"), std::optional<std::size_t>(2));
    EXPECT_FALSE(t.FindColumn("d").has_value());
    EXPECT_EQ(t.GetLine(), 1u);
    ASSERT_TRUE(t.NextRow());
    EXPECT_EQ(t.GetLine(), 2u);
    EXPECT_EQ(t.GetNumber(0), 1.0);
    EXPECT_EQ(t.GetText(1), "x");
    EXPECT_TRUE(t.IsEmpty(2));
    EXPECT_FALSE(t.GetOptionalNumber(2).has_value());
    ASSERT_TRUE(t.NextRow());
    EXPECT_EQ(t.GetLine(), 5u);
    EXPECT_EQ(t.GetNumber(0), -25.0);
    EXPECT_EQ(t.GetOptionalNumber(2), std::optional<double>(3.0));
    EXPECT_FALSE(t.NextRow());
}

// Every error names the file and line, and the column for a field.
TEST(CsvTable, ErrorsNameFileLineAndColumn)
{
    ExpectErrorContaining([] { CsvTable t("/nonexistent/t.csv", WHAT, COLUMNS); },
                          "cannot open /nonexistent/t.csv");
    EXPECT_EQ(ErrorOf([] { CsvTable t(TempFile("empty.csv", ""), WHAT, COLUMNS); }),
              TempFile("empty.csv", "") + ":1: empty: a test table starts with its column names");
    const std::string path = TempFile("t.csv", "a,b,c\n1,2,3\n1x,2\n");
    CsvTable t(path, WHAT, COLUMNS);
    EXPECT_EQ(ErrorOf([&] { t.RequireColumn("d"); }),
              path + ":1: no column d (a test table has a, b and c)");
    ASSERT_TRUE(t.NextRow());
    // the header's line for a missing column, also after a row
    EXPECT_EQ(ErrorOf([&] { t.RequireColumn("d"); }),
              path + ":1: no column d (a test table has a, b and c)");
    EXPECT_EQ(ErrorOf([&] { t.Fail("a problem"); }), path + ":2: a problem");
    EXPECT_EQ(ErrorOf([&] { t.FailField(1, "not odd"); }), path + ":2: column b = \"2\": not odd");
    EXPECT_EQ(ErrorOf([&] { t.NextRow(); }), path + ":3: 2 fields, the header names 3");
    CsvTable u(TempFile("u.csv", "a,b,c\n1x,2,\n"), WHAT, COLUMNS);
    ASSERT_TRUE(u.NextRow());
    ExpectErrorContaining([&] { u.GetNumber(0); }, "u.csv:2: column a = \"1x\": ");
    ExpectErrorContaining([&] { u.GetOptionalNumber(0); }, "u.csv:2: column a = \"1x\": ");
}

} // namespace
