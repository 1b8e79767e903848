/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-run-list.h"

#include "mose-build-id.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRunList");

namespace mose
{

namespace
{

/// the first line of every record file
constexpr const char* RECORD_MAGIC = "mose-run-record 1";

/// \param option the option \param text its value \param why what is wrong
[[noreturn]] void
ThrowSelection(const std::string& option, const std::string& text, const std::string& why)
{
    throw Error("invalid " + option + " = " + QuoteText(text) + ": " + why);
}

} // namespace

RunSelection
RunSelection::All()
{
    return RunSelection();
}

RunSelection
RunSelection::ParseRuns(const std::string& option, const std::string& text)
{
    const std::string allowed =
        "run indices and ranges A-B separated by commas, each run once, such as 0,3-5 "
        "(--listRuns lists them)";
    RunSelection s;
    s.m_option = option;
    s.m_text = text;
    std::vector<std::string_view> items;
    SplitAtCommas(text, items);
    if (items.empty())
    {
        ThrowSelection(option, text, allowed);
    }
    for (std::string_view item : items)
    {
        const std::size_t dash = item.find('-');
        uint32_t from = 0;
        uint32_t to = 0;
        try
        {
            from = ParseUnsigned32(option, item.substr(0, dash));
            to = dash == std::string_view::npos ? from
                                                : ParseUnsigned32(option, item.substr(dash + 1));
        }
        catch (const Error&)
        {
            ThrowSelection(option, text, allowed);
        }
        if (to < from)
        {
            ThrowSelection(option, text, "the range " + std::string(item) + " runs backwards");
        }
        for (uint64_t i = from; i <= to; ++i)
        {
            s.m_indices.push_back(static_cast<uint32_t>(i));
        }
    }
    std::sort(s.m_indices.begin(), s.m_indices.end());
    const auto twice = std::adjacent_find(s.m_indices.begin(), s.m_indices.end());
    if (twice != s.m_indices.end())
    {
        ThrowSelection(option, text, "run " + std::to_string(*twice) + " is given twice");
    }
    return s;
}

RunSelection
RunSelection::ParsePart(const std::string& option, const std::string& text)
{
    const std::string allowed = "I/K with 1 <= I <= K, such as 2/4 (the second of four parts)";
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos)
    {
        ThrowSelection(option, text, allowed);
    }
    RunSelection s;
    s.m_option = option;
    s.m_text = text;
    try
    {
        s.m_part = ParseUnsigned32(option, std::string_view(text).substr(0, slash));
        s.m_parts = ParseUnsigned32(option, std::string_view(text).substr(slash + 1));
    }
    catch (const Error&)
    {
        ThrowSelection(option, text, allowed);
    }
    if (s.m_parts == 0 || s.m_part == 0 || s.m_part > s.m_parts)
    {
        ThrowSelection(option, text, allowed);
    }
    return s;
}

void
RunSelection::Check(uint32_t total) const
{
    if (!m_indices.empty() && m_indices.back() >= total)
    {
        ThrowSelection(m_option,
                       m_text,
                       "run " + std::to_string(m_indices.back()) + " is not in the list: its " +
                           std::to_string(total) + " runs are 0 to " +
                           std::to_string(total == 0 ? 0 : total - 1) + " (--listRuns lists them)");
    }
    if (m_parts > total)
    {
        ThrowSelection(m_option,
                       m_text,
                       std::to_string(m_parts) + " parts of a list of " + std::to_string(total) +
                           " runs: at most " + std::to_string(total) + " parts, each with a run");
    }
}

bool
RunSelection::Holds(uint32_t index) const
{
    if (m_parts > 0)
    {
        return index % m_parts == m_part - 1;
    }
    if (!m_option.empty())
    {
        return std::binary_search(m_indices.begin(), m_indices.end(), index);
    }
    return true;
}

std::vector<uint32_t>
RunSelection::Indices(uint32_t total) const
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < total; ++i)
    {
        if (Holds(i))
        {
            out.push_back(i);
        }
    }
    return out;
}

bool
RunSelection::IsAll() const
{
    return m_option.empty();
}

std::string
RunSelection::Describe() const
{
    if (m_parts > 0)
    {
        return "part " + m_text;
    }
    return m_option.empty() ? "all runs" : "runs " + m_text;
}

std::string
RunRecord::ToText() const
{
    std::ostringstream os;
    os << RECORD_MAGIC << "\n"
       << "build=" << build << "\n"
       << "options=" << options << "\n"
       << "index=" << index << "\n"
       << "run=" << run << "\n"
       << "wall_s=" << FormatNumber(resources.wallSeconds) << "\n"
       << "cpu_s=" << FormatNumber(resources.cpuSeconds) << "\n"
       << "max_rss_kb=" << resources.maxRssKb << "\n";
    for (const auto& [name, value] : figures)
    {
        os << name << "=" << value << "\n";
    }
    return os.str();
}

