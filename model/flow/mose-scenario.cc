/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-scenario.h"

#include "mose-file-io.h"
#include "mose-metrics-output.h"
#include "mose-routing.h"
#include "mose-topology-template.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-random.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseScenario");

namespace
{

/**
 * \param c the configuration
 * \param id PD_BIASED or COMPROMISE
 * \return the options of that template, errors naming the program's options
 */
PdBiasedOptions
PdOptions(const FlowExperimentConfig& c, TemplateId id)
{
    PdBiasedOptions pd;
    pd.completion = c.completion;
    pd.allowBiregular = c.allowBiregular;
    pd.allowBiregularName = "--biregular";
    const bool full = id == TemplateId::PD_BIASED;
    pd.reservedPorts = full ? c.pdReservedPorts : c.compromiseReservedPorts;
    pd.reservedPortsName = full ? "--pdReservedPorts" : "--compromiseReservedPorts";
    return pd;
}

/**
 * \brief Builds a P-D template; an error that its role counts (|P|, |D|, |T|) give also names
 *        the options those counts come from, which the template builder does not know.
 * \param build the build \return what it gives
 */
template <class Build>
CircuitGraph
NamingRoleCounts(const Build& build)
{
    try
    {
        return build();
    }
    catch (const Error& e)
    {
        const std::string message = e.what();
        if (message.find("|P| = ") == std::string::npos)
        {
            throw;
        }
        throw Error(message + " (the mode's role counts: --prefill, --decode, --training; "
                              "training-heavy --trPrefill, --trDecode, --trTraining; or "
                              "--inferenceRolesFile, --trainingRolesFile)");
    }
}

} // namespace

ScenarioBuilder::ScenarioBuilder(const FlowExperimentConfig& config)
    : m_config(config)
{
    NS_LOG_FUNCTION(this);
    m_config.Validate();
    // Files are read once; every run then uses the same roles or assignment.
    const std::array<std::string, 2> rolesFiles = {m_config.inferenceRolesFile,
                                                   m_config.trainingRolesFile};
    const std::array<std::string, 2> assignmentFiles = {m_config.inferenceAssignmentFile,
                                                        m_config.trainingAssignmentFile};
    for (std::size_t m = 0; m < 2; ++m)
    {
        if (!rolesFiles[m].empty())
        {
            m_rolesFromFile[m] = ReadRolesCsv(rolesFiles[m], m_config.nodes);
            if (m_rolesFromFile[m]->GetN() != m_config.nodes)
            {
                throw Error(rolesFiles[m] + ": the roles cover " +
                            std::to_string(m_rolesFromFile[m]->GetN()) +
                            " groups, the study has nodes = " + std::to_string(m_config.nodes));
            }
        }
    }
    for (std::size_t m = 0; m < 2; ++m)
    {
        if (!assignmentFiles[m].empty())
        {
            // checked against the mode's roles when those are fixed by a file or by counts
            std::optional<RoleAssignment> roles = m_rolesFromFile[m];
            if (!roles && m == 0)
            {
                roles = RoleAssignment::Contiguous(m_config.inferenceRoles);
            }
            m_assignmentFromFile[m] =
                ReadPdAssignmentCsv(assignmentFiles[m], roles ? &*roles : nullptr);
        }
    }
    const std::array<std::string, 2> flowsFiles = {m_config.inferenceFlowsFile,
                                                   m_config.trainingFlowsFile};
    for (std::size_t m = 0; m < 2; ++m)
    {
        if (!flowsFiles[m].empty())
        {
            // taken as given: every id below N (checked by the reader), classes and demands as
            // written
            m_flowsFromFile[m] = ReadFlowsCsv(flowsFiles[m], m_config.nodes);
        }
    }
}

const FlowExperimentConfig&
ScenarioBuilder::GetConfig() const
{
    return m_config;
}

