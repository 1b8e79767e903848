/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-fluid-flow-run.h"

#include "ns3/mose-error.h"

#include <string>

namespace ns3
{
namespace mose
{

void
FluidFlowConfig::Validate() const
{
    fabric.Validate();
    int64_t last = 0;
    for (std::size_t b = 0; b < boundaries.size(); ++b)
    {
        if (boundaries[b].atNs <= last)
        {
            ThrowBadParameter("boundary " + std::to_string(b),
                              std::to_string(boundaries[b].atNs) + " ns",
                              "after time 0 and after the boundary before it");
        }
        if (boundaries[b].graph.GetNNodes() != graph.GetNNodes())
        {
            ThrowBadParameter("boundary " + std::to_string(b) + " graph",
                              std::to_string(boundaries[b].graph.GetNNodes()) + " groups",
                              "the initial graph's " + std::to_string(graph.GetNNodes()));
        }
        last = boundaries[b].atNs;
    }
    if (sampleNs < 0)
    {
        ThrowBadParameter("sample period", std::to_string(sampleNs) + " ns", "a time >= 0");
    }
    if (stopNs <= 0 || endNs < 0)
    {
        ThrowBadParameter("stop time", std::to_string(stopNs) + " ns", "a time > 0");
    }
}

FluidFlowRun::FluidFlowRun(const FluidFlowConfig& config)
    : m_config(config)
{
}

void
FluidFlowRun::SetObservers(Observers observers)
{
    m_observers = std::move(observers);
}

void
FluidFlowRun::Run()
{
    if (m_ran)
    {
        throw Error("FluidFlowRun::Run runs once");
    }
    m_config.Validate();
    m_ran = true;
    m_fabric.emplace(m_config.graph, m_config.fabric);
    m_workloadFabric.emplace(*m_fabric);
    m_batches.assign(m_config.batches.size(), FlowBatch());
    for (std::size_t i = 0; i < m_batches.size(); ++i)
    {
        m_batches[i].SetFlows(m_config.batches[i]);
        m_batches[i].SetMode(m_config.initialMode);
        m_batches[i].Start(*m_workloadFabric);
    }
    // the switcher's boundaries, after the flows' starts (the packet level's switcher is
    // installed after the fabric, its applications before the switch events)
    for (std::size_t b = 0; b < m_config.boundaries.size(); ++b)
    {
        m_fabric->Schedule(m_config.boundaries[b].atNs, [this, b]() { Boundary(b); });
    }
    if (m_config.sampleNs > 0 && m_observers.sample)
    {
        m_fabric->Schedule(m_config.sampleNs, [this]() { Sample(); });
    }
    m_fabric->Run(m_config.stopNs, [this]() { return CheckStop(); });
}

void
FluidFlowRun::Sample()
{
    m_observers.sample();
    m_fabric->Schedule(m_config.sampleNs, [this]() { Sample(); });
}

void
FluidFlowRun::Boundary(std::size_t b)
{
    if (m_observers.boundary)
    {
        m_observers.boundary(b);
    }
    if (m_fabric->IsSwitching())
    {
        ++m_boundaryErrors; // the packet level's switcher skips it too
        return;
    }
    const FluidFlowConfig::Boundary& to = m_config.boundaries[b];
    m_fabric->StartSwitch(to.graph);
    m_switching = true;
    ++m_switches;
    for (FlowBatch& batch : m_batches)
    {
        batch.SetMode(to.mode);
    }
}

bool
FluidFlowRun::CheckStop()
{
    if (m_switching && !m_fabric->IsSwitching())
    {
        m_switching = false;
        if (m_observers.switchDone)
        {
            m_observers.switchDone(m_switches - 1);
        }
    }
    for (const FlowBatch& batch : m_batches)
    {
        if (!batch.IsDone())
        {
            return false;
        }
    }
    if (m_config.waitForSwitches && m_fabric->IsSwitching())
    {
        return false;
    }
    const int64_t now = m_fabric->Now();
    const int64_t end = m_config.endNs > 0 ? m_config.endNs : m_config.stopNs;
    if (!m_config.boundaries.empty() && now < end &&
        (m_config.waitForSwitches ? now < m_config.boundaries.back().atNs
                                  : now <= m_config.boundaries.back().atNs))
    {
        return false; // the schedule's switches still belong to the run
    }
    return true;
}

const std::vector<FlowBatch>&
FluidFlowRun::GetBatches() const
{
    return m_batches;
}

const FluidFabric*
FluidFlowRun::GetFabric() const
{
    return m_fabric ? &*m_fabric : nullptr;
}

int64_t
FluidFlowRun::GetEndNs() const
{
    return m_fabric ? m_fabric->Now() : 0;
}

uint32_t
FluidFlowRun::GetNSwitchesStarted() const
{
    return m_switches;
}

uint64_t
FluidFlowRun::GetNErrors() const
{
    uint64_t errors = m_boundaryErrors;
    for (const FlowBatch& batch : m_batches)
    {
        errors += batch.GetNErrors();
    }
    return errors;
}

} // namespace mose
} // namespace ns3
