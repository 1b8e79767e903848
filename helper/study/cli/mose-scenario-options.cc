/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-scenario-options.h"

#include "mose-program.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-routing.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseScenarioOptions");

namespace
{

/// The options of one mode's role counts, its roles file and the paper's shares for messages
struct RoleOptionNames
{
    std::array<std::string, 3> counts; //!< prefill, decode, training
    std::string file;                  //!< the roles file option
    std::string mode;                  //!< the mode's name
    std::string share;                 //!< the paper's P (and D) share of 1024
};

const std::array<RoleOptionNames, 2> ROLE_OPTIONS = {
    RoleOptionNames{{"prefill", "decode", "training"},
                    "inferenceRolesFile",
                    "inference-heavy",
                    "410"},
    RoleOptionNames{{"trPrefill", "trDecode", "trTraining"},
                    "trainingRolesFile",
                    "training-heavy",
                    "102"}};

/// \return an unsigned option's value as canonical text
std::string
ReadUnsigned(const std::string& parameter, const std::string& text)
{
    return std::to_string(ParseUnsigned32(parameter, text));
}

/// \return a routing rule's canonical name
std::string
ReadRouting(const std::string& parameter, const std::string& text)
{
    return ToString(ParseEnum<RoutingRule>(text, parameter));
}

/// The options whose values a program with FABRIC sets as module attributes
const std::array<AttributeOption, 3> FABRIC_ATTRIBUTES = {
    AttributeOption{"nodes", "ns3::MoseTopologyHelper::Groups", ReadUnsigned},
    AttributeOption{"degree", "ns3::MoseTopologyHelper::PortsPerGroup", ReadUnsigned},
    AttributeOption{"routing", "ns3::MoseRouteTable::Rule", ReadRouting}};

} // namespace

ScenarioOptions::ScenarioOptions(const ScenarioDefaults& defaults, uint32_t offers)
    : m_defaults(defaults),
      m_offers(offers)
{
    NS_LOG_FUNCTION(this << defaults.nodes << defaults.flows << defaults.seeds << defaults.degree
                         << offers);
}

std::vector<ScenarioOptions::Option>
ScenarioOptions::GetOptions() const
{
    const FlowExperimentConfig c;
    std::vector<Option> o = {
        {"nodes", "number of groups N", std::to_string(m_defaults.nodes)},
        {"degree", "optical ports per group d", std::to_string(m_defaults.degree)},
        {"prefill", "prefill groups, inference-heavy mode", "floor(N * 410 / 1024)"},
        {"decode", "decode groups, inference-heavy mode", "floor(N * 410 / 1024)"},
        {"training", "training groups, inference-heavy mode", "N - 2 floor(N * 410 / 1024)"},
        {"trPrefill", "prefill groups, training-heavy mode", "floor(N * 102 / 1024)"},
        {"trDecode", "decode groups, training-heavy mode", "floor(N * 102 / 1024)"},
        {"trTraining", "training groups, training-heavy mode", "N - 2 floor(N * 102 / 1024)"},
        {"roleTransition", "role change between modes: swap or nested", ToString(c.transition)},
        {"pdReservedPorts",
         "r of the P-D-biased template H^PD, 0..d (d - 1: the paper's H^PD; 0: H^U)",
         "d - 1"},
        {"compromiseReservedPorts",
         "r of the compromise template H^C, 0..d",
         std::to_string(c.compromiseReservedPorts)},
        {"completion", "bipartite completion: circulant or random", ToString(c.completion)},
        {"construction",
         "MoSE's templates at a switch: fresh, or rewiring-aware (keep the circuits the "
         "template allows)",
         ToString(c.construction)},
        {"biregular", "allow a biregular P-D split when |P| != |D|", "false", true},
        {"assignment", "P-D assignment: one-to-one or many-to-one", ToString(c.assignment)},
        {"assignmentCap", "many-to-one: prefills per decode, >= 1", "max(r of H^PD, 1)"},
        {"flows",
         "flows drawn per workload mode F (a mode whose flows come from a file draws none)",
         std::to_string(m_defaults.flows)},
        {"kvShareInference",
         "share of KV flows, inference-heavy",
         FormatNumber(c.kvShareInference)},
        {"kvShareTraining", "share of KV flows, training-heavy", FormatNumber(c.kvShareTraining)},
    };
    if ((m_offers & ROUTING) != 0)
    {
        o.push_back(
            {"routing", "shortest-path, random-shortest-path or ecmp", ToString(c.routing)});
    }
    if ((m_offers & SEEDS) != 0)
    {
        o.push_back({"seeds",
                     "number of seeds; seed k uses run RngRun + k",
                     std::to_string(m_defaults.seeds)});
        o.push_back({"threads",
                     "worker threads (0: one per core); results do not depend on it",
                     std::to_string(SeedPlan().threads)});
    }
    o.push_back({"inferenceRolesFile",
                 "inference-heavy roles from a CSV file (node,role) instead of the counts",
                 ""});
    o.push_back({"trainingRolesFile",
                 "training-heavy roles from a CSV file instead of the counts and roleTransition",
                 ""});
    o.push_back({"inferenceAssignmentFile",
                 "inference-heavy P-D assignment from a CSV file (prefill,decode,weight)",
                 ""});
    o.push_back({"trainingAssignmentFile", "training-heavy P-D assignment from a CSV file", ""});
    o.push_back({"inferenceFlowsFile",
                 "inference-heavy flows from a CSV file (src,dst,class,demand) instead of drawn",
                 ""});
    o.push_back({"trainingFlowsFile", "training-heavy flows from a CSV file", ""});
    return o;
}

