/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The generic text input and output every format shares (mose-text-io.h): numbered physical
// lines, blanks, whole-or-nothing files, output folders, JSON strings.

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-text-io.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A fresh folder under the temp dir, removed at the end of the test
class TempFolder
{
  public:
    TempFolder()
        : m_path(std::filesystem::temp_directory_path() /
                 ("mose-text-io-" + std::to_string(getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name()))
    {
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }

    ~TempFolder()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }

    std::string Path(const std::string& name) const
    {
        return (m_path / name).string();
    }

  private:
    std::filesystem::path m_path;
};

} // namespace

TEST(TextIo, TrimBlanksRemovesSpacesAndTabsOnly)
{
    EXPECT_EQ(TrimBlanks(" \t a b \t"), "a b");
    EXPECT_EQ(TrimBlanks(""), "");
    EXPECT_EQ(TrimBlanks(" \t "), "");
    EXPECT_EQ(TrimBlanks("\ra\n"), "\ra\n"); // CR and LF are not blanks
    EXPECT_TRUE(IsBlank(' '));
    EXPECT_TRUE(IsBlank('\t'));
    EXPECT_FALSE(IsBlank('\r'));
    EXPECT_FALSE(IsBlank('x'));
}

TEST(TextIo, LineReaderNumbersPhysicalLinesAndRemovesOneCarriageReturn)
{
    std::istringstream in("first\r\n\nthird\r\r\nlast");
    LineReader lines(in, "f.txt");
    EXPECT_EQ(lines.GetLine(), 0U);
    EXPECT_EQ(lines.GetName(), "f.txt");
    std::string_view line;
    ASSERT_TRUE(lines.Next(line));
    EXPECT_EQ(line, "first");
    EXPECT_EQ(lines.GetLine(), 1U);
    ASSERT_TRUE(lines.Next(line));
    EXPECT_EQ(line, "");
    ASSERT_TRUE(lines.Next(line));
    EXPECT_EQ(line, "third\r"); // only one trailing CR goes
    ASSERT_TRUE(lines.Next(line));
    EXPECT_EQ(line, "last");
    EXPECT_EQ(lines.GetLine(), 4U);
    EXPECT_FALSE(lines.Next(line));
    EXPECT_EQ(lines.GetLine(), 4U);
    EXPECT_EQ(ErrorOf([&] { lines.Fail("bad thing"); }), "f.txt:4: bad thing");
}

TEST(TextIo, LineReaderFailsAtLineOneBeforeTheFirstLine)
{
    std::istringstream in("");
    LineReader lines(in, "empty.csv");
    std::string_view line;
    EXPECT_FALSE(lines.Next(line));
    EXPECT_EQ(ErrorOf([&] { lines.Fail("no header"); }), "empty.csv:1: no header");
}

TEST(TextIo, WriteTextFileWritesWholeOrLeavesTheOldFile)
{
    TempFolder dir;
    const std::string path = dir.Path("out.txt");
    WriteTextFile(path, [](std::ostream& os) { os << "one\n"; });
    std::ifstream first(path);
    std::string text((std::istreambuf_iterator<char>(first)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "one\n");
    // a failing writer leaves the old content and no temporary file
    EXPECT_THROW(WriteTextFile(path,
                               [](std::ostream& os) {
                                   os << "partial";
                                   throw Error("stop");
                               }),
                 Error);
    std::ifstream second(path);
    std::string after((std::istreambuf_iterator<char>(second)), std::istreambuf_iterator<char>());
    EXPECT_EQ(after, "one\n");
    uint32_t files = 0;
    for ([[maybe_unused]] const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    {
        ++files;
    }
    EXPECT_EQ(files, 1U);
    // a folder that does not exist: the message names the file
    const std::string missing = dir.Path("no/such/out.txt");
    EXPECT_EQ(ErrorOf([&] {
                  WriteTextFile(missing, [](std::ostream& os) { os << "x"; });
              }).rfind("cannot write " + missing + ": ", 0),
              0U);
}

TEST(TextIo, AWriteErrorNamesTheFileAndItsCause)
{
    // a stream that failed before its check (a write that overflowed the buffer): the cause
    // is the failed write's, the file the one WriteTextFile() was given
    if (access("/dev/full", W_OK) == 0)
    {
        const std::string big(1 << 20, 'x');
        EXPECT_EQ(ErrorOf([&big] {
                      WriteTextFile("/dev/full", [&big](std::ostream& os) {
                          os << big;
                          CheckWritten(os, "output stream");
                      });
                  }),
                  "cannot write /dev/full: No space left on device");
        EXPECT_EQ(ErrorOf([&big] {
                      WriteTextFile("/dev/full", [&big](std::ostream& os) { os << big; });
                  }),
                  "cannot write /dev/full: No space left on device");
    }
    // no system error: the stream's state
    std::ostringstream failed;
    failed.setstate(std::ios::badbit);
    errno = 0;
    EXPECT_EQ(ErrorOf([&failed] { CheckWritten(failed, "the report"); }),
              "cannot write the report: the stream failed without a system error (badbit set)");
    std::ostringstream good;
    good << "x";
    EXPECT_NO_THROW(CheckWritten(good, "the report"));
}

TEST(TextIo, OpenForReadingNamesTheFile)
{
    TempFolder dir;
    std::ifstream file;
    const std::string missing = dir.Path("missing.csv");
    EXPECT_EQ(ErrorOf([&] { OpenForReading(missing, file); }),
              "cannot open " + missing + ": No such file or directory");
}

TEST(TextIo, MakeOutputDirectoryCreatesParentsAndNamesAFolderItCannotCreate)
{
    TempFolder dir;
    const std::string nested = dir.Path("a/b/c");
    MakeOutputDirectory(nested);
    EXPECT_TRUE(std::filesystem::is_directory(nested));
    MakeOutputDirectory(nested); // exists: fine
    const std::string file = dir.Path("plain");
    std::ofstream(file) << "x";
    EXPECT_EQ(ErrorOf([&] {
                  MakeOutputDirectory(file + "/sub");
              }).rfind("cannot create folder " + file + "/sub: ", 0),
              0U);
}

TEST(TextIo, JsonStringEscapesQuotesBackslashesAndControlCharacters)
{
    EXPECT_EQ(JsonString("plain"), "\"plain\"");
    EXPECT_EQ(JsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
    EXPECT_EQ(JsonString("\n\t"), "\"\\u000a\\u0009\"");
    EXPECT_EQ(JsonString(std::string("\x01", 1)), "\"\\u0001\"");
    EXPECT_EQ(JsonString(""), "\"\"");
}
