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
#include "ns3/mose-model-shape.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/mose-scale.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <exception>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLlmWorkload");
NS_OBJECT_ENSURE_REGISTERED(MoseInferenceWorkload);
NS_OBJECT_ENSURE_REGISTERED(MoseTrainingWorkload);

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
            .AddAttribute("PlacementRule",
                          "How a request is placed on a prefill and a decode group: "
                          "round-robin, least-outstanding or circuit-aware (mose-llm's default)",
                          MOSE_ENUM_VALUE(mose::PlacementRule)(
                              MOSE_ENUM_CHECKER_VALUE(mose::PlacementRule,
                                                      mose::PlacementRule::CIRCUIT_AWARE)),
                          MOSE_ENUM_ACCESSOR(mose::PlacementRule, &MoseInferenceWorkload::m_rule),
                          mose::MakeEnumTableChecker(mose::PlacementRule::ROUND_ROBIN))
            .AddAttribute("PrefillTokensPerSecond",
                          "Prefill compute speed of one prefill group (prompt tokens per second); "
                          "a group computes one request at a time, FIFO (mose-llm's default)",
                          DoubleValue(2000000.0),
                          MakeDoubleAccessor(&MoseInferenceWorkload::m_prefillRate),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute(
                "Model",
                "The model whose KV cache a request moves: llama-3-8b, llama-3-70b, "
                "mixtral-8x7b (mose-llm's default) or deepseek-v3; its KV bytes per "
                "token (mose::ModelShape::GetKvBytesPerToken) unless KvBytesPerToken "
                "is set",
                MOSE_ENUM_VALUE(mose::ModelPreset)(
                    MOSE_ENUM_CHECKER_VALUE(mose::ModelPreset, mose::ModelPreset::MIXTRAL_8X7B)),
                MOSE_ENUM_ACCESSOR(mose::ModelPreset, &MoseInferenceWorkload::m_model),
                mose::MakeEnumTableChecker(mose::ModelPreset::MIXTRAL_8X7B))
            .AddAttribute("KvBytesPerToken",
                          "KV-cache bytes per prompt token; 0: the Model's (Mixtral-8x7B and "
                          "Llama-3-8B: 131072). A value set here wins over the Model's",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseInferenceWorkload::m_bytesPerToken),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ByteScale",
                          "Every KV transfer sends its bytes / ByteScale (rounded, at least 1); "
                          "0: the global value MoseScale, which also divides the link rates "
                          "(MoseScale). A value above 0 that differs from a MoseScale above 1 "
                          "is refused at Start",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseInferenceWorkload::m_scale),
                          MakeUintegerChecker<uint64_t>())
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
    m_server.CancelEvents();
    if (m_fabric)
    {
        m_fabric->CancelAll();
    }
    m_fabric.reset();
    m_transfers = nullptr;
    MoseWorkload::DoDispose();
}

void
MoseInferenceWorkload::SetTransfers(Ptr<MoseTransport> transfers)
{
    m_transfers = transfers;
}

void
MoseInferenceWorkload::SetRequests(const std::vector<mose::LlmRequest>& requests)
{
    NS_LOG_FUNCTION(this << requests.size());
    m_server.SetRequests(requests);
}

void
MoseInferenceWorkload::SetMode(mose::WorkloadMode mode,
                               const mose::RoleAssignment& roles,
                               std::shared_ptr<const mose::CircuitGraph> graph)
{
    NS_LOG_FUNCTION(this << mose::ToString(mode));
    m_server.SetMode(static_cast<mose::PlacementRule>(m_rule), mode, roles, graph);
}

mose::InferenceSettings
MoseInferenceWorkload::GetSettings() const
{
    mose::InferenceSettings s;
    s.placement = static_cast<mose::PlacementRule>(m_rule);
    s.prefillTokensPerSecond = m_prefillRate;
    s.kvBytesPerToken = m_bytesPerToken > 0
                            ? m_bytesPerToken
                            : mose::ModelShape::FromPreset(static_cast<mose::ModelPreset>(m_model))
                                  .GetKvBytesPerToken();
    s.scale = MoseScale::ResolveByteScale(m_scale, "ns3::MoseInferenceWorkload::ByteScale");
    return s;
}

