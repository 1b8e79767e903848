/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-packet-experiment.h"

#include "mose-experiment-task.h"
#include "mose-policy-comparison.h"

#include "ns3/log.h"
#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-format.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/mose-workload-helper.h"
#include "ns3/simulator.h"
#include "ns3/system-path.h"
#include "ns3/system-wall-clock-ms.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MosePacketExperiment");

namespace mose
{

ExperimentConfig
MakePacketConfig(const mose::FlowExperimentConfig& scenario,
                 mose::WorkloadMode mode,
                 LlmLevel level,
                 const std::string& transport,
                 const EcnMarking& ecn)
{
    ExperimentConfig c;
    c.scenario = scenario;
    c.schedule.Add(mode, 0); // one mode, open: until stopTime
    c.switcher = false;
    c.flowMonitor = !IsFluid(level);
    c.SetTransport(level, transport, ecn);
    return c;
}

void
ValidatePacketConfig(const ExperimentConfig& config)
{
    const mose::FlowExperimentConfig& scenario = config.scenario;
    const mose::WorkloadMode mode = config.GetInitialMode();
    scenario.Validate();
    const std::string mine =
        " belongs to the training-heavy mode, and the run is " + mose::ToString(mode) + " (--mode)";
    if (mode == mose::WorkloadMode::INFERENCE_HEAVY)
    {
        for (const auto& [option, file] :
             {std::make_pair("--trainingRolesFile", scenario.trainingRolesFile),
              std::make_pair("--trainingAssignmentFile", scenario.trainingAssignmentFile),
              std::make_pair("--trainingFlowsFile", scenario.trainingFlowsFile)})
        {
            if (!file.empty())
            {
                mose::ThrowBadParameter(option,
                                        mose::QuoteText(file),
                                        "the file would not be used: it" + mine);
            }
        }
    }
    else if (!scenario.inferenceFlowsFile.empty())
    {
        mose::ThrowBadParameter("--inferenceFlowsFile",
                                mose::QuoteText(scenario.inferenceFlowsFile),
                                "the file would not be used: it holds the inference-heavy flows, "
                                "and the run is " +
                                    mose::ToString(mode) + " (--mode)");
    }
    MoseTransportHelper{config.transport}; // a mose::Error naming a type that is no transport
    if (config.IsRdma())
    {
        if (config.ecn)
        {
            config.ecn->Validate();
        }
        if (MoseDistributed::GetNRanks() > 1)
        {
            mose::ThrowBadParameter("--transport",
                                    "rdma",
                                    "tcp on several MPI ranks (--distributed): the rdma flow "
                                    "batch runs on one process");
        }
    }
    if (config.stopTime <= Seconds(0))
    {
        mose::ThrowBadParameter("--stopTime",
                                mose::FormatNumber(config.stopTime.GetSeconds()) + " s",
                                "the simulation needs a positive stop time");
    }
}

PacketExperiment::PacketExperiment(const ExperimentConfig& config,
                                   std::shared_ptr<const mose::Scenario> scenario)
    : m_experiment(config)
{
    NS_LOG_FUNCTION(this);
    ValidatePacketConfig(config);
    if (scenario)
    {
        SetScenario(std::move(scenario));
    }
}

void
PacketExperiment::SetScenario(std::shared_ptr<const mose::Scenario> scenario)
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::Error("PacketExperiment::SetScenario after Build()");
    }
    m_experiment.SetScenario(std::move(scenario), "PacketExperiment");
}

namespace
{

/// \param times completion times \param cls their class \return a line per time, exact
std::string
TimesText(const std::vector<double>& times, const char* cls)
{
    std::string out;
    for (double t : times)
    {
        out += std::string(cls) + " " + mose::FormatNumber(t) + "\n";
    }
    return out;
}

} // namespace

