/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-fluid-workload-fabric.h"

#include <utility>

namespace ns3
{
namespace mose
{

FluidWorkloadFabric::FluidWorkloadFabric(FluidFabric& fabric)
    : m_fabric(fabric)
{
}

int64_t
FluidWorkloadFabric::Now() const
{
    return m_fabric.Now();
}

WorkloadFabric::EventHandle
FluidWorkloadFabric::Schedule(int64_t delayNs, Event event)
{
    // FluidFabric's events cannot be taken back: a cancelled one runs and does nothing
    const EventHandle h = m_cancelled.size();
    m_cancelled.push_back(false);
    m_fabric.Schedule(delayNs, [this, h, e = std::move(event)]() {
        if (!m_cancelled[h])
        {
            m_cancelled[h] = true; // ran: a later Cancel() does nothing
            e();
        }
    });
    return h;
}

void
FluidWorkloadFabric::Cancel(EventHandle event)
{
    if (event < m_cancelled.size())
    {
        m_cancelled[event] = true;
    }
}

TransferReport
FluidWorkloadFabric::Report(uint64_t id) const
{
    const FluidTransfer& t = m_fabric.GetTransfer(id);
    TransferReport r;
    r.id = id;
    r.received = t.bytes;
    r.endNs = t.endNs;
    return r;
}

uint64_t
FluidWorkloadFabric::StartTransfer(const TransferSpec& t, DoneCallback done)
{
    return m_fabric.StartTransfer(
        t.src,
        t.dst,
        t.bytes,
        t.trafficClass,
        [this, d = std::move(done)](uint64_t id) { d(Report(id)); },
        t.rail,
        t.keepConnection);
}

void
FluidWorkloadFabric::CloseConnections(const std::vector<uint32_t>& groups)
{
    m_fabric.CloseConnections(groups);
}

uint64_t
FluidWorkloadFabric::StartAggregate(std::shared_ptr<const std::vector<TransferPart>> parts,
                                    TrafficClass trafficClass,
                                    DoneCallback done)
{
    return m_fabric.StartAggregate(std::move(parts),
                                   trafficClass,
                                   [this, d = std::move(done)](uint64_t id) { d(Report(id)); });
}

bool
FluidWorkloadFabric::CanAggregate() const
{
    return true;
}

} // namespace mose
} // namespace ns3
