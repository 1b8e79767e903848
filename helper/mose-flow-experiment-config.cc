/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-experiment-config.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/rng-seed-manager.h"

#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFlowExperimentConfig");

void
MoseFlowExperimentConfig::Validate() const
{
    NS_LOG_FUNCTION(this);
    ValidateRegularParameters(nodes, degree);
    if (inferenceRolesFile.empty())
    {
        inferenceRoles.Validate(nodes, "inference-heavy");
    }
    if (trainingRolesFile.empty())
    {
        trainingRoles.Validate(nodes, "training-heavy");
    }
    if (pdReservedPorts > degree)
    {
        ThrowBadParameter("--pdReservedPorts",
                          std::to_string(pdReservedPorts),
                          "need 0 <= r <= degree = " + std::to_string(degree));
    }
    if (compromiseReservedPorts > degree)
    {
        ThrowBadParameter("--compromiseReservedPorts",
                          std::to_string(compromiseReservedPorts),
                          "need 0 <= r <= degree = " + std::to_string(degree));
    }
    if (flows == 0)
    {
        ThrowBadParameter("--flows", "0", "need at least one flow per mode");
    }
    for (auto [name, rho] : {std::make_pair("--kvShareInference", kvShareInference),
                             std::make_pair("--kvShareTraining", kvShareTraining)})
    {
        if (!(rho >= 0.0 && rho <= 1.0))
        {
            std::ostringstream v;
            v << rho;
            ThrowBadParameter(name, v.str(), "a share must lie in [0, 1]");
        }
    }
    if (seeds == 0)
    {
        ThrowBadParameter("--seeds", "0", "need at least one seed");
    }
    if (firstRun + seeds < firstRun)
    {
        ThrowBadParameter("--RngRun", std::to_string(firstRun), "run + seeds overflows 64 bits");
    }
}

MoseFlowExperimentCommandLine::MoseFlowExperimentCommandLine(
    const MoseFlowExperimentConfig& defaults)
    : m_defaults(defaults),
      m_nodes(std::to_string(defaults.nodes)),
      m_degree(std::to_string(defaults.degree)),
      m_prefill(std::to_string(defaults.inferenceRoles.prefill)),
      m_decode(std::to_string(defaults.inferenceRoles.decode)),
      m_training(std::to_string(defaults.inferenceRoles.training)),
      m_trPrefill(std::to_string(defaults.trainingRoles.prefill)),
      m_trDecode(std::to_string(defaults.trainingRoles.decode)),
      m_trTraining(std::to_string(defaults.trainingRoles.training)),
      m_transition(ToString(defaults.transition)),
      m_pdReservedPorts(std::to_string(defaults.pdReservedPorts)),
      m_compromiseReservedPorts(std::to_string(defaults.compromiseReservedPorts)),
      m_completion(ToString(defaults.completion)),
      m_construction(ToString(defaults.construction)),
      m_allowBiregular(defaults.allowBiregular),
      m_assignment(ToString(defaults.assignment)),
      m_assignmentCap(std::to_string(defaults.assignmentCap)),
      m_flows(std::to_string(defaults.flows)),
      m_routing(ToString(defaults.routing)),
      m_seeds(std::to_string(defaults.seeds)),
      m_threads(std::to_string(defaults.threads)),
      m_inferenceRolesFile(defaults.inferenceRolesFile),
      m_trainingRolesFile(defaults.trainingRolesFile),
      m_inferenceAssignmentFile(defaults.inferenceAssignmentFile),
      m_trainingAssignmentFile(defaults.trainingAssignmentFile)
{
    std::ostringstream kvInf;
    kvInf << defaults.kvShareInference;
    m_kvShareInference = kvInf.str();
    std::ostringstream kvTr;
    kvTr << defaults.kvShareTraining;
    m_kvShareTraining = kvTr.str();
}