bool
PacketExperiment::RunPolicies(const ExperimentConfig& config,
                              const std::vector<mose::Policy>& policies,
                              const std::string& dir,
                              bool writeScenario,
                              const RunListOptions& options,
                              std::ostream& os,
                              FctCdfPlot& plot)
{
    NS_LOG_FUNCTION(dir << writeScenario);
    ValidatePacketConfig(config); // its errors before the scenario is drawn
    // the scenario, drawn once in this process when several policies run; a process per run
    // draws its own, the same
    PolicyComparison comparison(policies);
    std::vector<std::string> runs;
    for (mose::Policy p : policies)
    {
        runs.push_back(mose::ToString(p));
    }
    const RunListRunner runner("mose-packet", runs);
    std::vector<RunRecord> records;
    const bool whole = runner.Run(
        options,
        RunWorkers::PROCESSES,
        [&](uint32_t i, const RunRecordStore& store) -> std::unique_ptr<RunTask> {
            const mose::Policy policy = policies[i];
            return std::make_unique<ExperimentTask<PacketExperiment>>(
                [&config, &comparison, policy]() {
                    return std::make_unique<PacketExperiment>(WithPolicy(config, policy),
                                                              comparison.Share(config));
                },
                [&config, &store, writeScenario, policy](const PacketExperiment& e,
                                                         RunRecord& record) {
                    std::ostringstream report;
                    e.PrintReport(report);
                    report << "\n";
                    const std::string prefix = mose::ToString(config.GetInitialMode()) + "_" +
                                               mose::ToString(policy) + "_";
                    const std::string folder = store.GetScratchFolder(record.index);
                    e.WriteCsv(folder, prefix);
                    if (writeScenario)
                    {
                        e.WriteScenario(folder, prefix);
                    }
                    store.KeepRunFolder(record, folder);
                    store.WriteRunFile(record, "report.txt", report.str());
                    store.WriteRunFile(
                        record,
                        "fct_ms.txt",
                        TimesText(FctCdfPlot::GetCompletionTimes(e.GetTransfers(),
                                                                 mose::TrafficClass::KV),
                                  "kv") +
                            TimesText(FctCdfPlot::GetCompletionTimes(e.GetTransfers(),
                                                                     mose::TrafficClass::TRAINING),
                                      "training"));
                });
        },
        records,
        os);
    if (!whole)
    {
        return false;
    }
    for (std::size_t i = 0; i < records.size(); ++i)
    {
        const RunRecord& r = records[i];
        os << RunRecordStore::ReadRunFile(r, "report.txt") << std::flush;
        RunRecordStore::CopyRunFolder(r, dir);
        if (writeScenario)
        {
            const std::string prefix =
                mose::ToString(config.GetInitialMode()) + "_" + mose::ToString(policies[i]) + "_";
            os << "wrote " << dir << "/{roles,assignment,flows}_"
               << mose::GetModeFileTag(config.GetInitialMode()) << ".csv and " << prefix
               << "graph.csv" << std::endl;
        }
        std::vector<double> kv;
        std::vector<double> training;
        std::istringstream times(RunRecordStore::ReadRunFile(r, "fct_ms.txt"));
        std::string cls;
        std::string value;
        while (times >> cls >> value)
        {
            (cls == "kv" ? kv : training).push_back(mose::ParseReal("fct_ms.txt", value));
        }
        plot.AddTimes(kv,
                      training,
                      config.graphFile.empty() ? mose::ToString(policies[i]) : config.graphFile);
    }
    return true;
}

const ExperimentConfig&
PacketExperiment::GetConfig() const
{
    return m_experiment.GetConfig();
}

const Experiment&
PacketExperiment::GetExperiment() const
{
    return m_experiment;
}