std::array<RoleAssignment, 2>
ScenarioBuilder::BuildRoles(uint64_t run) const
{
    NS_LOG_FUNCTION(this << run);
    std::array<RoleAssignment, 2> roles;
    roles[0] = m_rolesFromFile[0] ? *m_rolesFromFile[0]
                                  : RoleAssignment::Contiguous(m_config.inferenceRoles);
    if (m_rolesFromFile[1])
    {
        roles[1] = *m_rolesFromFile[1];
    }
    else
    {
        Random roleRng = Random::Create(run, Stream::ROLES);
        roles[1] = roles[0].Transition(m_config.trainingRoles, m_config.transition, roleRng);
    }
    return roles;
}

PdAssignment
ScenarioBuilder::BuildAssignment(uint64_t run, WorkloadMode mode, const RoleAssignment& roles) const
{
    NS_LOG_FUNCTION(this << run << static_cast<int>(mode));
    const auto m = static_cast<std::size_t>(mode);
    if (m_assignmentFromFile[m])
    {
        try
        {
            m_assignmentFromFile[m]->Validate(roles);
        }
        catch (const Error& e)
        {
            // the training-heavy roles may be drawn per run: name the file and the run
            const std::string& file =
                m == 0 ? m_config.inferenceAssignmentFile : m_config.trainingAssignmentFile;
            throw Error(file + ": the assignment does not fit the " + ToString(ALL_MODES[m]) +
                        " roles of run " + std::to_string(run) + ": " + e.what());
        }
        return *m_assignmentFromFile[m];
    }
    const FlowExperimentConfig& c = m_config;
    const uint32_t cap =
        c.assignmentCap == 0 ? std::max<uint32_t>(c.pdReservedPorts, 1) : c.assignmentCap;
    const std::array<int64_t, 2> streams = {Stream::ASSIGNMENT, Stream::ASSIGNMENT_TRAINING};
    Random rng = Random::Create(run, streams[m]);
    return PdAssignment::Draw(roles, c.assignment, cap, rng);
}

std::vector<Flow>
ScenarioBuilder::BuildFlows(uint64_t run,
                            WorkloadMode mode,
                            const RoleAssignment& roles,
                            const PdAssignment& assignment) const
{
    NS_LOG_FUNCTION(this << run << static_cast<int>(mode));
    const auto m = static_cast<std::size_t>(mode);
    if (m_flowsFromFile[m])
    {
        return *m_flowsFromFile[m];
    }
    const std::array<int64_t, 2> streams = {Stream::TRAFFIC, Stream::TRAFFIC_TRAINING};
    const std::array<double, 2> kvShare = {m_config.kvShareInference, m_config.kvShareTraining};
    Random rng = Random::Create(run, streams[m]);
    TrafficOptions traffic;
    traffic.flows = m_config.flows;
    traffic.kvShare = kvShare[m];
    traffic.kvShareName = m == 0 ? "--kvShareInference" : "--kvShareTraining";
    return GenerateTraffic(roles, assignment, traffic, rng);
}

CircuitGraph
ScenarioBuilder::BuildTemplate(uint64_t run,
                               TemplateId id,
                               const RoleAssignment& roles,
                               const PdAssignment& assignment) const
{
    NS_LOG_FUNCTION(this << run << static_cast<int>(id));
    const FlowExperimentConfig& c = m_config;
    if (id == TemplateId::UNIFORM)
    {
        Random rng = Random::Create(run, Stream::UNIFORM);
        return BuildUniformTemplate(c.nodes, c.degree, rng);
    }
    const bool full = id == TemplateId::PD_BIASED;
    const PdBiasedOptions pd = PdOptions(c, id);
    Random rng = Random::Create(run, full ? Stream::PD_BIASED : Stream::COMPROMISE);
    return NamingRoleCounts(
        [&]() { return BuildPdBiasedTemplate(roles, c.degree, assignment, pd, rng); });
}

const CircuitGraph&
Scenario::GetGraph(Policy policy, WorkloadMode mode) const
{
    if (IsSwitching(policy) && construction == TemplateConstruction::REWIRING_AWARE)
    {
        return rewired[static_cast<std::size_t>(mode)];
    }
    return templates[static_cast<std::size_t>(SelectTemplate(policy, mode))];
}

