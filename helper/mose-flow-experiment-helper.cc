/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-experiment-helper.h"

#include "ns3/average.h"
#include "ns3/gnuplot.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"
#include "ns3/rng-seed-manager.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFlowExperimentHelper");

namespace
{

/// A figure the paper reports, with the tolerance the reproduction targets.
struct PaperFigure
{
    WorkloadMode mode; //!< mode
    Policy policy;     //!< policy
    MoseMetric metric; //!< metric
    double value;      //!< the paper's value
    double tolerance;  //!< allowed relative deviation (0.15 = 15%), or absolute for shares
    bool relative;     //!< whether tolerance is relative
};

/// A reduction the paper reports (percent), with the target of +-3 percentage points.
struct PaperReduction
{
    WorkloadMode mode; //!< mode
    Policy policy;     //!< the policy that reduces
    Policy baseline;   //!< the baseline
    MoseMetric metric; //!< metric
    double percent;    //!< the paper's reduction
};

using W = WorkloadMode;
using P = Policy;
using M = MoseMetric;

/// Table I and the text of section IV (shares: absolute tolerance 0.05)
const std::vector<PaperFigure> PAPER_FIGURES = {
    {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::MAX_LOAD, 1041.95, 0.15, true},
    {W::INFERENCE_HEAVY, P::MOSE, M::MAX_LOAD, 529.35, 0.15, true},
    {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::P95_LOAD, 596.04, 0.10, true},
    {W::INFERENCE_HEAVY, P::MOSE, M::P95_LOAD, 287.80, 0.10, true},
    {W::TRAINING_HEAVY, P::STATIC_TRAINING, M::MAX_LOAD, 1157.75, 0.15, true},
    {W::TRAINING_HEAVY, P::STATIC_INFERENCE, M::MAX_LOAD, 1885.60, 0.15, true},
    {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::DIRECT_KV, 0.004, 0.05, false},
    {W::INFERENCE_HEAVY, P::MOSE, M::DIRECT_KV, 1.000, 0.05, false},
    {W::INFERENCE_HEAVY, P::STATIC_COMPROMISE, M::DIRECT_KV, 0.626, 0.05, false},
    {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::KV_THREE_PLUS, 0.983, 0.05, false},
    {W::INFERENCE_HEAVY, P::MOSE, M::KV_THREE_PLUS, 0.000, 0.05, false},
};

/// The abstract's headline reductions
const std::vector<PaperReduction> PAPER_REDUCTIONS = {
    {W::INFERENCE_HEAVY, P::MOSE, P::STATIC_TRAINING, M::KV_AVG_COST, 90.8},
    {W::INFERENCE_HEAVY, P::MOSE, P::STATIC_TRAINING, M::KV_P95_COST, 91.9},
    {W::TRAINING_HEAVY, P::MOSE, P::STATIC_INFERENCE, M::TR_AVG_COST, 22.7},
    {W::TRAINING_HEAVY, P::MOSE, P::STATIC_INFERENCE, M::TR_P95_COST, 27.6},
};

/// Reduction target: within this many percentage points of the paper
constexpr double REDUCTION_TOLERANCE_PP = 3.0;

/// Writes an output file with 10 significant digits; WriteTextFile() reports any failure.
void
WriteOutput(const std::string& path, const std::function<void(std::ostream&)>& put)
{
    WriteTextFile(path, [&put](std::ostream& out) {
        out << std::setprecision(10);
        put(out);
    });
}

/// File-name friendly mode name
std::string
ModeTag(WorkloadMode mode)
{
    return mode == WorkloadMode::INFERENCE_HEAVY ? "inference" : "training";
}

} // namespace

const std::vector<EnumEntry<MoseMetric>>&
EnumTable<MoseMetric>::Get()
{
    static const std::vector<EnumEntry<MoseMetric>> names = {
        {M::MAX_LOAD, "max_load", {}},
        {M::P95_LOAD, "p95_load", {}},
        {M::AVG_HOP, "avg_hop", {}},
        {M::DIRECT_KV, "direct_kv", {}},
        {M::KV_THREE_PLUS, "kv_3plus", {}},
        {M::KV_MAX_LOAD, "kv_max_load", {}},
        {M::TR_MAX_LOAD, "tr_max_load", {}},
        {M::KV_AVG_COST, "kv_avg_cost", {}},
        {M::KV_P95_COST, "kv_p95_cost", {}},
        {M::TR_AVG_COST, "tr_avg_cost", {}},
        {M::TR_P95_COST, "tr_p95_cost", {}},
    };
    return names;
}

