/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-file-io.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <istream>
#include <ostream>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFileIo");

namespace
{

/// The largest node id: the node count (largest id + 1) must fit 32 bits, and so must the
/// count + 1 entries of the graph's compressed adjacency (CircuitGraph); at N = 2^32 - 1 that
/// count wrapped to 0 and the build crashed.
constexpr uint32_t MAX_NODE_ID = UINT32_MAX - 2;
/// "No bound" for CsvReader::ParseId(): every id up to MAX_NODE_ID is accepted.
constexpr uint64_t NO_NODE_LIMIT = uint64_t{1} << 32;

/// \return the id pair as one 64-bit key
uint64_t
PairKey(uint32_t a, uint32_t b)
{
    return (static_cast<uint64_t>(a) << 32) | b;
}

/// \return "a,b" as written in a file
std::string
PairText(uint32_t a, uint32_t b)
{
    return std::to_string(a) + "," + std::to_string(b);
}

/// \return the shortest text that reads back to exactly x
std::string
FormatReal(double x)
{
    char buf[64];
    auto result = std::to_chars(buf, buf + sizeof(buf), x);
    return std::string(buf, result.ptr);
}

/**
 * \brief The line-oriented CSV reader every format shares: line ends, blank and comment lines,
 *        the header, field splitting and trimming, strict number parsing, and error messages
 *        that name the file and the physical line.
 */
class CsvReader
{
  public:
    /**
     * \brief Reads up to and including the header; throws a mose::Error if it is not the expected
     *        one.
     * \param in the stream
     * \param name the name used in messages
     * \param columns the expected column names
     */
    CsvReader(std::istream& in, const std::string& name, std::vector<std::string> columns)
        : m_lines(in, name),
          m_columns(std::move(columns))
    {
        std::string expected;
        for (const auto& c : m_columns)
        {
            expected += (expected.empty() ? "" : ",") + c;
        }
        std::string_view line;
        if (!ReadContentLine(line))
        {
            FailAtEnd("no header line; expected " + QuoteFileText(expected));
        }
        Split(line);
        bool ok = m_fields.size() == m_columns.size();
        for (std::size_t i = 0; ok && i < m_fields.size(); ++i)
        {
            ok = m_fields[i] == m_columns[i];
        }
        if (!ok)
        {
            Fail("expected the header " + QuoteFileText(expected) + ", found " +
                 QuoteFileText(line));
        }
    }

    /**
     * \brief Advances to the next record and splits it into fields.
     * \return false at the end of the input
     */
    bool Next()
    {
        std::string_view line;
        if (!ReadContentLine(line))
        {
            return false;
        }
        Split(line);
        if (m_fields.size() != m_columns.size())
        {
            Fail("expected " + std::to_string(m_columns.size()) + " fields (" + ColumnList() +
                 "), found " + std::to_string(m_fields.size()) + ": " + QuoteFileText(line));
        }
        for (std::size_t i = 0; i < m_fields.size(); ++i)
        {
            if (m_fields[i].empty())
            {
                Fail("empty " + m_columns[i] + " field in " + QuoteFileText(line));
            }
        }
        return true;
    }

    /// \return the 1-based number of the current line
    uint64_t GetLine() const
    {
        return m_lines.GetLine();
    }

    /// \param column a column index \return the trimmed field
    std::string_view Field(std::size_t column) const
    {
        return m_fields[column];
    }

    /**
     * \brief Parses a node id: digits only, at most MAX_NODE_ID, below limit.
     * \param column the column index
     * \param limit ids must be below this (NO_NODE_LIMIT: no bound besides MAX_NODE_ID)
     * \return the id
     */
    uint32_t ParseId(std::size_t column, uint64_t limit)
    {
        std::string_view f = m_fields[column];
        const std::string& col = m_columns[column];
        if (!std::all_of(f.begin(), f.end(), [](char c) { return c >= '0' && c <= '9'; }))
        {
            Fail(col + " " + QuoteFileText(f) +
                 " is not a node id (a non-negative integer written with digits only)");
        }
        uint64_t value = 0;
        auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
        if (ec != std::errc() || ptr != f.data() + f.size() || value > MAX_NODE_ID)
        {
            Fail(col + " " + QuoteFileText(f) + " is too large: node ids are at most " +
                 std::to_string(MAX_NODE_ID));
        }
        if (value >= limit)
        {
            Fail(col + " " + QuoteFileText(f) + " is not below the number of groups " +
                 std::to_string(limit));
        }
        return static_cast<uint32_t>(value);
    }

