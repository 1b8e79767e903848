/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_BATCH_WORKLOAD_H
#define MOSE_BATCH_WORKLOAD_H

#include "mose-simulator-fabric.h"
#include "mose-workload.h"

#include "ns3/mose-flow-batch.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief A flow list (mose::FlowBatch) as a packet-level workload on a transport: the batch
 *        runs on a MoseSimulatorFabric over the installed MoseTransport (TCP or RDMA).
 *
 * mose-packet and mose-mode-switch run their transfers this way with --transport=rdma: the
 * transfers MoseTrafficHelper::MakeStartedTransfers() draws, one batch flow each. A flow's
 * record starts at its start time and ends at its last byte's arrival (the transport's record,
 * not its notice), as a BulkSend application's transfer does. SetMode() reaches the batch
 * (FlowBatch::SetMode()); the fabric routes the flows. Stop() withdraws the flows not yet
 * started. IsDone(): every flow is complete, withdrawn or failed to start.
 */
class MoseBatchWorkload : public MoseWorkload
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MoseBatchWorkload();
    ~MoseBatchWorkload() override;

    /// \param transfers the installed transport the batch's flows run on
    void SetTransfers(Ptr<MoseTransport> transfers) override;

    /**
     * \brief The flows, before Start() (FlowBatch::SetFlows(): mose::Error naming a bad flow).
     *        Their start times count from the start of the run.
     * \param flows the flows
     */
    void SetFlows(const std::vector<mose::BatchFlow>& flows);

    /**
     * \brief Records the mode in the batch (FlowBatch::SetMode()).
     * \param mode the mode
     * \param roles its roles (not used: the flows are given)
     * \param graph its circuit graph (not used: the fabric routes the flows)
     */
    void SetMode(mose::WorkloadMode mode,
                 const mose::RoleAssignment& roles,
                 std::shared_ptr<const mose::CircuitGraph> graph) override;

    /// \param start the delay from now until the batch schedules its flows (each at its own
    ///        start time, none before the batch's start: mose::Error in the event is counted)
    void Start(Time start) override;
    /// \brief Withdraws the flows not yet started; those in flight complete
    void Stop() override;
    /// \return whether every flow is complete, withdrawn or failed to start
    bool IsDone() const override;
    /// \return flows complete
    uint32_t GetNDone() const override;
    /// \return errors caught inside the batch's events
    uint64_t GetNErrors() const override;
    /**
     * \return one transfer per flow, in the order of the flows given to SetFlows(): a started
     *         flow's is the transport's record (addresses, ports) with the batch's start, end
     *         and bytes received; a flow not started has its source, destination, class and
     *         bytes only
     */
    std::vector<MoseTransfer> GetTransfers() const override;
    /// \return the batch (its records and mode)
    const mose::FlowBatch& GetBatch() const;

  protected:
    void DoDispose() override;

  private:
    /// \brief The batch's start event
    void StartBatch();
    /// \brief A flow's transfer was noticed complete: fires "WorkDone"
    void OnDone(const mose::FlowRecord& record);

    Ptr<MoseTransport> m_transport;                //!< the transport
    std::unique_ptr<MoseSimulatorFabric> m_fabric; //!< the batch's fabric (SetTransfers())
    mose::FlowBatch m_batch;                       //!< the flows
    bool m_started{false};                         //!< the batch was started
    bool m_stopped{false};                         //!< Stop() came before the batch started
    uint64_t m_errors{0};                          //!< errors of the start event
    EventId m_startEvent;                          //!< StartBatch()
};

} // namespace ns3

#endif /* MOSE_BATCH_WORKLOAD_H */