double
GetMetric(const FlowMetrics& m, MoseMetric metric)
{
    switch (metric)
    {
    case M::MAX_LOAD:
        return m.all.maxLoad;
    case M::P95_LOAD:
        return m.all.p95Load;
    case M::AVG_HOP:
        return m.all.avgHop;
    case M::DIRECT_KV:
        return m.directKv;
    case M::KV_THREE_PLUS:
        return m.kvThreePlus;
    case M::KV_MAX_LOAD:
        return m.kv.maxLoad;
    case M::TR_MAX_LOAD:
        return m.training.maxLoad;
    case M::KV_AVG_COST:
        return m.kv.avgCost;
    case M::KV_P95_COST:
        return m.kv.p95Cost;
    case M::TR_AVG_COST:
        return m.training.avgCost;
    case M::TR_P95_COST:
        return m.training.p95Cost;
    }
    return 0;
}

void
MoseFlowExperimentConfig::Validate() const
{
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

MoseFlowExperimentHelper::MoseFlowExperimentHelper(const MoseFlowExperimentConfig& config)
    : m_config(config)
{
    m_config.Validate();
    // Files are read once; every seed then uses the same roles or assignment.
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
                throw MoseError(rolesFiles[m] + ": the roles cover " +
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
}

const MoseFlowExperimentConfig&
MoseFlowExperimentHelper::GetConfig() const
{
    return m_config;
}

MoseScenario
MoseFlowExperimentHelper::BuildScenario(uint64_t run) const
{
    const MoseFlowExperimentConfig& c = m_config;
    MoseScenario s;
    s.run = run;

    s.roles[0] =
        m_rolesFromFile[0] ? *m_rolesFromFile[0] : RoleAssignment::Contiguous(c.inferenceRoles);
    if (m_rolesFromFile[1])
    {
        s.roles[1] = *m_rolesFromFile[1];
    }
    else
    {
        MoseRandom roleRng = MoseRandom::Create(run, MoseStream::ROLES);
        s.roles[1] = s.roles[0].Transition(c.trainingRoles, c.transition, roleRng);
    }

    uint32_t cap =
        c.assignmentCap == 0 ? std::max<uint32_t>(c.pdReservedPorts, 1) : c.assignmentCap;
    const std::array<int64_t, 2> assignmentStreams = {MoseStream::ASSIGNMENT,
                                                      MoseStream::ASSIGNMENT_TRAINING};
    const std::array<int64_t, 2> trafficStreams = {MoseStream::TRAFFIC,
                                                   MoseStream::TRAFFIC_TRAINING};
    const std::array<double, 2> kvShare = {c.kvShareInference, c.kvShareTraining};
    for (std::size_t m = 0; m < 2; ++m)
    {
        if (m_assignmentFromFile[m])
        {
            try
            {
                m_assignmentFromFile[m]->Validate(s.roles[m]);
            }
            catch (const MoseError& e)
            {
                // the training-heavy roles may be drawn per run: name the file and the run
                const std::string& file =
                    m == 0 ? c.inferenceAssignmentFile : c.trainingAssignmentFile;
                throw MoseError(file + ": the assignment does not fit the " +
                                ToString(ALL_MODES[m]) + " roles of run " + std::to_string(run) +
                                ": " + e.what());
            }
            s.assignment[m] = *m_assignmentFromFile[m];
        }
        else
        {
            MoseRandom assignmentRng = MoseRandom::Create(run, assignmentStreams[m]);
            s.assignment[m] = PdAssignment::Draw(s.roles[m], c.assignment, cap, assignmentRng);
        }
        MoseRandom trafficRng = MoseRandom::Create(run, trafficStreams[m]);
        TrafficOptions traffic;
        traffic.flows = c.flows;
        traffic.kvShare = kvShare[m];
        traffic.kvShareName = m == 0 ? "--kvShareInference" : "--kvShareTraining";
        s.flows[m] = GenerateTraffic(s.roles[m], s.assignment[m], traffic, trafficRng);
    }

    // The P-D-biased templates are built for the inference-heavy roles and assignment; the
    // static policies keep them (stale) in training-heavy mode.
    MoseRandom uniformRng = MoseRandom::Create(run, MoseStream::UNIFORM);
    s.templates[0] = BuildUniformTemplate(c.nodes, c.degree, uniformRng);
    PdBiasedOptions pd;
    pd.completion = c.completion;
    pd.allowBiregular = c.allowBiregular;
    pd.allowBiregularName = "--biregular";
    pd.reservedPorts = c.pdReservedPorts;
    pd.reservedPortsName = "--pdReservedPorts";
    MoseRandom pdRng = MoseRandom::Create(run, MoseStream::PD_BIASED);
    s.templates[1] = BuildPdBiasedTemplate(s.roles[0], c.degree, s.assignment[0], pd, pdRng);
    pd.reservedPorts = c.compromiseReservedPorts;
    pd.reservedPortsName = "--compromiseReservedPorts";
    MoseRandom compromiseRng = MoseRandom::Create(run, MoseStream::COMPROMISE);
    s.templates[2] =
        BuildPdBiasedTemplate(s.roles[0], c.degree, s.assignment[0], pd, compromiseRng);
    return s;
}

std::size_t
MoseFlowExperimentHelper::Index(uint32_t seed, WorkloadMode mode, Policy policy) const
{
    return (static_cast<std::size_t>(seed) * ALL_MODES.size() + static_cast<std::size_t>(mode)) *
               ALL_POLICIES.size() +
           static_cast<std::size_t>(policy);
}

void
MoseFlowExperimentHelper::EvaluateScenario(uint32_t seed,
                                           const MoseScenario& s,
                                           uint64_t routingSeed)
{
    for (WorkloadMode mode : ALL_MODES)
    {
        auto m = static_cast<std::size_t>(mode);
        for (TemplateId tpl : ALL_TEMPLATES)
        {
            bool used = false;
            for (Policy p : ALL_POLICIES)
            {
                used = used || SelectTemplate(p, mode) == tpl;
            }
            if (!used)
            {
                continue;
            }
            ShortestPathRouting routing(s.templates[static_cast<std::size_t>(tpl)],
                                        m_config.routing,
                                        routingSeed);
            FlowMetrics metrics = EvaluateFlows(routing, s.flows[m]);
            if (seed > 0)
            {
                // keep per-circuit data for seed 0 only: memory stays O(seeds) scalars
                metrics.load = std::vector<double>();
                metrics.loadKv = std::vector<double>();
                metrics.loadTraining = std::vector<double>();
            }
            for (Policy p : ALL_POLICIES)
            {
                if (SelectTemplate(p, mode) == tpl)
                {
                    m_results[Index(seed, mode, p)] = metrics;
                }
            }
        }
    }
}

void
MoseFlowExperimentHelper::Run(const std::function<void(uint32_t, uint32_t)>& progress)
{
    const MoseFlowExperimentConfig& c = m_config;
    m_results.assign(static_cast<std::size_t>(c.seeds) * ALL_MODES.size() * ALL_POLICIES.size(),
                     FlowMetrics());
    m_seedsDone = 0;

    // Seeds are independent: workers take the next seed, draw its scenario under a lock (ns-3's
    // random variables and RngSeedManager are not thread-safe) and evaluate it outside (the
    // evaluation touches no ns-3 object). Each seed's results go to their own slots, so the
    // results do not depend on the number of threads or on scheduling.
    uint32_t threads = c.threads != 0 ? c.threads : std::thread::hardware_concurrency();
    threads = std::max<uint32_t>(1, std::min(threads, c.seeds));
    std::atomic<uint32_t> next{0};
    std::mutex ns3Mutex;
    std::mutex progressMutex;
    std::exception_ptr failure;
    uint32_t done = 0;
    auto worker = [&]() {
        for (uint32_t seed = next++; seed < c.seeds; seed = next++)
        {
            try
            {
                MoseScenario s;
                uint64_t routingSeed = 0;
                {
                    std::lock_guard<std::mutex> lock(ns3Mutex);
                    s = BuildScenario(c.firstRun + seed);
                    routingSeed = DeriveRoutingSeed(c.firstRun + seed);
                }
                EvaluateScenario(seed, s, routingSeed);
                std::lock_guard<std::mutex> lock(progressMutex);
                ++done;
                if (progress)
                {
                    progress(done, c.seeds);
                }
            }
            catch (...)
            {
                std::lock_guard<std::mutex> lock(progressMutex);
                if (!failure)
                {
                    failure = std::current_exception();
                }
                next = c.seeds; // stop the other workers after their current seed
                return;
            }
        }
    };
    std::vector<std::thread> pool;
    for (uint32_t i = 1; i < threads; ++i)
    {
        pool.emplace_back(worker);
    }
    worker();
    for (std::thread& t : pool)
    {
        t.join();
    }
    if (failure)
    {
        std::rethrow_exception(failure);
    }
    m_seedsDone = c.seeds;
    for (uint32_t seed = 0; seed < m_seedsDone; ++seed)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                NS_LOG_INFO("run " << c.firstRun + seed << " " << ToString(mode) << " "
                                   << ToString(p) << " maxLoad "
                                   << m_results[Index(seed, mode, p)].all.maxLoad);
            }
        }
    }
}

