/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_BATCH_H
#define MOSE_FLOW_BATCH_H

#include "mose-workload-fabric.h"

#include "ns3/mose-percentile.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-traffic.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief A list of flows, each started at its time on any WorkloadFabric, with one record per
 *        flow and the batch's FCT summary: the flow workload of mose-packet and
 *        mose-mode-switch, written once for every level.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-workload
 * \brief One flow of a batch: bytes from a group to a group, started at a time.
 */
struct BatchFlow
{
    uint32_t src{0};                             //!< source group
    uint32_t dst{0};                             //!< destination group (!= src)
    uint64_t bytes{0};                           //!< payload bytes (> 0)
    int64_t startNs{0};                          //!< its start, from the start of the run (ns)
    TrafficClass trafficClass{TrafficClass::KV}; //!< what it carries
    uint32_t rail{0};                            //!< its rail (TransferSpec::rail)
};

/**
 * \ingroup mose-workload
 * \brief What the batch records of one flow, at every level (times from the start of the run).
 */
struct FlowRecord
{
    uint32_t index{0};     //!< the flow's index in the list given to FlowBatch::SetFlows()
    BatchFlow flow;        //!< the flow
    bool started{false};   //!< its transfer was started
    bool withdrawn{false}; //!< Stop() came before its start: it never starts
    bool complete{false};  //!< its transfer was noticed complete
    uint64_t transfer{0};  //!< its transfer's id at the fabric (once started)
    Time start;            //!< when its transfer started (once started)
    Time end;              //!< its last byte arrived (once complete)
    uint64_t received{0};  //!< payload bytes the destination received (once complete)

    /// \return the flow completion time, end - start (meaningful once complete)
    Time GetFct() const
    {
        return end - start;
    }
};

/**
 * \ingroup mose-workload
 * \brief The batch's summary of its flows (of one class, or of all).
 */
struct FlowBatchSummary
{
    uint32_t flows{0};     //!< flows counted
    uint32_t started{0};   //!< of them, started
    uint32_t completed{0}; //!< of them, complete
    uint64_t received{0};  //!< payload bytes received by the complete ones
    SampleStatistics fct;  //!< FCT of the complete ones, in seconds (mean, P50, P95, P99, max)
};

/**
 * \ingroup mose-workload
 * \brief A list of flows on a WorkloadFabric, written once for every level: each flow starts
 *        at its time as one transfer (WorkloadFabric::StartTransfer(), a transfer of its own),
 *        and the batch records its start, its end (the last byte's arrival, as the fabric
 *        reports it) and the bytes received.
 *
 * Model:
 *  - SetFlows() sorts the flows by start time, keeping the list's order among equal times;
 *    the records follow that order (GetRecords()), each naming its index in the list;
 *  - Start() schedules one event per flow at its start time; flows of one time start in the
 *    records' order (the fabric runs events of one time in the order they were scheduled);
 *  - Stop() withdraws the flows not yet started: their events are cancelled and their records
 *    say so; started flows run to their end;
 *  - flows are routed by the fabric: a mode change (SetMode()) is only recorded (GetMode()).
 * Errors inside its events (a transfer the fabric refuses) are counted (GetNErrors()), never
 * thrown out of them.
 */
class FlowBatch
{
  public:
    /// a flow's record, when it started or was noticed complete
    using FlowObserver = std::function<void(const FlowRecord& record)>;
    /// an error caught inside an event: the record's position and what went wrong
    using ErrorObserver = std::function<void(uint32_t record, const std::string& what)>;

    /// What the batch tells its owner (each optional)
    struct Observers
    {
        FlowObserver started; //!< a flow's transfer started
        FlowObserver done;    //!< a flow's transfer was noticed complete
        ErrorObserver error;  //!< an error inside an event (counted)
    };

    /**
     * \brief The flows, before Start(). mose::Error naming the flow for one of 0 bytes, one
     *        whose source is its destination, or a negative start time.
     * \param flows the flows, in any order
     */
    void SetFlows(const std::vector<BatchFlow>& flows);

    /// \param observers what to call at the batch's steps
    void SetObservers(Observers observers);

    /**
     * \brief Schedules every flow's start on the fabric. mose::Error if it was started before
     *        or a flow starts before now.
     * \param fabric the fabric (kept until the run ends)
     */
    void Start(WorkloadFabric& fabric);

    /// \brief No flow starts after now: the flows not yet started are withdrawn
    void Stop();

    /// \brief Cancels every event the batch scheduled (the owner's dispose)
    void CancelEvents();

    /// \param mode the mode the fabric entered (recorded only: the fabric routes the flows)
    void SetMode(WorkloadMode mode);
    /// \return the last mode given to SetMode(), if any
    std::optional<WorkloadMode> GetMode() const;

    /// \return whether every flow is complete, withdrawn or failed to start (an error)
    bool IsDone() const;
    /// \return one record per flow, in start order
    const std::vector<FlowRecord>& GetRecords() const;
    /// \return flows started
    uint32_t GetNStarted() const;
    /// \return flows complete
    uint32_t GetNDone() const;
    /// \return flows withdrawn by Stop()
    uint32_t GetNWithdrawn() const;
    /// \return errors caught inside events
    uint64_t GetNErrors() const;

  private:
    /// \brief Record i's flow starts
    void StartFlow(uint32_t i);
    /// \brief Record i's transfer was noticed complete
    void Done(uint32_t i, const TransferReport& report);
    /// \brief Counts an error of record i and tells the owner
    void Fail(uint32_t i, const std::string& what);

    std::vector<FlowRecord> m_records;                //!< in start order
    std::vector<WorkloadFabric::EventHandle> m_start; //!< per record, its start event
    WorkloadFabric* m_fabric{nullptr};                //!< the fabric (Start())
    Observers m_observers;                            //!< the owner's calls
    std::optional<WorkloadMode> m_mode;               //!< SetMode()
    uint32_t m_started{0};                            //!< flows started
    uint32_t m_done{0};                               //!< flows complete
    uint32_t m_withdrawn{0};                          //!< flows withdrawn
    uint64_t m_errors{0};                             //!< errors caught
};

/**
 * \ingroup mose-workload
 * \brief Summarises a batch's flows: counts, bytes received and the FCTs of the complete
 *        ones (DescribeSample(): mean and the percentiles of mose-percentile.h).
 * \param records the batch's records (FlowBatch::GetRecords())
 * \param cls only the flows of this class (empty: every flow)
 * \return the summary
 */
FlowBatchSummary SummarizeFlows(const std::vector<FlowRecord>& records,
                                std::optional<TrafficClass> cls = std::nullopt);

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLOW_BATCH_H */