void
PacketExperiment::Build()
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::Error("PacketExperiment::Build was already called");
    }
    SystemWallClockMs clock;
    clock.Start();
    if (IsFluid(GetConfig().level))
    {
        BuildFluid();
        m_built = true;
        m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
        return;
    }
    m_experiment.Build();
    m_graph = m_experiment.GetIntervals().front().graph;
    m_metrics = m_experiment.EvaluateFlows(m_graph, m_experiment.GetInitialModeScenario().flows);
    if (GetConfig().IsRdma())
    {
        BuildBatch();
        m_built = true;
        m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
        return;
    }
    m_workload = m_experiment.InstallFlows(m_experiment.GetInitialModeScenario().flows);
    m_experiment.SetCollect([this]() {
        // on several MPI ranks, each saw its own sinks: the merged transfers
        m_transfers = Experiment::CollectTransfers(m_workload);
        m_kv = PacketClassResult();
        m_training = PacketClassResult();
        m_kv.fct = MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::KV);
        m_training.fct =
            MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::TRAINING);
        const std::array<FlowPacketCounts, 2> counts = m_experiment.CountFlowPackets(m_transfers);
        m_kv.packetsLost = counts[0].lost;
        m_kv.packetsSent = counts[0].sent;
        m_training.packetsLost = counts[1].lost;
        m_training.packetsSent = counts[1].sent;
        m_workload = nullptr;
    });
    m_built = true;
    m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
    NS_LOG_INFO("built in " << m_buildSeconds << " s: " << m_graph.GetNCircuits() << " circuits, "
                            << m_workload->GetMonitor()->GetNTransfers() << " transfers");
}

void
PacketExperiment::Run()
{
    NS_LOG_FUNCTION(this);
    if (!m_built || m_ran)
    {
        throw mose::Error("PacketExperiment::Run needs one Build() before it, once");
    }
    if (IsFluid(GetConfig().level))
    {
        RunFluid();
    }
    else
    {
        m_experiment.Run();
    }
    m_ran = true;
}

uint64_t
PacketExperiment::GetTransportDrops() const
{
    return CountTransportDrops(m_transportDrops);
}

const TransportDrops&
PacketExperiment::GetTransportDropsByReason() const
{
    return m_transportDrops;
}

uint64_t
PacketExperiment::GetBatchErrors() const
{
    return m_batchErrors;
}

bool
PacketExperiment::IsBatch() const
{
    return IsFluid(GetConfig().level) || GetConfig().IsRdma();
}

std::vector<mose::BatchFlow>
PacketExperiment::DrawBatchFlows()
{
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->AssignStreams(mose::Stream::TRANSFERS);
    UintegerValue unit;
    traffic->GetAttribute("BytesPerUnit", unit);
    m_fluidBytesPerUnit = unit.Get();
    m_fluidDrawn = traffic->MakeStartedTransfers(m_experiment.GetInitialModeScenario().flows);
    traffic->Dispose();
    return ToBatchFlows(m_fluidDrawn);
}

void
PacketExperiment::BuildBatch()
{
    // the transport on each group's endpoints through the helper's topology-aware Install (its
    // attributes' defaults, the fabric's in-flight cap and notice delay unless the user set
    // them; MoseRdmaTransport scales its own rates and timers by MoseScale), the drawn
    // transfers as a batch on it
    const ScaleScope scale(GetConfig().scale);
    m_experiment.InstallTransport(MoseTransportHelper(GetConfig().transport));
    m_batch = DynamicCast<MoseBatchWorkload>(
        m_experiment.InstallWorkload(MoseWorkloadHelper("ns3::MoseBatchWorkload")));
    m_batch->SetFlows(DrawBatchFlows());
    m_batch->Start(Seconds(0));
    m_experiment.SetCollect([this]() {
        // the records in the drawn transfers' order, with the demand they carry
        m_transfers = m_batch->GetTransfers();
        for (std::size_t i = 0; i < m_transfers.size() && i < m_fluidDrawn.size(); ++i)
        {
            m_transfers[i].demand = m_fluidDrawn[i].demand;
        }
        m_kv = PacketClassResult();
        m_training = PacketClassResult();
        m_kv.fct = MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::KV);
        m_training.fct =
            MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::TRAINING);
        const std::array<FlowPacketCounts, 2> counts = m_experiment.CountFlowPackets(m_transfers);
        m_kv.packetsLost = counts[0].lost;
        m_kv.packetsSent = counts[0].sent;
        m_training.packetsLost = counts[1].lost;
        m_training.packetsSent = counts[1].sent;
        m_transportDrops = ReadTransportDrops(m_experiment.GetTransport());
        m_batchErrors = m_batch->GetNErrors();
        m_batch = nullptr;
    });
    NS_LOG_INFO(m_fluidDrawn.size() << " transfers as a flow batch on " << GetConfig().transport);
}