const CircuitGraph&
Scenario::GetPreviousGraph(Policy policy, WorkloadMode mode) const
{
    if (IsSwitching(policy) && construction == TemplateConstruction::REWIRING_AWARE)
    {
        return rewiredFrom[static_cast<std::size_t>(mode)];
    }
    return GetGraph(policy,
                    mode == WorkloadMode::INFERENCE_HEAVY ? WorkloadMode::TRAINING_HEAVY
                                                          : WorkloadMode::INFERENCE_HEAVY);
}

Scenario
ScenarioBuilder::Build(uint64_t run) const
{
    NS_LOG_FUNCTION(this << run);
    Scenario s;
    s.run = run;
    s.roles = BuildRoles(run);
    for (WorkloadMode mode : ALL_MODES)
    {
        const auto m = static_cast<std::size_t>(mode);
        s.assignment[m] = BuildAssignment(run, mode, s.roles[m]);
        s.flows[m] = BuildFlows(run, mode, s.roles[m], s.assignment[m]);
    }
    // The P-D-biased templates are built for the inference-heavy roles and assignment; the
    // static policies keep them (stale) in training-heavy mode.
    for (TemplateId id : ALL_TEMPLATES)
    {
        s.templates[static_cast<std::size_t>(id)] =
            BuildTemplate(run, id, s.roles[0], s.assignment[0]);
    }
    s.routingSeed = BuildRoutingSeed(run);
    s.construction = m_config.construction;
    if (s.construction == TemplateConstruction::REWIRING_AWARE)
    {
        BuildRewired(run,
                     s.roles[0],
                     s.assignment[0],
                     s.templates[static_cast<std::size_t>(TemplateId::PD_BIASED)],
                     s.rewired,
                     s.rewiredFrom);
    }
    return s;
}

void
ScenarioBuilder::BuildRewired(uint64_t run,
                              const RoleAssignment& roles,
                              const PdAssignment& assignment,
                              const CircuitGraph& pdFresh,
                              std::array<CircuitGraph, 2>& graphs,
                              std::array<CircuitGraph, 2>& from) const
{
    NS_LOG_FUNCTION(this << run);
    const FlowExperimentConfig& c = m_config;
    const PdBiasedOptions pd = PdOptions(c, TemplateId::PD_BIASED);
    Random rng = Random::Create(run, Stream::REWIRING);
    constexpr auto INF = static_cast<std::size_t>(WorkloadMode::INFERENCE_HEAVY);
    constexpr auto TR = static_cast<std::size_t>(WorkloadMode::TRAINING_HEAVY);
    from[INF] = BuildUniformTemplate(c.nodes, c.degree, pdFresh, roles, rng);
    graphs[INF] = NamingRoleCounts(
        [&]() { return BuildPdBiasedTemplate(roles, c.degree, assignment, pd, from[INF], rng); });
    from[TR] = graphs[INF];
    graphs[TR] = BuildUniformTemplate(c.nodes, c.degree, graphs[INF], roles, rng);
}

uint64_t
ScenarioBuilder::BuildRoutingSeed(uint64_t run) const
{
    NS_LOG_FUNCTION(this << run);
    // the core's one derivation (Random::Create() serialises the stream's creation)
    return DeriveRoutingSeed(run);
}

ModeScenario
ScenarioBuilder::BuildMode(uint64_t run, WorkloadMode mode) const
{
    NS_LOG_FUNCTION(this << run << static_cast<int>(mode));
    ModeScenario s;
    s.run = run;
    s.mode = mode;
    s.roles = BuildRoles(run)[static_cast<std::size_t>(mode)];
    s.assignment = BuildAssignment(run, mode, s.roles);
    s.flows = BuildFlows(run, mode, s.roles, s.assignment);
    return s;
}