    /**
     * \brief Parses a positive finite real (locale-independent, whole field consumed).
     * \param column the column index
     * \return the value
     */
    double ParsePositive(std::size_t column)
    {
        std::string_view f = m_fields[column];
        const std::string& col = m_columns[column];
        double value = 0;
        std::string problem = TryParseReal(f, value);
        if (!problem.empty())
        {
            Fail(col + " " + QuoteFileText(f) + " " + problem);
        }
        if (!(value > 0))
        {
            Fail(col + " " + QuoteFileText(f) + " must be positive and finite");
        }
        return value;
    }

    /// \brief Throws a mose::Error at the current line.
    /// \param problem what is wrong
    [[noreturn]] void Fail(const std::string& problem) const
    {
        ThrowFileError(m_lines.GetName(), std::max<uint64_t>(m_lines.GetLine(), 1), problem);
    }

    /// \brief Throws a mose::Error for a problem found after the last line.
    /// \param problem what is wrong
    [[noreturn]] void FailAtEnd(const std::string& problem) const
    {
        ThrowFileError(m_lines.GetName(),
                       std::max<uint64_t>(m_lines.GetLine(), 1),
                       "at end of file: " + problem);
    }

  private:
    /// \return "u,v" style list of the columns
    std::string ColumnList() const
    {
        std::string list;
        for (const auto& c : m_columns)
        {
            list += (list.empty() ? "" : ",") + c;
        }
        return list;
    }

    /**
     * \brief Reads physical lines until one that is neither blank nor a comment.
     * \param line set to the line without its line end and surrounding blanks
     * \return false at the end of the input
     */
    bool ReadContentLine(std::string_view& line)
    {
        std::string_view raw;
        while (m_lines.Next(raw))
        {
            line = TrimBlanks(raw);
            if (!line.empty() && line.front() != '#')
            {
                return true;
            }
        }
        return false;
    }

    /// \brief Splits a line at commas into trimmed fields.
    /// \param line the line
    void Split(std::string_view line)
    {
        SplitAtCommas(line, m_fields);
        for (std::string_view& field : m_fields)
        {
            field = TrimBlanks(field);
        }
    }

    LineReader m_lines;                     //!< the physical lines, numbered
    std::vector<std::string> m_columns;     //!< expected columns
    std::vector<std::string_view> m_fields; //!< fields of the current line (views into m_lines)
};

} // namespace