std::vector<std::string>
ScenarioOptions::GetNames() const
{
    std::vector<std::string> names;
    for (const Option& o : GetOptions())
    {
        names.push_back(o.name);
    }
    return names;
}

void
ScenarioOptions::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    for (const Option& o : GetOptions())
    {
        const std::string name = o.name;
        if (o.flag)
        {
            AddBoolOption(cmd, name, o.help, m_flags[name]);
            continue;
        }
        cmd.AddValue(
            name,
            o.help,
            Callback<bool, MOSE_COMMAND_LINE_CB_ARG>([this, name](MOSE_COMMAND_LINE_CB_ARG value) {
                m_given[name] = std::string(value);
                return true;
            }),
            o.defaultText);
    }
}

std::optional<std::string>
ScenarioOptions::GivenText(const std::string& name) const
{
    auto it = m_given.find(name);
    std::optional<std::string> given;
    if (it != m_given.end())
    {
        given = it->second;
    }
    if ((m_offers & FABRIC) != 0 && (name != "routing" || (m_offers & ROUTING) != 0))
    {
        for (const AttributeOption& o : FABRIC_ATTRIBUTES)
        {
            if (o.option == name)
            {
                return ResolveAttributeOption(o, given);
            }
        }
    }
    return given;
}

bool
ScenarioOptions::IsGiven(const std::string& name) const
{
    return GivenText(name).has_value();
}

std::string
ScenarioOptions::TextOf(const std::string& name) const
{
    if (std::optional<std::string> given = GivenText(name))
    {
        return *given;
    }
    for (const Option& o : GetOptions())
    {
        if (o.name == name)
        {
            return o.defaultText;
        }
    }
    return "";
}

std::string
ScenarioOptions::Describe(const std::string& name) const
{
    if (!IsGiven(name))
    {
        return TextOf(name) + " (default)";
    }
    if (m_given.count(name) == 0)
    {
        for (const AttributeOption& o : FABRIC_ATTRIBUTES)
        {
            if (o.option == name)
            {
                return QuoteText(TextOf(name)) + " (from --" + o.attribute + ")";
            }
        }
    }
    return QuoteText(TextOf(name));
}

uint32_t
ScenarioOptions::Unsigned32(const std::string& name, uint32_t otherwise) const
{
    return IsGiven(name) ? ParseUnsigned32("--" + name, TextOf(name)) : otherwise;
}

