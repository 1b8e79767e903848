/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-run-report.h"

#include "ns3/mose-error.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-text-io.h"
#include "ns3/mose-workload-summary.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

namespace ns3
{
namespace mose
{

void
WriteLlmRequestsCsv(std::ostream& os,
                    bool header,
                    mose::Policy policy,
                    const std::vector<MoseRequestRecord>& requests)
{
    if (header)
    {
        os << "policy," << MoseInferenceWorkload::GetCsvHeader() << '\n';
    }
    MoseInferenceWorkload::WriteRecordsCsv(os, requests, mose::ToString(policy) + ",");
}

namespace
{

/// The KV export's columns, in order: the CSV header and the JSON keys
constexpr std::array<const char*, 20> KV_EXPORT_COLUMNS = {
    "policy",        "request_id",  "line",       "index",      "input_tokens",
    "output_tokens", "kv_bytes",    "wire_bytes", "mode",       "prefill",
    "decode",        "direct",      "hops",       "arrival_ns", "queue_ns",
    "prefill_ns",    "kv_start_ns", "kv_end_ns",  "kv_ns",      "ttft_ns"};

} // namespace

std::string
GetLlmKvExportHeader()
{
    std::string header;
    for (const char* column : KV_EXPORT_COLUMNS)
    {
        header += (header.empty() ? "" : ",") + std::string(column);
    }
    return header;
}

void
WriteLlmKvExport(std::ostream& os,
                 bool header,
                 bool json,
                 const Experiment& experiment,
                 const LlmResult& result)
{
    if (!result.ran)
    {
        throw mose::Error("WriteLlmKvExport: call Experiment::Run() first");
    }
    if (header && !json)
    {
        os << GetLlmKvExportHeader() << '\n';
    }
    const ExperimentConfig& config = experiment.GetConfig();
    // the hops of (interval, decode group): one shortest-path tree per pair, computed once
    std::map<std::pair<std::size_t, uint32_t>, mose::DestinationTree> trees;
    const std::vector<Time> starts = config.GetIntervalStarts();
    auto hops = [&result, &trees, &starts](Time arrival, uint32_t prefill, uint32_t decode) {
        std::size_t interval = 0;
        while (interval + 1 < starts.size() && starts[interval + 1] <= arrival)
        {
            ++interval;
        }
        auto [it, added] = trees.try_emplace(std::make_pair(interval, decode));
        if (added)
        {
            const mose::ShortestPathRouting routing(result.GetIntervalGraph(interval),
                                                    mose::RoutingRule::SHORTEST_PATH);
            routing.ComputeTree(decode, it->second);
        }
        return it->second.distance.at(prefill);
    };
    const std::string policy = mose::ToString(config.policy);
    for (const MoseRequestRecord& r : result.requests)
    {
        if (!r.done)
        {
            continue;
        }
        const mose::LlmRequest& q = config.llm.requests.at(r.index);
        const std::string id = !q.traceId.empty() ? q.traceId
                               : q.traceLine > 0  ? std::to_string(q.traceLine)
                                                  : std::to_string(r.index);
        const uint32_t h = hops(r.arrival, r.prefill, r.decode);
        // one value per column of KV_EXPORT_COLUMNS, in its order
        const std::array<std::string, KV_EXPORT_COLUMNS.size()> values = {
            json ? mose::JsonString(policy) : policy,
            json ? mose::JsonString(id) : id,
            q.traceLine > 0 ? std::to_string(q.traceLine) : std::string(json ? "null" : ""),
            std::to_string(r.index),
            std::to_string(r.inputTokens),
            std::to_string(r.outputTokens),
            std::to_string(r.kvBytes),
            std::to_string(r.wireBytes),
            json ? mose::JsonString(mose::ToString(r.mode)) : mose::ToString(r.mode),
            std::to_string(r.prefill),
            std::to_string(r.decode),
            json ? (r.direct ? "true" : "false") : (r.direct ? "1" : "0"),
            h == mose::DestinationTree::UNREACHABLE ? std::string(json ? "null" : "")
                                                    : std::to_string(h),
            std::to_string(r.arrival.GetNanoSeconds()),
            std::to_string((r.prefillStart - r.arrival).GetNanoSeconds()),
            std::to_string((r.prefillDone - r.prefillStart).GetNanoSeconds()),
            std::to_string(r.kvStart.GetNanoSeconds()),
            std::to_string(r.kvEnd.GetNanoSeconds()),
            std::to_string(r.GetKvTime().GetNanoSeconds()),
            std::to_string(r.GetTtft().GetNanoSeconds())};
        for (std::size_t i = 0; i < values.size(); ++i)
        {
            if (json)
            {
                os << (i == 0 ? "{" : ", ") << '"' << KV_EXPORT_COLUMNS[i] << "\": " << values[i];
            }
            else
            {
                os << (i == 0 ? "" : ",") << values[i];
            }
        }
        os << (json ? "}\n" : "\n");
    }
}

void
WriteLlmIterationsCsv(std::ostream& os,
                      bool header,
                      mose::Policy policy,
                      const std::vector<MoseIterationRecord>& iterations)
{
    if (header)
    {
        os << "policy," << MoseTrainingWorkload::GetCsvHeader() << '\n';
    }
    MoseTrainingWorkload::WriteRecordsCsv(os, iterations, mose::ToString(policy) + ",");
}

void
WriteLlmCollectivesCsv(std::ostream& os,
                       bool header,
                       mose::Policy policy,
                       const std::vector<mose::CollectiveRecord>& collectives)
{
    if (header)
    {
        os << "policy," << mose::GetCollectivesCsvHeader() << '\n';
    }
    mose::WriteCollectivesCsv(os, collectives, mose::ToString(policy) + ",");
}

void
WriteLlmIntervalsCsv(std::ostream& os,
                     bool header,
                     const Experiment& experiment,
                     const LlmResult& result)
{
    if (header)
    {
        os << "policy,interval,mode,start_s,end_s,requests,served,kv_mean_s,ttft_mean_s,"
              "iterations,iteration_mean_s,switch_s,circuits_changed,switch_lost,"
              "flow_kv_flows,flow_tr_flows,flow_direct_kv,flow_kv_avg_hop,flow_tr_avg_hop,"
              "flow_kv_max_load_B,flow_tr_max_load_B,flow_max_load_B,"
              "flow_tr_max_load_per_iteration_B\n";
    }
    const ExperimentConfig& config = experiment.GetConfig();
    const std::vector<MoseRequestRecord>& requests = result.requests;
    const std::vector<MoseIterationRecord>& iterations = result.iterations;
    const std::vector<Time> starts = config.GetIntervalStarts();
    for (std::size_t i = 0; i < starts.size(); ++i)
    {
        const Time a = starts[i];
        const Time b = i + 1 < starts.size() ? starts[i + 1] : config.end;
        // the workloads' own summaries of the interval (one of 0 s holds nothing); the
        // training max load per iteration divides by every iteration started in it, completed
        // or not
        const bool empty = !(a < b);
        const mose::InferenceSummary inference =
            empty ? mose::InferenceSummary() : mose::SummarizeRequests(requests, a, b);
        const mose::TrainingSummary training =
            empty ? mose::TrainingSummary() : mose::SummarizeIterations(iterations, a, b);
        const auto started = static_cast<uint32_t>(std::count_if(
            iterations.begin(),
            iterations.end(),
            [a, b](const MoseIterationRecord& r) { return r.start >= a && r.start < b; }));
        os << mose::ToString(config.policy) << ',' << i << ','
           << mose::ToString(config.schedule.empty() ? config.GetInitialMode()
                                                     : config.schedule[i].mode)
           << ',' << a.GetSeconds() << ',' << b.GetSeconds() << ',' << inference.requests << ','
           << inference.served << ',' << inference.kv.mean << ',' << inference.ttft.mean << ','
           << training.iterations << ',' << training.iteration.mean << ',';
        if (const MoseSwitchRecord* rec = experiment.GetIntervalSwitch(i))
        {
            os << rec->GetDuration().GetSeconds() << ',' << rec->removed + rec->added << ','
               << rec->lost;
        }
        else
        {
            os << "0,0,0";
        }
        const mose::FlowMetrics m = GetLlmIntervalMetrics(experiment, result, i);
        os << ',' << m.kv.flows << ',' << m.training.flows << ',' << m.directKv << ','
           << m.kv.avgHop << ',' << m.training.avgHop << ',' << m.kv.maxLoad << ','
           << m.training.maxLoad << ',' << m.all.maxLoad << ','
           << (started ? m.training.maxLoad / started : 0) << '\n';
    }
}

} // namespace mose
} // namespace ns3
