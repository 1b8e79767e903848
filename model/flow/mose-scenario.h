/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SCENARIO_H
#define MOSE_SCENARIO_H

#include "mose-circuit-graph.h"
#include "mose-flow-experiment-config.h"
#include "mose-pd-assignment.h"
#include "mose-policy.h"
#include "mose-roles.h"
#include "mose-traffic.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief Everything one seed of the study draws: roles, P-D assignments, the three templates
 *        and the flows of both modes.
 *
 * Within a seed every policy sees the same roles and flows, and policies that use the same
 * template in a mode see the same circuit graph, so the comparison isolates edge placement.
 *
 * With rewiring-aware construction, MoSE's graphs are the steady state of its mode cycle
 * rather than the fresh templates: from the fresh H^PD, the uniform template U1 is built
 * keeping its circuits (BuildUniformTemplate() with a current graph, releasing the P-D circuits
 * of the inference-heavy roles), then H^PD keeping U1's (PD1), then H^U keeping PD1's (U2).
 * MoSE uses PD1 in inference-heavy mode (switched from U1) and U2 in training-heavy mode
 * (switched from PD1), so every graph it is evaluated on was built from the graph it replaces.
 * The static policies never switch and keep the fresh templates.
 */
struct Scenario
{
    uint64_t run{0};                        //!< the ns-3 run that drew it
    std::array<RoleAssignment, 2> roles;    //!< per mode (ALL_MODES order)
    std::array<PdAssignment, 2> assignment; //!< per mode
    std::array<std::vector<Flow>, 2> flows; //!< per mode
    std::array<CircuitGraph, ALL_TEMPLATES.size()>
        templates;           //!< per TemplateId (ALL_TEMPLATES order)
    uint64_t routingSeed{0}; //!< the seed of RANDOM_SHORTEST_PATH's hash for every evaluation
    /// how MoSE's graphs were built
    TemplateConstruction construction{TemplateConstruction::FRESH};
    /// rewiring-aware only: MoSE's graph per mode (ALL_MODES order), PD1 and U2
    std::array<CircuitGraph, 2> rewired;
    /// rewiring-aware only: the graph MoSE switched from into each mode, U1 and PD1
    std::array<CircuitGraph, 2> rewiredFrom;

    /**
     * \brief The circuit graph a policy's fabric uses in a mode.
     * \param policy the policy
     * \param mode the workload mode
     * \return the graph (a reference into this scenario)
     */
    const CircuitGraph& GetGraph(Policy policy, WorkloadMode mode) const;

    /**
     * \brief The circuit graph the fabric had just before it entered a mode: the other mode's
     *        graph, so that DiffCircuits(GetPreviousGraph(), GetGraph()) is the switch into the
     *        mode (empty for a static policy).
     * \param policy the policy
     * \param mode the workload mode entered
     * \return the graph (a reference into this scenario)
     */
    const CircuitGraph& GetPreviousGraph(Policy policy, WorkloadMode mode) const;
};

/**
 * \ingroup mose-flow
 * \brief What one workload mode of one run draws: the roles, the P-D assignment and the flows.
 */
struct ModeScenario
{
    uint64_t run{0};                                  //!< the ns-3 run that drew it
    WorkloadMode mode{WorkloadMode::INFERENCE_HEAVY}; //!< the mode
    RoleAssignment roles;                             //!< the mode's roles
    PdAssignment assignment;                          //!< the mode's P-D assignment
    std::vector<Flow> flows;                          //!< the mode's flows
};

/**
 * \ingroup mose-flow
 * \brief Draws the scenarios of the study from a FlowExperimentConfig: usable alone, e.g.
 *        by the packet level, which needs for a run and a mode the roles, the P-D assignment,
 *        the flows and the circuit graph of a policy's template.
 *
 * Every part comes from its own ns-3 RNG stream of the run (Stream), so the parts built
 * one at a time (BuildMode(), BuildTemplate(), BuildCircuitGraph()) are exactly those of
 * Build(). Inference-heavy roles are laid out contiguously from the counts (or read from a
 * file); training-heavy roles follow by the configured transition (or come from a file); a
 * mode's P-D assignment and flows are drawn, or read from files. The P-D-biased templates
 * are built for the inference-heavy roles and assignment, and the static policies keep them
 * (stale) in training-heavy mode. Uses ns-3 random variables; their streams are created
 * under a lock (creation sets ns-3's global run for a moment), so one builder may build runs on
 * several threads at once, as long as no other code creates ns-3 random variables meanwhile.
 */
class ScenarioBuilder
{
  public:
    /**
     * \param config the parameters; validated here, and the role, assignment and flows files
     *        it names are read and checked here (Error); every run then uses their contents
     */
    explicit ScenarioBuilder(const FlowExperimentConfig& config);

    /// \return the configuration
    const FlowExperimentConfig& GetConfig() const;

    /**
     * \brief Draws one run's roles, assignments, templates and flows.
     * \param run the ns-3 run number
     * \return the scenario
     */
    Scenario Build(uint64_t run) const;

    /**
     * \brief Draws one mode of one run: its roles, P-D assignment and flows.
     * \param run the ns-3 run number
     * \param mode the workload mode
     * \return the same roles, assignment and flows as Build(run) has for the mode
     */
    ModeScenario BuildMode(uint64_t run, WorkloadMode mode) const;