void
ScenarioOptions::RejectUnused(const std::vector<std::string>& names,
                              const std::string& reason) const
{
    for (const std::string& name : names)
    {
        if (IsGiven(name))
        {
            ThrowBadParameter("--" + name,
                              QuoteText(TextOf(name)),
                              "the option would not be used: " + reason);
        }
    }
}

FlowExperimentConfig
ScenarioOptions::GetConfig() const
{
    NS_LOG_FUNCTION(this);
    FlowExperimentConfig c = ReadScale();

    // the files
    c.inferenceRolesFile = TextOf("inferenceRolesFile");
    c.trainingRolesFile = TextOf("trainingRolesFile");
    c.inferenceAssignmentFile = TextOf("inferenceAssignmentFile");
    c.trainingAssignmentFile = TextOf("trainingAssignmentFile");
    c.inferenceFlowsFile = TextOf("inferenceFlowsFile");
    c.trainingFlowsFile = TextOf("trainingFlowsFile");

    ReadRoles(c);
    ReadTemplates(c);
    ReadAssignment(c);
    ReadFlows(c);
    CheckAssignments(c);

    // routing and seeds
    if ((m_offers & ROUTING) != 0)
    {
        c.routing = ParseEnum<RoutingRule>(TextOf("routing"), "--routing");
    }
    GetSeedPlan(); // checked in its turn, so that the first bad option is named
    c.firstRun = RngSeedManager::GetRun();
    c.Validate();
    return c;
}

FlowExperimentConfig
ScenarioOptions::ReadScale() const
{
    if ((m_offers & FABRIC) != 0)
    {
        for (const AttributeOption& o : FABRIC_ATTRIBUTES)
        {
            GivenText(o.option); // both given and different: an error naming both
        }
        RejectModuleAttribute("ns3::MoseRouteTable::Seed",
                              "the program draws the routing seed from the run (--RngRun)");
    }
    // N and d first: the other defaults follow from them
    const uint32_t nodes = Unsigned32("nodes", m_defaults.nodes);
    const uint32_t degree = Unsigned32("degree", m_defaults.degree);
    if (nodes < 2)
    {
        ThrowBadParameter("--nodes", Describe("nodes"), "a circuit graph needs at least 2 groups");
    }
    if (degree < 1 || degree >= nodes)
    {
        ThrowBadParameter("--degree",
                          Describe("degree"),
                          "need 1 <= d < N = " + std::to_string(nodes) + " (--nodes)");
    }
    if ((static_cast<uint64_t>(nodes) * degree) % 2 != 0)
    {
        ThrowBadParameter("--degree",
                          Describe("degree"),
                          "N * d = " + std::to_string(nodes) + " * " + std::to_string(degree) +
                              " is odd; every circuit uses two ports, so N * d must be even");
    }
    return PaperScaledConfig(nodes, degree);
}