void
MoseFlowExperimentCommandLine::AddOptions(CommandLine& cmd, bool studyOptions)
{
    NS_LOG_FUNCTION(this);
    cmd.AddValue("nodes", "number of groups N", m_nodes);
    cmd.AddValue("degree", "optical ports per group d", m_degree);
    cmd.AddValue("prefill", "prefill groups, inference-heavy mode", m_prefill);
    cmd.AddValue("decode", "decode groups, inference-heavy mode", m_decode);
    cmd.AddValue("training", "training groups, inference-heavy mode", m_training);
    cmd.AddValue("trPrefill", "prefill groups, training-heavy mode", m_trPrefill);
    cmd.AddValue("trDecode", "decode groups, training-heavy mode", m_trDecode);
    cmd.AddValue("trTraining", "training groups, training-heavy mode", m_trTraining);
    cmd.AddValue("roleTransition", "role change between modes: swap or nested", m_transition);
    cmd.AddValue("pdReservedPorts", "r of the P-D-biased template H^PD", m_pdReservedPorts);
    cmd.AddValue("compromiseReservedPorts",
                 "r of the compromise template H^C",
                 m_compromiseReservedPorts);
    cmd.AddValue("completion", "bipartite completion: circulant or random", m_completion);
    cmd.AddValue("construction",
                 "MoSE's templates at a switch: fresh, or rewiring-aware (keep the circuits "
                 "the template allows)",
                 m_construction);
    cmd.AddValue("biregular", "allow a biregular P-D split when |P| != |D|", m_allowBiregular);
    cmd.AddValue("assignment", "P-D assignment: one-to-one or many-to-one", m_assignment);
    cmd.AddValue("assignmentCap",
                 "many-to-one: prefills per decode (0 = pdReservedPorts)",
                 m_assignmentCap);
    cmd.AddValue("flows", "flows per workload mode F", m_flows);
    cmd.AddValue("kvShareInference", "share of KV flows, inference-heavy", m_kvShareInference);
    cmd.AddValue("kvShareTraining", "share of KV flows, training-heavy", m_kvShareTraining);
    if (studyOptions)
    {
        cmd.AddValue("routing", "shortest-path, random-shortest-path or ecmp", m_routing);
        cmd.AddValue("seeds", "number of seeds; seed k uses run RngRun + k", m_seeds);
    }
    cmd.AddValue("inferenceRolesFile",
                 "inference-heavy roles from a CSV file (node,role); overrides the counts",
                 m_inferenceRolesFile);
    cmd.AddValue("trainingRolesFile",
                 "training-heavy roles from a CSV file; overrides counts and roleTransition",
                 m_trainingRolesFile);
    cmd.AddValue("inferenceAssignmentFile",
                 "inference-heavy P-D assignment from a CSV file (prefill,decode,weight)",
                 m_inferenceAssignmentFile);
    cmd.AddValue("trainingAssignmentFile",
                 "training-heavy P-D assignment from a CSV file",
                 m_trainingAssignmentFile);
    if (studyOptions)
    {
        cmd.AddValue("threads",
                     "worker threads (0: one per core); results do not depend on it",
                     m_threads);
    }
}

MoseFlowExperimentConfig
MoseFlowExperimentCommandLine::GetConfig() const
{
    NS_LOG_FUNCTION(this);
    MoseFlowExperimentConfig c = m_defaults;
    c.nodes = ParseUnsigned32("--nodes", m_nodes);
    c.degree = ParseUnsigned32("--degree", m_degree);
    c.inferenceRoles = {ParseUnsigned32("--prefill", m_prefill),
                        ParseUnsigned32("--decode", m_decode),
                        ParseUnsigned32("--training", m_training)};
    c.trainingRoles = {ParseUnsigned32("--trPrefill", m_trPrefill),
                       ParseUnsigned32("--trDecode", m_trDecode),
                       ParseUnsigned32("--trTraining", m_trTraining)};
    c.transition = ParseEnum<RoleTransition>(m_transition, "--roleTransition");
    c.pdReservedPorts = ParseUnsigned32("--pdReservedPorts", m_pdReservedPorts);
    c.compromiseReservedPorts =
        ParseUnsigned32("--compromiseReservedPorts", m_compromiseReservedPorts);
    c.completion = ParseEnum<BipartiteCompletion>(m_completion, "--completion");
    c.construction = ParseEnum<TemplateConstruction>(m_construction, "--construction");
    c.allowBiregular = m_allowBiregular;
    c.assignment = ParseEnum<PdAssignmentKind>(m_assignment, "--assignment");
    c.assignmentCap = ParseUnsigned32("--assignmentCap", m_assignmentCap);
    c.flows = ParseUnsigned64("--flows", m_flows);
    c.kvShareInference = ParseReal("--kvShareInference", m_kvShareInference);
    c.kvShareTraining = ParseReal("--kvShareTraining", m_kvShareTraining);
    c.routing = ParseEnum<RoutingRule>(m_routing, "--routing");
    c.seeds = ParseUnsigned32("--seeds", m_seeds);
    c.threads = ParseUnsigned32("--threads", m_threads);
    c.inferenceRolesFile = m_inferenceRolesFile;
    c.trainingRolesFile = m_trainingRolesFile;
    c.inferenceAssignmentFile = m_inferenceAssignmentFile;
    c.trainingAssignmentFile = m_trainingAssignmentFile;
    c.firstRun = RngSeedManager::GetRun();
    c.Validate();
    return c;
}

} // namespace mose
} // namespace ns3
