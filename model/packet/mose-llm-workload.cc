/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-workload.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mose-enum-attribute.h"
#include "ns3/mose-error.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <exception>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLlmWorkload");
NS_OBJECT_ENSURE_REGISTERED(MoseInferenceWorkload);
NS_OBJECT_ENSURE_REGISTERED(MoseTrainingWorkload);

namespace
{

/// Writes a time in seconds with ns resolution, or nothing if not reached
void
WriteSeconds(std::ostream& os, Time t, bool reached)
{
    if (reached)
    {
        os << std::fixed << std::setprecision(9) << t.GetSeconds();
        os.unsetf(std::ios_base::floatfield);
    }
}

} // namespace

// ------------------------------------------------------------------------------------------
// MoseInferenceWorkload

TypeId
MoseInferenceWorkload::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseInferenceWorkload")
            .SetParent<MoseWorkload>()
            .SetGroupName("Mose")
            .AddConstructor<MoseInferenceWorkload>()
            .AddAttribute(
                "PlacementRule",
                "How a request is placed on a prefill and a decode group: "
                "round-robin, least-outstanding or circuit-aware",
                MOSE_ENUM_VALUE(mose::PlacementRule)(
                    MOSE_ENUM_CHECKER_VALUE(mose::PlacementRule, mose::PlacementRule::ROUND_ROBIN)),
                MOSE_ENUM_ACCESSOR(mose::PlacementRule, &MoseInferenceWorkload::m_rule),
                mose::MakeEnumTableChecker(mose::PlacementRule::ROUND_ROBIN))
            .AddAttribute("PrefillTokensPerSecond",
                          "Prefill compute speed of one prefill group (prompt tokens per second); "
                          "a group computes one request at a time, FIFO",
                          DoubleValue(20000.0),
                          MakeDoubleAccessor(&MoseInferenceWorkload::m_prefillRate),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("KvBytesPerToken",
                          "KV-cache bytes per prompt token (mose::ModelShape::GetKvBytesPerToken; "
                          "Mixtral-8x7B and Llama-3-8B: 131072)",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&MoseInferenceWorkload::m_bytesPerToken),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ByteScale",
                          "Every KV transfer sends its bytes / ByteScale (rounded, at least 1); "
                          "divide the link rates by the same factor",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MoseInferenceWorkload::m_scale),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("RequestPlaced",
                            "A request arrived and was placed",
                            MakeTraceSourceAccessor(&MoseInferenceWorkload::m_placedTrace),
                            "ns3::MoseInferenceWorkload::RequestCallback")
            .AddTraceSource("PrefillDone",
                            "A request's prefill compute finished; its KV transfer starts",
                            MakeTraceSourceAccessor(&MoseInferenceWorkload::m_prefillTrace),
                            "ns3::MoseInferenceWorkload::RequestCallback")
            .AddTraceSource("RequestDone",
                            "A request's KV cache arrived at its decode group",
                            MakeTraceSourceAccessor(&MoseInferenceWorkload::m_doneTrace),
                            "ns3::MoseInferenceWorkload::RequestCallback");
    return tid;
}

MoseInferenceWorkload::MoseInferenceWorkload()
{
    NS_LOG_FUNCTION(this);
}

MoseInferenceWorkload::~MoseInferenceWorkload()
{
    NS_LOG_FUNCTION(this);
}

void
MoseInferenceWorkload::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& e : m_arrivals)
    {
        e.Cancel();
    }
    for (auto& e : m_events)
    {
        e.Cancel();
    }
    m_arrivals.clear();
    m_events.clear();
    m_transfers = nullptr;
    MoseWorkload::DoDispose();
}

void
MoseInferenceWorkload::SetTransfers(Ptr<MoseSocketTransfers> transfers)
{
    m_transfers = transfers;
}

void
MoseInferenceWorkload::SetRequests(const std::vector<mose::LlmRequest>& requests)
{
    NS_LOG_FUNCTION(this << requests.size());
    mose::ValidateLlmRequests(requests, "requests");
    m_requests = requests;
}