const FlowMetrics&
MoseFlowExperimentHelper::GetMetrics(uint32_t seed, WorkloadMode mode, Policy policy) const
{
    if (seed >= m_seedsDone)
    {
        throw MoseError("seed " + std::to_string(seed) + " has not been evaluated (" +
                        std::to_string(m_seedsDone) + " seeds done)");
    }
    return m_results[Index(seed, mode, policy)];
}

MoseSummary
MoseFlowExperimentHelper::Summarize(WorkloadMode mode, Policy policy, MoseMetric metric) const
{
    Average<double> avg;
    for (uint32_t seed = 0; seed < m_seedsDone; ++seed)
    {
        avg.Update(GetMetric(m_results[Index(seed, mode, policy)], metric));
    }
    MoseSummary s;
    s.n = m_seedsDone;
    s.mean = avg.Mean();
    s.ci95 = m_seedsDone > 1 ? avg.Error95() : 0.0;
    return s;
}

double
MoseFlowExperimentHelper::Reduction(WorkloadMode mode,
                                    Policy policy,
                                    Policy baseline,
                                    MoseMetric metric) const
{
    double base = Summarize(mode, baseline, metric).mean;
    double ours = Summarize(mode, policy, metric).mean;
    return base > 0 ? 100.0 * (1.0 - ours / base) : 0.0;
}

