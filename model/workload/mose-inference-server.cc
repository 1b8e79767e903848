/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-inference-server.h"

#include "ns3/mose-error.h"
#include "ns3/mose-model-shape.h"

#include <cmath>
#include <exception>
#include <iomanip>

namespace ns3
{
namespace mose
{

InferenceServer::InferenceServer() = default;

void
InferenceServer::SetRequests(const std::vector<LlmRequest>& requests)
{
    ValidateLlmRequests(requests, "requests");
    m_requests = requests;
}

const std::vector<LlmRequest>&
InferenceServer::GetRequests() const
{
    return m_requests;
}

void
InferenceServer::SetMode(PlacementRule rule,
                         WorkloadMode mode,
                         const RoleAssignment& roles,
                         std::shared_ptr<const CircuitGraph> graph)
{
    if (!m_placer)
    {
        m_placer.emplace(rule, roles, graph);
        m_queue.assign(roles.GetN(), {});
        m_busy.assign(roles.GetN(), false);
    }
    else
    {
        m_placer->SetMode(roles, graph);
    }
    m_mode = mode;
}

bool
InferenceServer::HasMode() const
{
    return m_placer.has_value();
}

void
InferenceSettings::Validate() const
{
    if (!(std::isfinite(prefillTokensPerSecond) && prefillTokensPerSecond > 0))
    {
        ThrowBadParameter("prefillTokensPerSecond",
                          FormatNumber(prefillTokensPerSecond),
                          "a finite number > 0");
    }
    if (kvBytesPerToken == 0)
    {
        ThrowBadParameter("kvBytesPerToken", "0", "at least 1 byte per token");
    }
    if (scale == 0)
    {
        ThrowBadParameter("scale", "0", "a factor >= 1");
    }
}

void
InferenceServer::SetObservers(Observers observers)
{
    m_observers = std::move(observers);
}

void
InferenceServer::Start(WorkloadFabric& fabric, int64_t startNs, const InferenceSettings& settings)
{
    if (!m_placer)
    {
        throw Error("the inference server has no roles: set its mode before it starts");
    }
    settings.Validate();
    if (m_placer->GetRule() != settings.placement)
    {
        // the rule changed after the first SetMode(): rebuilt with the same mode
        m_placer.emplace(settings.placement, m_placer->GetRoles(), m_placer->GetGraph());
    }
    m_fabric = &fabric;
    m_settings = settings;
    const int64_t now = fabric.Now();
    m_records.assign(m_requests.size(), {});
    m_arrivals.reserve(m_requests.size());
    for (uint32_t i = 0; i < m_requests.size(); ++i)
    {
        const LlmRequest& r = m_requests[i];
        RequestRecord& rec = m_records[i];
        rec.index = i;
        rec.inputTokens = r.inputTokens;
        rec.outputTokens = r.outputTokens;
        rec.kvBytes = CheckedProduct(
            "KV bytes of request " + std::to_string(i),
            {{"input tokens", r.inputTokens}, {"KvBytesPerToken", settings.kvBytesPerToken}});
        rec.wireBytes = ScaleBytes(rec.kvBytes, settings.scale, 1);
        const auto offset = startNs + static_cast<int64_t>(r.arrivalNs);
        rec.arrival = NanoSeconds(now + offset);
        m_arrivals.push_back(fabric.Schedule(offset, [this, i]() { Arrive(i); }));
    }
}

void
InferenceServer::Fail(uint32_t i, const std::string& what)
{
    ++m_errors;
    if (m_observers.error)
    {
        m_observers.error(i, what);
    }
}

void
InferenceServer::Arrive(uint32_t i)
{
    try
    {
        RequestRecord& rec = m_records[i];
        const RequestPlacement p = m_placer->Place();
        rec.arrived = true;
        ++m_arrived;
        rec.mode = m_mode;
        rec.prefill = p.prefill;
        rec.decode = p.decode;
        rec.direct = p.direct;
        m_placer->StartWork(p.prefill, rec.inputTokens);
        m_placer->StartWork(p.decode, rec.outputTokens);
        if (m_observers.placed)
        {
            m_observers.placed(rec);
        }
        m_queue[p.prefill].push_back(i);
        StartPrefill(p.prefill);
    }
    catch (const std::exception& e)
    {
        Fail(i, e.what());
    }
}

void
InferenceServer::StartPrefill(uint32_t group)
{
    if (m_busy[group] || m_queue[group].empty())
    {
        return;
    }
    const uint32_t i = m_queue[group].front();
    m_queue[group].pop_front();
    m_busy[group] = true;
    RequestRecord& rec = m_records[i];
    rec.prefillStart = NanoSeconds(m_fabric->Now());
    const double seconds = static_cast<double>(rec.inputTokens) / m_settings.prefillTokensPerSecond;
    m_events.push_back(m_fabric->Schedule(static_cast<int64_t>(std::llround(seconds * 1e9)),
                                          [this, group, i]() { PrefillDone(group, i); }));
}

void
InferenceServer::PrefillDone(uint32_t group, uint32_t i)
{
    try
    {
        RequestRecord& rec = m_records[i];
        rec.prefillDone = NanoSeconds(m_fabric->Now());
        rec.kvStart = rec.prefillDone;
        rec.computed = true;
        m_placer->FinishWork(group, rec.inputTokens);
        m_busy[group] = false;
        if (m_observers.prefillDone)
        {
            m_observers.prefillDone(rec);
        }
        TransferSpec t;
        t.src = rec.prefill;
        t.dst = rec.decode;
        t.bytes = rec.wireBytes;
        t.trafficClass = TrafficClass::KV;
        t.rail = i; // rail i: host i mod G of each group
        rec.transfer =
            m_fabric->StartTransfer(t, [this, i](const TransferReport& r) { KvDone(i, r); });
        StartPrefill(group);
    }
    catch (const std::exception& e)
    {
        Fail(i, std::string("prefill done: ") + e.what());
    }
}

void
InferenceServer::KvDone(uint32_t i, const TransferReport& report)
{
    RequestRecord& rec = m_records[i];
    rec.received = report.received;
    rec.kvEnd = NanoSeconds(report.endNs); // the last byte (noticed the fabric's delay later)
    rec.done = true;
    ++m_done;
    m_placer->FinishWork(rec.decode, rec.outputTokens);
    if (m_observers.done)
    {
        m_observers.done(rec);
    }
}

void
InferenceServer::Stop()
{
    m_stopped = true;
    if (m_fabric)
    {
        for (auto e : m_arrivals)
        {
            m_fabric->Cancel(e);
        }
    }
}

void
InferenceServer::CancelEvents()
{
    if (m_fabric)
    {
        for (auto e : m_arrivals)
        {
            m_fabric->Cancel(e);
        }
        for (auto e : m_events)
        {
            m_fabric->Cancel(e);
        }
    }
    m_arrivals.clear();
    m_events.clear();
}

bool
InferenceServer::IsDone() const
{
    return m_done == m_arrived && (m_stopped || m_arrived == m_records.size());
}

const std::vector<RequestRecord>&
InferenceServer::GetRecords() const
{
    return m_records;
}

uint32_t
InferenceServer::GetNArrived() const
{
    return m_arrived;
}

uint32_t
InferenceServer::GetNDone() const
{
    return m_done;
}

uint64_t
InferenceServer::GetNErrors() const
{
    return m_errors;
}

void
WriteCsvSeconds(std::ostream& os, Time t, bool reached)
{
    if (reached)
    {
        os << std::fixed << std::setprecision(9) << t.GetSeconds();
        os.unsetf(std::ios_base::floatfield);
    }
}

std::string
GetRequestsCsvHeader()
{
    return "index,input_tokens,output_tokens,kv_bytes,wire_bytes,mode,prefill,decode,direct,"
           "arrival_s,prefill_start_s,prefill_done_s,kv_start_s,kv_end_s,kv_time_s,ttft_s,done";
}

void
WriteRequestsCsv(std::ostream& os,
                 const std::vector<RequestRecord>& records,
                 const std::string& prefix)
{
    for (const auto& r : records)
    {
        os << prefix << r.index << ',' << r.inputTokens << ',' << r.outputTokens << ',' << r.kvBytes
           << ',' << r.wireBytes << ',';
        if (r.arrived)
        {
            os << ToString(r.mode) << ',' << r.prefill << ',' << r.decode << ','
               << (r.direct ? 1 : 0);
        }
        else
        {
            os << ",,,";
        }
        os << ',';
        WriteCsvSeconds(os, r.arrival, true);
        os << ',';
        const bool computed = r.done || r.prefillDone > Time(0);
        WriteCsvSeconds(os, r.prefillStart, computed);
        os << ',';
        WriteCsvSeconds(os, r.prefillDone, computed);
        os << ',';
        WriteCsvSeconds(os, r.kvStart, computed);
        os << ',';
        WriteCsvSeconds(os, r.kvEnd, r.done);
        os << ',';
        WriteCsvSeconds(os, r.GetKvTime(), r.done);
        os << ',';
        WriteCsvSeconds(os, r.GetTtft(), r.done);
        os << ',' << (r.done ? 1 : 0) << '\n';
    }
}

} // namespace mose
} // namespace ns3