namespace
{

/// The name stream writers use in their messages
const std::string OUTPUT_STREAM = "output stream";

void
PutCircuitGraphCsv(const CircuitGraph& graph, std::ostream& out)
{
    out << "u,v\n";
    for (const Circuit& c : graph.GetCircuits())
    {
        out << c.u << ',' << c.v << '\n';
    }
}

void
PutRolesCsv(const RoleAssignment& roles, std::ostream& out)
{
    out << "node,role\n";
    for (uint32_t v = 0; v < roles.GetN(); ++v)
    {
        out << v << ',' << ToString(roles.Get(v)) << '\n';
    }
}

void
PutFlowsCsv(const std::vector<Flow>& flows, std::ostream& out)
{
    out << "src,dst,class,demand\n";
    for (const Flow& f : flows)
    {
        out << f.src << ',' << f.dst << ',' << ToString(f.cls) << ',' << FormatReal(f.demand)
            << '\n';
    }
}

void
PutPdAssignmentCsv(const PdAssignment& assignment, std::ostream& out)
{
    out << "prefill,decode,weight\n";
    for (const PdPair& p : assignment.GetPairs())
    {
        out << p.prefill << ',' << p.decode << ',' << FormatReal(p.weight) << '\n';
    }
}

/// \brief Throws a mose::Error if the roles do not cover the graph's nodes.
void
CheckDotRoles(const CircuitGraph& graph, const RoleAssignment* roles)
{
    if (roles != nullptr && roles->GetN() != graph.GetNNodes())
    {
        throw Error("WriteCircuitGraphDot: the roles cover " + std::to_string(roles->GetN()) +
                    " groups but the graph has " + std::to_string(graph.GetNNodes()));
    }
}

void
PutCircuitGraphDot(const CircuitGraph& graph, std::ostream& out, const RoleAssignment* roles)
{
    out << "graph mose {\n";
    out << "  // " << graph.GetNNodes() << " groups, " << graph.GetNCircuits() << " circuits\n";
    if (roles != nullptr)
    {
        out << "  // prefill: lightskyblue, decode: lightsalmon, training: palegreen\n";
    }
    out << "  node [shape=circle, style=filled, fillcolor=white];\n";
    for (uint32_t v = 0; v < graph.GetNNodes(); ++v)
    {
        if (roles == nullptr)
        {
            out << "  " << v << ";\n";
            continue;
        }
        const char* letter = "T";
        const char* colour = "palegreen";
        switch (roles->Get(v))
        {
        case GroupRole::PREFILL:
            letter = "P";
            colour = "lightskyblue";
            break;
        case GroupRole::DECODE:
            letter = "D";
            colour = "lightsalmon";
            break;
        case GroupRole::TRAINING:
            break;
        }
        out << "  " << v << " [label=\"" << v << "\\n"
            << letter << "\", fillcolor=" << colour << "];\n";
    }
    for (const Circuit& c : graph.GetCircuits())
    {
        out << "  " << c.u << " -- " << c.v << ";\n";
    }
    out << "}\n";
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Circuit graph

CircuitGraph
ReadCircuitGraphCsv(std::istream& in,
                    const std::string& name,
                    uint32_t nodes,
                    std::optional<uint32_t> degree)
{
    NS_LOG_FUNCTION(name << nodes << (degree ? std::to_string(*degree) : std::string("any")));
    CsvReader csv(in, name, {"u", "v"});
    const uint64_t limit = nodes != 0 ? nodes : NO_NODE_LIMIT;
    std::vector<Circuit> circuits;
    std::unordered_map<uint64_t, uint64_t> lineOf;   // circuit (u < v) -> its line
    std::unordered_map<uint32_t, uint32_t> degreeOf; // node -> circuits so far
    uint32_t maxId = 0;
    while (csv.Next())
    {
        uint32_t a = csv.ParseId(0, limit);
        uint32_t b = csv.ParseId(1, limit);
        if (a == b)
        {
            csv.Fail("self-loop: circuit " + PairText(a, b) + " joins node " + std::to_string(a) +
                     " to itself");
        }
        Circuit c{std::min(a, b), std::max(a, b)};
        auto [it, inserted] = lineOf.emplace(PairKey(c.u, c.v), csv.GetLine());
        if (!inserted)
        {
            csv.Fail("circuit " + PairText(a, b) + " repeats the circuit of line " +
                     std::to_string(it->second) + " (circuits are undirected)");
        }
        for (uint32_t v : {a, b})
        {
            uint32_t k = ++degreeOf[v];
            if (degree && k > *degree)
            {
                csv.Fail("circuit " + PairText(a, b) + " gives node " + std::to_string(v) +
                         " degree " + std::to_string(k) + ", expected " + std::to_string(*degree));
            }
        }
        maxId = std::max({maxId, a, b});
        circuits.push_back(c);
    }
    if (circuits.empty())
    {
        csv.FailAtEnd("no circuits after the header");
    }
    const uint32_t n = nodes != 0 ? nodes : maxId + 1;

    // Per-node checks without an array of N entries (N may be given large): nodes missing from
    // degreeOf have no circuit. Report the smallest node whose degree is wrong.
    auto isWrong = [&](uint32_t k) { return degree ? k != *degree : (nodes == 0 && k == 0); };
    auto report = [&](uint32_t v, uint32_t k) {
        if (degree)
        {
            csv.FailAtEnd("node " + std::to_string(v) + " has degree " + std::to_string(k) +
                          ", expected " + std::to_string(*degree));
        }
        csv.FailAtEnd("node " + std::to_string(v) +
                      " has no circuit, but the node count was inferred as the largest id + 1 = " +
                      std::to_string(n) + "; give the node count to allow isolated groups");
    };
    std::vector<std::pair<uint32_t, uint32_t>> degrees(degreeOf.begin(), degreeOf.end());
    std::sort(degrees.begin(), degrees.end());
    uint64_t expect = 0; // smallest node id not yet seen in degrees
    for (const auto& [v, k] : degrees)
    {
        if (v != expect && isWrong(0))
        {
            report(static_cast<uint32_t>(expect), 0);
        }
        if (isWrong(k))
        {
            report(v, k);
        }
        expect = uint64_t{v} + 1;
    }
    if (expect < n && isWrong(0))
    {
        report(static_cast<uint32_t>(expect), 0);
    }

    CircuitGraph graph(n, std::move(circuits));
    if (degree)
    {
        // simple and regular are established above; this adds connectivity
        std::string problem = graph.FindProblem(*degree);
        if (!problem.empty())
        {
            csv.FailAtEnd(problem);
        }
    }
    NS_LOG_INFO("read " << name << ": " << graph.GetNCircuits() << " circuits on " << n
                        << (nodes != 0 ? " groups" : " groups (largest id + 1)"));
    return graph;
}

CircuitGraph
ReadCircuitGraphCsv(const std::string& path, uint32_t nodes, std::optional<uint32_t> degree)
{
    NS_LOG_FUNCTION(path << nodes << (degree ? std::to_string(*degree) : std::string("any")));
    std::ifstream file;
    OpenForReading(path, file);
    return ReadCircuitGraphCsv(file, path, nodes, degree);
}

void
WriteCircuitGraphCsv(const CircuitGraph& graph, std::ostream& out)
{
    NS_LOG_FUNCTION(graph.GetNNodes() << graph.GetNCircuits());
    PutCircuitGraphCsv(graph, out);
    CheckWritten(out, OUTPUT_STREAM);
}

void
WriteCircuitGraphCsv(const CircuitGraph& graph, const std::string& path)
{
    NS_LOG_FUNCTION(graph.GetNNodes() << graph.GetNCircuits() << path);
    WriteTextFile(path, [&graph](std::ostream& out) { PutCircuitGraphCsv(graph, out); });
}

// ---------------------------------------------------------------------------------------------
// Roles

RoleAssignment
ReadRolesCsv(std::istream& in, const std::string& name, uint32_t nodes)
{
    NS_LOG_FUNCTION(name << nodes);
    CsvReader csv(in, name, {"node", "role"});
    const uint64_t limit = nodes != 0 ? nodes : NO_NODE_LIMIT;
    std::vector<std::pair<uint32_t, GroupRole>> entries;
    std::unordered_map<uint32_t, uint64_t> lineOf;
    uint32_t maxId = 0;
    while (csv.Next())
    {
        uint32_t v = csv.ParseId(0, limit);
        std::optional<GroupRole> parsed = TryParseEnum<GroupRole>(csv.Field(1));
        if (!parsed)
        {
            csv.Fail("unknown role " + QuoteFileText(csv.Field(1)) +
                     " (allowed: " + AllowedEnumNames<GroupRole>() + ")");
        }
        const GroupRole role = *parsed;
        auto [it, inserted] = lineOf.emplace(v, csv.GetLine());
        if (!inserted)
        {
            csv.Fail("node " + std::to_string(v) + " appears again (first at line " +
                     std::to_string(it->second) + ")");
        }
        maxId = std::max(maxId, v);
        entries.emplace_back(v, role);
    }
    if (entries.empty())
    {
        csv.FailAtEnd("no nodes after the header");
    }
    const uint32_t n = nodes != 0 ? nodes : maxId + 1;
    // ids are distinct and below n, so sorted they are 0, 1, ... up to the first missing one
    std::sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) {
        return x.first < y.first;
    });
    uint64_t missing = entries.size();
    for (std::size_t i = 0; i < entries.size(); ++i)
    {
        if (entries[i].first != i)
        {
            missing = i;
            break;
        }
    }
    if (missing < n)
    {
        csv.FailAtEnd("node " + std::to_string(missing) + " is missing (every node 0.." +
                      std::to_string(n - 1) + " needs a role)");
    }
    std::vector<GroupRole> roles;
    roles.reserve(entries.size());
    for (const auto& e : entries)
    {
        roles.push_back(e.second);
    }
    NS_LOG_INFO("read " << name << ": roles of " << roles.size() << " groups");
    return RoleAssignment(std::move(roles));
}