void
MoseInferenceWorkload::SetMode(mose::WorkloadMode mode,
                               const mose::RoleAssignment& roles,
                               std::shared_ptr<const mose::CircuitGraph> graph)
{
    NS_LOG_FUNCTION(this << mose::ToString(mode));
    if (!m_placer)
    {
        m_placer.emplace(static_cast<mose::PlacementRule>(m_rule), roles, graph);
        m_queue.assign(roles.GetN(), {});
        m_busy.assign(roles.GetN(), false);
    }
    else
    {
        m_placer->SetMode(roles, graph);
    }
    m_mode = mode;
}

void
MoseInferenceWorkload::Start(Time start)
{
    NS_LOG_FUNCTION(this << start);
    if (!m_transfers)
    {
        throw mose::Error("MoseInferenceWorkload::Start: no transport (SetTransfers)");
    }
    if (!m_placer)
    {
        throw mose::Error("MoseInferenceWorkload::Start: no roles (SetMode)");
    }
    if (!(std::isfinite(m_prefillRate) && m_prefillRate > 0))
    {
        mose::ThrowBadParameter("PrefillTokensPerSecond",
                                mose::FormatNumber(m_prefillRate),
                                "a finite number > 0");
    }
    const auto rule = static_cast<mose::PlacementRule>(m_rule);
    if (m_placer->GetRule() != rule)
    {
        // the attribute changed after the first SetMode(): rebuild with the same mode
        m_placer.emplace(rule, m_placer->GetRoles(), m_placer->GetGraph());
    }
    m_records.assign(m_requests.size(), {});
    for (uint32_t i = 0; i < m_requests.size(); ++i)
    {
        const mose::LlmRequest& r = m_requests[i];
        MoseRequestRecord& rec = m_records[i];
        rec.index = i;
        rec.inputTokens = r.inputTokens;
        rec.outputTokens = r.outputTokens;
        rec.kvBytes = mose::CheckedProduct(
            "KV bytes of request " + std::to_string(i),
            {{"input tokens", r.inputTokens}, {"KvBytesPerToken", m_bytesPerToken}});
        rec.wireBytes = mose::ScaleBytes(rec.kvBytes, m_scale, 1);
        rec.arrival = Simulator::Now() + start + NanoSeconds(static_cast<int64_t>(r.arrivalNs));
        m_arrivals.push_back(
            Simulator::Schedule(start + NanoSeconds(static_cast<int64_t>(r.arrivalNs)),
                                &MoseInferenceWorkload::Arrive,
                                this,
                                i));
    }
}

void
MoseInferenceWorkload::Arrive(uint32_t i)
{
    try
    {
        MoseRequestRecord& rec = m_records[i];
        const mose::RequestPlacement p = m_placer->Place();
        rec.arrived = true;
        ++m_arrived;
        rec.mode = m_mode;
        rec.prefill = p.prefill;
        rec.decode = p.decode;
        rec.direct = p.direct;
        m_placer->StartWork(p.prefill, rec.inputTokens);
        m_placer->StartWork(p.decode, rec.outputTokens);
        NS_LOG_INFO("request " << i << " (" << rec.inputTokens << " tokens) on P" << p.prefill
                               << " D" << p.decode << (p.direct ? " direct" : ""));
        m_placedTrace(rec);
        m_queue[p.prefill].push_back(i);
        StartPrefill(p.prefill);
    }
    catch (const std::exception& e)
    {
        ++m_errors;
        NS_LOG_ERROR("request " << i << ": " << e.what());
    }
}

void
MoseInferenceWorkload::StartPrefill(uint32_t group)
{
    if (m_busy[group] || m_queue[group].empty())
    {
        return;
    }
    const uint32_t i = m_queue[group].front();
    m_queue[group].pop_front();
    m_busy[group] = true;
    MoseRequestRecord& rec = m_records[i];
    rec.prefillStart = Simulator::Now();
    const double seconds = static_cast<double>(rec.inputTokens) / m_prefillRate;
    const Time compute = NanoSeconds(static_cast<int64_t>(std::llround(seconds * 1e9)));
    m_events.push_back(
        Simulator::Schedule(compute, &MoseInferenceWorkload::PrefillDone, this, group, i));
}

