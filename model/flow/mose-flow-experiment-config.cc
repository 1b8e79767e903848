/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-experiment-config.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFlowExperimentConfig");

void
FlowExperimentConfig::Validate() const
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
    if (flows == 0 && (inferenceFlowsFile.empty() || trainingFlowsFile.empty()))
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
}

uint32_t
DefaultPdReservedPorts(uint32_t degree)
{
    return degree > 0 ? degree - 1 : 0;
}

FlowExperimentConfig
PaperScaledConfig(uint32_t nodes, uint32_t degree)
{
    NS_LOG_FUNCTION(nodes << degree);
    FlowExperimentConfig c;
    c.nodes = nodes;
    c.degree = degree;
    c.inferenceRoles = RoleCounts::PaperScaled(nodes, WorkloadMode::INFERENCE_HEAVY);
    c.trainingRoles = RoleCounts::PaperScaled(nodes, WorkloadMode::TRAINING_HEAVY);
    c.pdReservedPorts = DefaultPdReservedPorts(degree);
    return c;
}

} // namespace mose
} // namespace ns3