void
PacketExperiment::BuildFluid()
{
    // the initial mode and graph as Experiment::Build() draws them for a run without switcher
    m_graph = m_experiment.BuildFluidMode();
    m_metrics = m_experiment.EvaluateFlows(m_graph, m_experiment.GetInitialModeScenario().flows);

    // the fabric from the helpers the packet level builds it with (nothing is installed)
    mose::FluidFlowConfig f;
    f.fabric = m_experiment.ReadFluidFabric();
    f.graph = m_graph;
    f.initialMode = GetConfig().GetInitialMode();
    f.stopNs = GetConfig().stopTime.GetNanoSeconds();

    // the transfers MoseTrafficHelper would install: the same sample, pairs and start times
    f.batches = {DrawBatchFlows()};
    f.Validate();
    m_fluid = std::move(f);
}

void
PacketExperiment::RunFluid()
{
    mose::FluidFlowRun run(*m_fluid);
    SystemWallClockMs clock;
    clock.Start();
    run.Run();
    m_fluidWall = static_cast<double>(clock.End()) / 1000.0;
    const mose::FluidFabric& fabric = *run.GetFabric();
    m_fluidSimulated = static_cast<double>(run.GetEndNs()) * 1e-9;
    m_fluidEvents = fabric.GetNEvents();
    // the batch's records, in the drawn transfers' order (a record names its flow's index)
    m_transfers = m_fluidDrawn;
    for (const mose::FlowRecord& r : run.GetBatches().front().GetRecords())
    {
        MoseTransfer& t = m_transfers[r.index];
        t.complete = r.complete;
        t.received = r.received;
        if (r.complete)
        {
            t.end = r.end;
        }
    }
    m_kv = PacketClassResult();
    m_training = PacketClassResult();
    m_kv.fct = MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::KV);
    m_training.fct =
        MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::TRAINING);
    // per circuit, the payload bytes of the complete transfers routed over it (both
    // directions): the fluid fabric's routes are the flow level's, and the fabric's own link
    // counters add up to a nanosecond of rate per transfer (a completion waits for the next
    // whole ns), which would hide an exact match
    std::vector<mose::Flow> complete;
    for (const MoseTransfer& t : m_transfers)
    {
        if (t.complete)
        {
            mose::Flow f;
            f.src = t.src;
            f.dst = t.dst;
            f.cls = t.cls;
            f.demand = static_cast<double>(t.bytes);
            complete.push_back(f);
        }
    }
    const mose::FlowMetrics carried = m_experiment.EvaluateFlows(m_graph, complete);
    m_fluidCircuitBytes.assign(m_graph.GetNCircuits(), 0);
    for (uint32_t c = 0; c < m_graph.GetNCircuits() && c < carried.load.size(); ++c)
    {
        m_fluidCircuitBytes[c] = static_cast<uint64_t>(std::llround(carried.load[c]));
    }
    if (run.GetNErrors() > 0)
    {
        NS_LOG_ERROR(run.GetNErrors() << " errors in the fluid run");
    }
}

const mose::CircuitGraph&
PacketExperiment::GetCircuitGraph() const
{
    return m_graph;
}

const mose::FlowMetrics&
PacketExperiment::GetFlowMetrics() const
{
    return m_metrics;
}