RoleAssignment
ReadRolesCsv(const std::string& path, uint32_t nodes)
{
    NS_LOG_FUNCTION(path << nodes);
    std::ifstream file;
    OpenForReading(path, file);
    return ReadRolesCsv(file, path, nodes);
}

void
WriteRolesCsv(const RoleAssignment& roles, std::ostream& out)
{
    NS_LOG_FUNCTION(roles.GetN());
    PutRolesCsv(roles, out);
    CheckWritten(out, OUTPUT_STREAM);
}

void
WriteRolesCsv(const RoleAssignment& roles, const std::string& path)
{
    NS_LOG_FUNCTION(roles.GetN() << path);
    WriteTextFile(path, [&roles](std::ostream& out) { PutRolesCsv(roles, out); });
}

// ---------------------------------------------------------------------------------------------
// Flows

std::vector<Flow>
ReadFlowsCsv(std::istream& in, const std::string& name, uint32_t nodes)
{
    NS_LOG_FUNCTION(name << nodes);
    CsvReader csv(in, name, {"src", "dst", "class", "demand"});
    const uint64_t limit = nodes != 0 ? nodes : NO_NODE_LIMIT;
    std::vector<Flow> flows;
    double total = 0;
    while (csv.Next())
    {
        Flow f;
        f.src = csv.ParseId(0, limit);
        f.dst = csv.ParseId(1, limit);
        if (f.src == f.dst)
        {
            csv.Fail("flow " + PairText(f.src, f.dst) + " has the same source and destination");
        }
        std::optional<TrafficClass> cls = TryParseEnum<TrafficClass>(csv.Field(2));
        if (!cls)
        {
            csv.Fail("unknown class " + QuoteFileText(csv.Field(2)) +
                     " (allowed: " + AllowedEnumNames<TrafficClass>() + ")");
        }
        f.cls = *cls;
        f.demand = csv.ParsePositive(3);
        total += f.demand;
        if (!std::isfinite(total))
        {
            csv.Fail("demand " + QuoteFileText(csv.Field(3)) +
                     " makes the total demand exceed the largest double (about 1.8e308), so "
                     "loads and costs would be infinite; scale the demands down");
        }
        flows.push_back(f);
    }
    if (flows.empty())
    {
        csv.FailAtEnd("no flows after the header");
    }
    NS_LOG_INFO("read " << name << ": " << flows.size() << " flows, total demand " << total);
    return flows;
}