void
MoseInferenceWorkload::PrefillDone(uint32_t group, uint32_t i)
{
    try
    {
        MoseRequestRecord& rec = m_records[i];
        rec.prefillDone = Simulator::Now();
        rec.kvStart = rec.prefillDone;
        m_placer->FinishWork(group, rec.inputTokens);
        m_busy[group] = false;
        m_prefillTrace(rec);
        m_transferIds.push_back(m_transfers->Start(
            rec.prefill,
            rec.decode,
            rec.wireBytes,
            MakeBoundCallback(
                +[](MoseInferenceWorkload* self, uint32_t r, uint64_t id) { self->KvDone(r, id); },
                this,
                i),
            mose::TrafficClass::KV,
            i)); // rail i: host i mod G of each group
        StartPrefill(group);
    }
    catch (const std::exception& e)
    {
        ++m_errors;
        NS_LOG_ERROR("request " << i << " prefill done: " << e.what());
    }
}

void
MoseInferenceWorkload::KvDone(uint32_t i, uint64_t id)
{
    MoseRequestRecord& rec = m_records[i];
    const MoseTransfer& t = m_transfers->GetTransfer(id);
    rec.received = t.received;
    rec.kvEnd = t.end; // the last byte (noticed MoseSocketTransfers::NoticeDelay later)
    rec.done = true;
    ++m_done;
    m_placer->FinishWork(rec.decode, rec.outputTokens);
    NS_LOG_INFO("request " << i << " KV " << rec.wireBytes << " B in "
                           << rec.GetKvTime().As(Time::MS) << ", TTFT "
                           << rec.GetTtft().As(Time::MS));
    m_doneTrace(rec);
    NotifyWorkDone();
}

void
MoseInferenceWorkload::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stopped = true;
    for (auto& e : m_arrivals)
    {
        e.Cancel();
    }
}

bool
MoseInferenceWorkload::IsDone() const
{
    return m_done == m_arrived && (m_stopped || m_arrived == m_records.size());
}

std::vector<MoseTransfer>
MoseInferenceWorkload::GetTransfers() const
{
    // disposed: the transport's records went with it
    return m_transfers ? m_transfers->GetTransfers(m_transferIds) : std::vector<MoseTransfer>();
}

const std::vector<MoseRequestRecord>&
MoseInferenceWorkload::GetRecords() const
{
    return m_records;
}

uint32_t
MoseInferenceWorkload::GetNDone() const
{
    return m_done;
}

uint64_t
MoseInferenceWorkload::GetNErrors() const
{
    return m_errors;
}

std::string
MoseInferenceWorkload::GetCsvHeader()
{
    return "index,input_tokens,output_tokens,kv_bytes,wire_bytes,mode,prefill,decode,direct,"
           "arrival_s,prefill_start_s,prefill_done_s,kv_start_s,kv_end_s,kv_time_s,ttft_s,done";
}

void
MoseInferenceWorkload::WriteCsv(std::ostream& os, bool header, const std::string& prefix) const
{
    if (header)
    {
        os << GetCsvHeader() << '\n';
    }
    WriteRecordsCsv(os, m_records, prefix);
}

void
MoseInferenceWorkload::WriteRecordsCsv(std::ostream& os,
                                       const std::vector<MoseRequestRecord>& records,
                                       const std::string& prefix)
{
    for (const auto& r : records)
    {
        os << prefix << r.index << ',' << r.inputTokens << ',' << r.outputTokens << ',' << r.kvBytes
           << ',' << r.wireBytes << ',';
        if (r.arrived)
        {
            os << mose::ToString(r.mode) << ',' << r.prefill << ',' << r.decode << ','
               << (r.direct ? 1 : 0);
        }
        else
        {
            os << ",,,";
        }
        os << ',';
        WriteSeconds(os, r.arrival, true);
        os << ',';
        const bool computed = r.done || r.prefillDone > Time(0);
        WriteSeconds(os, r.prefillStart, computed);
        os << ',';
        WriteSeconds(os, r.prefillDone, computed);
        os << ',';
        WriteSeconds(os, r.kvStart, computed);
        os << ',';
        WriteSeconds(os, r.kvEnd, r.done);
        os << ',';
        WriteSeconds(os, r.GetKvTime(), r.done);
        os << ',';
        WriteSeconds(os, r.GetTtft(), r.done);
        os << ',' << (r.done ? 1 : 0) << '\n';
    }
}

