/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_EXPERIMENT_HELPER_H
#define MOSE_FLOW_EXPERIMENT_HELPER_H

#include "ns3/command-line.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

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

/**
 * \ingroup mose
 * \brief The quantities Table I and Figure 5 report, one per (mode, policy) and seed.
 */
enum class MoseMetric : uint8_t
{
    MAX_LOAD,      //!< MaxLoad, all traffic
    P95_LOAD,      //!< P95 link load, all traffic
    AVG_HOP,       //!< average hop count, all flows
    DIRECT_KV,     //!< share of KV flows with 1 hop
    KV_THREE_PLUS, //!< share of KV flows with >= 3 hops
    KV_MAX_LOAD,   //!< MaxLoad of KV-only loads
    TR_MAX_LOAD,   //!< MaxLoad of training-only loads
    KV_AVG_COST,   //!< average load-aware cost of KV flows
    KV_P95_COST,   //!< P95 load-aware cost of KV flows
    TR_AVG_COST,   //!< average load-aware cost of training flows
    TR_P95_COST,   //!< P95 load-aware cost of training flows
};

/// All metrics in table order
constexpr std::array<MoseMetric, 11> ALL_METRICS = {MoseMetric::MAX_LOAD,
                                                    MoseMetric::P95_LOAD,
                                                    MoseMetric::AVG_HOP,
                                                    MoseMetric::DIRECT_KV,
                                                    MoseMetric::KV_THREE_PLUS,
                                                    MoseMetric::KV_MAX_LOAD,
                                                    MoseMetric::TR_MAX_LOAD,
                                                    MoseMetric::KV_AVG_COST,
                                                    MoseMetric::KV_P95_COST,
                                                    MoseMetric::TR_AVG_COST,
                                                    MoseMetric::TR_P95_COST};

/// \ingroup mose
/// Names of MoseMetric: the column names, e.g. "max_load", "kv_3plus"
template <>
struct EnumTable<MoseMetric>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<MoseMetric>>& Get();
};

/// \param m the metrics of one evaluation \param metric which one \return its value
double GetMetric(const FlowMetrics& m, MoseMetric metric);

/**
 * \ingroup mose
 * \brief Mean and 95% confidence half-width over seeds.
 */
struct MoseSummary
{
    double mean{0}; //!< mean over seeds
    double ci95{0}; //!< half-width of the 95% confidence interval (normal approximation,
                    //!< 1.96 s / sqrt(n), as ns-3's Average::Error95)
    uint32_t n{0};  //!< number of seeds
};

/**
 * \ingroup mose
 * \brief Everything one seed of the study draws: roles, P-D assignments, the three templates
 *        and the flows of both modes.
 *
 * Within a seed every policy sees the same roles and flows, and policies that use the same
 * template in a mode see the same circuit graph, so the comparison isolates edge placement.
 */
struct MoseScenario
{
    uint64_t run{0};                        //!< the ns-3 run that drew it
    std::array<RoleAssignment, 2> roles;    //!< per mode (ALL_MODES order)
    std::array<PdAssignment, 2> assignment; //!< per mode
    std::array<std::vector<Flow>, 2> flows; //!< per mode
    std::array<CircuitGraph, 3> templates;  //!< per TemplateId (ALL_TEMPLATES order)
};

/**
 * \ingroup mose
 * \brief Runs the paper's flow-level study: policies x modes x seeds, and reports it.
 *
 * For each seed it draws a MoseScenario, evaluates each (mode, template) pair once and files the
 * result under every policy that uses that template in that mode. It keeps every seed's scalar
 * metrics and the first seed's per-circuit loads and hop histograms, and writes CSV files, the
 * gnuplot scripts of Figure 5 (ns-3's Gnuplot classes) and the tables.
 */
