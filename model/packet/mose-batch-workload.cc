/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-batch-workload.h"

#include "mose-transport.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/simulator.h"

#include <exception>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseBatchWorkload");

NS_OBJECT_ENSURE_REGISTERED(MoseBatchWorkload);

TypeId
MoseBatchWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseBatchWorkload")
                            .SetParent<MoseWorkload>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseBatchWorkload>();
    return tid;
}

MoseBatchWorkload::MoseBatchWorkload()
{
    NS_LOG_FUNCTION(this);
    mose::FlowBatch::Observers observers;
    observers.done = [this](const mose::FlowRecord& r) { OnDone(r); };
    m_batch.SetObservers(std::move(observers));
}

MoseBatchWorkload::~MoseBatchWorkload() = default;

void
MoseBatchWorkload::SetTransfers(Ptr<MoseTransport> transfers)
{
    NS_LOG_FUNCTION(this << transfers);
    if (m_fabric)
    {
        throw mose::Error("MoseBatchWorkload::SetTransfers: the transport was given before");
    }
    m_transport = transfers;
    m_fabric = std::make_unique<MoseSimulatorFabric>(transfers);
}

void
MoseBatchWorkload::SetFlows(const std::vector<mose::BatchFlow>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    m_batch.SetFlows(flows);
}

void
MoseBatchWorkload::SetMode(mose::WorkloadMode mode,
                           const mose::RoleAssignment& /* roles */,
                           std::shared_ptr<const mose::CircuitGraph> /* graph */)
{
    NS_LOG_FUNCTION(this << static_cast<int>(mode));
    m_batch.SetMode(mode);
}

void
MoseBatchWorkload::Start(Time start)
{
    NS_LOG_FUNCTION(this << start);
    if (!m_fabric)
    {
        throw mose::Error("MoseBatchWorkload::Start needs a transport (MoseWorkloadHelper::"
                          "Install())");
    }
    if (m_started || MOSE_EVENT_IS_PENDING(m_startEvent))
    {
        throw mose::Error("MoseBatchWorkload::Start was already called");
    }
    m_startEvent = Simulator::Schedule(start, &MoseBatchWorkload::StartBatch, this);
}

void
MoseBatchWorkload::StartBatch()
{
    NS_LOG_FUNCTION(this);
    if (m_stopped)
    {
        return;
    }
    // no exception leaves a simulation event: it is counted and logged
    try
    {
        m_batch.Start(*m_fabric);
        m_started = true;
    }
    catch (const std::exception& e)
    {
        ++m_errors;
        NS_LOG_ERROR("the batch did not start: " << e.what());
    }
}

void
MoseBatchWorkload::Stop()
{
    NS_LOG_FUNCTION(this);
    if (m_started)
    {
        m_batch.Stop();
    }
    else
    {
        m_stopped = true;
        m_startEvent.Cancel();
    }
}

bool
MoseBatchWorkload::IsDone() const
{
    if (m_errors > 0 || (m_stopped && !m_started))
    {
        return true;
    }
    return m_started && m_batch.IsDone();
}

uint32_t
MoseBatchWorkload::GetNDone() const
{
    return m_batch.GetNDone();
}

uint64_t
MoseBatchWorkload::GetNErrors() const
{
    return m_errors + m_batch.GetNErrors();
}

std::vector<MoseTransfer>
MoseBatchWorkload::GetTransfers() const
{
    const std::vector<mose::FlowRecord>& records = m_batch.GetRecords();
    std::vector<MoseTransfer> transfers(records.size());
    for (const mose::FlowRecord& r : records)
    {
        MoseTransfer& t = transfers.at(r.index);
        if (r.started && m_transport)
        {
            t = m_transport->GetTransfer(r.transfer);
        }
        t.src = r.flow.src;
        t.dst = r.flow.dst;
        t.cls = r.flow.trafficClass;
        t.bytes = r.flow.bytes;
        t.start = r.started ? r.start : NanoSeconds(r.flow.startNs);
        t.complete = r.complete;
        if (r.complete)
        {
            // the last byte's arrival, as a BulkSend's sink records it (not the notice)
            t.end = r.end;
            t.received = r.received;
        }
    }
    return transfers;
}

const mose::FlowBatch&
MoseBatchWorkload::GetBatch() const
{
    return m_batch;
}

void
MoseBatchWorkload::OnDone(const mose::FlowRecord& /* record */)
{
    NotifyWorkDone();
}

void
MoseBatchWorkload::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_startEvent.Cancel();
    m_batch.CancelEvents();
    if (m_fabric)
    {
        m_fabric->CancelAll();
    }
    m_transport = nullptr;
    MoseWorkload::DoDispose();
}

} // namespace ns3