void
MoseFlowExperimentHelper::PrintTables(std::ostream& os) const
{
    const MoseFlowExperimentConfig& c = m_config;
    auto cell = [this](WorkloadMode mode, Policy p, MoseMetric metric, int precision) {
        MoseSummary s = Summarize(mode, p, metric);
        std::ostringstream out;
        out << std::fixed << std::setprecision(precision) << s.mean << " +-" << s.ci95;
        return out.str();
    };
    os << "MoSE flow-level study: N=" << c.nodes << " d=" << c.degree << " flows=" << c.flows
       << " seeds=" << m_seedsDone << " (runs " << c.firstRun << ".."
       << c.firstRun + m_seedsDone - 1 << "), routing=" << ToString(c.routing)
       << ", assignment=" << ToString(c.assignment) << ", completion=" << ToString(c.completion)
       << ", roles=" << ToString(c.transition) << "\n";
    os << "Means over seeds with 95% confidence half-widths (1.96 s/sqrt(n)).\n\n";

    os << "Table I: flow-level results\n";
    os << std::left << std::setw(17) << "mode" << std::setw(8) << "policy" << std::setw(20)
       << "MaxLoad" << std::setw(20) << "P95Load" << std::setw(16) << "AvgHop" << std::setw(16)
       << "DirectKV" << std::setw(16) << "KV3+hop"
       << "\n";
    for (WorkloadMode mode : ALL_MODES)
    {
        for (Policy p : ALL_POLICIES)
        {
            os << std::left << std::setw(17) << ToString(mode) << std::setw(8) << ToString(p)
               << std::setw(20) << cell(mode, p, M::MAX_LOAD, 2) << std::setw(20)
               << cell(mode, p, M::P95_LOAD, 2) << std::setw(16) << cell(mode, p, M::AVG_HOP, 3)
               << std::setw(16) << cell(mode, p, M::DIRECT_KV, 3) << std::setw(16)
               << cell(mode, p, M::KV_THREE_PLUS, 3) << "\n";
        }
    }

    os << "\nTable II: load-aware communication cost (sum of circuit loads along the path)\n";
    os << std::left << std::setw(17) << "mode" << std::setw(8) << "policy" << std::setw(22)
       << "KV avg" << std::setw(22) << "KV P95" << std::setw(22) << "train avg" << std::setw(22)
       << "train P95" << std::setw(18) << "KV MaxLoad"
       << "train MaxLoad\n";
    for (WorkloadMode mode : ALL_MODES)
    {
        for (Policy p : ALL_POLICIES)
        {
            os << std::left << std::setw(17) << ToString(mode) << std::setw(8) << ToString(p)
               << std::setw(22) << cell(mode, p, M::KV_AVG_COST, 1) << std::setw(22)
               << cell(mode, p, M::KV_P95_COST, 1) << std::setw(22)
               << cell(mode, p, M::TR_AVG_COST, 1) << std::setw(22)
               << cell(mode, p, M::TR_P95_COST, 1) << std::setw(18)
               << cell(mode, p, M::KV_MAX_LOAD, 1) << cell(mode, p, M::TR_MAX_LOAD, 1) << "\n";
        }
    }

    os << "\nHeadline figures next to the paper's\n";
    os << std::left << std::setw(17) << "mode" << std::setw(8) << "policy" << std::setw(22)
       << "metric" << std::setw(12) << "ours" << std::setw(12) << "paper" << std::setw(14)
       << "target"
       << "within\n";
    for (const PaperFigure& f : PAPER_FIGURES)
    {
        double ours = Summarize(f.mode, f.policy, f.metric).mean;
        bool within = f.relative ? std::abs(ours - f.value) <= f.tolerance * f.value
                                 : std::abs(ours - f.value) <= f.tolerance;
        std::ostringstream target;
        target << (f.relative ? "+-" + std::to_string(int(f.tolerance * 100)) + "%" : "+-0.05");
        os << std::left << std::setw(17) << ToString(f.mode) << std::setw(8) << ToString(f.policy)
           << std::setw(22) << ToString(f.metric) << std::setw(12) << std::fixed
           << std::setprecision(3) << ours << std::setw(12) << f.value << std::setw(14)
           << target.str() << (within ? "yes" : "no") << "\n";
    }
    for (const PaperReduction& r : PAPER_REDUCTIONS)
    {
        double ours = Reduction(r.mode, r.policy, r.baseline, r.metric);
        bool within = std::abs(ours - r.percent) <= REDUCTION_TOLERANCE_PP;
        std::string label = ToString(r.policy) + " vs " + ToString(r.baseline);
        os << std::left << std::setw(17) << ToString(r.mode) << std::setw(16) << label
           << std::setw(18) << (ToString(r.metric) + " cut %") << std::setw(12) << std::fixed
           << std::setprecision(1) << ours << std::setw(12) << r.percent << std::setw(14)
           << "+-3 pp" << (within ? "yes" : "no") << "\n";
    }
}

