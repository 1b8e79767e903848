/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-traffic.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// K5: the complete graph on 5 nodes, 4-regular and connected
CircuitGraph
K5()
{
    std::vector<Circuit> c;
    for (uint32_t u = 0; u < 5; ++u)
    {
        for (uint32_t v = u + 1; v < 5; ++v)
        {
            c.push_back({u, v});
        }
    }
    return CircuitGraph(5, c);
}

/// The text of K5 as an edge list, one circuit per line after the header on line 1
const std::string K5_CSV = "u,v\n0,1\n0,2\n0,3\n0,4\n1,2\n1,3\n1,4\n2,3\n2,4\n3,4\n";

/**
 * \brief Runs f and checks that it throws a mose::Error whose message starts with "NAME:LINE: "
 *        and contains every fragment.
 */
void
ExpectFileError(const std::function<void()>& f,
                const std::string& name,
                uint64_t line,
                const std::vector<std::string>& fragments = {})
{
    try
    {
        f();
        ADD_FAILURE() << "expected a mose::Error at " << name << ":" << line;
    }
    catch (const Error& e)
    {
        std::string m = e.what();
        std::string prefix = name + ":" + std::to_string(line) + ": ";
        EXPECT_EQ(m.rfind(prefix, 0), 0U) << "message: " << m << "\nexpected prefix: " << prefix;
        for (const auto& fragment : fragments)
        {
            EXPECT_NE(m.find(fragment), std::string::npos)
                << "message: " << m << "\nexpected to contain: " << fragment;
        }
    }
}

CircuitGraph
ReadGraphText(const std::string& text,
              uint32_t nodes = 0,
              std::optional<uint32_t> degree = std::nullopt)
{
    std::istringstream in(text);
    return ReadCircuitGraphCsv(in, "edges.csv", nodes, degree);
}

void
ExpectGraphError(const std::string& text,
                 uint64_t line,
                 const std::vector<std::string>& fragments = {},
                 uint32_t nodes = 0,
                 std::optional<uint32_t> degree = std::nullopt)
{
    ExpectFileError([&] { ReadGraphText(text, nodes, degree); }, "edges.csv", line, fragments);
}

RoleAssignment
ReadRolesText(const std::string& text, uint32_t nodes = 0)
{
    std::istringstream in(text);
    return ReadRolesCsv(in, "roles.csv", nodes);
}

void
ExpectRolesError(const std::string& text,
                 uint64_t line,
                 const std::vector<std::string>& fragments = {},
                 uint32_t nodes = 0)
{
    ExpectFileError([&] { ReadRolesText(text, nodes); }, "roles.csv", line, fragments);
}

std::vector<Flow>
ReadFlowsText(const std::string& text, uint32_t nodes = 0)
{
    std::istringstream in(text);
    return ReadFlowsCsv(in, "flows.csv", nodes);
}

void
ExpectFlowsError(const std::string& text,
                 uint64_t line,
                 const std::vector<std::string>& fragments = {},
                 uint32_t nodes = 0)
{
    ExpectFileError([&] { ReadFlowsText(text, nodes); }, "flows.csv", line, fragments);
}

PdAssignment
ReadPdText(const std::string& text, const RoleAssignment* roles = nullptr)
{
    std::istringstream in(text);
    return ReadPdAssignmentCsv(in, "pd.csv", roles);
}

void
ExpectPdError(const std::string& text,
              uint64_t line,
              const std::vector<std::string>& fragments = {},
              const RoleAssignment* roles = nullptr)
{
    ExpectFileError([&] { ReadPdText(text, roles); }, "pd.csv", line, fragments);
}

/// A temporary file path that is removed at the end of the test
class TempPath
{
  public:
    explicit TempPath(const std::string& suffix)
    {
        std::string tmpl = ::testing::TempDir() + "mose-file-io-XXXXXX";
        int fd = mkstemp(tmpl.data());
        EXPECT_GE(fd, 0);
        if (fd >= 0)
        {
            close(fd);
            std::remove(tmpl.c_str());
        }
        m_path = tmpl + suffix;
    }

    ~TempPath()
    {
        std::remove(m_path.c_str());
    }

