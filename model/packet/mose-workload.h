/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_WORKLOAD_H
#define MOSE_WORKLOAD_H

#include "mose-transfer.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-roles.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The traffic a cluster puts on the fabric, as ns-3 applications are to a node: the
 *        base of every packet-level workload (MoseInferenceWorkload, MoseTrainingWorkload,
 *        MoseFlowWorkload), installed by MoseWorkloadHelper.
 *
 * A workload follows the fabric's mode: SetMode() gives it the mode's roles and circuit graph
 * before Start() and again at every switch (MoseModeSwitcher::AddWorkload() does both), so
 * that it places new work by the roles of the mode the fabric is entering.
 * Start() schedules its first work; Stop() stops new work (what is in flight completes);
 * IsDone() says that nothing is left to do or in flight. Every workload keeps its transfers as
 * MoseTransfer records (GetTransfers()) and counts the errors caught inside its simulation
 * events (GetNErrors(): no exception escapes Simulator::Run()). The "WorkDone" trace fires
 * whenever a unit of its work completes (a request served, an iteration done, a transfer
 * complete), after the workload's own records are updated, so that a sink may ask IsDone().
 */
class MoseTransport;

class MoseWorkload : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MoseWorkload();
    ~MoseWorkload() override;

    /**
     * \brief The fabric's mode: its roles and circuit graph (the switcher's target of the mode,
     *        MoseModeSwitcher::GetTarget()). Called before Start() and at every switch.
     * \param mode the mode
     * \param roles its roles
     * \param graph its circuit graph (a workload that does not route by it may ignore it)
     */
    virtual void SetMode(mose::WorkloadMode mode,
                         const mose::RoleAssignment& roles,
                         std::shared_ptr<const mose::CircuitGraph> graph) = 0;

    /**
     * \brief The transport the workload moves its bytes on (MoseWorkloadHelper::Install()
     *        gives it). This default refuses with a mose::Error: a workload that takes flows
     *        instead (MoseFlowWorkload) does not run on a transport.
     * \param transfers the transport
     */
    virtual void SetTransfers(Ptr<MoseTransport> transfers);

    /**
     * \brief Schedules the workload's start.
     * \param start the delay from now until it starts
     */
    virtual void Start(Time start) = 0;

    /// \brief Starts no new work from now on; work in flight completes
    virtual void Stop() = 0;

    /// \return whether nothing is left to do and nothing is in flight
    virtual bool IsDone() const = 0;

    /// \return the units of work completed (requests served, iterations, transfers)
    virtual uint32_t GetNDone() const = 0;

    /// \return errors caught inside the workload's simulation events (0 in a sound run)
    virtual uint64_t GetNErrors() const = 0;

    /// \return the workload's transfers so far, in the order they were made
    virtual std::vector<MoseTransfer> GetTransfers() const = 0;

    /**
     * TracedCallback signature of "WorkDone".
     * \param done the units of work completed so far (GetNDone())
     */
    typedef void (*WorkDoneCallback)(uint32_t done);

  protected:
    /// \brief Fires "WorkDone"; a derived class calls it after each unit of work completes
    void NotifyWorkDone();

  private:
    TracedCallback<uint32_t> m_workDoneTrace; //!< "WorkDone"
};

} // namespace ns3

#endif /* MOSE_WORKLOAD_H */
