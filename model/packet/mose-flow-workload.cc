/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-workload.h"

#include "ns3/application.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseFlowWorkload");
NS_OBJECT_ENSURE_REGISTERED(MoseFlowWorkload);

TypeId
MoseFlowWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseFlowWorkload")
                            .SetParent<MoseWorkload>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseFlowWorkload>();
    return tid;
}

MoseFlowWorkload::MoseFlowWorkload()
{
    NS_LOG_FUNCTION(this);
}

MoseFlowWorkload::~MoseFlowWorkload()
{
    NS_LOG_FUNCTION(this);
}

void
MoseFlowWorkload::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_monitor = nullptr;
    m_senders.clear();
    MoseWorkload::DoDispose();
}

void
MoseFlowWorkload::SetInstalled(Ptr<MoseTransferMonitor> monitor,
                               const std::vector<ApplicationContainer>& senders)
{
    NS_LOG_FUNCTION(this << senders.size());
    if (m_monitor)
    {
        throw mose::Error("MoseFlowWorkload::SetInstalled was already called");
    }
    if (!monitor || monitor->GetNTransfers() != senders.size())
    {
        throw mose::Error("MoseFlowWorkload::SetInstalled: " + std::to_string(senders.size()) +
                          " sender lists for " +
                          std::to_string(monitor ? monitor->GetNTransfers() : 0) +
                          " transfers (one list per transfer of the monitor)");
    }
    m_monitor = monitor;
    m_senders = senders;
    m_withdrawn.assign(senders.size(), false);
    m_monitor->TraceConnectWithoutContext("TransferCompleted",
                                          MakeCallback(&MoseFlowWorkload::OnCompleted, this));
}

Ptr<MoseTransferMonitor>
MoseFlowWorkload::GetMonitor() const
{
    return m_monitor;
}

void
MoseFlowWorkload::SetMode(mose::WorkloadMode mode,
                          const mose::RoleAssignment& /* roles */,
                          std::shared_ptr<const mose::CircuitGraph> /* graph */)
{
    NS_LOG_FUNCTION(this << mose::ToString(mode));
    m_mode = mode;
}

mose::WorkloadMode
MoseFlowWorkload::GetMode() const
{
    return m_mode;
}

void
MoseFlowWorkload::Start(Time start)
{
    NS_LOG_FUNCTION(this << start);
    if (!m_monitor)
    {
        throw mose::Error("MoseFlowWorkload::Start before SetInstalled()");
    }
    if (start.IsZero())
    {
        return; // the transfers start as drawn
    }
    bool running = !Simulator::Now().IsZero() || Simulator::GetEventCount() > 0;
    for (const auto& apps : m_senders)
    {
        for (uint32_t a = 0; a < apps.GetN() && !running; ++a)
        {
            // initialised (the run began) or disposed (it ended): the start time was read
            running = apps.Get(a)->IsInitialized() || !apps.Get(a)->GetNode();
        }
    }
    if (running)
    {
        throw mose::Error("MoseFlowWorkload::Start(" + std::to_string(start.GetNanoSeconds()) +
                          " ns) once the simulation runs: the transfers' applications read "
                          "their start times when their nodes are initialised");
    }
    if (start.IsStrictlyNegative())
    {
        mose::ThrowBadParameter("MoseFlowWorkload::Start delay",
                                std::to_string(start.GetNanoSeconds()) + " ns",
                                "a time >= 0");
    }
    for (auto& apps : m_senders)
    {
        for (uint32_t a = 0; a < apps.GetN(); ++a)
        {
            TimeValue at;
            apps.Get(a)->GetAttribute("StartTime", at);
            apps.Get(a)->SetStartTime(at.Get() + start);
        }
    }
    m_monitor->Delay(start);
}

void
MoseFlowWorkload::Stop()
{
    NS_LOG_FUNCTION(this);
    if (!m_monitor)
    {
        return;
    }
    for (uint32_t i = 0; i < m_senders.size(); ++i)
    {
        if (!m_withdrawn[i] && m_monitor->GetTransfer(i).start > Simulator::Now())
        {
            // disposing a sender cancels its start event (Application::DoDispose); its node
            // disposes it again, harmlessly, when the simulation is destroyed
            for (uint32_t a = 0; a < m_senders[i].GetN(); ++a)
            {
                m_senders[i].Get(a)->Dispose();
            }
            m_withdrawn[i] = true;
            ++m_nWithdrawn;
        }
    }
}

bool
MoseFlowWorkload::IsDone() const
{
    return m_monitor && m_monitor->GetNCompleted() + m_nWithdrawn == m_monitor->GetNTransfers();
}

uint32_t
MoseFlowWorkload::GetNDone() const
{
    return m_monitor ? m_monitor->GetNCompleted() : 0;
}

uint64_t
MoseFlowWorkload::GetNErrors() const
{
    return 0;
}

std::vector<MoseTransfer>
MoseFlowWorkload::GetTransfers() const
{
    return m_monitor ? m_monitor->GetTransfers() : std::vector<MoseTransfer>{};
}

uint32_t
MoseFlowWorkload::GetNWithdrawn() const
{
    return m_nWithdrawn;
}

void
MoseFlowWorkload::OnCompleted(uint32_t, Time)
{
    NotifyWorkDone();
}

} // namespace ns3
