/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_DISTRIBUTED_H
#define MOSE_DISTRIBUTED_H

#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-transfer-monitor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-mpi
 * \brief A run on ns-3's distributed simulator (MPI): enabling it, and merging what each rank
 *        measured into the figures of the whole fabric.
 *
 * Each rank simulates the groups MoseTopologyHelper placed on it (doc/mose.rst, "Distributed
 * simulation (MPI)"), so its monitors see only its own ports, drop points and sinks. After
 * Simulator::Run() the study drivers merge those figures over the ranks with the functions here
 * (MPI_Allreduce and MPI_Allgather on ns-3's communicator), and every rank then holds the same
 * whole-fabric figures; by convention rank 0 writes them.
 *
 * Without NS3_MPI (Debian's ns-3, the standalone build) and when MPI is not enabled, a run has
 * one rank: GetRank() is 0, GetNRanks() 1, the merges change nothing, and Enable() is an error
 * naming what is missing. The class is a set of static functions, as ns-3's MpiInterface.
 */
class MoseDistributed
{
  public:
    /// \return whether this ns-3 build has the MPI module (NS3_MPI)
    static bool IsAvailable();

    /**
     * \brief Enables the distributed simulator: binds SimulatorImplementationType to
     *        ns3::DistributedSimulatorImpl (the granted-time-window scheduler, which lets a
     *        circuit be re-paired to any rank) and calls MpiInterface::Enable(). Call it before
     *        anything creates the simulator. Throws a mose::Error when this build has no MPI,
     *        and when SimulatorImplementationType was set to another implementation (a user's
     *        setting is not replaced).
     * \param argc the program's argc (MPI_Init)
     * \param argv the program's argv (MPI_Init)
     */
    static void Enable(int* argc, char*** argv);

    /// \brief Ends MPI (MpiInterface::Disable()) if Enable() enabled it; nothing otherwise
    static void Disable();

    /**
     * \brief Call before Simulator::Run() of each simulation. On several ranks, a second
     *        simulation in this process is a mose::Error: ns-3's MPI interface allocates its
     *        receive buffers in MpiInterface::Enable() and frees them in Simulator::Destroy(),
     *        so a process runs one distributed simulation (a program runs one policy then).
     *        Nothing on one rank.
     * \param what the simulation, for the message (e.g. "mose-packet, policy S-Comp")
     */
    static void BeginSimulation(const std::string& what);

    /**
     * \brief Ends every rank of the run now (MPI_Abort), with this exit status: a rank that
     *        failed alone must not leave the others waiting in a collective forever. Returns
     *        only when MPI is not enabled.
     * \param status the exit status
     */
    static void Abort(int status);

    /// \return whether Enable() enabled MPI in this process
    static bool IsEnabled();

    /// \return this process's rank (system id); 0 when MPI is not enabled
    static uint32_t GetRank();

    /// \return the ranks of the run; 1 when MPI is not enabled
    static uint32_t GetNRanks();

    /**
     * \brief Element-wise sum over the ranks (every rank gets the sums): counts each rank made
     *        of its own ports, drop points and sinks. All ranks must pass vectors of one size.
     * \param values this rank's values, replaced by the sums
     */
    static void SumOverRanks(std::vector<uint64_t>& values);

    /**
     * \brief SumOverRanks() of counters kept in different places (one MPI_Allreduce): every
     *        rank passes the same counters in the same order, and each is replaced by its sum.
     * \param counters this rank's counters
     */
    static void SumEachOverRanks(const std::vector<uint64_t*>& counters);

    /**
     * \brief Element-wise maximum over the ranks (every rank gets them): a figure one rank owns,
     *        the others holding a value below it (a completion time on the sink's rank).
     * \param values this rank's values, replaced by the maxima
     */
    static void MaxOverRanks(std::vector<int64_t>& values);

    /**
     * \param value this rank's value
     * \return every rank's value, in rank order (on every rank)
     */
    static std::vector<uint64_t> GatherOverRanks(uint64_t value);

    /**
     * \brief Merges transfers (the same list on every rank) into what the whole fabric
     *        delivered: a transfer's received bytes, completion and end time are measured at its
     *        sink, on one rank. The others hold zeros (an application's sink), or the same
     *        completion and every byte once it completed (a MoseTransport's record, completed on
     *        every rank by its notice). Each figure is the maximum over the ranks, which is the
     *        receiving rank's in both cases.
     * \param transfers this rank's transfers, replaced by the merged ones
     */
    static void MergeTransfers(std::vector<MoseTransfer>& transfers);

    /**
     * \brief Merges the switch records of a ModeSwitcher that ran the same schedule on every
     *        rank: the schedule, circuits and batch times are the same on all ranks (with
     *        FixedDrain); what a rank saw of its own queues adds (packets held, drops, packets
     *        left at a drain's end, drain timeouts) or takes the maximum (the longest hold, the
     *        figures' end `until`).
     * \param records this rank's records, replaced by the merged ones
     */
    static void MergeSwitchRecords(std::vector<MoseSwitchRecord>& records);
};

} // namespace ns3

#endif /* MOSE_DISTRIBUTED_H */