void
ScenarioOptions::ReadRoles(FlowExperimentConfig& c) const
{
    // roles: each count given replaces its own default, the paper's share of N
    const std::array<RoleCounts*, 2> counts = {&c.inferenceRoles, &c.trainingRoles};
    for (std::size_t m = 0; m < 2; ++m)
    {
        const RoleOptionNames& names = ROLE_OPTIONS[m];
        RoleCounts& r = *counts[m];
        if (!TextOf(names.file).empty())
        {
            RejectUnused({names.counts[0], names.counts[1], names.counts[2]},
                         "the " + names.mode + " roles come from --" + names.file);
            if (m == 1)
            {
                RejectUnused({"roleTransition"},
                             "the training-heavy roles come from --trainingRolesFile");
            }
            continue;
        }
        r.prefill = Unsigned32(names.counts[0], r.prefill);
        r.decode = Unsigned32(names.counts[1], r.decode);
        r.training = Unsigned32(names.counts[2], r.training);
        if (r.Total() != c.nodes)
        {
            const std::array<uint32_t, 3> value = {r.prefill, r.decode, r.training};
            const std::array<const char*, 3> letter = {" P", " D", " T"};
            std::string text;
            for (std::size_t k = 0; k < 3; ++k)
            {
                text += (k == 0 ? "" : " + ") + std::to_string(value[k]) + letter[k] +
                        (IsGiven(names.counts[k]) ? "" : " (default)");
            }
            text += " = " + std::to_string(r.Total());
            ThrowBadParameter(
                "--" + names.counts[0] + "/--" + names.counts[1] + "/--" + names.counts[2],
                text,
                "the " + names.mode + " counts must add up to N = " + std::to_string(c.nodes) +
                    " (--nodes); a count not given is the paper's share of N "
                    "(floor(N * " +
                    names.share +
                    " / 1024) prefill and as many decode groups, "
                    "the rest training)");
        }
    }
    c.transition = ParseEnum<RoleTransition>(TextOf("roleTransition"), "--roleTransition");
    if (c.inferenceRolesFile.empty() && c.trainingRolesFile.empty())
    {
        // the training-heavy roles come from the inference-heavy ones (RoleAssignment::
        // Transition()): counts that do not fit are the options' error, not the library's
        const RoleCounts& from = c.inferenceRoles;
        const RoleCounts& to = c.trainingRoles;
        auto count = [this](const std::string& name, uint32_t value) {
            return "--" + name + " = " + std::to_string(value) +
                   (IsGiven(name) ? "" : " (default)");
        };
        if (c.transition == RoleTransition::SWAP &&
            static_cast<uint64_t>(to.prefill) + to.decode > from.training)
        {
            ThrowBadParameter("--roleTransition",
                              Describe("roleTransition"),
                              "swap draws the training-heavy prefill and decode groups, " +
                                  count("trPrefill", to.prefill) + " + " +
                                  count("trDecode", to.decode) + ", from the inference-heavy " +
                                  count("training", from.training) +
                                  " training groups; give --roleTransition=nested or counts "
                                  "that fit");
        }
        if (c.transition == RoleTransition::NESTED &&
            (to.prefill > from.prefill || to.decode > from.decode))
        {
            ThrowBadParameter(
                "--roleTransition",
                Describe("roleTransition"),
                "nested keeps training-heavy prefill and decode groups among the "
                "inference-heavy ones: need " +
                    count("trPrefill", to.prefill) + " <= " + count("prefill", from.prefill) +
                    " and " + count("trDecode", to.decode) + " <= " + count("decode", from.decode) +
                    "; give --roleTransition=swap or counts that fit");
        }
    }
}

void
ScenarioOptions::ReadTemplates(FlowExperimentConfig& c) const
{
    // the templates
    c.pdReservedPorts = Unsigned32("pdReservedPorts", c.pdReservedPorts);
    if (c.pdReservedPorts > c.degree)
    {
        ThrowBadParameter("--pdReservedPorts",
                          Describe("pdReservedPorts"),
                          "need 0 <= r <= d = " + std::to_string(c.degree) +
                              " (--degree); d - 1 is the paper's H^PD, 0 makes it H^U");
    }
    c.compromiseReservedPorts = Unsigned32("compromiseReservedPorts", c.compromiseReservedPorts);
    if (c.compromiseReservedPorts > c.degree)
    {
        ThrowBadParameter("--compromiseReservedPorts",
                          Describe("compromiseReservedPorts"),
                          "need 0 <= r <= d = " + std::to_string(c.degree) + " (--degree)");
    }
    c.completion = ParseEnum<BipartiteCompletion>(TextOf("completion"), "--completion");
    c.construction = ParseEnum<TemplateConstruction>(TextOf("construction"), "--construction");
    const auto biregular = m_flags.find("biregular");
    c.allowBiregular = biregular != m_flags.end() && biregular->second;
}

