/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-fluid-llm.h"

#include "ns3/mose-error.h"
#include "ns3/mose-model-shape.h"

#include <cmath>
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
    inference.Validate();
    if (requests.empty() && !training)
    {
        ThrowBadParameter("requests", "none, and no training job", "a workload to run");
    }
    for (std::size_t m = 0; training && m < 2; ++m)
    {
        const std::size_t n = roles[m].GetTraining().size();
        if (n < 2)
        {
            ThrowBadParameter("training groups",
                              std::to_string(n),
                              "at least 2 training groups in mode " +
                                  ToString(static_cast<WorkloadMode>(m)));
        }
        training->Validate(n);
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
    m_workloadFabric.emplace(*m_fabric);

    // the inference workload in the initial mode (MoseInferenceWorkload::SetMode, Start)
    m_inference.SetRequests(m_config.requests);
    m_inference.SetMode(m_config.inference.placement,
                        m_config.initialMode,
                        m_config.roles[initial],
                        std::make_shared<const CircuitGraph>(m_config.graphs[initial]));
    InferenceServer::Observers io;
    io.done = [this](const RequestRecord&) { MaybeStop(); };
    m_inference.SetObservers(std::move(io));
    m_inference.Start(*m_workloadFabric, 0, m_config.inference);
    // the training job, then its stop at the end (Experiment::StopWorkloadAt)
    if (m_config.training)
    {
        m_training.SetMode(m_config.initialMode, m_config.roles[initial]);
        TrainingJob::Observers to;
        to.done = [this](const IterationRecord&) { MaybeStop(); };
        m_training.SetObservers(std::move(to));
        m_training.Start(*m_workloadFabric, 0, *m_config.training);
        m_fabric->Schedule(m_config.endNs, [this]() {
            m_training.Stop();
            MaybeStop();
        });
    }
    // the switcher's boundaries (scheduled when the run starts, after the workloads' events)
    for (std::size_t b = 0; b < m_config.boundaries.size(); ++b)
    {
        m_fabric->Schedule(m_config.boundaries[b].first, [this, b]() { Boundary(b); });
    }
    m_fabric->Run(m_config.stopNs, [this]() { return m_stop; });
    // which unserved requests had their last KV byte delivered (the notice was due later)
    m_delivered.clear();
    for (const RequestRecord& rec : m_inference.GetRecords())
    {
        m_delivered.push_back(rec.done ||
                              (rec.computed && m_fabric->GetTransfer(rec.transfer).complete));
    }
}

void
FluidLlmRun::Boundary(std::size_t b)
{
    const WorkloadMode to = m_config.boundaries[b].second;
    if (m_fabric->IsSwitching())
    {
        ++m_boundaryErrors; // the packet level's switcher skips it too
        return;
    }
    const std::size_t m = ModeIndex(to);
    m_fabric->StartSwitch(m_config.graphs[m]);
    ++m_switches;
    // SwitchStarted: the workloads take the new mode
    m_inference.SetMode(m_config.inference.placement,
                        to,
                        m_config.roles[m],
                        std::make_shared<const CircuitGraph>(m_config.graphs[m]));
    if (m_config.training)
    {
        m_training.SetMode(to, m_config.roles[m]);
    }
}

void
FluidLlmRun::MaybeStop()
{
    const bool inferenceDone = m_inference.GetNDone() == m_inference.GetNArrived() &&
                               m_inference.GetNArrived() == m_config.requests.size();
    const bool trainingDone = !m_config.training || m_training.IsDone();
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

const std::vector<RequestRecord>&
FluidLlmRun::GetRequests() const
{
    return m_inference.GetRecords();
}

const std::vector<bool>&
FluidLlmRun::GetDelivered() const
{
    return m_delivered;
}

const std::vector<IterationRecord>&
FluidLlmRun::GetIterations() const
{
    return m_training.GetRecords();
}

const std::vector<CollectiveRecord>&
FluidLlmRun::GetCollectives() const
{
    return m_training.GetCollectiveRecords();
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
    return m_inference.GetNErrors() + m_training.GetNErrors() + m_boundaryErrors;
}

} // namespace mose
} // namespace ns3