    const std::string& Get() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

std::string
ReadWholeFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t
CountOccurrences(const std::string& text, const std::string& what)
{
    std::size_t count = 0;
    for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    {
        ++count;
    }
    return count;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Round trips

TEST(FileIoGraph, RoundTripThroughStream)
{
    CircuitGraph g = K5();
    std::ostringstream out;
    WriteCircuitGraphCsv(g, out);
    EXPECT_EQ(out.str(), K5_CSV);
    CircuitGraph back = ReadGraphText(out.str(), 5, 4);
    EXPECT_EQ(back.GetNNodes(), 5U);
    EXPECT_EQ(back.GetCircuits(), g.GetCircuits());
}

TEST(FileIoGraph, RoundTripThroughFile)
{
    // a circulant 4-regular graph on 12 nodes: i -- i+1, i -- i+3
    std::vector<Circuit> c;
    for (uint32_t i = 0; i < 12; ++i)
    {
        c.push_back({i, (i + 1) % 12});
        c.push_back({i, (i + 3) % 12});
    }
    CircuitGraph g(12, c);
    TempPath path(".csv");
    WriteCircuitGraphCsv(g, path.Get());
    CircuitGraph back = ReadCircuitGraphCsv(path.Get(), 0, 4);
    EXPECT_EQ(back.GetNNodes(), 12U);
    EXPECT_EQ(back.GetCircuits(), g.GetCircuits());
}

TEST(FileIoGraph, GivenNodeCountAllowsIsolatedNodesWithoutDegree)
{
    CircuitGraph g = ReadGraphText("u,v\n0,1\n", 4);
    EXPECT_EQ(g.GetNNodes(), 4U);
    EXPECT_EQ(g.GetNCircuits(), 1U);
}

TEST(FileIoGraph, IrregularGraphAcceptedWithoutDegree)
{
    CircuitGraph g = ReadGraphText("u,v\n0,1\n1,2\n");
    EXPECT_EQ(g.GetNNodes(), 3U);
    EXPECT_EQ(g.GetDegree(1), 2U);
}

TEST(FileIoRoles, RoundTrip)
{
    RoleAssignment r(std::vector<GroupRole>{GroupRole::TRAINING,
                                            GroupRole::PREFILL,
                                            GroupRole::DECODE,
                                            GroupRole::PREFILL,
                                            GroupRole::TRAINING,
                                            GroupRole::DECODE});
    std::ostringstream out;
    WriteRolesCsv(r, out);
    EXPECT_EQ(out.str(),
              "node,role\n0,training\n1,prefill\n2,decode\n3,prefill\n4,training\n5,decode\n");
    EXPECT_EQ(ReadRolesText(out.str(), 6).GetRoles(), r.GetRoles());

    TempPath path(".csv");
    WriteRolesCsv(r, path.Get());
    EXPECT_EQ(ReadRolesCsv(path.Get()).GetRoles(), r.GetRoles());
}

TEST(FileIoRoles, AnyOrderAndShortNames)
{
    RoleAssignment r = ReadRolesText("node,role\n2,T\n0,p\n1,Decode\n");
    EXPECT_EQ(r.GetRoles(),
              (std::vector<GroupRole>{GroupRole::PREFILL, GroupRole::DECODE, GroupRole::TRAINING}));
}

TEST(FileIoFlows, RoundTripIsExact)
{
    std::vector<Flow> flows = {
        {0, 5, TrafficClass::KV, 1.0},
        {7, 3, TrafficClass::TRAINING, 0.1},
        {3, 7, TrafficClass::TRAINING, 1.0 / 3.0},
        {1, 2, TrafficClass::KV, 1e-300},
        {2, 1, TrafficClass::KV, std::numeric_limits<double>::max()},
        {4294967293U, 0, TrafficClass::KV, 123456.789},
    };
    std::ostringstream out;
    WriteFlowsCsv(flows, out);
    std::vector<Flow> back = ReadFlowsText(out.str());
    ASSERT_EQ(back.size(), flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        EXPECT_EQ(back[i].src, flows[i].src);
        EXPECT_EQ(back[i].dst, flows[i].dst);
        EXPECT_EQ(back[i].cls, flows[i].cls);
        EXPECT_EQ(back[i].demand, flows[i].demand) << "flow " << i; // bit-exact
    }

    TempPath path(".csv");
    WriteFlowsCsv(flows, path.Get());
    EXPECT_EQ(ReadWholeFile(path.Get()), out.str());
    EXPECT_EQ(ReadFlowsCsv(path.Get()).size(), flows.size());
}

TEST(FileIoPdAssignment, RoundTrip)
{
    RoleAssignment roles = RoleAssignment::Contiguous({3, 2, 1}); // P 0-2, D 3-4, T 5
    PdAssignment a(std::vector<PdPair>{{0, 3, 1.0}, {1, 4, 2.5}, {2, 3, 0.1}});
    std::ostringstream out;
    WritePdAssignmentCsv(a, out);
    EXPECT_EQ(out.str(), "prefill,decode,weight\n0,3,1\n1,4,2.5\n2,3,0.1\n");
    PdAssignment back = ReadPdText(out.str(), &roles);
    ASSERT_EQ(back.GetPairs().size(), 3U);
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(back.GetPairs()[i].prefill, a.GetPairs()[i].prefill);
        EXPECT_EQ(back.GetPairs()[i].decode, a.GetPairs()[i].decode);
        EXPECT_EQ(back.GetPairs()[i].weight, a.GetPairs()[i].weight);
    }

    TempPath path(".csv");
    WritePdAssignmentCsv(a, path.Get());
    EXPECT_EQ(ReadPdAssignmentCsv(path.Get(), &roles).GetPairs().size(), 3U);
    EXPECT_EQ(ReadPdAssignmentCsv(path.Get()).GetPairs().size(), 3U);
}

// ---------------------------------------------------------------------------------------------
// Line ends, comments, blanks

TEST(FileIoSyntax, CrlfCommentsBlankLinesAndSpacesAccepted)
{
    std::string text =
        "# a triangle\r\n\r\n  # indented comment\r\n u , v \r\n0,1\r\n\r\n\t1 ,\t2\r\n"
        "# between records\r\n2,0"; // no final line end
    CircuitGraph g = ReadGraphText(text, 0, 2);
    EXPECT_EQ(g.GetNNodes(), 3U);
    EXPECT_EQ(g.GetNCircuits(), 3U);

    EXPECT_EQ(ReadRolesText("# r\r\nnode,role\r\n0,P\r\n1,D\r\n").GetN(), 2U);
    EXPECT_EQ(ReadFlowsText("src,dst,class,demand\r\n# c\r\n0,1,kv,2.5\r\n")[0].demand, 2.5);
    EXPECT_EQ(ReadPdText("\r\nprefill,decode,weight\r\n0,1,1\r\n").GetPairs().size(), 1U);
}

TEST(FileIoSyntax, LineNumbersCountBlankAndCommentLines)
{
    // the self-loop is on physical line 6
    ExpectGraphError("# c\n\nu,v\r\n# c\r\n0,1\r\n2,2\r\n", 6, {"self-loop", "circuit 2,2"});
}

TEST(FileIoSyntax, TrailingCommentOnARecordIsAnError)
{
    ExpectGraphError("u,v\n0,1 # x\n", 2, {"\"1 # x\""}, 0);
}

TEST(FileIoSyntax, LoneCarriageReturnIsNotALineEnd)
{
    ExpectGraphError("u,v\n0,1\r1,2\n", 2, {"\\x0D"});
}

TEST(FileIoSyntax, ControlCharactersAreEscapedInMessages)
{
    ExpectGraphError(std::string("u,v\n0,\x01\n", 8), 2, {"\"\\x01\""});
}

// ---------------------------------------------------------------------------------------------
// Edge list errors

TEST(FileIoGraphErrors, BadHeader)
{
    ExpectGraphError("# edges\nsrc,dst\n0,1\n", 2, {"u,v", "src,dst"});
    ExpectGraphError("0,1\n1,2\n", 1, {"header"});
    ExpectGraphError("u,v,w\n0,1\n", 1, {"header"});
    ExpectGraphError("U,V\n0,1\n", 1, {"header"});
}

TEST(FileIoGraphErrors, EmptyFileAndNoRecords)
{
    ExpectGraphError("", 1, {"no header"});
    ExpectGraphError("# only a comment\n\n", 2, {"no header"});
    ExpectGraphError("u,v\n", 1, {"no circuits"});
}

TEST(FileIoGraphErrors, MissingColumn)
{
    ExpectGraphError("u,v\n0,1\n2\n", 3, {"expected 2 fields", "found 1"});
}

TEST(FileIoGraphErrors, ExtraColumn)
{
    ExpectGraphError("u,v\n0,1\n1,2,3\n", 3, {"expected 2 fields", "found 3", "1,2,3"});
    ExpectGraphError("u,v\n0,1\n1,2,\n", 3, {"found 3"});
}

TEST(FileIoGraphErrors, EmptyField)
{
    ExpectGraphError("u,v\n0,1\n ,2\n", 3, {"empty u field"});
}

TEST(FileIoGraphErrors, NonNumericId)
{
    ExpectGraphError("u,v\n0,1\n1,x\n", 3, {"v \"x\"", "not a node id"});
    ExpectGraphError("u,v\n0,1\n1.5,2\n", 3, {"\"1.5\""});
    ExpectGraphError("u,v\n0,1\n1e3,2\n", 3, {"\"1e3\""});
    ExpectGraphError("u,v\n0,1\n+1,2\n", 3, {"\"+1\""});
    ExpectGraphError("u,v\n0,1\n1 2,3\n", 3, {"\"1 2\""});
    ExpectGraphError("u,v\n0,1\n0x1,2\n", 3, {"\"0x1\""});
}

TEST(FileIoGraphErrors, NegativeId)
{
    ExpectGraphError("u,v\n0,1\n-1,2\n", 3, {"\"-1\"", "not a node id"});
}

TEST(FileIoGraphErrors, IdOverflow)
{
    ExpectGraphError("u,v\n0,1\n1,4294967296\n", 3, {"\"4294967296\"", "too large"});
    // 4294967295 + 1 would not fit the node count, 4294967294 + 2 not the adjacency offsets
    ExpectGraphError("u,v\n0,1\n1,4294967295\n", 3, {"too large"});
    ExpectGraphError("u,v\n0,1\n1,4294967294\n", 3, {"too large", "4294967293"});
    ExpectGraphError("u,v\n0,1\n1,99999999999999999999999999\n", 3, {"too large"});
}

TEST(FileIoGraphErrors, IdNotBelowNodeCount)
{
    ExpectGraphError("u,v\n0,1\n1,2\n3,4\n", 4, {"\"4\"", "number of groups 4"}, 4);
}

TEST(FileIoGraphErrors, SelfLoop)
{
    ExpectGraphError("u,v\n0,1\n1,1\n", 3, {"self-loop", "node 1"});
}

TEST(FileIoGraphErrors, DuplicateCircuit)
{
    ExpectGraphError("u,v\n0,1\n1,2\n0,1\n", 4, {"repeats", "line 2"});
}

TEST(FileIoGraphErrors, ReversedDuplicateCircuit)
{
    ExpectGraphError("u,v\n0,1\n1,2\n\n2,1\n", 5, {"circuit 2,1", "line 3"});
}

TEST(FileIoGraphErrors, DegreeTooHighAtTheLineThatExceedsIt)
{
    // node 0 gets its third circuit on line 4
    ExpectGraphError("u,v\n0,1\n0,2\n0,3\n1,2\n", 4, {"node 0", "degree 3", "expected 2"}, 0, 2);
}

TEST(FileIoGraphErrors, DegreeTooLowAtEndOfFile)
{
    // K5 without circuit 2,4: nodes 2 and 4 have degree 3; the smallest is named
    std::string text = "u,v\n0,1\n0,2\n0,3\n0,4\n1,2\n1,3\n1,4\n2,3\n3,4\n";
    ExpectGraphError(text, 10, {"end of file", "node 2 has degree 3", "expected 4"}, 0, 4);
}

TEST(FileIoGraphErrors, IsolatedNodeWithDegree)
{
    // K5 with N = 6 given: node 5 has no circuit
    ExpectGraphError(K5_CSV, 11, {"node 5 has degree 0"}, 6, 4);
}

TEST(FileIoGraphErrors, GapInInferredNodeCount)
{
    ExpectGraphError("u,v\n0,1\n1,3\n# end\n", 4, {"node 2 has no circuit", "inferred"});
}

TEST(FileIoGraphErrors, Disconnected)
{
    // two triangles, 2-regular
    ExpectGraphError("u,v\n0,1\n1,2\n2,0\n3,4\n4,5\n5,3\n",
                     7,
                     {"not connected", "2 components"},
                     0,
                     2);
}

TEST(FileIoGraphErrors, ValidFabricAccepted)
{
    CircuitGraph g = ReadGraphText(K5_CSV, 5, 4);
    EXPECT_EQ(g.FindProblem(4), "");
}

// ---------------------------------------------------------------------------------------------
// Roles errors

TEST(FileIoRolesErrors, BadHeader)
{
    ExpectRolesError("id,role\n0,P\n", 1, {"node,role"});
}

TEST(FileIoRolesErrors, MissingAndExtraColumn)
{
    ExpectRolesError("node,role\n0,P\n1\n", 3, {"expected 2 fields"});
    ExpectRolesError("node,role\n0,P\n1,D,x\n", 3, {"found 3"});
}

TEST(FileIoRolesErrors, BadId)
{
    ExpectRolesError("node,role\n0,P\n-1,D\n", 3, {"\"-1\""});
    ExpectRolesError("node,role\n0,P\n1,D\n2,T\n", 4, {"number of groups 2"}, 2);
}

TEST(FileIoRolesErrors, UnknownRole)
{
    ExpectRolesError("node,role\n0,P\n1,X\n", 3, {"unknown role \"X\""});
}

TEST(FileIoRolesErrors, DuplicateNode)
{
    ExpectRolesError("node,role\n0,P\n1,D\n0,T\n", 4, {"node 0", "line 2"});
}

TEST(FileIoRolesErrors, MissingNode)
{
    ExpectRolesError("node,role\n0,P\n2,D\n3,T\n", 4, {"end of file", "node 1 is missing"});
    // all ids present up to the largest, but N is given larger
    ExpectRolesError("node,role\n0,P\n1,D\n", 3, {"node 2 is missing"}, 3);
}

TEST(FileIoRolesErrors, NoRecords)
{
    ExpectRolesError("node,role\n", 1, {"no nodes"});
}

// ---------------------------------------------------------------------------------------------
// Flows errors

TEST(FileIoFlowsErrors, BadHeader)
{
    ExpectFlowsError("src,dst,class\n0,1,kv\n", 1, {"src,dst,class,demand"});
}

TEST(FileIoFlowsErrors, MissingAndExtraColumn)
{
    ExpectFlowsError("src,dst,class,demand\n0,1,kv\n", 2, {"expected 4 fields", "found 3"});
    ExpectFlowsError("src,dst,class,demand\n0,1,kv,1,1\n", 2, {"found 5"});
}

TEST(FileIoFlowsErrors, BadId)
{
    ExpectFlowsError("src,dst,class,demand\n0,1,kv,1\nx,1,kv,1\n", 3, {"src \"x\""});
    ExpectFlowsError("src,dst,class,demand\n0,8,kv,1\n", 2, {"dst \"8\"", "number of groups 8"}, 8);
}

TEST(FileIoFlowsErrors, BadClass)
{
    ExpectFlowsError("src,dst,class,demand\n0,1,kv,1\n1,0,video,1\n",
                     3,
                     {"unknown class \"video\""});
}

TEST(FileIoFlowsErrors, BadDemand)
{
    const std::string h = "src,dst,class,demand\n0,1,kv,1\n";
    ExpectFlowsError(h + "1,0,kv,0\n", 3, {"\"0\"", "positive"});
    ExpectFlowsError(h + "1,0,kv,-0\n", 3, {"positive"});
    ExpectFlowsError(h + "1,0,kv,-1.5\n", 3, {"\"-1.5\"", "positive"});
    ExpectFlowsError(h + "1,0,kv,nan\n", 3, {"\"nan\"", "finite"});
    ExpectFlowsError(h + "1,0,kv,inf\n", 3, {"\"inf\"", "finite"});
    ExpectFlowsError(h + "1,0,kv,1e999\n", 3, {"\"1e999\"", "range"});
    ExpectFlowsError(h + "1,0,kv,abc\n", 3, {"\"abc\"", "not a number"});
    ExpectFlowsError(h + "1,0,kv,1.5x\n", 3, {"not a number"});
    ExpectFlowsError(h + "1,0,kv,+1\n", 3, {"not a number"});
    ExpectFlowsError(h + "1,0,kv,0x10\n", 3, {"not a number"});
}

TEST(FileIoFlowsErrors, TotalDemandOverflow)
{
    // each demand is finite; their sum is not, so every load and cost would be inf or nan
    ExpectFlowsError("src,dst,class,demand\n0,1,kv,1e308\n1,0,kv,1e308\n",
                     3,
                     {"\"1e308\"", "total demand exceed"});
}

TEST(FileIoFlowsErrors, SourceEqualsDestination)
{
    ExpectFlowsError("src,dst,class,demand\n0,1,kv,1\n3,3,training,1\n",
                     3,
                     {"flow 3,3", "same source and destination"});
}

// ---------------------------------------------------------------------------------------------
// P-D assignment errors

TEST(FileIoPdErrors, BadHeader)
{
    ExpectPdError("p,d,w\n0,1,1\n", 1, {"prefill,decode,weight"});
}

TEST(FileIoPdErrors, PairNotPrefillToDecode)
{
    RoleAssignment roles = RoleAssignment::Contiguous({2, 2, 1}); // P 0,1; D 2,3; T 4
    ExpectPdError("prefill,decode,weight\n0,2,1\n3,1,1\n",
                  3,
                  {"pair 3,1", "not prefill->decode", "node 3 is a decode"},
                  &roles);
    ExpectPdError("prefill,decode,weight\n0,4,1\n", 2, {"node 4 is a training"}, &roles);
    ExpectPdError("prefill,decode,weight\n0,5,1\n", 2, {"number of groups 5"}, &roles);
}

TEST(FileIoPdErrors, InconsistentWithoutRoles)
{
    ExpectPdError("prefill,decode,weight\n0,0,1\n", 2, {"itself"});
    ExpectPdError("prefill,decode,weight\n0,2,1\n2,1,1\n", 3, {"node 2", "line 2"});
    ExpectPdError("prefill,decode,weight\n0,2,1\n1,2,1\n\n0,2,3\n", 5, {"repeats", "line 2"});
}

TEST(FileIoPdErrors, BadWeight)
{
    ExpectPdError("prefill,decode,weight\n0,2,0\n", 2, {"positive"});
    ExpectPdError("prefill,decode,weight\n0,2,1\n1,3,inf\n", 3, {"finite"});
    ExpectPdError("prefill,decode,weight\n0,2\n", 2, {"expected 3 fields"});
}

// ---------------------------------------------------------------------------------------------
// Files that cannot be read or written

TEST(FileIoFiles, UnreadablePath)
{
    const std::string missing = ::testing::TempDir() + "mose-no-such-dir/edges.csv";
    for (const std::string& path : {missing, ::testing::TempDir()})
    {
        for (const std::function<void()>& f : std::vector<std::function<void()>>{
                 [&] { ReadCircuitGraphCsv(path); },
                 [&] { ReadRolesCsv(path); },
                 [&] { ReadFlowsCsv(path); },
                 [&] { ReadPdAssignmentCsv(path); },
             })
        {
            try
            {
                f();
                ADD_FAILURE() << "expected a mose::Error for " << path;
            }
            catch (const Error& e)
            {
                std::string m = e.what();
                EXPECT_EQ(m.rfind("cannot open " + path + ": ", 0), 0U) << m;
            }
        }
    }
}

TEST(FileIoFiles, ErrorsFromAPathNameThePath)
{
    TempPath path(".csv");
    {
        std::ofstream out(path.Get());
        out << "u,v\n0,1\n1,1\n";
    }
    ExpectFileError([&] { ReadCircuitGraphCsv(path.Get()); }, path.Get(), 3, {"self-loop"});
}

TEST(FileIoFiles, UnwritablePath)
{
    const std::string path = ::testing::TempDir() + "mose-no-such-dir/out.csv";
    try
    {
        WriteCircuitGraphCsv(K5(), path);
        ADD_FAILURE() << "expected a mose::Error";
    }
    catch (const Error& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind("cannot write " + path + ": ", 0), 0U) << e.what();
    }
    if (std::ifstream("/dev/full").good())
    {
        // opens fine, fails when the data is flushed
        EXPECT_THROW(
            WriteFlowsCsv(std::vector<Flow>(1000, Flow{0, 1, TrafficClass::KV, 1}), "/dev/full"),
            Error);
    }
}