void
ScenarioOptions::ReadAssignment(FlowExperimentConfig& c) const
{
    // the P-D assignments
    if (!c.inferenceAssignmentFile.empty() && !c.trainingAssignmentFile.empty())
    {
        RejectUnused({"assignment", "assignmentCap"},
                     "both modes' P-D assignments come from files");
    }
    c.assignment = ParseEnum<PdAssignmentKind>(TextOf("assignment"), "--assignment");
    if (IsGiven("assignmentCap"))
    {
        if (c.assignment != PdAssignmentKind::MANY_TO_ONE)
        {
            RejectUnused({"assignmentCap"},
                         "it caps the prefills per decode of --assignment=many-to-one, and "
                         "--assignment is " +
                             ToString(c.assignment));
        }
        c.assignmentCap = ParseUnsigned32("--assignmentCap", TextOf("assignmentCap"));
        if (c.assignmentCap == 0)
        {
            ThrowBadParameter("--assignmentCap",
                              Describe("assignmentCap"),
                              "need at least 1 prefill per decode (the default: max(r of H^PD, "
                              "1))");
        }
    }
}

void
ScenarioOptions::ReadFlows(FlowExperimentConfig& c) const
{
    // the flows
    if (!c.inferenceFlowsFile.empty() && !c.trainingFlowsFile.empty())
    {
        RejectUnused({"flows"}, "both modes' flows come from files");
    }
    if (!c.inferenceFlowsFile.empty())
    {
        RejectUnused({"kvShareInference"},
                     "the inference-heavy flows come from --inferenceFlowsFile");
    }
    if (!c.trainingFlowsFile.empty())
    {
        RejectUnused({"kvShareTraining"}, "the training-heavy flows come from --trainingFlowsFile");
    }
    c.flows = IsGiven("flows") ? ParseUnsigned64("--flows", TextOf("flows")) : m_defaults.flows;
    if (c.flows == 0 && (c.inferenceFlowsFile.empty() || c.trainingFlowsFile.empty()))
    {
        ThrowBadParameter("--flows", Describe("flows"), "need at least 1 flow per mode");
    }
    for (const auto& [name, share] :
         {std::make_pair(std::string("kvShareInference"), &c.kvShareInference),
          std::make_pair(std::string("kvShareTraining"), &c.kvShareTraining)})
    {
        if (IsGiven(name))
        {
            *share = ParseReal("--" + name, TextOf(name));
            if (!(*share >= 0.0 && *share <= 1.0))
            {
                ThrowBadParameter("--" + name, Describe(name), "a share must lie in [0, 1]");
            }
        }
    }
}