void
MoseInferenceWorkload::Start(Time start)
{
    NS_LOG_FUNCTION(this << start);
    if (!m_transfers)
    {
        throw mose::Error("MoseInferenceWorkload::Start: no transport (SetTransfers)");
    }
    if (!m_transfers->IsInstalled())
    {
        throw mose::Error("MoseInferenceWorkload::Start: its transport (MoseTransport) is not "
                          "installed: call its Install(topology->GetGroupEndpoints()) before "
                          "Start()");
    }
    if (!m_server.HasMode())
    {
        throw mose::Error("MoseInferenceWorkload::Start: no roles (SetMode)");
    }
    if (!(std::isfinite(m_prefillRate) && m_prefillRate > 0))
    {
        mose::ThrowBadParameter("PrefillTokensPerSecond",
                                mose::FormatNumber(m_prefillRate),
                                "a finite number > 0");
    }
    m_fabric = std::make_unique<MoseSimulatorFabric>(m_transfers);
    mose::InferenceServer::Observers o;
    o.placed = [this](const MoseRequestRecord& rec) {
        NS_LOG_INFO("request " << rec.index << " (" << rec.inputTokens << " tokens) on P"
                               << rec.prefill << " D" << rec.decode
                               << (rec.direct ? " direct" : ""));
        m_placedTrace(rec);
    };
    o.prefillDone = [this](const MoseRequestRecord& rec) { m_prefillTrace(rec); };
    o.done = [this](const MoseRequestRecord& rec) {
        NS_LOG_INFO("request " << rec.index << " KV " << rec.wireBytes << " B in "
                               << rec.GetKvTime().As(Time::MS) << ", TTFT "
                               << rec.GetTtft().As(Time::MS));
        m_doneTrace(rec);
        NotifyWorkDone();
    };
    o.error = [](uint32_t i, const std::string& what) {
        NS_LOG_ERROR("request " << i << ": " << what);
    };
    m_server.SetObservers(std::move(o));
    m_server.Start(*m_fabric, start.GetNanoSeconds(), GetSettings());
}

void
MoseInferenceWorkload::Stop()
{
    NS_LOG_FUNCTION(this);
    m_server.Stop();
}

bool
MoseInferenceWorkload::IsDone() const
{
    return m_server.IsDone();
}

std::vector<MoseTransfer>
MoseInferenceWorkload::GetTransfers() const
{
    // disposed: the transport's records went with it
    return m_fabric ? m_transfers->GetTransfers(m_fabric->GetTransferIds())
                    : std::vector<MoseTransfer>();
}

const std::vector<MoseRequestRecord>&
MoseInferenceWorkload::GetRecords() const
{
    return m_server.GetRecords();
}

mose::InferenceSummary
MoseInferenceWorkload::GetSummary() const
{
    return mose::SummarizeRequests(GetRecords(), Time(0), Time::Max());
}

uint32_t
MoseInferenceWorkload::GetNDone() const
{
    return m_server.GetNDone();
}

uint64_t
MoseInferenceWorkload::GetNErrors() const
{
    return m_server.GetNErrors();
}

std::string
MoseInferenceWorkload::GetCsvHeader()
{
    return mose::GetRequestsCsvHeader();
}

void
MoseInferenceWorkload::WriteCsv(std::ostream& os, bool header, const std::string& prefix) const
{
    if (header)
    {
        os << GetCsvHeader() << '\n';
    }
    WriteRecordsCsv(os, GetRecords(), prefix);
}

void
MoseInferenceWorkload::WriteRecordsCsv(std::ostream& os,
                                       const std::vector<MoseRequestRecord>& records,
                                       const std::string& prefix)
{
    mose::WriteRequestsCsv(os, records, prefix);
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
                          "all-to-all of 16384 tokens per member (mose-llm's default)",
                          UintegerValue(268435456),
                          MakeUintegerAccessor(&MoseTrainingWorkload::m_size),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ComputeTime",
                          "Computation before each iteration's collective (mose-llm's default)",
                          TimeValue(MilliSeconds(20)),
                          MakeTimeAccessor(&MoseTrainingWorkload::m_compute),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ByteScale",
                          "The collective runs with S / ByteScale (rounded, at least n); 0: the "
                          "global value MoseScale, which also divides the link rates "
                          "(MoseScale). A value above 0 that differs from a MoseScale above 1 "
                          "is refused at Start",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseTrainingWorkload::m_scale),
                          MakeUintegerChecker<uint64_t>())
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
    m_job.CancelEvents();
    if (m_fabric)
    {
        m_fabric->CancelAll();
    }
    m_fabric.reset();
    m_transfers = nullptr;
    MoseWorkload::DoDispose();
}

void
MoseTrainingWorkload::SetTransfers(Ptr<MoseTransport> transfers)
{
    m_transfers = transfers;
}

