/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TEXT_IO_H
#define MOSE_TEXT_IO_H

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mose-support
 * \brief Generic text input and output every file format of the module shares: physical lines
 *        with their numbers, blanks, opening and checking streams, writing a file whole or not
 *        at all, output folders and JSON strings. The formats themselves are where their types
 *        are (mose-file-io.h for circuit graphs, roles, flows and assignments,
 *        mose-llm-trace.h for request traces, mose-metrics-output.h for metrics).
 */

namespace ns3
{
namespace mose
{

/// \ingroup mose-support
/// \return true for the characters trimmed around fields: space and tab
bool IsBlank(char c);

/// \ingroup mose-support
/// \return the text without leading and trailing spaces and tabs
std::string_view TrimBlanks(std::string_view text);

/**
 * \ingroup mose-support
 * \brief The physical lines of a stream, numbered from 1: one trailing CR is removed (LF and
 *        CRLF line ends), a read error throws "NAME:LINE: read error", and Fail() throws a
 *        mose::Error "NAME:LINE: problem" at the current line. Every reader of the module reads
 *        its lines through it.
 */
class LineReader
{
  public:
    /**
     * \param in the stream
     * \param name its name in messages (the file's path)
     */
    LineReader(std::istream& in, const std::string& name);

    /**
     * \param[out] line the next line without its line end; valid until the next call
     * \return false at the end of the input
     */
    bool Next(std::string_view& line);

    /// \return the number of the current line (0 before the first)
    uint64_t GetLine() const;

    /// \return the stream's name
    const std::string& GetName() const;

    /// \brief Throws a mose::Error at the current line (line 1 before the first).
    /// \param problem what is wrong
    [[noreturn]] void Fail(const std::string& problem) const;

  private:
    std::istream& m_in; //!< the input
    std::string m_name; //!< name for messages
    std::string m_raw;  //!< the current line
    uint64_t m_line{0}; //!< number of the current line
};

/**
 * \ingroup mose-support
 * \brief Opens a file for reading; throws "cannot open FILE: reason" if it cannot be opened or
 *        read (a directory opens but cannot be read). Every reader of the module opens its files
 *        through it.
 * \param path the file
 * \param file the stream to open
 */
void OpenForReading(const std::string& path, std::ifstream& file);

/**
 * \ingroup mose-support
 * \param out a stream whose write failed
 * \param err the errno of the failure (0 if none was recorded)
 * \return the cause for a message: strerror(err), or the stream's state if err is 0
 */
std::string DescribeWriteFailure(const std::ostream& out, int err);

/**
 * \ingroup mose-support
 * \brief Flushes a stream and throws "cannot write TARGET: reason" if it has failed: the reason
 *        is the system's error (strerror(errno)) of the failed write, also when the stream
 *        failed before (a write that overflowed its buffer), else the stream's state.
 * \param out the stream
 * \param target the file or stream name for the message
 */
void CheckWritten(std::ostream& out, const std::string& target);

/**
 * \ingroup mose-support
 * \brief Writes a file whole or not at all: put() writes the content to a temporary file
 *        beside it (PATH.tmp-PID-N), which is renamed to PATH once every byte reached it and
 *        it closed without error; on any failure (a full disk, a failed close, an exception from
 *        put()) the temporary file is removed and PATH is left as it was.
 *
 * A path that exists and is not a regular file (/dev/null, /dev/full, a pipe) is written
 * directly, and never removed; its write errors are reported the same way.
 * \param path the file
 * \param put writes the content to the stream it is given
 * Throws a mose::Error "cannot write FILE: reason" on any failure.
 */
void WriteTextFile(const std::string& path, const std::function<void(std::ostream&)>& put);

/**
 * \ingroup mose-support
 * \brief Creates a folder and its parents (std::filesystem), or throws a mose::Error naming it.
 *
 * ns-3's SystemPath::MakeDirectories aborts the program on failure; an output folder that
 * cannot be created is bad input and gets a clear error instead.
 * \param dir the folder
 */
void MakeOutputDirectory(const std::string& dir);

/**
 * \ingroup mose-support
 * \brief Whether this process writes output files: on a distributed run every rank holds the
 *        merged figures after the run, and only rank 0 writes them (Program turns writing off
 *        on the other ranks). While it is off, WriteTextFile() and MakeOutputDirectory() do
 *        nothing. On by default.
 * \param writing whether to write
 */
void SetWritingFiles(bool writing);

/// \ingroup mose-support
/// \return whether this process writes output files (SetWritingFiles())
bool IsWritingFiles();

/**
 * \ingroup mose-support
 * \param path a file's path
 * \return the path resolved as far as it exists (std::filesystem::weakly_canonical(): links
 *         and ".." resolved; a file that does not exist yet resolved through its folder)
 */
std::filesystem::path ResolveFilePath(const std::string& path);

/**
 * \ingroup mose-support
 * \brief The files a program reads, which WriteTextFile() refuses to replace: a safety net
 *        behind the check of a program's declared outputs before any work (an output a program
 *        did not declare, or one whose name it only knows when it writes it, still never
 *        replaces an input). Each file is compared after resolving links and "..".
 * \param files per input the option that names it as typed ("--inferenceRolesFile") and its
 *        path; replaces the files set before (empty: none)
 */
void SetProtectedInputs(const std::vector<std::pair<std::string, std::string>>& files);

/**
 * \ingroup mose-support
 * \param text any text
 * \return the text as a JSON string literal, quotes included
 */
std::string JsonString(const std::string& text);

} // namespace mose
} // namespace ns3

#endif /* MOSE_TEXT_IO_H */
