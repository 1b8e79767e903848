/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-text-io.h"

#include "mose-error.h"

#include "ns3/log.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <unistd.h>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseTextIo");

namespace
{

/// SetProtectedInputs(): per input its option and its resolved path; set before any work, read
/// by the writers (on worker threads too), so a mutex guards it
std::mutex g_protectedMutex;
std::vector<std::pair<std::string, std::filesystem::path>> g_protected;

/// Throws if path resolves to a protected input (SetProtectedInputs())
void
CheckNotProtected(const std::string& path)
{
    std::lock_guard<std::mutex> lock(g_protectedMutex);
    if (g_protected.empty())
    {
        return;
    }
    const std::filesystem::path p = ResolveFilePath(path);
    for (const auto& [option, input] : g_protected)
    {
        if (p == input)
        {
            throw Error("cannot write " + path + ": it is the input " + option + " (" +
                        input.string() +
                        " after resolving links), and an output never replaces an input; "
                        "nothing was written: give the input another path or the output "
                        "another folder");
        }
    }
}

} // namespace

bool
IsBlank(char c)
{
    return c == ' ' || c == '\t';
}

std::string_view
TrimBlanks(std::string_view text)
{
    while (!text.empty() && IsBlank(text.front()))
    {
        text.remove_prefix(1);
    }
    while (!text.empty() && IsBlank(text.back()))
    {
        text.remove_suffix(1);
    }
    return text;
}

LineReader::LineReader(std::istream& in, const std::string& name)
    : m_in(in),
      m_name(name)
{
}

bool
LineReader::Next(std::string_view& line)
{
    if (!std::getline(m_in, m_raw))
    {
        if (m_in.bad())
        {
            ThrowFileError(m_name, m_line + 1, "read error");
        }
        return false;
    }
    ++m_line;
    if (!m_raw.empty() && m_raw.back() == '\r')
    {
        m_raw.pop_back();
    }
    line = m_raw;
    return true;
}

uint64_t
LineReader::GetLine() const
{
    return m_line;
}

const std::string&
LineReader::GetName() const
{
    return m_name;
}

void
LineReader::Fail(const std::string& problem) const
{
    ThrowFileError(m_name, std::max<uint64_t>(m_line, 1), problem);
}

void
OpenForReading(const std::string& path, std::ifstream& file)
{
    errno = 0;
    file.open(path, std::ios::in | std::ios::binary);
    if (!file.is_open())
    {
        int err = errno;
        throw Error("cannot open " + path + ": " +
                    (err != 0 ? std::strerror(err) : "unknown error"));
    }
    errno = 0;
    file.peek();
    if (file.bad())
    {
        int err = errno;
        throw Error("cannot open " + path + ": " + (err != 0 ? std::strerror(err) : "read error"));
    }
    file.clear(file.rdstate() & ~std::ios::eofbit);
}

std::string
DescribeWriteFailure(const std::ostream& out, int err)
{
    if (err != 0)
    {
        return std::strerror(err);
    }
    return std::string("the stream failed without a system error (") +
           (out.bad() ? "badbit" : "failbit") + " set)";
}

void
CheckWritten(std::ostream& out, const std::string& target)
{
    if (out)
    {
        errno = 0;
        out.flush();
    }
    // a stream that failed before (a write that overflowed its buffer) keeps the errno of that
    // write: nothing here clears it
    if (!out)
    {
        const int err = errno;
        throw Error("cannot write " + target + ": " + DescribeWriteFailure(out, err));
    }
}