const std::vector<MoseTransfer>&
PacketExperiment::GetTransfers() const
{
    return m_transfers;
}

const PacketClassResult&
PacketExperiment::GetClassResult(mose::TrafficClass cls) const
{
    return cls == mose::TrafficClass::KV ? m_kv : m_training;
}

const std::vector<uint64_t>&
PacketExperiment::GetCircuitBytes() const
{
    return IsFluid(GetConfig().level) ? m_fluidCircuitBytes : m_experiment.GetCircuitBytes();
}

uint64_t
PacketExperiment::GetBytesPerUnit() const
{
    return IsBatch() ? m_fluidBytesPerUnit : m_experiment.GetBytesPerUnit();
}

uint32_t
PacketExperiment::CountCircuitsMatchingLoad() const
{
    const uint64_t unit = GetBytesPerUnit();
    uint32_t matching = 0;
    for (std::size_t c = 0; c < GetCircuitBytes().size() && c < m_metrics.load.size(); ++c)
    {
        const double expected = m_metrics.load[c] * static_cast<double>(unit);
        matching += static_cast<double>(GetCircuitBytes()[c]) == expected ? 1 : 0;
    }
    return matching;
}

double
PacketExperiment::GetWallSeconds() const
{
    return IsFluid(GetConfig().level) ? m_fluidWall : m_experiment.GetWallSeconds();
}

double
PacketExperiment::GetBuildSeconds() const
{
    return m_buildSeconds;
}

double
PacketExperiment::GetSimulatedSeconds() const
{
    return IsFluid(GetConfig().level) ? m_fluidSimulated : m_experiment.GetSimulatedSeconds();
}

uint64_t
PacketExperiment::GetEvents() const
{
    return IsFluid(GetConfig().level) ? m_fluidEvents : m_experiment.GetEvents();
}

