/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_EXPERIMENT_CONFIG_H
#define MOSE_FLOW_EXPERIMENT_CONFIG_H

#include "mose-pd-assignment.h"
#include "mose-roles.h"
#include "mose-routing.h"
#include "mose-topology-template.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief Every parameter of the flow-level scenario: N, d, roles, templates, flows and the
 *        routing rule, and the ns-3 run it is drawn from; the defaults are the paper's. How many
 *        seeds a study runs, and on how many threads, is not part of it (the study library's
 *        SeedPlan, passed beside it).
 */
struct FlowExperimentConfig
{
    uint32_t nodes{1024};                                           //!< N
    uint32_t degree{4};                                             //!< d
    RoleCounts inferenceRoles{RoleCounts::InferenceHeavyDefault()}; //!< roles, inference-heavy
    RoleCounts trainingRoles{RoleCounts::TrainingHeavyDefault()};   //!< roles, training-heavy
    RoleTransition transition{RoleTransition::SWAP};                //!< which groups change role
    /// r of H^PD: 0..d; d - 1 is the paper's H^PD (DefaultPdReservedPorts()), 0 makes it H^U
    uint32_t pdReservedPorts{3};
    uint32_t compromiseReservedPorts{1};                            //!< r of H^C
    BipartiteCompletion completion{BipartiteCompletion::CIRCULANT}; //!< bipartite completion
    /// how MoSE builds a mode's template at a switch: fresh (the paper) or rewiring-aware
    /// (keeping the circuits the template allows; see Scenario)
    TemplateConstruction construction{TemplateConstruction::FRESH};
    bool allowBiregular{false};                                //!< biregular split when |P| != |D|
    PdAssignmentKind assignment{PdAssignmentKind::ONE_TO_ONE}; //!< how KV pairs are drawn
    /// MANY_TO_ONE: prefills per decode (0: max(pdReservedPorts, 1))
    uint32_t assignmentCap{0};
    uint64_t flows{100000};        //!< flows per mode F
    double kvShareInference{0.70}; //!< rho, inference-heavy
    double kvShareTraining{0.30};  //!< rho, training-heavy
    /// routing rule: one uniformly random shortest path per pair by default (the lowest-id
    /// tie-break biases every node towards the same neighbours; see doc/mose.rst)
    RoutingRule routing{RoutingRule::RANDOM_SHORTEST_PATH};
    /// ns-3 run of the scenario, or of a study's first seed (seed k uses run firstRun + k; how
    /// many seeds and on how many threads is the study's own plan, not the scenario's)
    uint64_t firstRun{1};
    /// if set, the inference-heavy roles are read from this CSV file (node,role) instead of laid
    /// out from inferenceRoles
    std::string inferenceRolesFile;
    /// if set, the training-heavy roles are read from this file instead of derived by transition
    std::string trainingRolesFile;
    /// if set, the inference-heavy P-D assignment is read from this CSV file
    /// (prefill,decode,weight) instead of drawn
    std::string inferenceAssignmentFile;
    /// if set, the training-heavy P-D assignment is read from this file instead of drawn
    std::string trainingAssignmentFile;
    /// if set, the inference-heavy flows are read from this CSV file (src,dst,class,demand)
    /// instead of drawn (flows and kvShareInference do not apply to that mode)
    std::string inferenceFlowsFile;
    /// if set, the training-heavy flows are read from this file instead of drawn
    std::string trainingFlowsFile;

    /// Throws a mose::Error naming the first invalid parameter.
    void Validate() const;
};

/**
 * \ingroup mose-flow
 * \brief The scenario defaults every mose program shares, at N groups and degree d: the
 *        paper's role shares scaled to N (RoleCounts::PaperScaled(): floor(N * 410 / 1024) P
 *        and as many D groups inference-heavy, floor(N * 102 / 1024) training-heavy, the rest
 *        T; 410/410/204 and 102/102/820 at N = 1024) and H^PD with r = d - 1
 *        (DefaultPdReservedPorts()); every other field as FlowExperimentConfig's.
 * \param nodes N
 * \param degree d
 * \return the configuration (not validated)
 */
FlowExperimentConfig PaperScaledConfig(uint32_t nodes, uint32_t degree = 4);

/**
 * \ingroup mose-flow
 * \param degree d
 * \return the default r of H^PD at degree d: d - 1, the paper's H^PD (0 for d = 0, which no
 *         validation accepts)
 */
uint32_t DefaultPdReservedPorts(uint32_t degree);

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLOW_EXPERIMENT_CONFIG_H */