void
MoseFlowExperimentHelper::WriteCsv(const std::string& dir) const
{
    MakeOutputDirectory(dir);
    WriteOutput(dir + "/summary.csv", [&](std::ostream& out) {
        out << "mode,policy,metric,mean,ci95,n\n";
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                for (MoseMetric metric : ALL_METRICS)
                {
                    MoseSummary s = Summarize(mode, p, metric);
                    out << ToString(mode) << "," << ToString(p) << "," << ToString(metric) << ","
                        << s.mean << "," << s.ci95 << "," << s.n << "\n";
                }
            }
        }
    });
    WriteOutput(dir + "/per_seed.csv", [&](std::ostream& out) {
        out << "run,mode,policy";
        for (MoseMetric metric : ALL_METRICS)
        {
            out << "," << ToString(metric);
        }
        out << "\n";
        for (uint32_t seed = 0; seed < m_seedsDone; ++seed)
        {
            for (WorkloadMode mode : ALL_MODES)
            {
                for (Policy p : ALL_POLICIES)
                {
                    out << m_config.firstRun + seed << "," << ToString(mode) << "," << ToString(p);
                    for (MoseMetric metric : ALL_METRICS)
                    {
                        out << "," << GetMetric(m_results[Index(seed, mode, p)], metric);
                    }
                    out << "\n";
                }
            }
        }
    });
    WriteOutput(dir + "/headline.csv", [&](std::ostream& out) {
        out << "mode,policy,baseline,metric,ours,paper,kind\n";
        for (const PaperFigure& f : PAPER_FIGURES)
        {
            out << ToString(f.mode) << "," << ToString(f.policy) << ",," << ToString(f.metric)
                << "," << Summarize(f.mode, f.policy, f.metric).mean << "," << f.value
                << ",value\n";
        }
        for (const PaperReduction& r : PAPER_REDUCTIONS)
        {
            out << ToString(r.mode) << "," << ToString(r.policy) << "," << ToString(r.baseline)
                << "," << ToString(r.metric) << ","
                << Reduction(r.mode, r.policy, r.baseline, r.metric) << "," << r.percent
                << ",reduction_percent\n";
        }
    });
    if (m_seedsDone == 0)
    {
        return;
    }
    for (WorkloadMode mode : ALL_MODES)
    {
        for (Policy p : ALL_POLICIES)
        {
            const FlowMetrics& m = m_results[Index(0, mode, p)];
            WriteOutput(dir + "/loads_" + ModeTag(mode) + "_" + ToString(p) + ".csv",
                        [&m](std::ostream& out) {
                            out << "circuit,load,load_kv,load_training\n";
                            for (std::size_t e = 0; e < m.load.size(); ++e)
                            {
                                out << e << "," << m.load[e] << "," << m.loadKv[e] << ","
                                    << m.loadTraining[e] << "\n";
                            }
                        });
        }
        WriteOutput(dir + "/hops_" + ModeTag(mode) + ".csv", [&](std::ostream& out) {
            out << "policy,class,hops,flows\n";
            for (Policy p : ALL_POLICIES)
            {
                const FlowMetrics& m = m_results[Index(0, mode, p)];
                for (std::size_t h = 0; h < m.hopHistogramKv.size(); ++h)
                {
                    out << ToString(p) << ",kv," << h << "," << m.hopHistogramKv[h] << "\n";
                }
                for (std::size_t h = 0; h < m.hopHistogramTraining.size(); ++h)
                {
                    out << ToString(p) << ",training," << h << "," << m.hopHistogramTraining[h]
                        << "\n";
                }
            }
        });
    }
}

