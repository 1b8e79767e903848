/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_EXPERIMENT_CONFIG_H
#define MOSE_FLOW_EXPERIMENT_CONFIG_H

#include "ns3/command-line.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose
 * \brief Every parameter of the flow-level study; the defaults are the paper's.
 */
struct MoseFlowExperimentConfig
{
    uint32_t nodes{1024};                                           //!< N
    uint32_t degree{4};                                             //!< d
    RoleCounts inferenceRoles{RoleCounts::InferenceHeavyDefault()}; //!< roles, inference-heavy
    RoleCounts trainingRoles{RoleCounts::TrainingHeavyDefault()};   //!< roles, training-heavy
    RoleTransition transition{RoleTransition::SWAP};                //!< which groups change role
    uint32_t pdReservedPorts{3};         //!< r of H^PD (the paper: d - 1)
    uint32_t compromiseReservedPorts{1}; //!< r of H^C
    BipartiteCompletion completion{BipartiteCompletion::CIRCULANT}; //!< bipartite completion
    /// how MoSE builds a mode's template at a switch: fresh (the paper) or rewiring-aware
    /// (keeping the circuits the template allows; see MoseScenario)
    TemplateConstruction construction{TemplateConstruction::FRESH};
    bool allowBiregular{false};                                //!< biregular split when |P| != |D|
    PdAssignmentKind assignment{PdAssignmentKind::ONE_TO_ONE}; //!< how KV pairs are drawn
    uint32_t assignmentCap{0};     //!< MANY_TO_ONE: prefills per decode (0 = pdReservedPorts)
    uint64_t flows{100000};        //!< flows per mode F
    double kvShareInference{0.70}; //!< rho, inference-heavy
    double kvShareTraining{0.30};  //!< rho, training-heavy
    /// routing rule: one uniformly random shortest path per pair by default (the lowest-id
    /// tie-break biases every node towards the same neighbours; see doc/mose.rst)
    RoutingRule routing{RoutingRule::RANDOM_SHORTEST_PATH};
    uint64_t firstRun{1}; //!< ns-3 run of the first seed; seed k uses run firstRun + k
    uint32_t seeds{20};   //!< number of seeds
    uint32_t threads{0};  //!< worker threads for Run() (0: one per core); no effect on results
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

    /// Throws a MoseError naming the first invalid parameter.
    void Validate() const;
};

/**
 * \ingroup mose
 * \brief Registers every MoseFlowExperimentConfig parameter as a CommandLine option.
 *
 * Numbers are taken as text and parsed strictly (see mose-parse.h), so that "--nodes=10x" or
 * "--degree=-1" fail with a message naming the option instead of being read as 10 or 2^32-1.
 * The first seed's run is ns-3's own --RngRun.
 */
class MoseFlowExperimentCommandLine
{
  public:
    /**
     * \param defaults the values shown in --help and used for options not given
     */
    explicit MoseFlowExperimentCommandLine(
        const MoseFlowExperimentConfig& defaults = MoseFlowExperimentConfig());

    /**
     * \brief Adds the options to a CommandLine; call before cmd.Parse().
     * \param cmd the command line
     * \param studyOptions whether to add --routing, --seeds and --threads, which only a program
     *        that evaluates seeds uses (mose-templates builds one seed and routes nothing, so it
     *        does not offer them)
     */
    void AddOptions(CommandLine& cmd, bool studyOptions = true);

    /**
     * \brief Parses the options given; call after cmd.Parse().
     * \return the configuration, validated; throws a MoseError naming the first bad option
     */
    MoseFlowExperimentConfig GetConfig() const;

  private:
    MoseFlowExperimentConfig m_defaults;   //!< defaults
    std::string m_nodes;                   //!< --nodes
    std::string m_degree;                  //!< --degree
    std::string m_prefill;                 //!< --prefill
    std::string m_decode;                  //!< --decode
    std::string m_training;                //!< --training
    std::string m_trPrefill;               //!< --trPrefill
    std::string m_trDecode;                //!< --trDecode
    std::string m_trTraining;              //!< --trTraining
    std::string m_transition;              //!< --roleTransition
    std::string m_pdReservedPorts;         //!< --pdReservedPorts
    std::string m_compromiseReservedPorts; //!< --compromiseReservedPorts
    std::string m_completion;              //!< --completion
    std::string m_construction;            //!< --construction
    bool m_allowBiregular;                 //!< --biregular
    std::string m_assignment;              //!< --assignment
    std::string m_assignmentCap;           //!< --assignmentCap
    std::string m_flows;                   //!< --flows
    std::string m_kvShareInference;        //!< --kvShareInference
    std::string m_kvShareTraining;         //!< --kvShareTraining
    std::string m_routing;                 //!< --routing
    std::string m_seeds;                   //!< --seeds
    std::string m_threads;                 //!< --threads
    std::string m_inferenceRolesFile;      //!< --inferenceRolesFile
    std::string m_trainingRolesFile;       //!< --trainingRolesFile
    std::string m_inferenceAssignmentFile; //!< --inferenceAssignmentFile
    std::string m_trainingAssignmentFile;  //!< --trainingAssignmentFile
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLOW_EXPERIMENT_CONFIG_H */
