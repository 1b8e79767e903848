/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-packet-report.h"

#include "mose-experiment-task.h"
#include "mose-policy-comparison.h"

#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-format.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-scenario.h"

#include <iomanip>
#include <memory>
#include <sstream>

namespace ns3
{
namespace mose
{

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
RunPacketPolicies(const ExperimentConfig& config,
                  const std::vector<mose::Policy>& policies,
                  const std::string& dir,
                  bool writeScenario,
                  const RunListOptions& options,
                  std::ostream& os,
                  FctCdfPlot& plot)
{
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
            // the workload's result, set when the task makes its experiment
            auto result = std::make_shared<std::shared_ptr<const PacketResult>>();
            return std::make_unique<ExperimentTask>(
                [&config, &comparison, policy, result]() {
                    auto e = std::make_unique<Experiment>(WithPolicy(config, policy));
                    if (auto scenario = comparison.Share(config))
                    {
                        e->SetScenario(std::move(scenario));
                    }
                    *result = InstallPacketWorkload(*e);
                    return e;
                },
                [&config, &store, writeScenario, policy, result](const Experiment& e,
                                                                 RunRecord& record) {
                    const PacketResult& r = **result;
                    std::ostringstream report;
                    PrintPacketReport(report, e, r);
                    report << "\n";
                    const std::string prefix = mose::ToString(config.GetInitialMode()) + "_" +
                                               mose::ToString(policy) + "_";
                    const std::string folder = store.GetScratchFolder(record.index);
                    WritePacketCsv(e, r, folder, prefix);
                    if (writeScenario)
                    {
                        WritePacketScenario(e, r, folder, prefix);
                    }
                    store.KeepRunFolder(record, folder);
                    store.WriteRunFile(record, "report.txt", report.str());
                    store.WriteRunFile(
                        record,
                        "fct_ms.txt",
                        TimesText(
                            FctCdfPlot::GetCompletionTimes(r.transfers, mose::TrafficClass::KV),
                            "kv") +
                            TimesText(FctCdfPlot::GetCompletionTimes(r.transfers,
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

void
PrintPacketReport(std::ostream& os, const Experiment& experiment, const PacketResult& r)
{
    const auto& c = experiment.GetConfig();
    const bool fluid = IsFluid(c.level);
    const uint64_t lost = experiment.GetPacketsLost();
    const uint64_t marks = experiment.GetEcnMarks();
    const double wall = experiment.GetWallSeconds();
    const double simulated = experiment.GetSimulatedSeconds();
    const uint64_t events = experiment.GetEvents();
    // the last line sets fixed notation: the caller's format comes back at the end, so that the
    // report of the next policy prints its flow-level figures as the first one does
    const std::ios_base::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << "mose-packet: N=" << c.scenario.nodes << " d=" << c.scenario.degree << ", "
       << mose::ToString(c.GetInitialMode()) << ", policy " << mose::ToString(c.policy)
       << (c.graphFile.empty() ? "" : " (graph " + c.graphFile + ")") << ", routing "
       << mose::ToString(c.scenario.routing) << ", run " << c.run
       << (fluid ? ", level " + ToString(c.level) : std::string())
       << DescribeTransport(c.IsRdma(), !fluid, c.ecn, c.pfc) << "\n";
    os << "  " << experiment.GetInitialModeScenario().flows.size() << " flows -> "
       << r.transfers.size() << " transfers, " << r.bytesPerUnit << " bytes per unit of demand\n\n";
    os << std::left << std::setw(10) << "class" << std::right << std::setw(10) << "transfers"
       << std::setw(10) << "done" << std::setw(12) << "FCT mean" << std::setw(12) << "P50"
       << std::setw(12) << "P95" << std::setw(12) << "P99" << std::setw(14) << "goodput"
       << std::setw(10) << "lost"
       << "\n";
    for (mose::TrafficClass cls : {mose::TrafficClass::KV, mose::TrafficClass::TRAINING})
    {
        const PacketClassResult& rc = r.GetClass(cls);
        auto ms = [](double s) {
            std::ostringstream o;
            o << std::fixed << std::setprecision(3) << s * 1e3 << " ms";
            return o.str();
        };
        std::ostringstream gp;
        gp << std::fixed << std::setprecision(2) << rc.fct.goodputBps / 1e9 << " Gb/s";
        os << std::left << std::setw(10) << mose::ToString(cls) << std::right << std::setw(10)
           << rc.fct.transfers << std::setw(10) << rc.fct.completed << std::setw(12)
           << ms(rc.fct.meanS) << std::setw(12) << ms(rc.fct.p50S) << std::setw(12)
           << ms(rc.fct.p95S) << std::setw(12) << ms(rc.fct.p99S) << std::setw(14) << gp.str()
           << std::setw(10) << (fluid ? std::string("n/a") : std::to_string(rc.packetsLost))
           << "\n";
    }
    os << "\n  packets lost in the fabric (every drop point): ";
    if (fluid)
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
            if (experiment.GetPacketsLost(static_cast<MoseLossMonitor::Point>(p)) > 0)
            {
                os << sep << MoseLossMonitor::GetPointName(static_cast<MoseLossMonitor::Point>(p))
                   << " " << experiment.GetPacketsLost(static_cast<MoseLossMonitor::Point>(p));
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
    if (c.IsRdma() && !fluid)
    {
        os << "  RDMA transport: " << DescribeTransportDrops(r.transportDrops)
           << " packets dropped at the receivers, " << r.batchErrors << " errors\n";
        if (experiment.GetPfcCounts().installed)
        {
            os << "  " << DescribePfc(experiment.GetPfcCounts()) << "\n";
        }
    }
    os << "  flow level on the same graph and flows: MaxLoad " << r.metrics.all.maxLoad
       << ", P95 load " << r.metrics.all.p95Load << ", AvgHop " << r.metrics.all.avgHop
       << ", DirectKV " << r.metrics.directKv << "\n";
    os << "  circuits whose payload bytes = flow-level load x bytes per unit: "
       << r.CountCircuitsMatchingLoad(experiment.GetCircuitBytes()) << " of "
       << experiment.GetCircuitBytes().size() << "\n";
    os << "  build " << std::fixed << std::setprecision(2) << experiment.GetBuildSeconds()
       << " s, run " << wall << " s wall for " << std::setprecision(4) << simulated
       << " s simulated (" << std::setprecision(3) << (wall > 0 ? simulated / wall : 0.0)
       << " simulated s per wall s), " << events << " events (" << std::setprecision(0)
       << (wall > 0 ? events / wall : 0.0) << " per wall s)\n";
    if (!fluid)
    {
        Experiment::PrintRanks(os, experiment.GetEventsPerRank(), experiment.GetCircuitsCut());
    }
    os.flags(flags);
    os.precision(precision);
}

void
WritePacketScenario(const Experiment& experiment,
                    const PacketResult& r,
                    const std::string& dir,
                    const std::string& prefix)
{
    mose::ModeScenario s = experiment.GetInitialModeScenario();
    s.run = experiment.GetConfig().run;
    s.mode = experiment.GetConfig().GetInitialMode();
    mose::WriteModeScenarioFiles(s, dir);
    mose::WriteCircuitGraphCsv(r.graph, dir + "/" + prefix + "graph.csv");
}

void
WritePacketCsv(const Experiment& experiment,
               const PacketResult& r,
               const std::string& dir,
               const std::string& prefix)
{
    const bool fluid = IsFluid(experiment.GetConfig().level);
    const mose::CircuitGraph& graph = r.graph;
    const mose::FlowMetrics& metrics = r.metrics;
    const std::vector<uint64_t>& circuitBytes = experiment.GetCircuitBytes();
    std::ostringstream transfers;
    transfers << "index,src,dst,class,demand,bytes,received,start_s,end_s,fct_s,complete\n";
    for (std::size_t i = 0; i < r.transfers.size(); ++i)
    {
        const auto& t = r.transfers[i];
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
    const uint64_t unit = r.bytesPerUnit;
    circuits << "circuit,u,v,load,expected_bytes,bytes\n";
    for (uint32_t c = 0; c < graph.GetNCircuits(); ++c)
    {
        const auto& circuit = graph.GetCircuits()[c];
        const double load = c < metrics.load.size() ? metrics.load[c] : 0.0;
        circuits << c << ',' << circuit.u << ',' << circuit.v << ',' << load << ','
                 << load * static_cast<double>(unit) << ','
                 << (c < circuitBytes.size() ? circuitBytes[c] : 0) << '\n';
    }
    std::ostringstream summary;
    summary << "class,transfers,completed,fct_mean_s,fct_p50_s,fct_p95_s,fct_p99_s,goodput_bps,"
               "packets_lost,packets_sent\n";
    for (mose::TrafficClass cls : {mose::TrafficClass::KV, mose::TrafficClass::TRAINING})
    {
        const PacketClassResult& rc = r.GetClass(cls);
        summary << mose::ToString(cls) << ',' << rc.fct.transfers << ',' << rc.fct.completed << ','
                << rc.fct.meanS << ',' << rc.fct.p50S << ',' << rc.fct.p95S << ',' << rc.fct.p99S
                << ',' << rc.fct.goodputBps << ',';
        if (fluid)
        {
            summary << "n/a,n/a\n"; // packets exist at the packet level only
        }
        else
        {
            summary << rc.packetsLost << ',' << rc.packetsSent << '\n';
        }
    }
    std::ostringstream losses;
    losses << "point,drops\n";
    for (int p = 0; p < MoseLossMonitor::N_POINTS; ++p)
    {
        losses << MoseLossMonitor::GetPointName(static_cast<MoseLossMonitor::Point>(p)) << ',';
        if (fluid)
        {
            losses << "n/a\n"; // a fluid flow drops nothing
        }
        else
        {
            losses << experiment.GetPacketsLost(static_cast<MoseLossMonitor::Point>(p)) << '\n';
        }
    }
    if (fluid)
    {
        losses << "total,n/a\necn-marks,n/a\n";
    }
    else
    {
        losses << "total," << experiment.GetPacketsLost() << '\n';
        losses << "ecn-marks," << experiment.GetEcnMarks() << '\n';
        const PfcCounts& pfc = experiment.GetPfcCounts();
        if (pfc.installed)
        {
            // what PFC did beside the drops (--pfc): its pauses prevent them
            losses << "pfc-pauses-sent," << pfc.pausesSent << "\npfc-ports-paused,"
                   << pfc.pausesReceived << "\npfc-nic-pauses," << pfc.nicPauses
                   << "\npfc-pauses-lost," << pfc.pausesLost << "\npfc-storms," << pfc.storms
                   << "\npfc-paused-ns," << pfc.pausedTime.GetNanoSeconds()
                   << "\npfc-longest-pause-ns," << pfc.longestPause.GetNanoSeconds() << '\n';
        }
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
