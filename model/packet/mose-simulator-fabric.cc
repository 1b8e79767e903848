/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-simulator-fabric.h"

#include "ns3/mose-error.h"
#include "ns3/simulator.h"

#include <utility>

namespace ns3
{

MoseSimulatorFabric::MoseSimulatorFabric(Ptr<MoseTransport> transfers)
    : m_transfers(transfers)
{
    if (!m_transfers)
    {
        throw mose::Error("MoseSimulatorFabric: no transport");
    }
}

MoseSimulatorFabric::~MoseSimulatorFabric() = default;

int64_t
MoseSimulatorFabric::Now() const
{
    return Simulator::Now().GetNanoSeconds();
}

mose::WorkloadFabric::EventHandle
MoseSimulatorFabric::Schedule(int64_t delayNs, Event event)
{
    m_events.push_back(Simulator::Schedule(NanoSeconds(delayNs), std::move(event)));
    return m_events.size() - 1;
}

void
MoseSimulatorFabric::Cancel(EventHandle event)
{
    if (event < m_events.size())
    {
        m_events[event].Cancel();
    }
}

void
MoseSimulatorFabric::CancelAll()
{
    for (EventId& e : m_events)
    {
        e.Cancel();
    }
    m_events.clear();
}

uint64_t
MoseSimulatorFabric::StartTransfer(const mose::TransferSpec& t, DoneCallback done)
{
    uint32_t slot;
    if (m_freeSlots.empty())
    {
        slot = static_cast<uint32_t>(m_done.size());
        m_done.push_back(std::move(done));
    }
    else
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
        m_done[slot] = std::move(done);
    }
    const MoseTransport::DoneCallback cb =
        MakeBoundCallback(&MoseSimulatorFabric::Done, this, slot);
    uint64_t id;
    try
    {
        id = t.keepConnection
                 ? m_transfers->StartOnConnection(t.src, t.dst, t.bytes, cb, t.trafficClass, t.rail)
                 : m_transfers->Start(t.src, t.dst, t.bytes, cb, t.trafficClass, t.rail);
    }
    catch (...)
    {
        m_done[slot] = nullptr;
        m_freeSlots.push_back(slot);
        throw;
    }
    m_transferIds.push_back(id);
    return id;
}

void
MoseSimulatorFabric::Done(MoseSimulatorFabric* self, uint32_t slot, uint64_t id)
{
    DoneCallback done = std::move(self->m_done[slot]);
    self->m_done[slot] = nullptr;
    self->m_freeSlots.push_back(slot);
    const MoseTransfer& t = self->m_transfers->GetTransfer(id);
    mose::TransferReport report;
    report.id = id;
    report.received = t.received;
    report.endNs = t.end.GetNanoSeconds();
    done(report);
}

void
MoseSimulatorFabric::CloseConnections(const std::vector<uint32_t>& groups)
{
    m_transfers->CloseConnections(groups);
}

Ptr<MoseTransport>
MoseSimulatorFabric::GetTransfers() const
{
    return m_transfers;
}

const std::vector<uint64_t>&
MoseSimulatorFabric::GetTransferIds() const
{
    return m_transferIds;
}

} // namespace ns3