// ------------------------------------------------------------------------------------------
// MoseTrainingWorkload

TypeId
MoseTrainingWorkload::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseTrainingWorkload")
            .SetParent<MoseWorkload>()
            .SetGroupName("Mose")
            .AddConstructor<MoseTrainingWorkload>()
            .AddAttribute("Collective",
                          "The collective of an iteration: all-to-all (MoE dispatch/combine) or "
                          "ring-all-reduce",
                          MOSE_ENUM_VALUE(mose::CollectiveKind)(
                              MOSE_ENUM_CHECKER_VALUE(mose::CollectiveKind,
                                                      mose::CollectiveKind::ALL_TO_ALL)),
                          MOSE_ENUM_ACCESSOR(mose::CollectiveKind, &MoseTrainingWorkload::m_kind),
                          mose::MakeEnumTableChecker(mose::CollectiveKind::ALL_TO_ALL))
            .AddAttribute("CollectiveBytes",
                          "S, the collective's size per member in bytes (mose::MoeAllToAllBytes "
                          "or mose::GradientAllReduceBytes); default: one Mixtral-8x7B "
                          "all-to-all of 4096 tokens per member",
                          UintegerValue(67108864),
                          MakeUintegerAccessor(&MoseTrainingWorkload::m_size),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ComputeTime",
                          "Computation before each iteration's collective",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&MoseTrainingWorkload::m_compute),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ByteScale",
                          "The collective runs with S / ByteScale (rounded, at least n); divide "
                          "the link rates by the same factor",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MoseTrainingWorkload::m_scale),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("MaxIterations",
                          "Stop after this many iterations (0: until Stop())",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseTrainingWorkload::m_maxIterations),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReuseConnections",
                          "Keep one connection per ordered member pair for as long as the member "
                          "set stays the same and send every iteration's chunks over it "
                          "(MoseSocketTransfers::StartOnConnection); false: one new connection "
                          "per chunk",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MoseTrainingWorkload::m_reuse),
                          MakeBooleanChecker())
            .AddTraceSource("IterationStarted",
                            "An iteration started (its compute)",
                            MakeTraceSourceAccessor(&MoseTrainingWorkload::m_startedTrace),
                            "ns3::MoseTrainingWorkload::IterationCallback")
            .AddTraceSource("IterationDone",
                            "An iteration's collective completed",
                            MakeTraceSourceAccessor(&MoseTrainingWorkload::m_doneTrace),
                            "ns3::MoseTrainingWorkload::IterationCallback");
    return tid;
}

MoseTrainingWorkload::MoseTrainingWorkload()
{
    NS_LOG_FUNCTION(this);
}

MoseTrainingWorkload::~MoseTrainingWorkload()
{
    NS_LOG_FUNCTION(this);
}

void
MoseTrainingWorkload::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_transfers = nullptr;
    MoseWorkload::DoDispose();
}

void
MoseTrainingWorkload::SetTransfers(Ptr<MoseSocketTransfers> transfers)
{
    m_transfers = transfers;
}

void
MoseTrainingWorkload::SetMode(mose::WorkloadMode mode, const mose::RoleAssignment& roles)
{
    NS_LOG_FUNCTION(this << mose::ToString(mode));
    if (roles.GetTraining().size() < 2)
    {
        mose::ThrowBadParameter("training groups",
                                std::to_string(roles.GetTraining().size()),
                                "at least 2 training groups in mode " + mose::ToString(mode));
    }
    m_mode = mode;
    m_groups = roles.GetTraining();
    m_hasMode = true;
}

void
MoseTrainingWorkload::SetMode(mose::WorkloadMode mode,
                              const mose::RoleAssignment& roles,
                              std::shared_ptr<const mose::CircuitGraph> /* graph */)
{
    SetMode(mode, roles);
}

