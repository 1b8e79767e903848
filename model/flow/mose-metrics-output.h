/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_METRICS_OUTPUT_H
#define MOSE_METRICS_OUTPUT_H

#include "mose-circuit-graph.h"
#include "mose-metrics.h"

#include "ns3/mose-text-io.h"

#include <ostream>
#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief Writes flow-level metrics as one JSON object.
 *
 * Keys: "all", "kv", "training" (each with flows, demand, max_load, p95_load, avg_hop,
 * avg_cost, p95_cost), "direct_kv", "kv_3plus", "hop_histogram_kv", "hop_histogram_training".
 * Numbers are printed with 17 significant digits so that they round-trip. A metric that is not
 * finite (demands so large that double arithmetic overflows) throws a mose::Error before anything
 * is written, since JSON has no inf or nan.
 * \param metrics the metrics
 * \param os the stream
 * \param extra extra members to add verbatim (e.g. "\"routing\": \"ecmp\""), may be empty
 */
void WriteFlowMetricsJson(const FlowMetrics& metrics,
                          std::ostream& os,
                          const std::string& extra = "");

/**
 * \ingroup mose-flow
 * \brief Writes per-circuit loads as CSV: circuit,u,v,load,load_kv,load_training.
 * \param graph the evaluated graph
 * \param metrics its metrics
 * \param os the stream
 */
void WriteCircuitLoadsCsv(const CircuitGraph& graph, const FlowMetrics& metrics, std::ostream& os);

} // namespace mose
} // namespace ns3

#endif /* MOSE_METRICS_OUTPUT_H */