TEST(FileIoFiles, CutShortOutputIsRemoved)
{
    // a file-size limit makes writes fail with EFBIG as a full disk does with ENOSPC
    TempPath path(".csv");
    {
        std::ofstream old(path.Get());
        old << "old content\n";
    }
    struct rlimit saved;
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
    auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = saved;
    small.rlim_cur = 4096;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string message;
    try
    {
        WriteFlowsCsv(std::vector<Flow>(10000, Flow{0, 1, TrafficClass::KV, 1}), path.Get());
    }
    catch (const Error& e)
    {
        message = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, oldHandler);
    EXPECT_EQ(message.rfind("cannot write " + path.Get() + ": ", 0), 0U) << message;
    // the old file is untouched and no temporary file is left beside it
    EXPECT_EQ(ReadWholeFile(path.Get()), "old content\n");
    const std::string dir = ::testing::TempDir();
    const std::string base = path.Get().substr(path.Get().rfind('/') + 1);
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        std::string name = entry.path().filename().string();
        EXPECT_NE(name.rfind(base + ".tmp", 0), 0U) << "left behind: " << name;
    }
    // and a complete write replaces the file
    WriteFlowsCsv(std::vector<Flow>(2, Flow{0, 1, TrafficClass::KV, 1}), path.Get());
    EXPECT_EQ(ReadWholeFile(path.Get()), "src,dst,class,demand\n0,1,kv,1\n0,1,kv,1\n");
}