void
WriteTextFile(const std::string& path, const std::function<void(std::ostream&)>& put)
{
    NS_LOG_FUNCTION(path);
    if (!IsWritingFiles())
    {
        NS_LOG_LOGIC("not writing " << path << " (another rank writes the outputs)");
        return;
    }
    CheckNotProtected(path);
    // Writes to target and checks every byte reached it; throws naming path.
    auto writeTo = [&path, &put](const std::string& target) {
        errno = 0;
        std::ofstream file(target, std::ios::out | std::ios::trunc | std::ios::binary);
        if (!file.is_open())
        {
            int err = errno;
            throw Error("cannot write " + path + ": " +
                        (err != 0 ? std::strerror(err) : "cannot create the file"));
        }
        try
        {
            put(file);
        }
        catch (const Error&)
        {
            if (file)
            {
                throw;
            }
            // a writer that checks its stream names it "output stream": the failure is the
            // file's, reported with its path and cause
            const int err = errno;
            throw Error("cannot write " + path + ": " + DescribeWriteFailure(file, err));
        }
        CheckWritten(file, path);
        errno = 0;
        file.close();
        if (file.fail())
        {
            int err = errno;
            throw Error("cannot write " + path + ": " +
                        (err != 0 ? std::strerror(err) : "close failed"));
        }
    };
    std::error_code ec;
    std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    {
        NS_LOG_LOGIC(path << " is not a regular file: written in place");
        writeTo(path); // a device or pipe: nothing to replace, nothing to remove
        return;
    }
    static std::atomic<uint64_t> counter{0};
    const std::string temp =
        path + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter.fetch_add(1));
    try
    {
        writeTo(temp);
    }
    catch (...)
    {
        std::filesystem::remove(temp, ec);
        throw;
    }
    std::filesystem::rename(temp, path, ec);
    if (ec)
    {
        std::filesystem::remove(temp, ec);
        throw Error("cannot write " + path + ": " + ec.message());
    }
    NS_LOG_LOGIC("wrote " << temp << ", renamed to " << path);
}

void
MakeOutputDirectory(const std::string& dir)
{
    NS_LOG_FUNCTION(dir);
    if (!IsWritingFiles())
    {
        return;
    }
    std::error_code ec;
    const bool created = std::filesystem::create_directories(dir, ec);
    if (ec)
    {
        throw Error("cannot create folder " + dir + ": " + ec.message());
    }
    NS_LOG_LOGIC((created ? "created " : "using the existing folder ") << dir);
}

namespace
{
std::atomic<bool> g_writingFiles{true}; //!< SetWritingFiles()
} // namespace

void
SetWritingFiles(bool writing)
{
    g_writingFiles = writing;
}

bool
IsWritingFiles()
{
    return g_writingFiles;
}

std::filesystem::path
ResolveFilePath(const std::string& path)
{
    // std::filesystem::equivalent() needs both files to exist; an output usually does not yet
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p = fs::absolute(path, ec).lexically_normal();
    // weakly_canonical() stops at the first part that does not exist, a link whose target does
    // not exist yet included; such a link is followed by hand (a PNG that gnuplot writes
    // through a link to a file the program writes first), at most 40 links as Linux's
    // resolution
    for (int links = 0; links < 40; ++links)
    {
        const fs::path resolved = fs::weakly_canonical(p, ec);
        if (ec)
        {
            return p;
        }
        p = resolved;
        fs::path prefix;
        bool followed = false;
        for (const fs::path& part : resolved)
        {
            prefix /= part;
            if (fs::is_symlink(fs::symlink_status(prefix, ec)))
            {
                const fs::path target = fs::read_symlink(prefix, ec);
                if (ec)
                {
                    return p;
                }
                fs::path next = target.is_absolute() ? target : prefix.parent_path() / target;
                const fs::path rest = resolved.lexically_relative(prefix);
                if (rest != ".")
                {
                    next /= rest; // (no trailing "/" for the link itself)
                }
                p = next.lexically_normal();
                followed = true;
                break;
            }
        }
        if (!followed)
        {
            return p;
        }
    }
    return p;
}

void
SetProtectedInputs(const std::vector<std::pair<std::string, std::string>>& files)
{
    NS_LOG_FUNCTION(files.size());
    std::lock_guard<std::mutex> lock(g_protectedMutex);
    g_protected.clear();
    for (const auto& [option, path] : files)
    {
        g_protected.emplace_back(option, ResolveFilePath(path));
    }
}

std::string
JsonString(const std::string& text)
{
    std::string out = "\"";
    for (char c : text)
    {
        auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\')
        {
            out += '\\';
            out += c;
        }
        else if (u < 0x20)
        {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", u);
            out += buf;
        }
        else
        {
            out += c;
        }
    }
    return out + "\"";
}

} // namespace mose
} // namespace ns3
