/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-chakra-trace.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#if MOSE_HAVE_PROTOBUF
// generated at build time from mose-chakra-et.proto (cmake/mose-dependencies.cmake)
#include "mose-chakra-et.pb.h"

#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#endif

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseChakraTrace");

namespace
{

/// the version the writer declares (Chakra's schema version of et_def.proto's traces)
const char* const SCHEMA_VERSION = "0.0.4";

/// \brief Skips JSON whitespace \param text the text \param pos the position, moved
void
SkipJsonSpace(const std::string& text, std::size_t& pos)
{
    while (pos < text.size() &&
           (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
    {
        ++pos;
    }
}

} // namespace

std::map<std::string, std::vector<uint32_t>>
ParseCommGroups(const std::string& path, const std::string& text)
{
    // By hand: the project has no JSON library (mose-json-line.h says why), and this file is
    // one flat object of arrays of integers
    std::map<std::string, std::vector<uint32_t>> groups;
    std::size_t pos = 0;
    auto fail = [&](const std::string& problem) {
        throw Error(path + ": byte " + std::to_string(pos + 1) + ": " + problem +
                    " (comm_group.json is one object {\"name\": [rank, ...], ...})");
    };
    auto expect = [&](char c) {
        SkipJsonSpace(text, pos);
        if (pos >= text.size() || text[pos] != c)
        {
            fail(std::string("expected '") + c + "'");
        }
        ++pos;
    };
    expect('{');
    SkipJsonSpace(text, pos);
    if (pos < text.size() && text[pos] == '}')
    {
        ++pos;
    }
    else
    {
        while (true)
        {
            expect('"');
            const std::size_t end = text.find('"', pos);
            if (end == std::string::npos)
            {
                fail("a name without its closing quote");
            }
            const std::string name = text.substr(pos, end - pos);
            pos = end + 1;
            if (groups.count(name) > 0)
            {
                fail("group \"" + name + "\" appears twice");
            }
            expect(':');
            expect('[');
            std::vector<uint32_t>& ranks = groups[name];
            SkipJsonSpace(text, pos);
            while (pos < text.size() && text[pos] != ']')
            {
                const std::size_t start = pos;
                while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
                {
                    ++pos;
                }
                if (pos == start)
                {
                    fail("expected a rank (an integer >= 0)");
                }
                ranks.push_back(ParseUnsigned32(path + " group \"" + name + "\" rank",
                                                std::string_view(text).substr(start, pos - start)));
                SkipJsonSpace(text, pos);
                if (pos < text.size() && text[pos] == ',')
                {
                    ++pos;
                    SkipJsonSpace(text, pos);
                }
            }
            expect(']');
            if (ranks.empty())
            {
                fail("group \"" + name + "\" has no rank");
            }
            SkipJsonSpace(text, pos);
            if (pos < text.size() && text[pos] == ',')
            {
                ++pos;
                continue;
            }
            expect('}');
            break;
        }
    }
    SkipJsonSpace(text, pos);
    if (pos != text.size())
    {
        fail("text after the object");
    }
    return groups;
}

#if MOSE_HAVE_PROTOBUF

namespace
{

/// \return the attribute's integer value, or false if it has none
bool
IntegerOf(const chakra::AttributeProto& attr, int64_t& value)
{
    switch (attr.value_case())
    {
    case chakra::AttributeProto::kInt32Val:
        value = attr.int32_val();
        return true;
    case chakra::AttributeProto::kInt64Val:
        value = attr.int64_val();
        return true;
    case chakra::AttributeProto::kUint32Val:
        value = attr.uint32_val();
        return true;
    case chakra::AttributeProto::kUint64Val:
        value = static_cast<int64_t>(std::min<uint64_t>(attr.uint64_val(), INT64_MAX));
        return true;
    case chakra::AttributeProto::kSint32Val:
        value = attr.sint32_val();
        return true;
    case chakra::AttributeProto::kSint64Val:
        value = attr.sint64_val();
        return true;
    default:
        return false;
    }
}

/// One trace file's reading: its name and the node being read, for messages
struct NodeReader
{
    std::string file;         //!< the file
    const chakra::Node* node; //!< the node

    /// \return "FILE node ID"
    std::string Origin() const
    {
        return file + " node " + std::to_string(node->id());
    }

    /// \brief Throws "FILE node ID: problem"
    [[noreturn]] void Fail(const std::string& problem) const
    {
        throw Error(Origin() + ": " + problem);
    }

    /// \return the attribute's integer; fails if it is missing or not an integer (required),
    ///         or returns fallback
    int64_t Integer(const std::string& name, bool required, int64_t fallback = 0) const
    {
        for (const auto& attr : node->attr())
        {
            if (attr.name() == name)
            {
                int64_t v = 0;
                if (!IntegerOf(attr, v))
                {
                    Fail("attribute " + name + " is not an integer");
                }
                return v;
            }
        }
        if (required)
        {
            Fail("a " + chakra::NodeType_Name(node->type()) + " without attribute " + name);
        }
        return fallback;
    }

    /// \return the attribute's string, or empty if absent
    std::string String(const std::string& name) const
    {
        for (const auto& attr : node->attr())
        {
            if (attr.name() == name)
            {
                if (attr.value_case() != chakra::AttributeProto::kStringVal)
                {
                    Fail("attribute " + name + " is not a string");
                }
                return attr.string_val();
            }
        }
        return "";
    }

    /// \return a byte count attribute (negative fails; 0 is refused by the plan's checks)
    uint64_t Bytes(const std::string& name) const
    {
        const int64_t v = Integer(name, true);
        if (v < 0)
        {
            Fail("attribute " + name + " = " + std::to_string(v) + ": a size >= 1");
        }
        return static_cast<uint64_t>(v);
    }

    /// \return a rank attribute
    uint32_t Rank(const std::string& name) const
    {
        const int64_t v = Integer(name, true);
        if (v < 0 || v > UINT32_MAX)
        {
            Fail("attribute " + name + " = " + std::to_string(v) + ": a rank >= 0");
        }
        return static_cast<uint32_t>(v);
    }
};

/// \return the rank files of a trace: per rank its path
std::vector<std::string>
FindRankFiles(const std::string& path, std::string& folder)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<std::string> files;
    if (fs::is_directory(path, ec))
    {
        folder = path;
        const std::regex name(R"((.*)\.([0-9]+)\.et)");
        std::map<uint64_t, std::string> byRank;
        std::string prefix;
        for (const auto& entry : fs::directory_iterator(path, ec))
        {
            std::smatch m;
            const std::string file = entry.path().filename().string();
            if (!std::regex_match(file, m, name))
            {
                continue;
            }
            if (!prefix.empty() && m[1].str() != prefix)
            {
                throw Error(path + ": two traces, " + prefix + ".R.et and " + m[1].str() +
                            ".R.et: a folder holds one trace (or give the prefix: " + path + "/" +
                            prefix + ")");
            }
            prefix = m[1].str();
            byRank[ParseUnsigned64("rank of " + file, m[2].str())] = entry.path().string();
        }
        if (byRank.empty())
        {
            throw Error(path + ": no Chakra trace (files PREFIX.0.et, PREFIX.1.et, ...)");
        }
        uint64_t expected = 0;
        for (const auto& [rank, file] : byRank)
        {
            if (rank != expected)
            {
                throw Error(path + ": " + prefix + "." + std::to_string(expected) +
                            ".et is missing (ranks 0 to " + std::to_string(byRank.rbegin()->first) +
                            " need a file each)");
            }
            files.push_back(file);
            ++expected;
        }
        return files;
    }
    folder = fs::path(path).parent_path().string();
    for (uint64_t r = 0;; ++r)
    {
        const std::string file = path + "." + std::to_string(r) + ".et";
        if (!fs::exists(file, ec))
        {
            break;
        }
        files.push_back(file);
    }
    if (files.empty())
    {
        throw Error(path + ".0.et: no such file (a Chakra trace: a folder, or the PREFIX of "
                           "PREFIX.0.et, PREFIX.1.et, ...)");
    }
    return files;
}

} // namespace

bool
HasChakraSupport()
{
    return true;
}

TrainingPlan
ReadChakraTrace(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::string folder;
    const std::vector<std::string> files = FindRankFiles(path, folder);
    std::map<std::string, std::vector<uint32_t>> groups;
    const std::string groupFile =
        (std::filesystem::path(folder.empty() ? "." : folder) / "comm_group.json").string();
    bool haveGroups = false;
    if (std::filesystem::exists(groupFile))
    {
        std::ifstream in;
        OpenForReading(groupFile, in);
        std::stringstream text;
        text << in.rdbuf();
        groups = ParseCommGroups(groupFile, text.str());
        haveGroups = true;
    }
    TrainingPlan plan;
    plan.source = path;
    plan.ranks.resize(files.size());
    for (uint32_t r = 0; r < files.size(); ++r)
    {
        std::ifstream in;
        OpenForReading(files[r], in);
        google::protobuf::io::IstreamInputStream stream(&in);
        chakra::GlobalMetadata meta;
        bool eof = false;
        if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&meta, &stream, &eof))
        {
            throw Error(files[r] + ": " +
                        (eof ? std::string("empty: a Chakra trace starts with its GlobalMetadata")
                             : std::string("its first message is not a Chakra GlobalMetadata")));
        }
        chakra::Node node;
        uint64_t count = 0;
        std::string last = "its GlobalMetadata";
        while (true)
        {
            node.Clear();
            if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&node, &stream, &eof))
            {
                if (eof)
                {
                    break;
                }
                throw Error(files[r] + ": message " + std::to_string(count + 1) + " (after " +
                            last + ") is not a Chakra Node (protobuf cannot parse it)");
            }
            ++count;
            last = "node " + std::to_string(node.id());
            NodeReader reader{files[r], &node};
            PlanNode p;
            p.id = node.id();
            p.name = node.name();
            p.origin = reader.Origin();
            p.dataDeps.assign(node.data_deps().begin(), node.data_deps().end());
            p.ctrlDeps.assign(node.ctrl_deps().begin(), node.ctrl_deps().end());
            switch (node.type())
            {
            case chakra::COMM_COLL_NODE: {
                p.kind = PlanNodeKind::COLLECTIVE;
                const int64_t type = reader.Integer("comm_type", true);
                switch (type)
                {
                case chakra::ALL_REDUCE:
                    p.collective = NcclCollective::ALL_REDUCE;
                    break;
                case chakra::ALL_GATHER:
                    p.collective = NcclCollective::ALL_GATHER;
                    break;
                case chakra::REDUCE_SCATTER:
                case chakra::REDUCE_SCATTER_BLOCK:
                    p.collective = NcclCollective::REDUCE_SCATTER;
                    break;
                case chakra::ALL_TO_ALL:
                    p.collective = NcclCollective::ALL_TO_ALL;
                    break;
                case chakra::BROADCAST:
                    p.collective = NcclCollective::BROADCAST;
                    break;
                default: {
                    const bool known = chakra::CollectiveCommType_IsValid(static_cast<int>(type));
                    reader.Fail("comm_type " + std::to_string(type) +
                                (known ? " (" +
                                             chakra::CollectiveCommType_Name(
                                                 static_cast<chakra::CollectiveCommType>(type)) +
                                             ")"
                                       : std::string()) +
                                " is a collective mose does not plan; allowed: ALL_REDUCE (0), "
                                "ALL_GATHER (2), BROADCAST (5), ALL_TO_ALL (6), REDUCE_SCATTER "
                                "(7), REDUCE_SCATTER_BLOCK (8)");
                }
                }
                p.bytes = reader.Bytes("comm_size");
                const std::string pg = reader.String("pg_name");
                if (!pg.empty())
                {
                    const auto it = groups.find(pg);
                    if (it == groups.end())
                    {
                        reader.Fail("pg_name \"" + pg + "\" is not a group of " +
                                    (haveGroups ? groupFile
                                                : groupFile + " (no such file: every pg_name "
                                                              "needs its ranks there)"));
                    }
                    p.group = it->second;
                }
                break;
            }
            case chakra::COMM_SEND_NODE:
                p.kind = PlanNodeKind::SEND;
                p.peer = reader.Rank("comm_dst");
                p.bytes = reader.Bytes("comm_size");
                p.tag = static_cast<uint64_t>(reader.Integer("comm_tag", false, 0));
                break;
            case chakra::COMM_RECV_NODE:
                p.kind = PlanNodeKind::RECV;
                p.peer = reader.Rank("comm_src");
                p.bytes = reader.Bytes("comm_size");
                p.tag = static_cast<uint64_t>(reader.Integer("comm_tag", false, 0));
                break;
            default:
                // compute, memory, metadata: the time the trace gives
                p.kind = PlanNodeKind::COMPUTE;
                if (node.duration_micros() > static_cast<uint64_t>(INT64_MAX / 1000))
                {
                    reader.Fail("duration_micros " + std::to_string(node.duration_micros()) +
                                " overflows the nanosecond clock");
                }
                p.durationNs = static_cast<int64_t>(node.duration_micros()) * 1000;
                break;
            }
            plan.ranks[r].push_back(std::move(p));
        }
    }
    plan.Validate();
    return plan;
}