std::vector<Flow>
ReadFlowsCsv(const std::string& path, uint32_t nodes)
{
    NS_LOG_FUNCTION(path << nodes);
    std::ifstream file;
    OpenForReading(path, file);
    return ReadFlowsCsv(file, path, nodes);
}

void
WriteFlowsCsv(const std::vector<Flow>& flows, std::ostream& out)
{
    NS_LOG_FUNCTION(flows.size());
    PutFlowsCsv(flows, out);
    CheckWritten(out, OUTPUT_STREAM);
}

void
WriteFlowsCsv(const std::vector<Flow>& flows, const std::string& path)
{
    NS_LOG_FUNCTION(flows.size() << path);
    WriteTextFile(path, [&flows](std::ostream& out) { PutFlowsCsv(flows, out); });
}

// ---------------------------------------------------------------------------------------------
// P-D assignment

PdAssignment
ReadPdAssignmentCsv(std::istream& in, const std::string& name, const RoleAssignment* roles)
{
    NS_LOG_FUNCTION(name << roles);
    CsvReader csv(in, name, {"prefill", "decode", "weight"});
    const uint64_t limit = roles != nullptr ? roles->GetN() : NO_NODE_LIMIT;
    std::vector<PdPair> pairs;
    std::unordered_map<uint64_t, uint64_t> lineOf; // pair -> its line
    // node -> (true if it is a prefill, line that made it one)
    std::unordered_map<uint32_t, std::pair<bool, uint64_t>> sideOf;
    while (csv.Next())
    {
        PdPair p;
        p.prefill = csv.ParseId(0, limit);
        p.decode = csv.ParseId(1, limit);
        p.weight = csv.ParsePositive(2);
        const std::string text = PairText(p.prefill, p.decode);
        if (roles != nullptr)
        {
            for (auto [v, want] : {std::make_pair(p.prefill, GroupRole::PREFILL),
                                   std::make_pair(p.decode, GroupRole::DECODE)})
            {
                if (roles->Get(v) != want)
                {
                    csv.Fail("pair " + text + " is not prefill->decode: node " + std::to_string(v) +
                             " is a " + ToString(roles->Get(v)) + " group");
                }
            }
        }
        if (p.prefill == p.decode)
        {
            csv.Fail("pair " + text + " joins node " + std::to_string(p.prefill) +
                     " to itself (a group cannot be both prefill and decode)");
        }
        auto [it, inserted] = lineOf.emplace(PairKey(p.prefill, p.decode), csv.GetLine());
        if (!inserted)
        {
            csv.Fail("pair " + text + " repeats the pair of line " + std::to_string(it->second));
        }
        for (auto [v, isPrefill] :
             {std::make_pair(p.prefill, true), std::make_pair(p.decode, false)})
        {
            auto [s, fresh] = sideOf.emplace(v, std::make_pair(isPrefill, csv.GetLine()));
            if (!fresh && s->second.first != isPrefill)
            {
                csv.Fail("pair " + text + " makes node " + std::to_string(v) + " a " +
                         (isPrefill ? "prefill" : "decode") + ", but line " +
                         std::to_string(s->second.second) + " made it a " +
                         (isPrefill ? "decode" : "prefill"));
            }
        }
        pairs.push_back(p);
    }
    if (pairs.empty())
    {
        csv.FailAtEnd("no pairs after the header");
    }
    NS_LOG_INFO("read " << name << ": " << pairs.size() << " prefill->decode pairs"
                        << (roles != nullptr ? ", checked against the roles" : ""));
    return PdAssignment(std::move(pairs));
}

