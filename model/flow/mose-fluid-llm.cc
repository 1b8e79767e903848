/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-fluid-llm.h"

#include "mose-model-shape.h"

#include "ns3/mose-error.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <string>

namespace ns3
{
namespace mose
{

namespace
{

/// \return the index of a mode in the per-mode arrays
std::size_t
ModeIndex(WorkloadMode mode)
{
    return static_cast<std::size_t>(mode);
}

} // namespace

void
FluidLlmConfig::Validate() const
{
    fabric.Validate();
    for (std::size_t m = 0; m < 2; ++m)
    {
        if (roles[m].GetN() != graphs[m].GetNNodes())
        {
            ThrowBadParameter("roles of mode " + ToString(static_cast<WorkloadMode>(m)),
                              std::to_string(roles[m].GetN()) + " groups",
                              "as many groups as the graph's " +
                                  std::to_string(graphs[m].GetNNodes()) + " nodes");
        }
    }
    int64_t last = 0;
    for (std::size_t b = 0; b < boundaries.size(); ++b)
    {
        if (boundaries[b].first <= last)
        {
            ThrowBadParameter("boundary " + std::to_string(b),
                              std::to_string(boundaries[b].first) + " ns",
                              "after time 0 and after the boundary before it");
        }
        last = boundaries[b].first;
    }
    if (endNs <= 0 || stopNs < endNs)
    {
        ThrowBadParameter("end", std::to_string(endNs) + " ns", "0 < end <= stop time");
    }
    ValidateLlmRequests(requests, "requests");
    if (kvBytesPerToken == 0)
    {
        ThrowBadParameter("kvBytesPerToken", "0", "at least 1 byte per token");
    }
    if (!(std::isfinite(prefillTokensPerSecond) && prefillTokensPerSecond > 0))
    {
        ThrowBadParameter("prefillTokensPerSecond",
                          FormatNumber(prefillTokensPerSecond),
                          "a finite number > 0");
    }
    if (scale == 0)
    {
        ThrowBadParameter("scale", "0", "a factor >= 1");
    }
    if (computeNs < 0)
    {
        ThrowBadParameter("compute time", std::to_string(computeNs) + " ns", "a time >= 0");
    }
    if (requests.empty() && !training)
    {
        ThrowBadParameter("requests", "none, and no training job", "a workload to run");
    }
    if (training)
    {
        for (std::size_t m = 0; m < 2; ++m)
        {
            const std::size_t n = roles[m].GetTraining().size();
            if (n < 2)
            {
                ThrowBadParameter("training groups",
                                  std::to_string(n),
                                  "at least 2 training groups in mode " +
                                      ToString(static_cast<WorkloadMode>(m)));
            }
            if (collectiveBytes / scale < n)
            {
                ThrowBadParameter("collective bytes / scale",
                                  std::to_string(collectiveBytes) + " / " + std::to_string(scale),
                                  "at least the " + std::to_string(n) +
                                      " members (every chunk at least 1 byte)");
            }
            (void)PlanCollective(collective, static_cast<uint32_t>(n), collectiveBytes);
        }
    }
}

FluidLlmRun::FluidLlmRun(const FluidLlmConfig& config)
    : m_config(config)
{
}

void
FluidLlmRun::Run()
{
    if (m_ran)
    {
        throw Error("FluidLlmRun::Run runs once");
    }
    m_config.Validate();
    m_ran = true;
    const std::size_t initial = ModeIndex(m_config.initialMode);
    m_fabric.emplace(m_config.graphs[initial], m_config.fabric);
    FluidFabric& fabric = *m_fabric;

    // the inference workload in the initial mode (MoseInferenceWorkload::SetMode, Start)
    const uint32_t n = m_config.roles[initial].GetN();
    m_mode = m_config.initialMode;
    m_placer.emplace(m_config.placement,
                     m_config.roles[initial],
                     std::make_shared<const CircuitGraph>(m_config.graphs[initial]));
    m_queue.assign(n, {});
    m_busy.assign(n, false);
    m_requests.assign(m_config.requests.size(), {});
    for (uint32_t i = 0; i < m_config.requests.size(); ++i)
    {
        const LlmRequest& r = m_config.requests[i];
        FluidRequestRecord& rec = m_requests[i];
        rec.index = i;
        rec.inputTokens = r.inputTokens;
        rec.outputTokens = r.outputTokens;
        rec.kvBytes = CheckedProduct(
            "KV bytes of request " + std::to_string(i),
            {{"input tokens", r.inputTokens}, {"kvBytesPerToken", m_config.kvBytesPerToken}});
        rec.wireBytes = ScaleBytes(rec.kvBytes, m_config.scale, 1);
        rec.arrivalNs = static_cast<int64_t>(r.arrivalNs);
        fabric.Schedule(rec.arrivalNs, [this, i]() { Arrive(i); });
    }
    // the training job, then its stop at the end (Experiment::StopWorkloadAt)
    if (m_config.training)
    {
        m_trainingMode = m_config.initialMode;
        m_groups = m_config.roles[initial].GetTraining();
        fabric.Schedule(0, [this]() { StartIteration(); });
        fabric.Schedule(m_config.endNs, [this]() {
            m_trainingStopped = true;
            MaybeStop();
        });
    }
    // the switcher's boundaries (scheduled when the run starts, after the workloads' events)
    for (std::size_t b = 0; b < m_config.boundaries.size(); ++b)
    {
        fabric.Schedule(m_config.boundaries[b].first, [this, b]() { Boundary(b); });
    }
    fabric.Run(m_config.stopNs, [this]() { return m_stop; });
    // which unserved requests had their last KV byte delivered (the notice was due later)
    for (FluidRequestRecord& rec : m_requests)
    {
        rec.delivered = rec.done || (rec.computed && fabric.GetTransfer(rec.transfer).complete);
    }
}

void
FluidLlmRun::Arrive(uint32_t i)
{
    try
    {
        FluidRequestRecord& rec = m_requests[i];
        const RequestPlacement p = m_placer->Place();
        rec.arrived = true;
        ++m_arrived;
        rec.mode = m_mode;
        rec.prefill = p.prefill;
        rec.decode = p.decode;
        rec.direct = p.direct;
        m_placer->StartWork(p.prefill, rec.inputTokens);
        m_placer->StartWork(p.decode, rec.outputTokens);
        m_queue[p.prefill].push_back(i);
        StartPrefill(p.prefill);
    }
    catch (const std::exception&)
    {
        ++m_errors;
    }
}

void
FluidLlmRun::StartPrefill(uint32_t group)
{
    if (m_busy[group] || m_queue[group].empty())
    {
        return;
    }
    const uint32_t i = m_queue[group].front();
    m_queue[group].pop_front();
    m_busy[group] = true;
    FluidRequestRecord& rec = m_requests[i];
    rec.prefillStartNs = m_fabric->Now();
    const double seconds = static_cast<double>(rec.inputTokens) / m_config.prefillTokensPerSecond;
    m_fabric->Schedule(std::llround(seconds * 1e9), [this, group, i]() { PrefillDone(group, i); });
}

void
FluidLlmRun::PrefillDone(uint32_t group, uint32_t i)
{
    try
    {
        FluidRequestRecord& rec = m_requests[i];
        rec.prefillDoneNs = m_fabric->Now();
        rec.computed = true;
        m_placer->FinishWork(group, rec.inputTokens);
        m_busy[group] = false;
        rec.transfer = m_fabric->StartTransfer(
            rec.prefill,
            rec.decode,
            rec.wireBytes,
            TrafficClass::KV,
            [this, i](uint64_t id) { KvDone(i, id); },
            i); // rail i, as MoseInferenceWorkload's
        StartPrefill(group);
    }
    catch (const std::exception&)
    {
        ++m_errors;
    }
}

void
FluidLlmRun::KvDone(uint32_t i, uint64_t id)
{
    FluidRequestRecord& rec = m_requests[i];
    const FluidTransfer& t = m_fabric->GetTransfer(id);
    rec.received = t.bytes;
    rec.kvEndNs = t.endNs;
    rec.done = true;
    ++m_served;
    m_placer->FinishWork(rec.decode, rec.outputTokens);
    MaybeStop();
}

void
FluidLlmRun::StartIteration()
{
    if (m_trainingStopped ||
        (m_config.maxIterations > 0 && m_iterations.size() >= m_config.maxIterations))
    {
        return;
    }
    FluidIterationRecord rec;
    rec.index = static_cast<uint32_t>(m_iterations.size());
    rec.mode = m_trainingMode;
    rec.members = static_cast<uint32_t>(m_groups.size());
    rec.bytesPerMember = m_config.collectiveBytes;
    rec.startNs = m_fabric->Now();
    m_members = m_groups;
    m_iterations.push_back(rec);
    m_iterationInFlight = true;
    m_fabric->Schedule(m_config.computeNs, [this]() { StartCollective(); });
}

void
FluidLlmRun::StartCollective()
{
    FluidIterationRecord& rec = m_iterations.back();
    try
    {
        const auto n = static_cast<uint32_t>(m_members.size());
        rec.wireSize = ScaleBytes(m_config.collectiveBytes, m_config.scale, n);
        if (!m_planned || m_plan.members != n || m_plan.size != rec.wireSize)
        {
            // the plan depends on the kind, n and S only: made again when they change
            m_plan = PlanCollective(m_config.collective, n, rec.wireSize);
            m_planBytes = m_plan.GetTotalBytes();
            m_planIndependent = std::all_of(m_plan.transfers.begin(),
                                            m_plan.transfers.end(),
                                            [](const CollectiveTransfer& t) {
                                                return t.dependsOn == CollectiveTransfer::NONE;
                                            });
            m_planned = true;
            m_aggregate.reset(); // its parts were the old plan's
        }
        rec.wireBytes = m_planBytes;
        rec.transfers = m_plan.transfers.size();
        rec.collectiveStartNs = m_fabric->Now();
        rec.collectiveStarted = true;
        if (m_config.aggregateCollectives && m_planIndependent)
        {
            if (!m_aggregate || m_aggregateMembers != m_members)
            {
                // the same parts while the members stay: the fabric reuses their routes
                auto parts = std::make_shared<std::vector<FluidPart>>();
                parts->reserve(m_plan.transfers.size());
                for (const CollectiveTransfer& t : m_plan.transfers)
                {
                    parts->push_back(
                        {m_members[t.src], m_members[t.dst], t.bytes, m_plan.GetRail(t)});
                }
                m_aggregate = std::move(parts);
                m_aggregateMembers = m_members;
            }
            const uint32_t iteration = rec.index;
            m_fabric->StartAggregate(m_aggregate,
                                     TrafficClass::TRAINING,
                                     [this, iteration](uint64_t id) {
                                         if (iteration + 1 != m_iterations.size())
                                         {
                                             ++m_errors;
                                             return;
                                         }
                                         CollectiveDone(m_fabric->GetTransfer(id).endNs);
                                     });
            return;
        }
        m_dependents.assign(m_plan.transfers.size(), {});
        for (uint64_t k = 0; k < m_plan.transfers.size(); ++k)
        {
            const uint64_t d = m_plan.transfers[k].dependsOn;
            if (d != CollectiveTransfer::NONE)
            {
                m_dependents[d].push_back(k);
            }
        }
        m_pending = m_plan.transfers.size();
        for (uint64_t k = 0; k < m_plan.transfers.size(); ++k)
        {
            if (m_plan.transfers[k].dependsOn == CollectiveTransfer::NONE)
            {
                StartTransfer(rec.index, k);
            }
        }
    }
    catch (const std::exception&)
    {
        ++m_errors;
        m_iterationInFlight = false;
    }
}

void
FluidLlmRun::StartTransfer(uint32_t iteration, uint64_t k)
{
    const CollectiveTransfer& t = m_plan.transfers[k];
    m_fabric->StartTransfer(
        m_members[t.src],
        m_members[t.dst],
        t.bytes,
        TrafficClass::TRAINING,
        [this, iteration, k](uint64_t id) { TransferDone(iteration, k, id); },
        m_plan.GetRail(t));
}

void
FluidLlmRun::TransferDone(uint32_t iteration, uint64_t k, uint64_t id)
{
    if (iteration + 1 != m_iterations.size())
    {
        ++m_errors;
        return;
    }
    for (uint64_t next : m_dependents[k])
    {
        StartTransfer(iteration, next);
    }
    if (--m_pending > 0)
    {
        return;
    }
    CollectiveDone(m_fabric->GetTransfer(id).endNs);
}

void
FluidLlmRun::CollectiveDone(int64_t endNs)
{
    FluidIterationRecord& rec = m_iterations.back();
    rec.collectiveEndNs = endNs;
    rec.done = true;
    m_iterationInFlight = false;
    MaybeStop();
    if (!m_trainingStopped)
    {
        StartIteration();
    }
}

void
FluidLlmRun::Boundary(std::size_t b)
{
    const WorkloadMode to = m_config.boundaries[b].second;
    if (m_fabric->IsSwitching())
    {
        ++m_errors; // the packet level's switcher skips it too
        return;
    }
    const std::size_t m = ModeIndex(to);
    m_fabric->StartSwitch(m_config.graphs[m]);
    ++m_switches;
    // SwitchStarted: the workloads take the new mode
    m_mode = to;
    m_placer->SetMode(m_config.roles[m], std::make_shared<const CircuitGraph>(m_config.graphs[m]));
    m_trainingMode = to;
    m_groups = m_config.roles[m].GetTraining();
}

void
FluidLlmRun::MaybeStop()
{
    const bool inferenceDone = m_served == m_arrived && m_arrived == m_requests.size();
    const bool trainingDone = !m_config.training || (m_trainingStopped && !m_iterationInFlight);
    if (!inferenceDone || !trainingDone)
    {
        return;
    }
    const int64_t now = m_fabric->Now();
    if (!m_config.boundaries.empty() && now < m_config.endNs &&
        now <= m_config.boundaries.back().first)
    {
        return; // the schedule's switches still belong to the run
    }
    m_stop = true;
}

const std::vector<FluidRequestRecord>&
FluidLlmRun::GetRequests() const
{
    return m_requests;
}

const std::vector<FluidIterationRecord>&
FluidLlmRun::GetIterations() const
{
    return m_iterations;
}

const FluidFabric*
FluidLlmRun::GetFabric() const
{
    return m_fabric ? &*m_fabric : nullptr;
}

int64_t
FluidLlmRun::GetEndNs() const
{
    return m_fabric ? m_fabric->Now() : 0;
}

uint32_t
FluidLlmRun::GetNSwitchesStarted() const
{
    return m_switches;
}

uint64_t
FluidLlmRun::GetNErrors() const
{
    return m_errors;
}

} // namespace mose
} // namespace ns3
