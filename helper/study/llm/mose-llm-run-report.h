/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_RUN_REPORT_H
#define MOSE_LLM_RUN_REPORT_H

#include "mose-llm-experiment.h"

#include "ns3/mose-collective.h"
#include "ns3/mose-llm-workload.h"
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
 * \brief requests.csv rows of one LLM run (MoseInferenceWorkload::WriteRecordsCsv) with a
 *        policy column first.
 * \param os the stream \param header whether to write the header line first
 * \param policy the run's policy \param requests its request records
 *        (LlmResult::requests)
 */
void WriteLlmRequestsCsv(std::ostream& os,
                         bool header,
                         mose::Policy policy,
                         const std::vector<MoseRequestRecord>& requests);

/**
 * \ingroup mose-study
 * \brief iterations.csv rows of one LLM run (MoseTrainingWorkload::WriteRecordsCsv) with a
 *        policy column first.
 * \param os the stream \param header whether to write the header line first
 * \param policy the run's policy \param iterations its iteration records
 *        (LlmResult::iterations)
 */
void WriteLlmIterationsCsv(std::ostream& os,
                           bool header,
                           mose::Policy policy,
                           const std::vector<MoseIterationRecord>& iterations);

/**
 * \ingroup mose-study
 * \brief collectives.csv rows of one LLM run (mose::WriteCollectivesCsv()) with a policy
 *        column first: one per collective of a training plan's iterations (none without a plan).
 * \param os the stream \param header whether to write the header line first
 * \param policy the run's policy \param collectives its collective records
 *        (LlmResult::collectives)
 */
void WriteLlmCollectivesCsv(std::ostream& os,
                            bool header,
                            mose::Policy policy,
                            const std::vector<mose::CollectiveRecord>& collectives);

/// \ingroup mose-study
/// \return the KV export's CSV header (WriteLlmKvExport(); no newline)
std::string GetLlmKvExportHeader();

/**
 * \ingroup mose-study
 * \brief The KV export of one LLM run: one row per served request (KV transfer complete) of
 *        what the fabric did with it, keyed by the trace's own request id, so that a serving
 *        simulator can join it to its trace and take the module's times for its bandwidth
 *        formula (doc/mose.rst, "Network backend for serving simulators").
 *
 * Columns (CSV header, or the keys of a JSON object per line, in this order): policy;
 * request_id (the trace's id, LlmRequest::traceId, when the form has one; else the line
 * number, LlmRequest::traceLine; for generated requests the index); line (the trace's
 * line, empty / null for generated requests); index (the request's position in the list,
 * requests.csv's index); input_tokens; output_tokens; kv_bytes (input_tokens x KV bytes
 * per token, exactly); wire_bytes (kv_bytes / scale, as sent); mode (the roles it was
 * placed by); prefill and decode (its groups); direct (a circuit joins them: 1/0, JSON
 * true/false); hops (circuits on a shortest path between them in the circuit graph of the
 * mode interval it arrived in, LlmResult::GetIntervalGraph()); arrival_ns; queue_ns
 * (waiting for its prefill group: prefill start - arrival); prefill_ns (prefill compute);
 * kv_start_ns; kv_end_ns; kv_ns (the KV transfer: kv_end - kv_start); ttft_ns (kv_end -
 * arrival). Times are integer ns of simulated time (the fabric's rates and the bytes both
 * divided by the scale, so kv_ns stands for the unscaled transfer). request_id is a string in
 * JSON.
 * \param os the stream
 * \param header CSV: whether to write the header line (JSON lines have none)
 * \param json JSON lines rather than CSV
 * \param experiment the run
 * \param result its result (after Run(): Error otherwise)
 */
void WriteLlmKvExport(std::ostream& os,
                      bool header,
                      bool json,
                      const Experiment& experiment,
                      const LlmResult& result);

/**
 * \ingroup mose-study
 * \brief intervals.csv rows of one LLM run: policy, interval, mode, start_s, end_s, requests
 *        arriving in it, served, mean KV time, mean TTFT, iterations starting in it, mean
 *        iteration time, switch duration at its start, circuits changed, packets lost in the
 *        switch; then the flow-level metrics of the interval's graph and demand
 *        (GetLlmIntervalMetrics()): flow_kv_flows, flow_tr_flows, flow_direct_kv,
 *        flow_kv_avg_hop, flow_tr_avg_hop, flow_kv_max_load_B, flow_tr_max_load_B,
 *        flow_max_load_B (bytes before scaling, both directions of a circuit added) and
 *        flow_tr_max_load_per_iteration_B (the training max load over the iterations started
 *        in the interval: one collective's busiest circuit, since the iterations of an
 *        interval have the same members and graph).
 * \param os the stream \param header whether to write the header line first
 * \param experiment the run \param result its result
 */
void WriteLlmIntervalsCsv(std::ostream& os,
                          bool header,
                          const Experiment& experiment,
                          const LlmResult& result);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_RUN_REPORT_H */