PdAssignment
ReadPdAssignmentCsv(const std::string& path, const RoleAssignment* roles)
{
    NS_LOG_FUNCTION(path << roles);
    std::ifstream file;
    OpenForReading(path, file);
    return ReadPdAssignmentCsv(file, path, roles);
}

void
WritePdAssignmentCsv(const PdAssignment& assignment, std::ostream& out)
{
    NS_LOG_FUNCTION(assignment.GetPairs().size());
    PutPdAssignmentCsv(assignment, out);
    CheckWritten(out, OUTPUT_STREAM);
}

void
WritePdAssignmentCsv(const PdAssignment& assignment, const std::string& path)
{
    NS_LOG_FUNCTION(assignment.GetPairs().size() << path);
    WriteTextFile(path, [&assignment](std::ostream& out) { PutPdAssignmentCsv(assignment, out); });
}

// ---------------------------------------------------------------------------------------------
// Graphviz DOT

void
WriteCircuitGraphDot(const CircuitGraph& graph, std::ostream& out, const RoleAssignment* roles)
{
    NS_LOG_FUNCTION(graph.GetNNodes() << graph.GetNCircuits() << roles);
    CheckDotRoles(graph, roles);
    PutCircuitGraphDot(graph, out, roles);
    CheckWritten(out, OUTPUT_STREAM);
}

void
WriteCircuitGraphDot(const CircuitGraph& graph,
                     const std::string& path,
                     const RoleAssignment* roles)
{
    NS_LOG_FUNCTION(graph.GetNNodes() << graph.GetNCircuits() << path << roles);
    CheckDotRoles(graph, roles);
    WriteTextFile(path, [&](std::ostream& out) { PutCircuitGraphDot(graph, out, roles); });
}

} // namespace mose
} // namespace ns3