TEST(FileIoFiles, FailedStreamIsReported)
{
    std::ostringstream out;
    out.setstate(std::ios::badbit);
    EXPECT_THROW(WriteRolesCsv(RoleAssignment::Contiguous({1, 1, 1}), out), Error);
}

// ---------------------------------------------------------------------------------------------
// DOT

TEST(FileIoDot, PlainGraph)
{
    std::ostringstream out;
    WriteCircuitGraphDot(K5(), out);
    std::string dot = out.str();
    EXPECT_EQ(dot.rfind("graph mose {\n", 0), 0U) << dot;
    EXPECT_EQ(CountOccurrences(dot, " -- "), 10U);
    EXPECT_NE(dot.find("  0 -- 1;\n"), std::string::npos);
    EXPECT_NE(dot.find("  4;\n"), std::string::npos);
    EXPECT_EQ(dot.find("lightskyblue"), std::string::npos);
    EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
}

TEST(FileIoDot, RolesColourNodes)
{
    RoleAssignment roles = RoleAssignment::Contiguous({2, 2, 1});
    TempPath path(".dot");
    WriteCircuitGraphDot(K5(), path.Get(), &roles);
    std::string dot = ReadWholeFile(path.Get());
    EXPECT_NE(dot.find("graph mose"), std::string::npos);
    EXPECT_EQ(CountOccurrences(dot, " -- "), 10U);
    EXPECT_EQ(CountOccurrences(dot, "fillcolor=lightskyblue]"), 2U);
    EXPECT_EQ(CountOccurrences(dot, "fillcolor=lightsalmon]"), 2U);
    EXPECT_EQ(CountOccurrences(dot, "fillcolor=palegreen]"), 1U);
    EXPECT_NE(dot.find("0 [label=\"0\\nP\""), std::string::npos) << dot;
    EXPECT_NE(dot.find("4 [label=\"4\\nT\""), std::string::npos) << dot;
}

TEST(FileIoDot, RolesOfTheWrongSizeAreRejected)
{
    RoleAssignment roles = RoleAssignment::Contiguous({2, 2, 2});
    std::ostringstream out;
    EXPECT_THROW(WriteCircuitGraphDot(K5(), out, &roles), Error);
}