CircuitGraph
ScenarioBuilder::BuildTemplate(uint64_t run, TemplateId id) const
{
    NS_LOG_FUNCTION(this << run << static_cast<int>(id));
    if (id == TemplateId::UNIFORM)
    {
        // needs neither roles nor assignment
        return BuildTemplate(run, id, RoleAssignment(), PdAssignment());
    }
    const RoleAssignment roles = BuildRoles(run)[0];
    return BuildTemplate(run,
                         id,
                         roles,
                         BuildAssignment(run, WorkloadMode::INFERENCE_HEAVY, roles));
}

CircuitGraph
ScenarioBuilder::BuildCircuitGraph(uint64_t run, WorkloadMode mode, Policy policy) const
{
    NS_LOG_FUNCTION(this << run << static_cast<int>(mode) << static_cast<int>(policy));
    if (IsSwitching(policy) && m_config.construction == TemplateConstruction::REWIRING_AWARE)
    {
        const RoleAssignment roles = BuildRoles(run)[0];
        const PdAssignment assignment = BuildAssignment(run, WorkloadMode::INFERENCE_HEAVY, roles);
        std::array<CircuitGraph, 2> graphs;
        std::array<CircuitGraph, 2> from;
        BuildRewired(run,
                     roles,
                     assignment,
                     BuildTemplate(run, TemplateId::PD_BIASED, roles, assignment),
                     graphs,
                     from);
        return graphs[static_cast<std::size_t>(mode)];
    }
    return BuildTemplate(run, SelectTemplate(policy, mode));
}

std::string
GetModeFileTag(WorkloadMode mode)
{
    return mode == WorkloadMode::INFERENCE_HEAVY ? "inference" : "training";
}

std::vector<std::string>
GetModeScenarioFileNames(WorkloadMode mode)
{
    const std::string tag = GetModeFileTag(mode);
    return {"roles_" + tag + ".csv", "assignment_" + tag + ".csv", "flows_" + tag + ".csv"};
}

std::vector<std::string>
GetScenarioFileNames()
{
    std::vector<std::string> names;
    for (TemplateId id : ALL_TEMPLATES)
    {
        names.push_back(ToString(id) + ".csv");
        names.push_back(ToString(id) + ".dot");
    }
    for (WorkloadMode mode : ALL_MODES)
    {
        for (std::string& name : GetModeScenarioFileNames(mode))
        {
            names.push_back(std::move(name));
        }
    }
    return names;
}

void
WriteModeScenarioFiles(const ModeScenario& s, const std::string& dir)
{
    NS_LOG_FUNCTION(dir);
    MakeOutputDirectory(dir);
    const std::vector<std::string> names = GetModeScenarioFileNames(s.mode);
    WriteRolesCsv(s.roles, dir + "/" + names[0]);
    WritePdAssignmentCsv(s.assignment, dir + "/" + names[1]);
    WriteFlowsCsv(s.flows, dir + "/" + names[2]);
}

void
WriteScenarioFiles(const Scenario& s, const std::string& dir)
{
    NS_LOG_FUNCTION(dir);
    MakeOutputDirectory(dir);
    // the names in GetScenarioFileNames()'s order: per template its CSV and DOT, per mode its
    // roles, assignment and flows
    const std::vector<std::string> names = GetScenarioFileNames();
    std::size_t k = 0;
    for (TemplateId id : ALL_TEMPLATES)
    {
        const CircuitGraph& g = s.templates[static_cast<std::size_t>(id)];
        WriteCircuitGraphCsv(g, dir + "/" + names[k++]);
        WriteCircuitGraphDot(g, dir + "/" + names[k++], &s.roles[0]);
    }
    for (WorkloadMode mode : ALL_MODES)
    {
        const auto m = static_cast<std::size_t>(mode);
        WriteRolesCsv(s.roles[m], dir + "/" + names[k++]);
        WritePdAssignmentCsv(s.assignment[m], dir + "/" + names[k++]);
        WriteFlowsCsv(s.flows[m], dir + "/" + names[k++]);
    }
}

} // namespace mose
} // namespace ns3
