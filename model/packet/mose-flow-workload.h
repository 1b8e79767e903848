/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_WORKLOAD_H
#define MOSE_FLOW_WORKLOAD_H

#include "mose-transfer-monitor.h"
#include "mose-workload.h"

#include "ns3/application-container.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief A list of flow-level flows as a packet-level workload: each transfer (a flow, or a
 *        (source, destination) pair's flows) an ns-3 application that sends its bytes from its
 *        start time, completions counted by a MoseTransferMonitor.
 *
 * MoseTrafficHelper makes the transfers (sample, bytes, start times from its attributes and
 * random streams) and installs their applications; MoseWorkloadHelper::Install() hands them to
 * this workload. The flows were drawn for one mode and are routed by the fabric, so SetMode()
 * only records the mode. Start(delay) delays every transfer (before the simulation runs: the
 * applications read their start times when their nodes are initialised); Stop() withdraws the
 * transfers that have not started (their senders are disposed and never send), while those
 * that started complete. IsDone(): every transfer not withdrawn completed.
 */
class MoseFlowWorkload : public MoseWorkload
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MoseFlowWorkload();
    ~MoseFlowWorkload() override;

    /**
     * \brief The installed transfers: the monitor that counts them and, per transfer (the
     *        monitor's index), its sending applications (none on an MPI rank that does not
     *        simulate its source). mose::Error if the sizes differ or it was called before.
     * \param monitor the transfers' monitor
     * \param senders per transfer, its senders
     */
    void SetInstalled(Ptr<MoseTransferMonitor> monitor,
                      const std::vector<ApplicationContainer>& senders);

    /// \return the transfers' monitor (null before SetInstalled())
    Ptr<MoseTransferMonitor> GetMonitor() const;

    /**
     * \brief Records the mode the flows run in (the fabric routes them).
     * \param mode the mode
     * \param roles its roles (not used)
     * \param graph its circuit graph (not used)
     */
    void SetMode(mose::WorkloadMode mode,
                 const mose::RoleAssignment& roles,
                 std::shared_ptr<const mose::CircuitGraph> graph) override;

    /// \return the mode of the latest SetMode() (inference-heavy before one)
    mose::WorkloadMode GetMode() const;

    /**
     * \brief Delays every transfer by `start` (0: as drawn at install). mose::Error once the
     *        simulation has started, or before SetInstalled().
     * \param start the delay
     */
    void Start(Time start) override;

    /// \brief Withdraws the transfers that have not started; those in flight complete
    void Stop() override;

    /// \return whether every transfer not withdrawn by Stop() completed
    bool IsDone() const override;
    /// \return transfers completed
    uint32_t GetNDone() const override;
    /// \return 0: the applications report no errors of their own
    uint64_t GetNErrors() const override;
    /// \return the transfers (the monitor's records), in install order
    std::vector<MoseTransfer> GetTransfers() const override;
    /// \return transfers withdrawn by Stop()
    uint32_t GetNWithdrawn() const;

  protected:
    void DoDispose() override;

  private:
    /// \brief "TransferCompleted" of the monitor: fires "WorkDone"
    void OnCompleted(uint32_t, Time);

    Ptr<MoseTransferMonitor> m_monitor;          //!< the transfers
    std::vector<ApplicationContainer> m_senders; //!< per transfer
    std::vector<bool> m_withdrawn;               //!< per transfer, withdrawn by Stop()
    uint32_t m_nWithdrawn{0};                    //!< withdrawn by Stop()
    mose::WorkloadMode m_mode{mose::WorkloadMode::INFERENCE_HEAVY}; //!< SetMode()'s
};

} // namespace ns3

#endif /* MOSE_FLOW_WORKLOAD_H */