void
ScenarioOptions::CheckAssignments(const FlowExperimentConfig& c) const
{
    const std::array<const RoleCounts*, 2> counts = {&c.inferenceRoles, &c.trainingRoles};
    const std::array<const std::string*, 2> assignmentFiles = {&c.inferenceAssignmentFile,
                                                               &c.trainingAssignmentFile};
    const std::array<const std::string*, 2> flowFiles = {&c.inferenceFlowsFile,
                                                         &c.trainingFlowsFile};
    const std::array<std::pair<std::string, double>, 2> shares = {
        std::make_pair(std::string("kvShareInference"), c.kvShareInference),
        std::make_pair(std::string("kvShareTraining"), c.kvShareTraining)};
    auto count = [this](const std::string& name, uint32_t value) {
        return "--" + name + " = " + std::to_string(value) + (IsGiven(name) ? "" : " (default)");
    };
    for (std::size_t m = 0; m < 2; ++m)
    {
        const RoleOptionNames& names = ROLE_OPTIONS[m];
        if (!TextOf(names.file).empty() || !assignmentFiles[m]->empty())
        {
            continue; // the roles or the assignment come from a file: its reader checks it
        }
        if (!IsGiven(names.counts[0]) && !IsGiven(names.counts[1]) && !IsGiven(names.counts[2]))
        {
            // the paper's shares, P = D: at a tiny N both 0, which a program that runs only
            // the other mode never draws flows for (the library names it if one does)
            continue;
        }
        const RoleCounts& r = *counts[m];
        const std::string p = count(names.counts[0], r.prefill);
        const std::string d = count(names.counts[1], r.decode);
        // the KV flows the generator draws (as GenerateFlows() counts them)
        const uint64_t kvFlows = flowFiles[m]->empty()
                                     ? static_cast<uint64_t>(std::llround(
                                           shares[m].second * static_cast<double>(c.flows)))
                                     : 0;
        if (kvFlows > 0 && (r.prefill == 0 || r.decode == 0))
        {
            throw Error(p + " and " + d + " leave the " + names.mode + " KV flows (--" +
                        shares[m].first + " = " + Describe(shares[m].first) + " of --flows = " +
                        std::to_string(c.flows) + ": " + std::to_string(kvFlows) +
                        " flows) no prefill or no decode group to go between: give at least 1 "
                        "of each, or --" +
                        shares[m].first + "=0");
        }
        if (c.assignment == PdAssignmentKind::ONE_TO_ONE && r.prefill != r.decode)
        {
            ThrowBadParameter("--assignment",
                              Describe("assignment"),
                              "one-to-one pairs each prefill group with one decode group, and " +
                                  p + " and " + d +
                                  " differ; give --assignment=many-to-one or "
                                  "equal counts");
        }
        // many-to-one: each decode group takes at most cap prefill groups (the library's
        // message names neither the counts nor --assignmentCap); a sweep's default cap is its
        // points' (their r)
        const uint32_t cap =
            c.assignmentCap == 0 ? std::max<uint32_t>(c.pdReservedPorts, 1) : c.assignmentCap;
        if (c.assignment == PdAssignmentKind::MANY_TO_ONE &&
            (c.assignmentCap != 0 || (m_offers & SWEPT_TEMPLATES) == 0) &&
            static_cast<uint64_t>(r.prefill) > static_cast<uint64_t>(cap) * r.decode)
        {
            ThrowBadParameter(
                "--assignmentCap",
                IsGiven("assignmentCap") ? Describe("assignmentCap")
                                         : std::to_string(cap) + " (default: max(r of H^PD, 1))",
                "--assignment=many-to-one gives each decode group at most " + std::to_string(cap) +
                    " prefill groups, and " + p + " is more than " + std::to_string(cap) + " x " +
                    d + "; give a larger --assignmentCap, fewer --" + names.counts[0] +
                    " or more --" + names.counts[1]);
        }
    }
}

SeedPlan
ScenarioOptions::GetSeedPlan() const
{
    NS_LOG_FUNCTION(this);
    SeedPlan plan;
    plan.seeds = 1;
    if ((m_offers & SEEDS) != 0)
    {
        plan.seeds = Unsigned32("seeds", m_defaults.seeds);
        if (plan.seeds == 0)
        {
            ThrowBadParameter("--seeds", Describe("seeds"), "need at least 1 seed");
        }
        if (m_defaults.seedBytes > 0)
        {
            // each seed keeps its figures: the limit is the machine's memory over them
            CheckCountMemory("--seeds",
                             Describe("seeds"),
                             plan.seeds,
                             m_defaults.seedBytes,
                             "seeds",
                             m_defaults.seedKeeps);
        }
        plan.threads = Unsigned32("threads", plan.threads);
    }
    const uint64_t firstRun = RngSeedManager::GetRun();
    if (firstRun + plan.seeds < firstRun)
    {
        // named by the options this program has: seed k uses run --RngRun + k
        if ((m_offers & SEEDS) != 0)
        {
            throw Error("--RngRun = " + std::to_string(firstRun) +
                        " and --seeds = " + std::to_string(plan.seeds) +
                        " disagree: seed k uses run --RngRun + k, and --RngRun + --seeds must "
                        "be at most 18446744073709551615; give a smaller --RngRun or --seeds");
        }
        ThrowBadParameter("--RngRun",
                          QuoteText(std::to_string(firstRun)),
                          "at most 18446744073709551614 (this program runs one seed, run --RngRun, "
                          "and keeps run + 1 within 64 bits)");
    }
    return plan;
}

} // namespace mose
} // namespace ns3