    /**
     * \brief Builds one template of one run.
     * \param run the ns-3 run number
     * \param id the template
     * \return the same graph as Build(run).templates[id]
     */
    CircuitGraph BuildTemplate(uint64_t run, TemplateId id) const;

    /**
     * \brief The circuit graph a policy uses in a mode: Build(run).GetGraph(policy, mode),
     *        building only what it needs.
     * \param run the ns-3 run number
     * \param mode the workload mode
     * \param policy the policy
     * \return the graph
     */
    CircuitGraph BuildCircuitGraph(uint64_t run, WorkloadMode mode, Policy policy) const;

    /**
     * \brief The seed of RANDOM_SHORTEST_PATH's hash for a run (the ShortestPathRouting seed of
     *        every evaluation of the run, so that all levels route alike).
     * \param run the ns-3 run number
     * \return the same seed as Build(run).routingSeed
     */
    uint64_t BuildRoutingSeed(uint64_t run) const;

    /**
     * \brief MoSE's rewiring-aware cycle from a fresh H^PD (see Scenario).
     * \param run the ns-3 run number
     * \param roles the inference-heavy roles
     * \param assignment the inference-heavy P-D assignment
     * \param pdFresh the fresh H^PD of the run
     * \param graphs set to MoSE's graph per mode (PD1, U2)
     * \param from set to the graph switched from into each mode (U1, PD1)
     */
    void BuildRewired(uint64_t run,
                      const RoleAssignment& roles,
                      const PdAssignment& assignment,
                      const CircuitGraph& pdFresh,
                      std::array<CircuitGraph, 2>& graphs,
                      std::array<CircuitGraph, 2>& from) const;

  private:
    /**
     * \param run the run
     * \return the inference-heavy (index 0) and training-heavy (1) roles of the run
     */
    std::array<RoleAssignment, 2> BuildRoles(uint64_t run) const;

    /**
     * \param run the run
     * \param mode the mode
     * \param roles the mode's roles
     * \return the mode's P-D assignment
     */
    PdAssignment BuildAssignment(uint64_t run,
                                 WorkloadMode mode,
                                 const RoleAssignment& roles) const;

    /**
     * \param run the run
     * \param mode the mode
     * \param roles the mode's roles
     * \param assignment the mode's assignment
     * \return the mode's flows
     */
    std::vector<Flow> BuildFlows(uint64_t run,
                                 WorkloadMode mode,
                                 const RoleAssignment& roles,
                                 const PdAssignment& assignment) const;

    /**
     * \param run the run
     * \param id the template
     * \param roles the inference-heavy roles
     * \param assignment the inference-heavy assignment
     * \return the template
     */
    CircuitGraph BuildTemplate(uint64_t run,
                               TemplateId id,
                               const RoleAssignment& roles,
                               const PdAssignment& assignment) const;

    FlowExperimentConfig m_config;                                   //!< parameters
    std::array<std::optional<RoleAssignment>, 2> m_rolesFromFile;    //!< roles read from files
    std::array<std::optional<PdAssignment>, 2> m_assignmentFromFile; //!< assignments from files
    std::array<std::optional<std::vector<Flow>>, 2> m_flowsFromFile; //!< flows from files
};

/**
 * \ingroup mose-flow
 * \brief Writes a scenario's inputs into a folder (created if missing), in the formats the
 *        file options read back: the three templates as edge-list CSV (uniform.csv,
 *        pd-biased.csv, compromise.csv, for --graph) and Graphviz DOT (.dot, roles coloured),
 *        and per mode (tags "inference", "training") roles_TAG.csv, assignment_TAG.csv and
 *        flows_TAG.csv (--inferenceRolesFile, --inferenceAssignmentFile, --inferenceFlowsFile,
 *        ...). mose-templates --outputDir and mose-mode-switch --writeScenario write these.
 * \param s the scenario
 * \param dir the folder
 */
void WriteScenarioFiles(const Scenario& s, const std::string& dir);

/**
 * \ingroup mose-flow
 * \brief Writes one mode's inputs into a folder (created if missing): roles_TAG.csv,
 *        assignment_TAG.csv and flows_TAG.csv, TAG "inference" or "training", the same files
 *        as WriteScenarioFiles() writes for that mode (mose-packet --writeScenario).
 * \param s the mode's scenario
 * \param dir the folder
 */
void WriteModeScenarioFiles(const ModeScenario& s, const std::string& dir);

/**
 * \ingroup mose-flow
 * \return the files WriteScenarioFiles() writes into its folder, by name ("uniform.csv", ...,
 *         "flows_training.csv"), so that a program declares them before it runs
 */
std::vector<std::string> GetScenarioFileNames();

/**
 * \ingroup mose-flow
 * \param mode a workload mode
 * \return the files WriteModeScenarioFiles() writes for the mode: roles_TAG.csv,
 *         assignment_TAG.csv and flows_TAG.csv
 */
std::vector<std::string> GetModeScenarioFileNames(WorkloadMode mode);

/**
 * \ingroup mose-flow
 * \param mode a workload mode
 * \return the tag of its files: "inference" or "training"
 */
std::string GetModeFileTag(WorkloadMode mode);

} // namespace mose
} // namespace ns3

#endif /* MOSE_SCENARIO_H */