class MoseFlowExperimentHelper
{
  public:
    /**
     * \param config the study's parameters; validated here, and the role and assignment files
     *        it names are read and checked here (MoseError)
     */
    explicit MoseFlowExperimentHelper(const MoseFlowExperimentConfig& config);

    /// \return the configuration
    const MoseFlowExperimentConfig& GetConfig() const;

    /**
     * \brief Draws one seed's roles, assignments, templates and flows.
     * \param run the ns-3 run number
     * \return the scenario
     */
    MoseScenario BuildScenario(uint64_t run) const;

    /**
     * \brief Evaluates every seed, on config.threads worker threads.
     * \param progress called after each seed with (seeds done, seeds in all), may be empty;
     *        calls are serialised but may come from any worker thread
     */
    void Run(const std::function<void(uint32_t, uint32_t)>& progress = {});

    /**
     * \param seed seed index, 0 <= seed < seeds
     * \param mode the workload mode
     * \param policy the policy
     * \return the metrics of that evaluation (per-circuit vectors kept for seed 0 only)
     */
    const FlowMetrics& GetMetrics(uint32_t seed, WorkloadMode mode, Policy policy) const;

    /**
     * \param mode the workload mode
     * \param policy the policy
     * \param metric the metric
     * \return its mean and 95% confidence half-width over seeds
     */
    MoseSummary Summarize(WorkloadMode mode, Policy policy, MoseMetric metric) const;

    /**
     * \brief Relative reduction 1 - mean(policy) / mean(baseline) of a metric, in percent.
     * \param mode the workload mode
     * \param policy the policy
     * \param baseline the baseline policy
     * \param metric the metric
     * \return the reduction in percent
     */
    double Reduction(WorkloadMode mode, Policy policy, Policy baseline, MoseMetric metric) const;

    /**
     * \brief Prints Table I (means with 95% CI), the cost table (Table II) and the headline
     *        figures next to the paper's.
     * \param os the stream
     */
    void PrintTables(std::ostream& os) const;

    /**
     * \brief Writes summary.csv (mode, policy, metric, mean, ci95, n), per_seed.csv,
     *        headline.csv (ours vs paper), loads_<mode>_<policy>.csv (seed 0, per circuit) and
     *        hops_<mode>.csv (hop histograms per policy, seed 0) into a folder (created if
     *        missing).
     * \param dir the folder
     */
    void WriteCsv(const std::string& dir) const;

    /**
     * \brief Writes Figure 5's panels as gnuplot scripts with inline data (fig5_*.plt, PNG
     *        terminal) and the hop-count distributions (hops_<mode>.plt) into a folder.
     * \param dir the folder
     * \return the .plt files written
     */
    std::vector<std::string> WritePlots(const std::string& dir) const;

    /**
     * \brief Runs gnuplot on scripts written by WritePlots(), inside their folder.
     * \param dir the folder
     * \param scripts the .plt files
     * \return the number rendered; 0 if gnuplot is not installed (a message says so)
     */
    static uint32_t RenderPlots(const std::string& dir, const std::vector<std::string>& scripts);

  private:
    /**
     * \brief Evaluates one seed's scenario and files the results under every policy.
     * \param seed the seed index
     * \param s its scenario
     * \param routingSeed the seed of the random tie-break's hash
     */
    void EvaluateScenario(uint32_t seed, const MoseScenario& s, uint64_t routingSeed);

    /// \return index into m_results
    std::size_t Index(uint32_t seed, WorkloadMode mode, Policy policy) const;

    MoseFlowExperimentConfig m_config;                               //!< parameters
    std::array<std::optional<RoleAssignment>, 2> m_rolesFromFile;    //!< roles read from files
    std::array<std::optional<PdAssignment>, 2> m_assignmentFromFile; //!< assignments from files
    std::vector<FlowMetrics> m_results;                              //!< per (seed, mode, policy)
    uint32_t m_seedsDone{0};                                         //!< seeds evaluated
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLOW_EXPERIMENT_HELPER_H */