void
MoseTrainingWorkload::SetMode(mose::WorkloadMode mode, const mose::RoleAssignment& roles)
{
    NS_LOG_FUNCTION(this << mose::ToString(mode));
    m_job.SetMode(mode, roles);
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
    if (!m_transfers->IsInstalled())
    {
        throw mose::Error("MoseTrainingWorkload::Start: its transport (MoseTransport) is not "
                          "installed: call its Install(topology->GetGroupEndpoints()) before "
                          "Start()");
    }
    if (!m_job.HasMode())
    {
        throw mose::Error("MoseTrainingWorkload::Start: no roles (SetMode)");
    }
    const std::size_t members = m_job.GetGroups().size();
    const uint64_t scale =
        MoseScale::ResolveByteScale(m_scale, "ns3::MoseTrainingWorkload::ByteScale");
    if (!m_plan && m_size / scale < members)
    {
        mose::ThrowBadParameter("CollectiveBytes / ByteScale",
                                std::to_string(m_size) + " / " + std::to_string(scale),
                                "at least the " + std::to_string(members) +
                                    " members (every chunk at least 1 byte)");
    }
    m_fabric = std::make_unique<MoseSimulatorFabric>(m_transfers);
    mose::TrainingJob::Observers o;
    o.started = [this](const MoseIterationRecord& rec) { m_startedTrace(rec); };
    o.collectiveStarted = [this](const MoseIterationRecord& rec) {
        NS_LOG_INFO("iteration " << rec.index << ": "
                                 << mose::ToString(static_cast<mose::CollectiveKind>(m_kind))
                                 << " of " << rec.wireSize << " B over " << rec.members
                                 << " members, " << rec.transfers << " transfers");
    };
    o.done = [this](const MoseIterationRecord& rec) {
        NS_LOG_INFO("iteration " << rec.index << " done in " << rec.GetIterationTime().As(Time::MS)
                                 << " (collective " << rec.GetCollectiveTime().As(Time::MS) << ")");
        m_doneTrace(rec);
        NotifyWorkDone();
    };
    o.error = [](uint32_t iteration, const std::string& what) {
        NS_LOG_ERROR("iteration " << iteration << ": " << what);
    };
    m_job.SetObservers(std::move(o));
    mose::TrainingSettings s;
    s.collective = static_cast<mose::CollectiveKind>(m_kind);
    s.collectiveBytes = m_size;
    s.computeNs = m_compute.GetNanoSeconds();
    s.scale = scale;
    s.maxIterations = m_maxIterations;
    s.keepConnections = m_reuse;
    s.plan = m_plan;
    s.rankMapping = std::make_shared<const mose::RankMapping>(m_mapping);
    s.nccl = m_nccl;
    m_job.Start(*m_fabric, start.GetNanoSeconds(), s);
}

void
MoseTrainingWorkload::SetPlan(std::shared_ptr<const mose::TrainingPlan> plan,
                              const mose::RankMapping& mapping,
                              const mose::NcclSettings& nccl)
{
    m_plan = std::move(plan);
    m_mapping = mapping;
    m_nccl = nccl;
}

const std::vector<mose::CollectiveRecord>&
MoseTrainingWorkload::GetCollectiveRecords() const
{
    return m_job.GetCollectiveRecords();
}

void
MoseTrainingWorkload::Stop()
{
    NS_LOG_FUNCTION(this);
    m_job.Stop(); // the iteration in flight (compute or collective) completes
}

uint32_t
MoseTrainingWorkload::GetRail(const mose::CollectivePlan& plan,
                              const mose::CollectiveTransfer& transfer)
{
    return plan.GetRail(transfer);
}

const std::vector<MoseIterationRecord>&
MoseTrainingWorkload::GetRecords() const
{
    return m_job.GetRecords();
}

mose::TrainingSummary
MoseTrainingWorkload::GetSummary() const
{
    return mose::SummarizeIterations(GetRecords(), Time(0), Time::Max());
}

uint32_t
MoseTrainingWorkload::GetNDone() const
{
    return m_job.GetNDone();
}

uint64_t
MoseTrainingWorkload::GetNErrors() const
{
    return m_job.GetNErrors();
}

bool
MoseTrainingWorkload::IsDone() const
{
    return m_job.IsDone();
}

std::vector<MoseTransfer>
MoseTrainingWorkload::GetTransfers() const
{
    // disposed: the transport's records went with it
    return m_fabric ? m_transfers->GetTransfers(m_fabric->GetTransferIds())
                    : std::vector<MoseTransfer>();
}

bool
MoseTrainingWorkload::IsBusy() const
{
    return m_job.IsBusy();
}

std::string
MoseTrainingWorkload::GetCsvHeader()
{
    return mose::GetIterationsCsvHeader();
}

void
MoseTrainingWorkload::WriteCsv(std::ostream& os, bool header, const std::string& prefix) const
{
    if (header)
    {
        os << GetCsvHeader() << '\n';
    }
    WriteRecordsCsv(os, GetRecords(), prefix);
}

void
MoseTrainingWorkload::WriteRecordsCsv(std::ostream& os,
                                      const std::vector<MoseIterationRecord>& records,
                                      const std::string& prefix)
{
    mose::WriteIterationsCsv(os, records, prefix);
}

} // namespace ns3