void
MoseTrainingWorkload::Start(Time start)
{
    NS_LOG_FUNCTION(this << start);
    if (!m_transfers)
    {
        throw mose::Error("MoseTrainingWorkload::Start: no transport (SetTransfers)");
    }
    if (!m_hasMode)
    {
        throw mose::Error("MoseTrainingWorkload::Start: no roles (SetMode)");
    }
    if (m_size / m_scale < m_groups.size())
    {
        mose::ThrowBadParameter("CollectiveBytes / ByteScale",
                                std::to_string(m_size) + " / " + std::to_string(m_scale),
                                "at least the " + std::to_string(m_groups.size()) +
                                    " members (every chunk at least 1 byte)");
    }
    // validates kind and size now, not inside an event
    (void)mose::PlanCollective(static_cast<mose::CollectiveKind>(m_kind),
                               static_cast<uint32_t>(m_groups.size()),
                               m_size);
    m_stopped = false;
    m_event = Simulator::Schedule(start, &MoseTrainingWorkload::StartIteration, this);
}

void
MoseTrainingWorkload::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stopped = true; // the iteration in flight (compute or collective) completes
}

void
MoseTrainingWorkload::StartIteration()
{
    if (m_stopped || (m_maxIterations > 0 && m_records.size() >= m_maxIterations))
    {
        return;
    }
    MoseIterationRecord rec;
    rec.index = static_cast<uint32_t>(m_records.size());
    rec.mode = m_mode;
    rec.members = static_cast<uint32_t>(m_groups.size());
    rec.bytesPerMember = m_size;
    rec.start = Simulator::Now();
    if (m_reuse && !m_members.empty() && m_members != m_groups)
    {
        // the member set changed at a mode boundary: the old pairs' connections go
        m_transfers->CloseConnections(m_members);
    }
    m_members = m_groups;
    m_records.push_back(rec);
    m_startedTrace(m_records.back());
    m_event = Simulator::Schedule(m_compute, &MoseTrainingWorkload::StartCollective, this);
}

void
MoseTrainingWorkload::StartCollective()
{
    MoseIterationRecord& rec = m_records.back();
    try
    {
        const auto n = static_cast<uint32_t>(m_members.size());
        rec.wireSize = mose::ScaleBytes(m_size, m_scale, n);
        m_plan = mose::PlanCollective(static_cast<mose::CollectiveKind>(m_kind), n, rec.wireSize);
        rec.wireBytes = m_plan.GetTotalBytes();
        rec.transfers = m_plan.transfers.size();
        rec.collectiveStart = Simulator::Now();
        m_dependents.assign(m_plan.transfers.size(), {});
        for (uint64_t k = 0; k < m_plan.transfers.size(); ++k)
        {
            const uint64_t d = m_plan.transfers[k].dependsOn;
            if (d != mose::CollectiveTransfer::NONE)
            {
                m_dependents[d].push_back(k);
            }
        }
        m_pending = m_plan.transfers.size();
        NS_LOG_INFO("iteration " << rec.index << ": "
                                 << mose::ToString(static_cast<mose::CollectiveKind>(m_kind))
                                 << " of " << rec.wireSize << " B over " << n << " members, "
                                 << m_pending << " transfers");
        for (uint64_t k = 0; k < m_plan.transfers.size(); ++k)
        {
            if (m_plan.transfers[k].dependsOn == mose::CollectiveTransfer::NONE)
            {
                StartTransfer(rec.index, k);
            }
        }
    }
    catch (const std::exception& e)
    {
        ++m_errors;
        NS_LOG_ERROR("iteration " << rec.index << ": " << e.what());
    }
}