RunRecord
RunRecord::FromText(const std::string& path, const std::string& text)
{
    RunRecord r;
    r.path = path;
    std::istringstream in(text);
    std::string line;
    uint64_t n = 0;
    if (!std::getline(in, line) || line != RECORD_MAGIC)
    {
        ThrowFileError(path,
                       1,
                       "not a run record (its first line is not \"" + std::string(RECORD_MAGIC) +
                           "\")");
    }
    ++n;
    std::map<std::string, std::string> fields;
    while (std::getline(in, line))
    {
        ++n;
        const std::size_t eq = line.find('=');
        if (eq == std::string::npos || eq == 0)
        {
            ThrowFileError(path, n, "expected NAME=VALUE, got " + QuoteFileText(line));
        }
        if (!fields.emplace(line.substr(0, eq), line.substr(eq + 1)).second)
        {
            ThrowFileError(path, n, QuoteFileText(line.substr(0, eq)) + " is given twice");
        }
    }
    const auto take = [&](const std::string& name) {
        const auto it = fields.find(name);
        if (it == fields.end())
        {
            ThrowFileError(path, n, "the record has no " + name + "= line");
        }
        std::string v = it->second;
        fields.erase(it);
        return v;
    };
    r.build = take("build");
    r.options = take("options");
    r.index = ParseUnsigned32(path + ": index", take("index"));
    r.run = take("run");
    r.resources.wallSeconds = ParseReal(path + ": wall_s", take("wall_s"));
    r.resources.cpuSeconds = ParseReal(path + ": cpu_s", take("cpu_s"));
    r.resources.maxRssKb = ParseUnsigned64(path + ": max_rss_kb", take("max_rss_kb"));
    r.figures = std::move(fields);
    return r;
}

RunRecord
RunRecord::ReadFile(const std::string& path)
{
    std::ifstream file;
    OpenForReading(path, file);
    std::ostringstream text;
    text << file.rdbuf();
    return FromText(path, text.str());
}

void
RunRecord::Set(const std::string& name, double value)
{
    figures[name] = FormatNumber(value);
}

void
RunRecord::Set(const std::string& name, uint64_t value)
{
    figures[name] = std::to_string(value);
}

void
RunRecord::Set(const std::string& name, int64_t value)
{
    figures[name] = std::to_string(value);
}

namespace
{

/// \param r a record \param name a figure \return its text, or a mose::Error naming the record
const std::string&
FigureText(const RunRecord& r, const std::string& name)
{
    const auto it = r.figures.find(name);
    if (it == r.figures.end())
    {
        throw Error((r.path.empty() ? "run record " + std::to_string(r.index) : r.path) +
                    ": the record has no " + name + "= line (made by another version?)");
    }
    return it->second;
}

} // namespace

double
RunRecord::GetReal(const std::string& name) const
{
    return ParseReal(path + ": " + name, FigureText(*this, name));
}

uint64_t
RunRecord::GetUnsigned(const std::string& name) const
{
    return ParseUnsigned64(path + ": " + name, FigureText(*this, name));
}

int64_t
RunRecord::GetSigned(const std::string& name) const
{
    const std::string& text = FigureText(*this, name);
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE)
    {
        throw Error(path + ": " + name + " = " + QuoteFileText(text) + " is not a whole number");
    }
    return static_cast<int64_t>(v);
}

std::string
GetModuleBuildId()
{
    return MOSE_BUILD_ID;
}

RunRecordStore::RunRecordStore(const std::string& dir, const std::string& options)
    : m_dir(dir),
      m_options(options)
{
}

std::string
RunRecordStore::GetFolder() const
{
    return m_dir + "/runs";
}

const std::string&
RunRecordStore::GetOptions() const
{
    return m_options;
}

std::string
RunRecordStore::GetPath(uint32_t index) const
{
    char name[32];
    std::snprintf(name, sizeof(name), "run-%06u.txt", index);
    return GetFolder() + "/" + name;
}

