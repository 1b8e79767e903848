/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PACKET_REPORT_H
#define MOSE_PACKET_REPORT_H

#include "mose-fct-cdf-plot.h"
#include "mose-packet-experiment.h"
#include "mose-run-list-runner.h"

#include "ns3/mose-policy.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief Prints a packet preset's per-class table, the flow-level metrics and the run's
 *        speed; leaves the stream's format (flags, precision) as it found it.
 * \param os the stream
 * \param experiment the run (after Run())
 * \param result its workload's result (InstallPacketWorkload())
 */
void PrintPacketReport(std::ostream& os, const Experiment& experiment, const PacketResult& result);

/**
 * \ingroup mose-study
 * \brief Writes a packet preset's transfers.csv (one row per transfer with its FCT),
 *        circuits.csv (circuit, u, v, flow-level load, expected and measured bytes), summary.csv
 *        and losses.csv (packets lost per drop point, their total, and the queue discs' ECN
 *        marks) into a folder. At a fluid level the packet counts (summary.csv's packets_lost
 *        and packets_sent, every count of losses.csv) are "n/a", and a circuit's bytes are
 *        those of the complete transfers routed over it.
 * \param experiment the run (after Run())
 * \param result its workload's result (InstallPacketWorkload())
 * \param dir the folder (created if missing)
 * \param prefix file name prefix, e.g. "inference-heavy_MoSE_"
 */
void WritePacketCsv(const Experiment& experiment,
                    const PacketResult& result,
                    const std::string& dir,
                    const std::string& prefix);

/**
 * \ingroup mose-study
 * \brief Writes a packet preset's inputs into a folder (created if missing), in the formats
 *        the file options read back: the mode's roles, P-D assignment and flows
 *        (mose::WriteModeScenarioFiles(): roles_TAG.csv, assignment_TAG.csv, flows_TAG.csv)
 *        and the realised circuit graph as PREFIXgraph.csv (an edge list, for --graph).
 * \param experiment the run (after Build(): Error otherwise)
 * \param result its workload's result (InstallPacketWorkload())
 * \param dir the folder
 * \param prefix file name prefix of the graph, e.g. "inference-heavy_MoSE_"
 */
void WritePacketScenario(const Experiment& experiment,
                         const PacketResult& result,
                         const std::string& dir,
                         const std::string& prefix);

/**
 * \ingroup mose-study
 * \brief Runs a packet preset under each policy on the same run and scenario
 *        (PolicyComparison's rule), as mose-packet does: for each policy, an Experiment with
 *        its workload (InstallPacketWorkload()), Build(), Run(), its
 *        report into os (PrintPacketReport()), its CSV files (WritePacketCsv(); with
 *        writeScenario, WritePacketScenario()) into dir with the prefix "MODE_POLICY_", and its
 *        transfers into the FCT CDF figure.
 *
 * The policies are a list of runs (RunListRunner: --jobs, a process per run; --runs,
 * --part, --merge, --resume). A run writes its files into a folder of its own; its record
 * lists them with their SHA-256 (RunRecordStore::KeepRunFolder()), with its report and its
 * completion times. Once every run has its record, the files are copied into dir, the
 * reports printed and the figure filled in the list's order: the same for every K and for
 * merged parts as in one process.
 * \param config the experiment, a packet preset (MakePacketConfig(); its policy is replaced by
 *        each of `policies`)
 * \param policies the policies, in order
 * \param dir the output folder
 * \param writeScenario write each run's scenario files (WritePacketScenario())
 * \param options how the list is carried out (its outputDir: the records' folder)
 * \param os where the reports go
 * \param plot the figure each run adds its transfers to, labelled with the policy (or the
 *        graph file)
 * \return whether every run has its record (false after a part: nothing is written to
 *         dir, the figure is empty)
 */
bool RunPacketPolicies(const ExperimentConfig& config,
                       const std::vector<mose::Policy>& policies,
                       const std::string& dir,
                       bool writeScenario,
                       const RunListOptions& options,
                       std::ostream& os,
                       FctCdfPlot& plot);

} // namespace mose
} // namespace ns3

#endif /* MOSE_PACKET_REPORT_H */