void
MoseTrainingWorkload::StartTransfer(uint32_t iteration, uint64_t k)
{
    const mose::CollectiveTransfer& t = m_plan.transfers[k];
    const MoseSocketTransfers::DoneCallback done = MakeBoundCallback(
        +[](MoseTrainingWorkload* self, uint32_t it, uint64_t kk, uint64_t id) {
            self->TransferDone(it, kk, id);
        },
        this,
        iteration,
        k);
    const uint32_t src = m_members[t.src];
    const uint32_t dst = m_members[t.dst];
    const uint32_t rail = GetRail(m_plan, t);
    m_transferIds.push_back(
        m_reuse
            ? m_transfers
                  ->StartOnConnection(src, dst, t.bytes, done, mose::TrafficClass::TRAINING, rail)
            : m_transfers->Start(src, dst, t.bytes, done, mose::TrafficClass::TRAINING, rail));
}

uint32_t
MoseTrainingWorkload::GetRail(const mose::CollectivePlan& plan,
                              const mose::CollectiveTransfer& transfer)
{
    return plan.GetRail(transfer);
}

void
MoseTrainingWorkload::TransferDone(uint32_t iteration, uint64_t k, uint64_t id)
{
    if (iteration + 1 != m_records.size())
    {
        ++m_errors;
        NS_LOG_ERROR("a transfer of iteration " << iteration << " completed during iteration "
                                                << m_records.size() - 1);
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
    MoseIterationRecord& rec = m_records.back();
    // the last byte of the last transfer (noticed MoseSocketTransfers::NoticeDelay later: every
    // transfer is noticed that long after its last byte, so the last noticed is the last)
    rec.collectiveEnd = m_transfers->GetTransfer(id).end;
    rec.done = true;
    ++m_done;
    NS_LOG_INFO("iteration " << rec.index << " done in " << rec.GetIterationTime().As(Time::MS)
                             << " (collective " << rec.GetCollectiveTime().As(Time::MS) << ")");
    m_doneTrace(rec);
    NotifyWorkDone();
    if (!m_stopped)
    {
        StartIteration();
    }
}

const std::vector<MoseIterationRecord>&
MoseTrainingWorkload::GetRecords() const
{
    return m_records;
}

uint32_t
MoseTrainingWorkload::GetNDone() const
{
    return m_done;
}

uint64_t
MoseTrainingWorkload::GetNErrors() const
{
    return m_errors;
}

bool
MoseTrainingWorkload::IsDone() const
{
    return m_stopped && !IsBusy();
}

std::vector<MoseTransfer>
MoseTrainingWorkload::GetTransfers() const
{
    // disposed: the transport's records went with it
    return m_transfers ? m_transfers->GetTransfers(m_transferIds) : std::vector<MoseTransfer>();
}

bool
MoseTrainingWorkload::IsBusy() const
{
    return m_pending > 0 ||
           (!m_records.empty() && !m_records.back().done && MOSE_EVENT_IS_PENDING(m_event));
}

std::string
MoseTrainingWorkload::GetCsvHeader()
{
    return "index,mode,members,bytes_per_member,wire_size,wire_bytes,transfers,start_s,"
           "collective_start_s,collective_end_s,iteration_s,collective_s,done";
}

void
MoseTrainingWorkload::WriteCsv(std::ostream& os, bool header, const std::string& prefix) const
{
    if (header)
    {
        os << GetCsvHeader() << '\n';
    }
    WriteRecordsCsv(os, m_records, prefix);
}

void
MoseTrainingWorkload::WriteRecordsCsv(std::ostream& os,
                                      const std::vector<MoseIterationRecord>& records,
                                      const std::string& prefix)
{
    for (const auto& r : records)
    {
        const bool started = r.transfers > 0;
        os << prefix << r.index << ',' << mose::ToString(r.mode) << ',' << r.members << ','
           << r.bytesPerMember << ',' << r.wireSize << ',' << r.wireBytes << ',' << r.transfers
           << ',';
        WriteSeconds(os, r.start, true);
        os << ',';
        WriteSeconds(os, r.collectiveStart, started);
        os << ',';
        WriteSeconds(os, r.collectiveEnd, r.done);
        os << ',';
        WriteSeconds(os, r.GetIterationTime(), r.done);
        os << ',';
        WriteSeconds(os, r.GetCollectiveTime(), r.done);
        os << ',' << (r.done ? 1 : 0) << '\n';
    }
}

} // namespace ns3