void
PacketExperiment::PrintReport(std::ostream& os) const
{
    const auto& c = GetConfig();
    const uint64_t lost = m_experiment.GetPacketsLost();
    const uint64_t marks = m_experiment.GetEcnMarks();
    const double wall = GetWallSeconds();
    const double simulated = GetSimulatedSeconds();
    const uint64_t events = GetEvents();
    // the last line sets fixed notation: the caller's format comes back at the end, so that the
    // report of the next policy prints its flow-level figures as the first one does
    const std::ios_base::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << "mose-packet: N=" << c.scenario.nodes << " d=" << c.scenario.degree << ", "
       << mose::ToString(c.GetInitialMode()) << ", policy " << mose::ToString(c.policy)
       << (c.graphFile.empty() ? "" : " (graph " + c.graphFile + ")") << ", routing "
       << mose::ToString(c.scenario.routing) << ", run " << c.run
       << (IsFluid(GetConfig().level) ? ", level " + ToString(c.level) : std::string())
       << DescribeTransport(c.IsRdma(), !IsFluid(GetConfig().level), c.ecn, c.pfc) << "\n";
    os << "  " << m_experiment.GetInitialModeScenario().flows.size() << " flows -> "
       << m_transfers.size() << " transfers, " << GetBytesPerUnit()
       << " bytes per unit of demand\n\n";
    os << std::left << std::setw(10) << "class" << std::right << std::setw(10) << "transfers"
       << std::setw(10) << "done" << std::setw(12) << "FCT mean" << std::setw(12) << "P50"
       << std::setw(12) << "P95" << std::setw(12) << "P99" << std::setw(14) << "goodput"
       << std::setw(10) << "lost"
       << "\n";
    for (mose::TrafficClass cls : {mose::TrafficClass::KV, mose::TrafficClass::TRAINING})
    {
        const PacketClassResult& r = GetClassResult(cls);
        auto ms = [](double s) {
            std::ostringstream o;
            o << std::fixed << std::setprecision(3) << s * 1e3 << " ms";
            return o.str();
        };
        std::ostringstream gp;
        gp << std::fixed << std::setprecision(2) << r.fct.goodputBps / 1e9 << " Gb/s";
        os << std::left << std::setw(10) << mose::ToString(cls) << std::right << std::setw(10)
           << r.fct.transfers << std::setw(10) << r.fct.completed << std::setw(12)
           << ms(r.fct.meanS) << std::setw(12) << ms(r.fct.p50S) << std::setw(12) << ms(r.fct.p95S)
           << std::setw(12) << ms(r.fct.p99S) << std::setw(14) << gp.str() << std::setw(10)
           << (IsFluid(GetConfig().level) ? std::string("n/a") : std::to_string(r.packetsLost))
           << "\n";
    }
    os << "\n  packets lost in the fabric (every drop point): ";
    if (IsFluid(GetConfig().level))
    {
        os << "n/a (the " << ToString(c.level) << " level moves fluid flows, not packets)";
    }
    else
    {
        os << lost;
    }
    if (lost > 0)
    {
        const char* sep = " (";
        for (int p = 0; p < MoseLossMonitor::N_POINTS; ++p)
        {
            if (m_experiment.GetPacketsLost(static_cast<MoseLossMonitor::Point>(p)) > 0)
            {
                os << sep << MoseLossMonitor::GetPointName(static_cast<MoseLossMonitor::Point>(p))
                   << " " << m_experiment.GetPacketsLost(static_cast<MoseLossMonitor::Point>(p));
                sep = ", ";
            }
        }
        os << ")";
    }
    if (marks > 0)
    {
        os << "; ECN marks by queue discs: " << marks;
    }
    os << "\n";
    if (c.IsRdma() && !IsFluid(GetConfig().level))
    {
        os << "  RDMA transport: " << DescribeTransportDrops(m_transportDrops)
           << " packets dropped at the receivers, " << m_batchErrors << " errors\n";
        if (m_experiment.GetPfcCounts().installed)
        {
            os << "  " << DescribePfc(m_experiment.GetPfcCounts()) << "\n";
        }
    }
    os << "  flow level on the same graph and flows: MaxLoad " << m_metrics.all.maxLoad
       << ", P95 load " << m_metrics.all.p95Load << ", AvgHop " << m_metrics.all.avgHop
       << ", DirectKV " << m_metrics.directKv << "\n";
    os << "  circuits whose payload bytes = flow-level load x bytes per unit: "
       << CountCircuitsMatchingLoad() << " of " << GetCircuitBytes().size() << "\n";
    os << "  build " << std::fixed << std::setprecision(2) << m_buildSeconds << " s, run " << wall
       << " s wall for " << std::setprecision(4) << simulated << " s simulated ("
       << std::setprecision(3) << (wall > 0 ? simulated / wall : 0.0)
       << " simulated s per wall s), " << events << " events (" << std::setprecision(0)
       << (wall > 0 ? events / wall : 0.0) << " per wall s)\n";
    if (!IsFluid(GetConfig().level))
    {
        Experiment::PrintRanks(os, m_experiment.GetEventsPerRank(), m_experiment.GetCircuitsCut());
    }
    os.flags(flags);
    os.precision(precision);
}

void
PacketExperiment::WriteScenario(const std::string& dir, const std::string& prefix) const
{
    NS_LOG_FUNCTION(this << dir << prefix);
    if (!m_built)
    {
        throw mose::Error("PacketExperiment::WriteScenario needs Build() before it");
    }
    mose::ModeScenario s = m_experiment.GetInitialModeScenario();
    s.run = GetConfig().run;
    s.mode = GetConfig().GetInitialMode();
    mose::WriteModeScenarioFiles(s, dir);
    mose::WriteCircuitGraphCsv(m_graph, dir + "/" + prefix + "graph.csv");
}

