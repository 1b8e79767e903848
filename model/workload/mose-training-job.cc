/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-training-job.h"

#include "mose-inference-server.h"

#include "ns3/mose-error.h"
#include "ns3/mose-llm-request.h"

#include <algorithm>
#include <exception>

namespace ns3
{
namespace mose
{

TrainingJob::TrainingJob() = default;

void
TrainingJob::SetMode(WorkloadMode mode, const RoleAssignment& roles)
{
    if (roles.GetTraining().size() < 2)
    {
        ThrowBadParameter("training groups",
                          std::to_string(roles.GetTraining().size()),
                          "at least 2 training groups in mode " + ToString(mode));
    }
    m_mode = mode;
    m_groups = roles.GetTraining();
    m_hasMode = true;
}

bool
TrainingJob::HasMode() const
{
    return m_hasMode;
}

const std::vector<uint32_t>&
TrainingJob::GetGroups() const
{
    return m_groups;
}

void
TrainingSettings::Validate(std::size_t members) const
{
    if (scale == 0)
    {
        ThrowBadParameter("scale", "0", "a factor >= 1");
    }
    if (plan)
    {
        const RankMapping mapping = rankMapping ? *rankMapping : RankMapping();
        plan->Validate();
        if (!mapping.member.empty() && mapping.member.size() < plan->ranks.size())
        {
            // GetMember() and GetRail() of a rank the file does not list would be out of range
            throw Error(mapping.source + ": the rank mapping lists ranks 0 to " +
                        std::to_string(mapping.member.size() - 1) + ", and " + plan->source +
                        " has " + std::to_string(plan->ranks.size()) +
                        " ranks: a line \"rank member rail\" for each of ranks 0 to " +
                        std::to_string(plan->ranks.size() - 1));
        }
        for (uint32_t r = 0; r < plan->ranks.size(); ++r)
        {
            if (mapping.GetMember(r) >= members)
            {
                throw Error(plan->source + ": rank " + std::to_string(r) +
                            " maps to training member " + std::to_string(mapping.GetMember(r)) +
                            ", outside the " + std::to_string(members) + " training groups (" +
                            (mapping.member.empty()
                                 ? std::to_string(mapping.ranksPerGroup) +
                                       " ranks per group: rank r is on member r / " +
                                       std::to_string(mapping.ranksPerGroup)
                                 : std::string("the rank mapping file")) +
                            ")");
            }
        }
        nccl.Validate();
        return; // the synthetic fields are unused
    }
    if (computeNs < 0)
    {
        ThrowBadParameter("compute time", std::to_string(computeNs) + " ns", "a time >= 0");
    }
    if (collectiveBytes / scale < members)
    {
        ThrowBadParameter("collective bytes / scale",
                          std::to_string(collectiveBytes) + " / " + std::to_string(scale),
                          "at least the " + std::to_string(members) +
                              " members (every chunk at least 1 byte)");
    }
    // the kind and the size
    (void)PlanCollective(collective, static_cast<uint32_t>(members), collectiveBytes);
}

void
TrainingJob::SetObservers(Observers observers)
{
    m_observers = std::move(observers);
}

void
TrainingJob::Start(WorkloadFabric& fabric, int64_t startNs, const TrainingSettings& settings)
{
    if (!m_hasMode)
    {
        throw Error("the training job has no roles: set its mode before it starts");
    }
    settings.Validate(m_groups.size()); // now, not inside an event
    if (settings.aggregate && !settings.plan && !fabric.CanAggregate())
    {
        throw Error("the training job aggregates its collectives, and this fabric moves every "
                    "transfer on its own");
    }
    m_fabric = &fabric;
    m_settings = settings;
    m_stopped = false;
    m_event = fabric.Schedule(startNs, [this]() { StartIteration(); });
    m_hasEvent = true;
}

void
TrainingJob::Stop()
{
    m_stopped = true; // the iteration in flight (compute or collective) completes
}

void
TrainingJob::CancelEvents()
{
    if (m_fabric && m_hasEvent)
    {
        m_fabric->Cancel(m_event);
    }
}

void
TrainingJob::Fail(uint32_t iteration, const std::string& what)
{
    ++m_errors;
    if (m_observers.error)
    {
        m_observers.error(iteration, what);
    }
}

void
TrainingJob::StartIteration()
{
    if (m_stopped || (m_settings.maxIterations > 0 && m_records.size() >= m_settings.maxIterations))
    {
        return;
    }
    IterationRecord rec;
    rec.index = static_cast<uint32_t>(m_records.size());
    rec.mode = m_mode;
    rec.members = static_cast<uint32_t>(m_groups.size());
    rec.bytesPerMember = m_settings.collectiveBytes;
    rec.start = NanoSeconds(m_fabric->Now());
    if (m_settings.keepConnections && !m_members.empty() && m_members != m_groups)
    {
        // the member set changed at a mode boundary: the old pairs' connections go
        m_fabric->CloseConnections(m_members);
    }
    m_members = m_groups;
    m_records.push_back(rec);
    m_inFlight = true;
    if (m_observers.started)
    {
        m_observers.started(m_records.back());
    }
    if (m_settings.plan)
    {
        StartPlanIteration();
        return;
    }
    m_event = m_fabric->Schedule(m_settings.computeNs, [this]() { StartCollective(); });
}

void
TrainingJob::StartPlanIteration()
{
    IterationRecord& rec = m_records.back();
    try
    {
        if (m_runnerMembers != m_members)
        {
            m_runner.Prepare(*m_settings.plan,
                             m_settings.rankMapping ? *m_settings.rankMapping : RankMapping(),
                             m_members,
                             m_settings.nccl,
                             m_settings.scale);
            m_runnerMembers = m_members;
        }
        rec.bytesPerMember = 0;
        rec.wireSize = 0;
        rec.wireBytes = m_runner.GetWireBytes();
        rec.transfers = m_runner.GetTransfers();
        m_runner.Run(*m_fabric, rec.index, TrafficClass::TRAINING, [this](int64_t endNs) {
            IterationRecord& r = m_records.back();
            const int64_t first = m_runner.GetFirstCollectiveStart();
            r.collectiveStart = NanoSeconds(first < 0 ? endNs : first);
            if (m_observers.collectiveStarted)
            {
                m_observers.collectiveStarted(r);
            }
            CollectiveDone(endNs);
        });
    }
    catch (const std::exception& e)
    {
        m_inFlight = false;
        Fail(rec.index, e.what());
    }
}

void
TrainingJob::StartCollective()
{
    IterationRecord& rec = m_records.back();
    try
    {
        const auto n = static_cast<uint32_t>(m_members.size());
        rec.wireSize = ScaleBytes(m_settings.collectiveBytes, m_settings.scale, n);
        if (!m_planned || m_plan.members != n || m_plan.size != rec.wireSize)
        {
            // the plan depends on the kind, n and S only: made again when they change
            m_plan = PlanCollective(m_settings.collective, n, rec.wireSize);
            m_planBytes = m_plan.GetTotalBytes();
            m_planIndependent = std::all_of(m_plan.transfers.begin(),
                                            m_plan.transfers.end(),
                                            [](const CollectiveTransfer& t) {
                                                return t.dependsOn == CollectiveTransfer::NONE;
                                            });
            m_dependents.assign(m_plan.transfers.size(), {});
            for (uint64_t k = 0; k < m_plan.transfers.size(); ++k)
            {
                const uint64_t d = m_plan.transfers[k].dependsOn;
                if (d != CollectiveTransfer::NONE)
                {
                    m_dependents[d].push_back(k);
                }
            }
            m_planned = true;
            m_aggregate.reset(); // its parts were the old plan's
        }
        rec.wireBytes = m_planBytes;
        rec.transfers = m_plan.transfers.size();
        rec.collectiveStart = NanoSeconds(m_fabric->Now());
        m_pending = m_plan.transfers.size();
        if (m_observers.collectiveStarted)
        {
            m_observers.collectiveStarted(rec);
        }
        if (m_settings.aggregate && m_planIndependent)
        {
            StartAggregate(rec.index);
            return;
        }
        for (uint64_t k = 0; k < m_plan.transfers.size(); ++k)
        {
            if (m_plan.transfers[k].dependsOn == CollectiveTransfer::NONE)
            {
                StartTransfer(rec.index, k);
            }
        }
    }
    catch (const std::exception& e)
    {
        // a collective that could not start never completes: the job is idle from now on
        m_inFlight = false;
        Fail(rec.index, e.what());
    }
}

void
TrainingJob::StartAggregate(uint32_t iteration)
{
    if (!m_aggregate || m_aggregateMembers != m_members)
    {
        // the same parts while the members stay: the fabric reuses their routes
        auto parts = std::make_shared<std::vector<TransferPart>>();
        parts->reserve(m_plan.transfers.size());
        for (const CollectiveTransfer& t : m_plan.transfers)
        {
            parts->push_back({m_members[t.src], m_members[t.dst], t.bytes, m_plan.GetRail(t)});
        }
        m_aggregate = std::move(parts);
        m_aggregateMembers = m_members;
    }
    m_fabric->StartAggregate(m_aggregate,
                             TrafficClass::TRAINING,
                             [this, iteration](const TransferReport& r) {
                                 if (iteration + 1 != m_records.size())
                                 {
                                     Fail(iteration, "an aggregate completed late");
                                     return;
                                 }
                                 m_pending = 0;
                                 CollectiveDone(r.endNs);
                             });
}

void
TrainingJob::StartTransfer(uint32_t iteration, uint64_t k)
{
    const CollectiveTransfer& t = m_plan.transfers[k];
    TransferSpec spec;
    spec.src = m_members[t.src];
    spec.dst = m_members[t.dst];
    spec.bytes = t.bytes;
    spec.trafficClass = TrafficClass::TRAINING;
    spec.rail = m_plan.GetRail(t);
    spec.keepConnection = m_settings.keepConnections;
    m_fabric->StartTransfer(spec, [this, iteration, k](const TransferReport& r) {
        TransferDone(iteration, k, r);
    });
}

void
TrainingJob::TransferDone(uint32_t iteration, uint64_t k, const TransferReport& report)
{
    if (iteration + 1 != m_records.size())
    {
        Fail(iteration,
             "a transfer of iteration " + std::to_string(iteration) +
                 " completed during iteration " + std::to_string(m_records.size() - 1));
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
    // the last byte of the last transfer (noticed the fabric's notice delay later: every
    // transfer is noticed that long after its last byte, so the last noticed is the last)
    CollectiveDone(report.endNs);
}

void
TrainingJob::CollectiveDone(int64_t endNs)
{
    IterationRecord& rec = m_records.back();
    rec.collectiveEnd = NanoSeconds(endNs);
    rec.done = true;
    ++m_done;
    m_inFlight = false;
    if (m_observers.done)
    {
        m_observers.done(rec);
    }
    if (!m_stopped)
    {
        StartIteration();
    }
}

const std::vector<IterationRecord>&
TrainingJob::GetRecords() const
{
    return m_records;
}

uint32_t
TrainingJob::GetNDone() const
{
    return m_done;
}

const std::vector<CollectiveRecord>&
TrainingJob::GetCollectiveRecords() const
{
    return m_runner.GetRecords();
}

uint64_t
TrainingJob::GetNErrors() const
{
    return m_errors;
}

bool
TrainingJob::IsDone() const
{
    return m_stopped && !IsBusy();
}

bool
TrainingJob::IsBusy() const
{
    return m_inFlight;
}

std::string
GetIterationsCsvHeader()
{
    return "index,mode,members,bytes_per_member,wire_size,wire_bytes,transfers,start_s,"
           "collective_start_s,collective_end_s,iteration_s,collective_s,done";
}

void
WriteIterationsCsv(std::ostream& os,
                   const std::vector<IterationRecord>& records,
                   const std::string& prefix)
{
    for (const auto& r : records)
    {
        const bool started = r.transfers > 0;
        os << prefix << r.index << ',' << ToString(r.mode) << ',' << r.members << ','
           << r.bytesPerMember << ',' << r.wireSize << ',' << r.wireBytes << ',' << r.transfers
           << ',';
        WriteCsvSeconds(os, r.start, true);
        os << ',';
        WriteCsvSeconds(os, r.collectiveStart, started);
        os << ',';
        WriteCsvSeconds(os, r.collectiveEnd, r.done);
        os << ',';
        WriteCsvSeconds(os, r.GetIterationTime(), r.done);
        os << ',';
        WriteCsvSeconds(os, r.GetCollectiveTime(), r.done);
        os << ',' << (r.done ? 1 : 0) << '\n';
    }
}

} // namespace mose
} // namespace ns3
