/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SIMULATOR_FABRIC_H
#define MOSE_SIMULATOR_FABRIC_H

#include "mose-transport.h"

#include "ns3/event-id.h"
#include "ns3/mose-workload-fabric.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The packet level as a backend of the workload model (mose::WorkloadFabric): the
 *        Simulator's clock and events, and transfers over an installed MoseTransport (TCP or RDMA).
 *
 * MoseInferenceWorkload and MoseTrainingWorkload each run their mose::InferenceServer or
 * mose::TrainingJob on one of these. It keeps the ids of the transfers it started (the
 * workload's GetTransfers()) and the events it scheduled (cancelled by CancelAll() when the
 * workload is disposed). A transfer's callback runs at the transport's notice of it.
 */
class MoseSimulatorFabric : public mose::WorkloadFabric
{
  public:
    /// \param transfers the installed transport (not null)
    explicit MoseSimulatorFabric(Ptr<MoseTransport> transfers);
    ~MoseSimulatorFabric() override;

    int64_t Now() const override;
    EventHandle Schedule(int64_t delayNs, Event event) override;
    void Cancel(EventHandle event) override;
    /// \brief Starts the transfer on the transport: Start(), or StartOnConnection() for
    ///        TransferSpec::keepConnection
    uint64_t StartTransfer(const mose::TransferSpec& transfer, DoneCallback done) override;
    void CloseConnections(const std::vector<uint32_t>& groups) override;

    /// \brief Cancels every event not yet run
    void CancelAll();
    /// \return the transport
    Ptr<MoseTransport> GetTransfers() const;
    /// \return the ids of the transfers started, in start order
    const std::vector<uint64_t>& GetTransferIds() const;

  private:
    /// \brief The transport noticed transfer id complete: calls its slot's callback
    static void Done(MoseSimulatorFabric* self, uint32_t slot, uint64_t id);

    Ptr<MoseTransport> m_transfers;      //!< the transport
    std::vector<EventId> m_events;       //!< by handle
    std::vector<DoneCallback> m_done;    //!< callbacks of transfers in flight, by slot
    std::vector<uint32_t> m_freeSlots;   //!< slots of m_done free for reuse
    std::vector<uint64_t> m_transferIds; //!< transfers started
};

} // namespace ns3

#endif /* MOSE_SIMULATOR_FABRIC_H */