std::optional<RunRecord>
RunRecordStore::Find(uint32_t index, std::string* stale) const
{
    NS_LOG_FUNCTION(this << index);
    const std::string path = GetPath(index);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
    {
        return std::nullopt;
    }
    RunRecord r = RunRecord::ReadFile(path);
    std::string why;
    if (r.build != GetModuleBuildId())
    {
        why = path + " was made by mose build " + QuoteText(r.build) + ", this is " +
              QuoteText(GetModuleBuildId()) + ": runs of two builds are not mixed";
    }
    else if (r.options != m_options)
    {
        why = path + " was made with other options (" + r.options + ", this study has " +
              m_options + "): a folder holds the runs of one study";
    }
    else if (r.index != index)
    {
        why = path + " holds run " + std::to_string(r.index) + ", not run " + std::to_string(index);
    }
    else
    {
        // the files the run wrote must be there, whole: a run killed between its files and its
        // record left no record, but a file may have been replaced or cut since
        for (const auto& [figure, digest] : r.figures)
        {
            if (figure.rfind("file.", 0) != 0)
            {
                continue;
            }
            const std::string file = GetFilePath(index, figure.substr(5));
            std::ifstream in(file, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            if (!in.is_open())
            {
                why = file + ", which " + path + " lists, is missing";
                break;
            }
            if (Sha256Hex(text.str()) != digest)
            {
                why = file + " is not the file its run wrote (" + path +
                      " gives another SHA-256): it was changed or cut";
                break;
            }
        }
    }
    if (why.empty())
    {
        return r;
    }
    if (stale == nullptr)
    {
        throw Error(why);
    }
    *stale = why;
    return std::nullopt;
}

RunRecordStore::KeptRuns
RunRecordStore::FindKept(const std::vector<uint32_t>& selected,
                         uint32_t total,
                         bool resume,
                         const std::function<std::string(uint32_t, const RunRecord&)>& whyNot) const
{
    KeptRuns k;
    k.records.resize(total);
    k.selected = selected.size();
    for (uint32_t i : selected)
    {
        std::string why;
        std::optional<RunRecord> r = resume ? Find(i, &why) : std::nullopt;
        if (r && whyNot)
        {
            why = whyNot(i, *r);
            if (!why.empty())
            {
                r.reset();
            }
        }
        if (!why.empty() && k.stale++ == 0)
        {
            k.firstStale = why;
        }
        if (r)
        {
            k.records[i] = std::move(r);
        }
        else
        {
            k.todo.push_back(i);
        }
    }
    return k;
}

void
RunRecordStore::PrintKept(std::ostream& os, const KeptRuns& kept) const
{
    if (kept.stale > 0)
    {
        os << kept.stale << " of the records in " << GetFolder()
           << " are another study's (the first: " << kept.firstStale
           << "): their runs run again and replace them\n";
    }
    if (kept.todo.size() < kept.selected)
    {
        os << "kept " << kept.selected - kept.todo.size() << " of " << kept.selected
           << " runs that a run with the same options and build finished before (" << GetFolder()
           << "; --resume=false runs them again)\n";
    }
}

void
RunRecordStore::Write(RunRecord record) const
{
    NS_LOG_FUNCTION(this << record.index);
    record.build = GetModuleBuildId();
    record.options = m_options;
    MakeOutputDirectory(GetFolder());
    const std::string text = record.ToText();
    WriteTextFile(GetPath(record.index), [&text](std::ostream& os) { os << text; });
}

std::string
RunRecordStore::GetFilePath(uint32_t index, const std::string& name) const
{
    const std::string record = GetPath(index);
    return record.substr(0, record.size() - 4) + "." + name; // in place of ".txt"
}

void
RunRecordStore::WriteRunFile(RunRecord& record,
                             const std::string& name,
                             const std::string& text) const
{
    NS_LOG_FUNCTION(this << record.index << name);
    if (name.empty() || name == "txt" ||
        name.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
            std::string::npos)
    {
        ThrowBadParameter("run file", name, "letters, digits, '.', '_' and '-', not \"txt\"");
    }
    MakeOutputDirectory(GetFolder());
    WriteTextFile(GetFilePath(record.index, name), [&text](std::ostream& os) { os << text; });
    record.figures["file." + name] = Sha256Hex(text);
    record.fileTexts[name] = text;
}

std::string
RunRecordStore::ReadRunFile(const RunRecord& record, const std::string& name)
{
    const auto it = record.figures.find("file." + name);
    const auto kept = record.fileTexts.find(name);
    if (it != record.figures.end() && kept != record.fileTexts.end())
    {
        return kept->second; // written by this process
    }
    const std::string base =
        record.path.size() > 4 ? record.path.substr(0, record.path.size() - 4) : record.path;
    const std::string file = base + "." + name;
    if (it == record.figures.end())
    {
        throw Error(record.path + " lists no file " + QuoteText(name) +
                    " (a record of another program?)");
    }
    std::ifstream in(file, std::ios::binary);
    if (!in)
    {
        throw Error(file + ", which " + record.path + " lists, is missing");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (Sha256Hex(text.str()) != it->second)
    {
        throw Error(file + " is not the file its run wrote (" + record.path +
                    " gives another SHA-256): it was changed or cut");
    }
    return text.str();
}

std::string
RunRecordStore::GetScratchFolder(uint32_t index) const
{
    const std::string folder = GetFilePath(index, "scratch");
    if (IsWritingFiles())
    {
        std::filesystem::remove_all(folder); // a killed run's
        MakeOutputDirectory(folder);
    }
    return folder;
}

void
RunRecordStore::KeepRunFolder(RunRecord& record, const std::string& folder) const
{
    NS_LOG_FUNCTION(this << record.index << folder);
    if (!IsWritingFiles())
    {
        return; // a distributed run's rank other than 0: the folder is rank 0's
    }
    std::vector<std::string> names;
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
    {
        return; // no file written
    }
    for (const auto& entry : std::filesystem::directory_iterator(folder))
    {
        if (entry.is_regular_file())
        {
            names.push_back(entry.path().filename().string());
        }
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names)
    {
        std::ifstream in(folder + "/" + name, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        WriteRunFile(record, "out." + name, text.str());
    }
    std::filesystem::remove_all(folder);
}

std::vector<std::string>
RunRecordStore::CopyRunFolder(const RunRecord& record, const std::string& dir)
{
    std::vector<std::string> names;
    if (!IsWritingFiles())
    {
        return names; // a distributed run's rank other than 0
    }
    for (const auto& [figure, digest] : record.figures)
    {
        if (figure.rfind("file.out.", 0) == 0)
        {
            const std::string name = figure.substr(9);
            const std::string text = ReadRunFile(record, "out." + name);
            WriteTextFile(dir + "/" + name, [&text](std::ostream& os) { os << text; });
            names.push_back(name);
        }
    }
    return names;
}

namespace
{

/// \return x rotated right by n bits
uint32_t
RotateRight(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

} // namespace

std::string
Sha256Hex(const std::string& data)
{
    // written here: neither ns-3 (its Hash is 32/64-bit FNV-1a and Murmur3) nor Boost (a SHA-1
    // in its uuid details) has SHA-256, and a record should not need OpenSSL
    static const uint32_t K[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    uint32_t h[8] = {0x6a09e667,
                     0xbb67ae85,
                     0x3c6ef372,
                     0xa54ff53a,
                     0x510e527f,
                     0x9b05688c,
                     0x1f83d9ab,
                     0x5be0cd19};
    // the message, a 1 bit, zeros, and its length in bits (64-bit big-endian): 64-byte blocks
    std::string m = data;
    const uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
    m += static_cast<char>(0x80);
    while (m.size() % 64 != 56)
    {
        m += '\0';
    }
    for (int i = 7; i >= 0; --i)
    {
        m += static_cast<char>((bits >> (8 * i)) & 0xff);
    }
    for (std::size_t block = 0; block < m.size(); block += 64)
    {
        uint32_t w[64];
        for (int t = 0; t < 16; ++t)
        {
            w[t] = 0;
            for (int b = 0; b < 4; ++b)
            {
                w[t] = (w[t] << 8) | static_cast<unsigned char>(m[block + 4 * t + b]);
            }
        }
        for (int t = 16; t < 64; ++t)
        {
            const uint32_t s0 =
                RotateRight(w[t - 15], 7) ^ RotateRight(w[t - 15], 18) ^ (w[t - 15] >> 3);
            const uint32_t s1 =
                RotateRight(w[t - 2], 17) ^ RotateRight(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
        for (int t = 0; t < 64; ++t)
        {
            const uint32_t t1 = k + (RotateRight(e, 6) ^ RotateRight(e, 11) ^ RotateRight(e, 25)) +
                                ((e & f) ^ (~e & g)) + K[t] + w[t];
            const uint32_t t2 = (RotateRight(a, 2) ^ RotateRight(a, 13) ^ RotateRight(a, 22)) +
                                ((a & b) ^ (a & c) ^ (b & c));
            k = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += k;
    }
    std::string out;
    char hex[9];
    for (uint32_t word : h)
    {
        std::snprintf(hex, sizeof(hex), "%08x", word);
        out += hex;
    }
    return out;
}

std::string
StudyOptionsText(int argc, char** argv, const std::vector<std::string>& ignored)
{
    std::string out;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        // ns-3's CommandLine takes -name as --name: compare the names without their dashes
        const auto bare = [](const std::string& text) {
            const std::size_t from = text.find_first_not_of('-');
            return from == std::string::npos ? std::string() : text.substr(from);
        };
        const std::string name = bare(arg.substr(0, arg.find('=')));
        if (std::find_if(ignored.begin(), ignored.end(), [&](const std::string& o) {
                return bare(o) == name;
            }) != ignored.end())
        {
            continue;
        }
        // quoted whole (QuoteFileText() would cut a long path): two different option lists
        // never read alike
        out += out.empty() ? "\"" : " \"";
        for (char c : arg)
        {
            if (c == '"' || c == '\\')
            {
                out += '\\';
                out += c;
            }
            else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            {
                char hex[8];
                std::snprintf(hex, sizeof(hex), "\\x%02x", static_cast<unsigned char>(c));
                out += hex;
            }
            else
            {
                out += c;
            }
        }
        out += '"';
    }
    return out;
}

} // namespace mose
} // namespace ns3
