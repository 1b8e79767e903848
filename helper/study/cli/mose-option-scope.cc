/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-option-scope.h"

#include "ns3/log.h"
#include "ns3/mose-command-line.h"
#include "ns3/mose-error.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-parse.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <ostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseOptionScope");

namespace mose
{

namespace
{

/// every level, and both modes of mose-llm
constexpr uint32_t LLM_MODES = IN_MAP | IN_ONE;
/// the levels without packets
constexpr uint32_t NO_PACKETS = AT_FLUID | AT_AGGREGATE;
/// the group of mose-llm's and mose-regime-figure's modes (RunModeText(), ActsModeText())
constexpr uint32_t RUN_MODES =
    IN_MAP | IN_ONE | IN_THRESHOLD | IN_MERGE_FILES | IN_COMPARE_FILES | IN_SUITE_FILES;
/// the group of the baselines of mose-baselines
constexpr uint32_t BASELINE_PLACES = IN_TORUS_2D | IN_TORUS_3D | IN_FULL_MESH_3D;

/// The groups of the mode bits (GetOptionPlaceGroups()), RUN_MODES first
const std::vector<uint32_t> PLACE_GROUPS = {RUN_MODES,
                                            IN_TCP | IN_RDMA,
                                            IN_COMPARISON | IN_ONE_POLICY,
                                            IN_ALTERNATING | IN_SCHEDULE,
                                            BASELINE_PLACES,
                                            IN_ROLE_COUNTS | IN_PAPER_ROLES,
                                            IN_RANDOM_ROUTING | IN_FIXED_ROUTING};

/// A mode bit's word in the doc's table and its phrase in a message
struct PlaceText
{
    uint32_t bit;       //!< the OptionPlace bit
    const char* word;   //!< the doc's word ("rdma")
    const char* phrase; //!< the message's phrase ("with --transport=rdma")
};

/// The mode bits in the order of the doc's words (those of RUN_MODES: RunModeText(),
/// ActsModeText())
const std::vector<PlaceText> PLACE_TEXTS = {
    {IN_MAP, "map", ""},
    {IN_ONE, "one", ""},
    {IN_THRESHOLD, "threshold", ""},
    {IN_MERGE_FILES, "merge", ""},
    {IN_COMPARE_FILES, "compare", ""},
    {IN_SUITE_FILES, "suite", ""},
    {IN_TCP, "tcp", "with --transport=tcp"},
    {IN_RDMA, "rdma", "with --transport=rdma"},
    {IN_COMPARISON, "comparison", "with several policies (--policies: a comparison)"},
    {IN_ONE_POLICY, "one policy", "with one policy (--policies)"},
    {IN_ALTERNATING,
     "alternating",
     "with the default schedule (no --schedule: --cycles x both modes for --modeDuration each)"},
    {IN_SCHEDULE, "schedule", "with --schedule"},
    {IN_TORUS_2D, "torus-2d", "with torus-2d in --baselines"},
    {IN_TORUS_3D, "torus-3d", "with torus-3d in --baselines"},
    {IN_FULL_MESH_3D, "full-mesh-3d", "with full-mesh-3d in --baselines"},
    {IN_ROLE_COUNTS,
     "role counts",
     "with role counts given (--prefill, --decode, --training, --trPrefill, --trDecode, "
     "--trTraining: those of the point N = --nodes)"},
    {IN_PAPER_ROLES,
     "paper roles",
     "without a role count (every point's roles are the paper's shares of its N, from "
     "--sweepNodes)"},
    {IN_RANDOM_ROUTING, "random routing", "with --routing=random-shortest-path"},
    {IN_FIXED_ROUTING,
     "fixed routing",
     "with --routing=shortest-path or ecmp (no random choice: the seed is not used)"},
};

/// The programs in which every option acts in every run (GetProgramsWhereEveryOptionActs();
/// one a line: the doc check reads them)
const std::vector<std::string> EVERY_OPTION_ACTS = {
    // clang-format off
    "mose-fabric",
    "mose-llm-script",
    "mose-paper",
    "mose-templates",
    // clang-format on
};

/// The table: one row per line, "{program, option, levels, modes}" (the doc check,
/// cmake/mose-check-option-scope.py, reads these lines)
const std::vector<OptionScope> OPTION_SCOPES = {
    // clang-format off
    {"mose-llm", "--trace", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--traceFormat", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--traceModel", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--traceLogType", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--traceFailed", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--traceRequestType", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--traceDate", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--traceStart", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--stopTime", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--kvExport", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--map", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--loads", AT_ALL_LEVELS, IN_MAP},
    {"mose-llm", "--intervals", AT_ALL_LEVELS, IN_MAP},
    {"mose-llm", "--darkTimes", AT_ALL_LEVELS, IN_MAP},
    {"mose-llm", "--cycles", AT_ALL_LEVELS, IN_MAP},
    {"mose-llm", "--trainingLoadShare", AT_ALL_LEVELS, IN_MAP},
    {"mose-llm", "--tolerance", AT_ALL_LEVELS, IN_MAP},
    {"mose-llm", "--flowLevelFlows", AT_ALL_LEVELS, IN_MAP},
    {"mose-llm", "--rate", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--requests", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--promptMean", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--model", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--placement", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--trainingJob", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--collective", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--tokensPerMember", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--trainingTrace", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--rankMapping", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--ncclChannels", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--ncclAlgorithm", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--compute", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--prefillRate", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--hostRate", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--hostsPerGroup", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--schedule", AT_ALL_LEVELS, IN_ONE},
    {"mose-llm", "--end", AT_ALL_LEVELS, IN_THRESHOLD},
    {"mose-llm", "--period", AT_ALL_LEVELS, IN_THRESHOLD},
    {"mose-llm", "--window", AT_ALL_LEVELS, IN_THRESHOLD},
    {"mose-llm", "--dwell", AT_ALL_LEVELS, IN_THRESHOLD},
    {"mose-llm", "--enterLoad", AT_ALL_LEVELS, IN_THRESHOLD},
    {"mose-llm", "--exitLoad", AT_ALL_LEVELS, IN_THRESHOLD},
    {"mose-llm", "--scale", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--jumbo", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--transport", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--ecnKmin", AT_PACKET, LLM_MODES | IN_RDMA},
    {"mose-llm", "--ecnKmax", AT_PACKET, LLM_MODES | IN_RDMA},
    {"mose-llm", "--ecnPmax", AT_PACKET, LLM_MODES | IN_RDMA},
    {"mose-llm", "--pfc", AT_PACKET, LLM_MODES | IN_RDMA},
    {"mose-llm", "--noticeDelay", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--reuseConnections", AT_PACKET, LLM_MODES},
    {"mose-llm", "--policies", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--level", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--rateEpoch", NO_PACKETS, IN_ONE},
    {"mose-llm", "--fluidQueues", AT_FLUID, LLM_MODES},
    {"mose-llm", "--jobs", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--runs", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--part", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--merge", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--resume", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--listRuns", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--outputDir", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--plot", AT_ALL_LEVELS, IN_MAP},
    {"mose-llm", "--progress", AT_ALL_LEVELS, LLM_MODES},
    {"mose-llm", "--distributed", AT_PACKET, LLM_MODES},
    {"mose-regime-figure", "--maps", 0, IN_MERGE_FILES},
    {"mose-regime-figure", "--compare", 0, IN_COMPARE_FILES},
    {"mose-regime-figure", "--suite", 0, IN_SUITE_FILES},
    {"mose-regime-figure", "--title", 0, IN_MERGE_FILES},
    {"mose-regime-figure", "--tolerance", 0, IN_MERGE_FILES},
    {"mose-regime-figure", "--regime", 0, IN_MERGE_FILES},
    {"mose-regime-figure", "--outputDir", 0, IN_MERGE_FILES | IN_COMPARE_FILES | IN_SUITE_FILES},
    {"mose-regime-figure", "--plot", 0, IN_MERGE_FILES},
    {"mose-packet", "--ecnKmin", AT_PACKET, IN_RDMA},
    {"mose-packet", "--ecnKmax", AT_PACKET, IN_RDMA},
    {"mose-packet", "--ecnPmax", AT_PACKET, IN_RDMA},
    {"mose-packet", "--pfc", AT_PACKET, IN_RDMA},
    {"mose-packet", "--flowMonitor", AT_PACKET, 0},
    {"mose-packet", "--distributed", AT_PACKET, 0},
    {"mose-mode-switch", "--ecnKmin", AT_PACKET, IN_RDMA},
    {"mose-mode-switch", "--ecnKmax", AT_PACKET, IN_RDMA},
    {"mose-mode-switch", "--ecnPmax", AT_PACKET, IN_RDMA},
    {"mose-mode-switch", "--pfc", AT_PACKET, IN_RDMA},
    {"mose-mode-switch", "--tolerance", AT_ALL_LEVELS, IN_COMPARISON},
    {"mose-mode-switch", "--distributed", AT_PACKET, 0},
    {"mose-baselines", "--torus2d", 0, IN_TORUS_2D},
    {"mose-baselines", "--torus3d", 0, IN_TORUS_3D},
    {"mose-baselines", "--fullMesh3d", 0, IN_FULL_MESH_3D},
    {"mose-break-even", "--modeDuration", 0, IN_ALTERNATING},
    {"mose-break-even", "--cycles", 0, IN_ALTERNATING},
    {"mose-sweep", "--nodes", 0, IN_ROLE_COUNTS},
    {"mose-flow-eval", "--RngRun", 0, IN_RANDOM_ROUTING},
    // clang-format on
};

/// \return the levels as the doc's table and the messages name them ("packet, fluid")
std::string
LevelWords(uint32_t levels)
{
    if (levels == 0)
    {
        return "-";
    }
    if (levels == AT_ALL_LEVELS)
    {
        return "all";
    }
    std::string out;
    for (const auto& [bit, word] : {std::make_pair(AT_PACKET, "packet"),
                                    std::make_pair(AT_FLUID, "fluid"),
                                    std::make_pair(AT_AGGREGATE, "aggregate")})
    {
        if ((levels & bit) != 0)
        {
            out += (out.empty() ? "" : ", ") + std::string(word);
        }
    }
    return out;
}

/// \return the modes as the doc's table names them ("map, one", "map, one; rdma", "all")
std::string
ModeWords(uint32_t modes)
{
    if (modes == 0)
    {
        return "all";
    }
    std::string out;
    for (const uint32_t group : PLACE_GROUPS)
    {
        std::string words;
        for (const PlaceText& t : PLACE_TEXTS)
        {
            if ((modes & group & t.bit) != 0)
            {
                words += (words.empty() ? "" : ", ") + std::string(t.word);
            }
        }
        if (!words.empty())
        {
            out += (out.empty() ? "" : "; ") + words;
        }
    }
    return out;
}

/// \return the phrases of the bits of `modes` ("with --transport=tcp"), joined by `sep`
std::string
ModePhrases(uint32_t modes, const std::string& sep)
{
    std::string out;
    for (const PlaceText& t : PLACE_TEXTS)
    {
        if ((modes & t.bit) != 0)
        {
            out += (out.empty() ? "" : sep) + std::string(t.phrase);
        }
    }
    return out;
}

/// \return a run's mode in a message ("in one experiment (--map=false)")
std::string
RunModeText(uint32_t modes)
{
    if ((modes & IN_THRESHOLD) != 0)
    {
        return "in one experiment with --schedule=threshold";
    }
    if ((modes & IN_ONE) != 0)
    {
        return "in one experiment with a schedule of periods (--map=false)";
    }
    if ((modes & IN_MAP) != 0)
    {
        return "in the regime map (--map=true, the default)";
    }
    if ((modes & IN_MERGE_FILES) != 0)
    {
        return "in a merge of regime maps (--maps)";
    }
    if ((modes & IN_COMPARE_FILES) != 0)
    {
        return "in a comparison of two maps' files (--compare)";
    }
    return "in the level validation suite (--suite)";
}

/// \return where an option acts, in a message ("in one experiment (--map=false)")
std::string
ActsModeText(uint32_t modes)
{
    std::vector<std::string> parts;
    if ((modes & IN_MAP) != 0)
    {
        parts.emplace_back("the regime map");
    }
    if ((modes & IN_ONE) != 0)
    {
        parts.emplace_back("one experiment (--map=false)");
    }
    else if ((modes & IN_THRESHOLD) != 0)
    {
        parts.emplace_back("one experiment with --schedule=threshold");
    }
    if ((modes & IN_MERGE_FILES) != 0)
    {
        parts.emplace_back("a merge of regime maps (--maps)");
    }
    if ((modes & IN_COMPARE_FILES) != 0)
    {
        parts.emplace_back("a comparison of two maps' files (--compare)");
    }
    if ((modes & IN_SUITE_FILES) != 0)
    {
        parts.emplace_back("the level validation suite (--suite)");
    }
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
    {
        out += (i == 0 ? "" : " and ") + parts[i];
    }
    return out;
}

} // namespace

const std::vector<OptionScope>&
GetOptionScopes()
{
    return OPTION_SCOPES;
}

const std::vector<uint32_t>&
GetOptionPlaceGroups()
{
    return PLACE_GROUPS;
}

const std::vector<std::string>&
GetProgramsWhereEveryOptionActs()
{
    return EVERY_OPTION_ACTS;
}

uint32_t
GetTransportPlace(bool rdma)
{
    return rdma ? IN_RDMA : IN_TCP;
}

std::string
DescribeOptionPlaces(uint32_t levels, uint32_t modes)
{
    return LevelWords(levels) + "; " + ModeWords(modes);
}

std::vector<std::pair<std::string, std::string>>
GivenOptions(int argc, char** argv)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i] != nullptr ? argv[i] : "";
        // ns-3's CommandLine takes -name as --name
        const std::size_t from = arg.find_first_not_of('-');
        if (from == 0 || from == std::string::npos || from > 2)
        {
            continue;
        }
        const std::size_t eq = arg.find('=');
        const std::string name = "--" + arg.substr(from, eq == std::string::npos ? eq : eq - from);
        out.emplace_back(name, eq == std::string::npos ? std::string() : arg.substr(eq + 1));
    }
    return out;
}

void
CheckOptionScopes(const std::string& program,
                  const std::vector<std::pair<std::string, std::string>>& given,
                  uint32_t levels,
                  uint32_t modes)
{
    NS_LOG_FUNCTION(program << levels << modes);
    for (const auto& [name, text] : given)
    {
        for (const OptionScope& s : OPTION_SCOPES)
        {
            if (program != s.program || name != s.option)
            {
                continue;
            }
            if ((s.modes & RUN_MODES) != 0 && (modes & RUN_MODES) != 0 &&
                (s.modes & modes & RUN_MODES) == 0)
            {
                ThrowBadParameter(name,
                                  QuoteText(text),
                                  "the option would not be used " + RunModeText(modes) +
                                      ": it acts in " + ActsModeText(s.modes) +
                                      " (doc/mose.rst, Where each option acts)");
            }
            if (levels != 0 && s.levels != 0 && (s.levels & levels) == 0)
            {
                ThrowBadParameter(name,
                                  QuoteText(text),
                                  "the option would not be used at the " + LevelWords(levels) +
                                      " level" + (levels == NO_PACKETS ? "s" : "") +
                                      ": it acts at the " + LevelWords(s.levels) +
                                      " level only (doc/mose.rst, Where each option acts)");
            }
            for (const uint32_t group : PLACE_GROUPS)
            {
                if (group != RUN_MODES && (s.modes & group) != 0 && (modes & group) != 0 &&
                    (s.modes & modes & group) == 0)
                {
                    ThrowBadParameter(name,
                                      QuoteText(text),
                                      "the option would not be used " +
                                          ModePhrases(modes & group, " and ") + ": it acts only " +
                                          ModePhrases(s.modes & group, " or ") +
                                          " (doc/mose.rst, Where each option acts)");
                }
            }
        }
    }
}

uint32_t
CheckPacketOnlyAttributes(uint32_t levels, std::ostream& warn)
{
    NS_LOG_FUNCTION(levels);
    if ((levels & AT_PACKET) != 0)
    {
        return 0;
    }
    // what the fluid level reads from the packet level's objects (MoseFluidFabricHelper::Read(),
    // InstallLlmWorkload() at the fluid level): set, they act
    std::vector<std::string> read = {"ns3::MoseSocketTransfers::SegmentSize",
                                     "ns3::MoseSocketTransfers::NoticeDelay",
                                     "ns3::MoseSocketTransfers::BufferSize",
                                     "ns3::MoseSocketTransfers::TcpVariant",
                                     "ns3::MoseRdmaTransport::PayloadSize",
                                     "ns3::MoseRdmaTransport::NoticeDelay"};
    const std::vector<std::string>& start = MoseFluidFabricHelper::GetTcpStartAttributes();
    read.insert(read.end(), start.begin(), start.end());
    // the module's objects of the packet level's transport, queues and workloads
    const std::vector<std::string> moduleTypes = {"ns3::MoseSocketTransfers",
                                                  "ns3::MoseRdmaTransport",
                                                  "ns3::MoseTrafficHelper",
                                                  "ns3::MoseTrainingWorkload",
                                                  "ns3::MoseInferenceWorkload"};
    const std::string reason = "the fluid and aggregate levels send no packets (run the packet "
                               "level: --level=packet or both)";
    uint32_t warnings = 0;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        const std::string type = tid.GetName();
        const bool module =
            std::find(moduleTypes.begin(), moduleTypes.end(), type) != moduleTypes.end();
        // ns-3's own: TCP, the queue discs, the devices and their queues
        const bool ns3Own = type.rfind("ns3::Tcp", 0) == 0 ||
                            type.rfind("ns3::DropTailQueue", 0) == 0 ||
                            type == "ns3::PointToPointNetDevice" ||
                            (type.size() > 9 && type.compare(type.size() - 9, 9, "QueueDisc") == 0);
        if (!module && !ns3Own)
        {
            continue;
        }
        for (std::size_t k = 0; k < tid.GetAttributeN(); ++k)
        {
            const std::string path = type + "::" + tid.GetAttribute(k).name;
            if (std::find(read.begin(), read.end(), path) != read.end() ||
                !IsModuleAttributeSet(path))
            {
                continue;
            }
            if (module)
            {
                RejectModuleAttribute(path, reason);
            }
            warn << "warning: --" << path << " = " << QuoteText(GetModuleAttributeText(path))
                 << " would not be used: " << reason
                 << "; ns-3's attribute system sets it globally\n";
            ++warnings;
        }
    }
    // the topology helper's attributes of the packet level's ports (the fluid levels read the
    // helper's others) and the group nodes' forwarding
    for (const char* path : {"ns3::MoseTopologyHelper::QueueDiscType",
                             "ns3::MoseTopologyHelper::PortTxQueuesType",
                             "ns3::MoseRoutingProtocol::FastTransit"})
    {
        if (IsModuleAttributeSet(path))
        {
            RejectModuleAttribute(path, reason);
        }
    }
    return warnings;
}

} // namespace mose
} // namespace ns3
