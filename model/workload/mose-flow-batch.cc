/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-batch.h"

#include "ns3/mose-error.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace ns3
{
namespace mose
{

void
FlowBatch::SetFlows(const std::vector<BatchFlow>& flows)
{
    if (m_fabric)
    {
        throw Error("FlowBatch::SetFlows after Start()");
    }
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const BatchFlow& f = flows[i];
        const std::string name = "flow " + std::to_string(i);
        if (f.bytes == 0)
        {
            ThrowBadParameter(name + " bytes", "0", "at least 1 byte");
        }
        if (f.src == f.dst)
        {
            ThrowBadParameter(name + " groups",
                              std::to_string(f.src) + "->" + std::to_string(f.dst),
                              "a source other than its destination");
        }
        if (f.startNs < 0)
        {
            ThrowBadParameter(name + " start", std::to_string(f.startNs) + " ns", "a time >= 0");
        }
    }
    m_records.clear();
    m_records.reserve(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        FlowRecord r;
        r.index = static_cast<uint32_t>(i);
        r.flow = flows[i];
        m_records.push_back(r);
    }
    std::stable_sort(
        m_records.begin(),
        m_records.end(),
        [](const FlowRecord& a, const FlowRecord& b) { return a.flow.startNs < b.flow.startNs; });
}

void
FlowBatch::SetObservers(Observers observers)
{
    m_observers = std::move(observers);
}

void
FlowBatch::Start(WorkloadFabric& fabric)
{
    if (m_fabric)
    {
        throw Error("FlowBatch::Start runs once");
    }
    const int64_t now = fabric.Now();
    if (!m_records.empty() && m_records.front().flow.startNs < now)
    {
        ThrowBadParameter("flow " + std::to_string(m_records.front().index) + " start",
                          std::to_string(m_records.front().flow.startNs) + " ns",
                          "a time at or after the batch's start, " + std::to_string(now) + " ns");
    }
    m_fabric = &fabric;
    m_start.clear();
    m_start.reserve(m_records.size());
    for (uint32_t i = 0; i < m_records.size(); ++i)
    {
        m_start.push_back(
            fabric.Schedule(m_records[i].flow.startNs - now, [this, i]() { StartFlow(i); }));
    }
}

void
FlowBatch::StartFlow(uint32_t i)
{
    FlowRecord& r = m_records[i];
    if (r.withdrawn)
    {
        return; // a fabric whose cancelled events still run (FluidWorkloadFabric's do not)
    }
    TransferSpec t;
    t.src = r.flow.src;
    t.dst = r.flow.dst;
    t.bytes = r.flow.bytes;
    t.trafficClass = r.flow.trafficClass;
    t.rail = r.flow.rail;
    try
    {
        r.transfer = m_fabric->StartTransfer(t, [this, i](const TransferReport& report) {
            Done(i, report);
        });
    }
    catch (const std::exception& e)
    {
        Fail(i, std::string("start: ") + e.what());
        return;
    }
    r.started = true;
    r.start = NanoSeconds(m_fabric->Now());
    ++m_started;
    if (m_observers.started)
    {
        m_observers.started(r);
    }
}

void
FlowBatch::Done(uint32_t i, const TransferReport& report)
{
    FlowRecord& r = m_records[i];
    r.complete = true;
    r.end = NanoSeconds(report.endNs);
    r.received = report.received;
    ++m_done;
    if (m_observers.done)
    {
        m_observers.done(r);
    }
}

void
FlowBatch::Fail(uint32_t i, const std::string& what)
{
    ++m_errors;
    if (m_observers.error)
    {
        m_observers.error(i, what);
    }
}

void
FlowBatch::Stop()
{
    if (!m_fabric)
    {
        // nothing scheduled yet: every flow is withdrawn
        for (FlowRecord& r : m_records)
        {
            if (!r.withdrawn)
            {
                r.withdrawn = true;
                ++m_withdrawn;
            }
        }
        return;
    }
    for (uint32_t i = 0; i < m_records.size(); ++i)
    {
        FlowRecord& r = m_records[i];
        if (!r.started && !r.withdrawn)
        {
            m_fabric->Cancel(m_start[i]);
            r.withdrawn = true;
            ++m_withdrawn;
        }
    }
}

void
FlowBatch::CancelEvents()
{
    if (m_fabric)
    {
        for (WorkloadFabric::EventHandle e : m_start)
        {
            m_fabric->Cancel(e);
        }
    }
}

void
FlowBatch::SetMode(WorkloadMode mode)
{
    m_mode = mode;
}

std::optional<WorkloadMode>
FlowBatch::GetMode() const
{
    return m_mode;
}

bool
FlowBatch::IsDone() const
{
    return m_done + m_withdrawn + m_errors >= m_records.size();
}

const std::vector<FlowRecord>&
FlowBatch::GetRecords() const
{
    return m_records;
}

uint32_t
FlowBatch::GetNStarted() const
{
    return m_started;
}

uint32_t
FlowBatch::GetNDone() const
{
    return m_done;
}

uint32_t
FlowBatch::GetNWithdrawn() const
{
    return m_withdrawn;
}

uint64_t
FlowBatch::GetNErrors() const
{
    return m_errors;
}

FlowBatchSummary
SummarizeFlows(const std::vector<FlowRecord>& records, std::optional<TrafficClass> cls)
{
    FlowBatchSummary s;
    std::vector<double> fct;
    for (const FlowRecord& r : records)
    {
        if (cls && r.flow.trafficClass != *cls)
        {
            continue;
        }
        ++s.flows;
        s.started += r.started ? 1 : 0;
        if (r.complete)
        {
            s.received += r.received;
            fct.push_back(r.GetFct().GetSeconds());
        }
    }
    s.completed = static_cast<uint32_t>(fct.size());
    s.fct = DescribeSample(std::move(fct));
    return s;
}

} // namespace mose
} // namespace ns3