void
PacketExperiment::WriteCsv(const std::string& dir, const std::string& prefix) const
{
    NS_LOG_FUNCTION(this << dir << prefix);
    std::ostringstream transfers;
    transfers << "index,src,dst,class,demand,bytes,received,start_s,end_s,fct_s,complete\n";
    for (std::size_t i = 0; i < m_transfers.size(); ++i)
    {
        const auto& t = m_transfers[i];
        transfers << i << ',' << t.src << ',' << t.dst << ',' << mose::ToString(t.cls) << ','
                  << t.demand << ',' << t.bytes << ',' << t.received << ',' << t.start.GetSeconds()
                  << ',';
        if (t.complete)
        {
            transfers << t.end.GetSeconds() << ',' << t.GetCompletionTime().GetSeconds() << ",1\n";
        }
        else
        {
            transfers << ",,0\n";
        }
    }
    std::ostringstream circuits;
    const uint64_t unit = GetBytesPerUnit();
    circuits << "circuit,u,v,load,expected_bytes,bytes\n";
    for (uint32_t c = 0; c < m_graph.GetNCircuits(); ++c)
    {
        const auto& e = m_graph.GetCircuits()[c];
        const double load = c < m_metrics.load.size() ? m_metrics.load[c] : 0.0;
        circuits << c << ',' << e.u << ',' << e.v << ',' << load << ','
                 << load * static_cast<double>(unit) << ','
                 << (c < GetCircuitBytes().size() ? GetCircuitBytes()[c] : 0) << '\n';
    }
    std::ostringstream summary;
    summary << "class,transfers,completed,fct_mean_s,fct_p50_s,fct_p95_s,fct_p99_s,goodput_bps,"
               "packets_lost,packets_sent\n";
    for (mose::TrafficClass cls : {mose::TrafficClass::KV, mose::TrafficClass::TRAINING})
    {
        const PacketClassResult& r = GetClassResult(cls);
        summary << mose::ToString(cls) << ',' << r.fct.transfers << ',' << r.fct.completed << ','
                << r.fct.meanS << ',' << r.fct.p50S << ',' << r.fct.p95S << ',' << r.fct.p99S << ','
                << r.fct.goodputBps << ',';
        if (IsFluid(GetConfig().level))
        {
            summary << "n/a,n/a\n"; // packets exist at the packet level only
        }
        else
        {
            summary << r.packetsLost << ',' << r.packetsSent << '\n';
        }
    }
    std::ostringstream losses;
    losses << "point,drops\n";
    for (int p = 0; p < MoseLossMonitor::N_POINTS; ++p)
    {
        losses << MoseLossMonitor::GetPointName(static_cast<MoseLossMonitor::Point>(p)) << ',';
        if (IsFluid(GetConfig().level))
        {
            losses << "n/a\n"; // a fluid flow drops nothing
        }
        else
        {
            losses << m_experiment.GetPacketsLost(static_cast<MoseLossMonitor::Point>(p)) << '\n';
        }
    }
    if (IsFluid(GetConfig().level))
    {
        losses << "total,n/a\necn-marks,n/a\n";
    }
    else
    {
        losses << "total," << m_experiment.GetPacketsLost() << '\n';
        losses << "ecn-marks," << m_experiment.GetEcnMarks() << '\n';
    }
    mose::MakeOutputDirectory(dir);
    mose::WriteTextFile(dir + "/" + prefix + "transfers.csv",
                        [&transfers](std::ostream& os) { os << transfers.str(); });
    mose::WriteTextFile(dir + "/" + prefix + "circuits.csv",
                        [&circuits](std::ostream& os) { os << circuits.str(); });
    mose::WriteTextFile(dir + "/" + prefix + "summary.csv",
                        [&summary](std::ostream& os) { os << summary.str(); });
    mose::WriteTextFile(dir + "/" + prefix + "losses.csv",
                        [&losses](std::ostream& os) { os << losses.str(); });
}

} // namespace mose
} // namespace ns3