std::vector<std::string>
MoseFlowExperimentHelper::WritePlots(const std::string& dir) const
{
    MakeOutputDirectory(dir);
    std::vector<std::string> written;

    // One bar chart per panel: x = policy index, bars as wide impulses, 95% CI as error bars.
    struct Panel
    {
        std::string file;
        std::string title;
        WorkloadMode mode;
        MoseMetric metric;
    };

    const std::vector<Panel> panels = {
        {"fig5_kv_max_load", "KV MaxLoad, inference-heavy", W::INFERENCE_HEAVY, M::KV_MAX_LOAD},
        {"fig5_tr_max_load", "Training MaxLoad, training-heavy", W::TRAINING_HEAVY, M::TR_MAX_LOAD},
        {"fig5_kv_avg_cost",
         "Average KV cost, inference-heavy",
         W::INFERENCE_HEAVY,
         M::KV_AVG_COST},
        {"fig5_kv_p95_cost", "P95 KV cost, inference-heavy", W::INFERENCE_HEAVY, M::KV_P95_COST},
        {"fig5_tr_avg_cost",
         "Average training cost, training-heavy",
         W::TRAINING_HEAVY,
         M::TR_AVG_COST},
        {"fig5_tr_p95_cost",
         "P95 training cost, training-heavy",
         W::TRAINING_HEAVY,
         M::TR_P95_COST},
        {"fig5_direct_kv", "Direct-KV ratio, inference-heavy", W::INFERENCE_HEAVY, M::DIRECT_KV},
        {"fig5_kv_3plus", "3+-hop KV ratio, inference-heavy", W::INFERENCE_HEAVY, M::KV_THREE_PLUS},
    };
    std::string xtics = "set xtics (";
    for (std::size_t i = 0; i < ALL_POLICIES.size(); ++i)
    {
        xtics += (i ? ", \"" : "\"") + ToString(ALL_POLICIES[i]) + "\" " + std::to_string(i);
    }
    xtics += ")";
    for (const Panel& panel : panels)
    {
        Gnuplot plot(panel.file + ".png");
        plot.SetTerminal("pngcairo size 640,420 butt noenhanced");
        plot.SetTitle(panel.title);
        plot.SetLegend("policy", ToString(panel.metric));
        plot.AppendExtra(xtics);
        plot.AppendExtra("set xrange [-0.6:" + std::to_string(ALL_POLICIES.size() - 0.4) + "]");
        plot.AppendExtra("set yrange [0:*]");
        plot.AppendExtra("set key off");
        Gnuplot2dDataset bars("mean");
        bars.SetStyle(Gnuplot2dDataset::IMPULSES);
        bars.SetExtra("lw 40 lc rgb \"#4477aa\"");
        Gnuplot2dDataset errors("95% CI");
        errors.SetStyle(Gnuplot2dDataset::POINTS);
        errors.SetErrorBars(Gnuplot2dDataset::Y);
        errors.SetExtra("lc rgb \"black\" pt 7 ps 0.6");
        for (std::size_t i = 0; i < ALL_POLICIES.size(); ++i)
        {
            MoseSummary s = Summarize(panel.mode, ALL_POLICIES[i], panel.metric);
            bars.Add(static_cast<double>(i), s.mean);
            errors.Add(static_cast<double>(i), s.mean, s.ci95);
        }
        plot.AddDataset(bars);
        plot.AddDataset(errors);
        std::string path = dir + "/" + panel.file + ".plt";
        WriteOutput(path, [&plot](std::ostream& out) { plot.GenerateOutput(out); });
        written.push_back(path);
    }
    if (m_seedsDone > 0)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            std::string file = "hops_" + ModeTag(mode);
            Gnuplot plot(file + ".png");
            plot.SetTerminal("pngcairo size 640,420 butt noenhanced");
            plot.SetTitle("KV hop-count distribution, " + ToString(mode) + " (run " +
                          std::to_string(m_config.firstRun) + ")");
            plot.SetLegend("hops", "share of KV flows");
            plot.AppendExtra("set yrange [0:1.05]");
            plot.AppendExtra("set xrange [0.5:*]");
            for (Policy p : ALL_POLICIES)
            {
                const FlowMetrics& m = m_results[Index(0, mode, p)];
                Gnuplot2dDataset ds(ToString(p));
                ds.SetStyle(Gnuplot2dDataset::LINES_POINTS);
                double total = 0;
                for (uint64_t count : m.hopHistogramKv)
                {
                    total += static_cast<double>(count);
                }
                for (std::size_t h = 1; h < m.hopHistogramKv.size(); ++h)
                {
                    ds.Add(static_cast<double>(h),
                           total > 0 ? static_cast<double>(m.hopHistogramKv[h]) / total : 0.0);
                }
                plot.AddDataset(ds);
            }
            std::string path = dir + "/" + file + ".plt";
            WriteOutput(path, [&plot](std::ostream& out) { plot.GenerateOutput(out); });
            written.push_back(path);
        }
    }
    return written;
}

uint32_t
MoseFlowExperimentHelper::RenderPlots(const std::string& dir,
                                      const std::vector<std::string>& scripts)
{
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    {
        std::cerr << "gnuplot is not installed: the figures' scripts are in " << dir
                  << " (apt-get install gnuplot-nox, then run gnuplot on each .plt there)\n";
        return 0;
    }
    uint32_t rendered = 0;
    for (const std::string& script : scripts)
    {
        std::string name = script.substr(script.find_last_of('/') + 1);
        // single quotes keep the shell from interpreting the folder's name
        std::string quotedDir = "'";
        for (char c : dir)
        {
            quotedDir += (c == '\'') ? std::string("'\\''") : std::string(1, c);
        }
        quotedDir += "'";
        std::string command = "cd " + quotedDir + " && gnuplot " + name + " 2>/dev/null";
        if (std::system(command.c_str()) == 0)
        {
            ++rendered;
        }
        else
        {
            std::cerr << "gnuplot failed on " << script << "\n";
        }
    }
    return rendered;
}

} // namespace mose
} // namespace ns3