void
WriteChakraTrace(const TrainingPlan& plan, const std::string& folder, const std::string& prefix)
{
    plan.Validate();
    std::map<std::vector<uint32_t>, std::string> names;
    std::vector<std::vector<uint32_t>> order;
    for (uint32_t r = 0; r < plan.ranks.size(); ++r)
    {
        for (const PlanNode& p : plan.ranks[r])
        {
            if (p.kind == PlanNodeKind::COMPUTE && p.durationNs % 1000 != 0)
            {
                throw Error(p.origin + ": a compute time of " + std::to_string(p.durationNs) +
                            " ns, and a Chakra trace holds whole microseconds");
            }
            if (p.kind == PlanNodeKind::COLLECTIVE && !p.group.empty() && names.count(p.group) == 0)
            {
                names[p.group] = std::to_string(order.size() + 1);
                order.push_back(p.group);
            }
        }
    }
    auto attrInt = [](chakra::Node& node, const char* name, int64_t value) {
        chakra::AttributeProto* a = node.add_attr();
        a->set_name(name);
        a->set_int64_val(value);
    };
    for (uint32_t r = 0; r < plan.ranks.size(); ++r)
    {
        const std::string file = folder + "/" + prefix + "." + std::to_string(r) + ".et";
        WriteTextFile(file, [&](std::ostream& os) {
            chakra::GlobalMetadata meta;
            meta.set_version(SCHEMA_VERSION);
            if (!google::protobuf::util::SerializeDelimitedToOstream(meta, &os))
            {
                throw Error("cannot write " + file + ": protobuf could not serialize");
            }
            for (const PlanNode& p : plan.ranks[r])
            {
                chakra::Node node;
                node.set_id(p.id);
                node.set_name(p.name);
                for (uint64_t d : p.dataDeps)
                {
                    node.add_data_deps(d);
                }
                for (uint64_t d : p.ctrlDeps)
                {
                    node.add_ctrl_deps(d);
                }
                switch (p.kind)
                {
                case PlanNodeKind::COMPUTE:
                    node.set_type(chakra::COMP_NODE);
                    node.set_duration_micros(static_cast<uint64_t>(p.durationNs / 1000));
                    break;
                case PlanNodeKind::COLLECTIVE: {
                    node.set_type(chakra::COMM_COLL_NODE);
                    chakra::CollectiveCommType type = chakra::ALL_REDUCE;
                    switch (p.collective)
                    {
                    case NcclCollective::ALL_REDUCE:
                        type = chakra::ALL_REDUCE;
                        break;
                    case NcclCollective::ALL_GATHER:
                        type = chakra::ALL_GATHER;
                        break;
                    case NcclCollective::REDUCE_SCATTER:
                        type = chakra::REDUCE_SCATTER;
                        break;
                    case NcclCollective::ALL_TO_ALL:
                        type = chakra::ALL_TO_ALL;
                        break;
                    case NcclCollective::BROADCAST:
                        type = chakra::BROADCAST;
                        break;
                    }
                    attrInt(node, "comm_type", type);
                    attrInt(node, "comm_size", static_cast<int64_t>(p.bytes));
                    if (!p.group.empty())
                    {
                        chakra::AttributeProto* a = node.add_attr();
                        a->set_name("pg_name");
                        a->set_string_val(names.at(p.group));
                    }
                    break;
                }
                case PlanNodeKind::SEND:
                case PlanNodeKind::RECV: {
                    const bool send = p.kind == PlanNodeKind::SEND;
                    node.set_type(send ? chakra::COMM_SEND_NODE : chakra::COMM_RECV_NODE);
                    attrInt(node, "comm_src", send ? r : p.peer);
                    attrInt(node, "comm_dst", send ? p.peer : r);
                    attrInt(node, "comm_size", static_cast<int64_t>(p.bytes));
                    attrInt(node, "comm_tag", static_cast<int64_t>(p.tag));
                    break;
                }
                }
                if (!google::protobuf::util::SerializeDelimitedToOstream(node, &os))
                {
                    throw Error("cannot write " + file + ": protobuf could not serialize node " +
                                std::to_string(p.id));
                }
            }
        });
    }
    if (!order.empty())
    {
        WriteTextFile(folder + "/comm_group.json", [&](std::ostream& os) {
            os << "{";
            for (std::size_t g = 0; g < order.size(); ++g)
            {
                os << (g == 0 ? "\n" : ",\n") << "  \"" << (g + 1) << "\": [";
                for (std::size_t k = 0; k < order[g].size(); ++k)
                {
                    os << (k == 0 ? "" : ", ") << order[g][k];
                }
                os << "]";
            }
            os << "\n}\n";
        });
    }
}

#else // MOSE_HAVE_PROTOBUF

namespace
{
/// the message of every Chakra function in a build without protobuf
const char* const NO_PROTOBUF =
    "Chakra traces need protobuf, and mose was built without protobuf (on Debian: apt-get "
    "install libprotobuf-dev protobuf-compiler, then configure the build again)";
} // namespace

bool
HasChakraSupport()
{
    return false;
}

TrainingPlan
ReadChakraTrace(const std::string& path)
{
    throw Error(path + ": " + NO_PROTOBUF);
}

void
WriteChakraTrace(const TrainingPlan&, const std::string& folder, const std::string&)
{
    throw Error(folder + ": " + NO_PROTOBUF);
}

#endif // MOSE_HAVE_PROTOBUF

} // namespace mose
} // namespace ns3
