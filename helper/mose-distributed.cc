/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-distributed.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-rank-messages.h"
#include "ns3/string.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <thread>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseDistributed");

namespace
{

bool g_enabledHere = false;   //!< Enable() enabled MPI in this process
bool g_simulationRan = false; //!< BeginSimulation() was called on several ranks

} // namespace

bool
MoseDistributed::IsAvailable()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

void
MoseDistributed::Enable(int* argc, char*** argv)
{
    NS_LOG_FUNCTION_NOARGS();
#ifdef NS3_MPI
    if (g_enabledHere || MpiInterface::IsEnabled())
    {
        return;
    }
    StringValue impl;
    GlobalValue::GetValueByName("SimulatorImplementationType", impl);
    const std::string wanted = "ns3::DistributedSimulatorImpl";
    if (impl.Get() != wanted && impl.Get() != "ns3::DefaultSimulatorImpl")
    {
        throw mose::Error("--distributed with SimulatorImplementationType = " + impl.Get() +
                          "; allowed: " + wanted +
                          " (the granted-time-window scheduler: a circuit may be re-paired to any "
                          "rank, which the null-message scheduler's fixed neighbours do not "
                          "allow), or leave it unset");
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue(wanted));
    MpiInterface::Enable(argc, argv);
    g_enabledHere = true;
    NS_LOG_INFO("rank " << GetRank() << " of " << GetNRanks());
#else
    (void)argc;
    (void)argv;
    throw mose::Error("--distributed: this ns-3 build has no MPI module (NS3_MPI is not "
                      "defined); a distributed run needs mose inside an ns-3 source tree "
                      "configured with --enable-mpi (doc/mose.rst, \"Distributed simulation "
                      "(MPI)\"). Debian's libns3-dev has no MPI");
#endif
}

void
MoseDistributed::Disable()
{
    NS_LOG_FUNCTION_NOARGS();
#ifdef NS3_MPI
    if (g_enabledHere && MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
#endif
    g_enabledHere = false;
}

void
MoseDistributed::BeginSimulation(const std::string& what)
{
    NS_LOG_FUNCTION(what);
    if (GetNRanks() <= 1)
    {
        return;
    }
    if (g_simulationRan)
    {
        throw mose::Error(what + ": a second distributed simulation in one process; ns-3's MPI "
                                 "interface frees its receive buffers at the end of the first "
                                 "(Simulator::Destroy()), so a run on several ranks runs one "
                                 "simulation: give one policy (mose-packet and mose-mode-switch "
                                 "--policies=MoSE, mose-llm --map=false --policies=MoSE)");
    }
    g_simulationRan = true;
}

void
MoseDistributed::Abort(int status)
{
#ifdef NS3_MPI
    if (IsEnabled())
    {
        std::cerr.flush();
        std::cout.flush();
        // mpirun forwards a rank's output asynchronously, and MPI_Abort kills every rank at
        // once: the message a rank just wrote would often be lost. A short wait lets it through
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        MPI_Abort(MpiInterface::GetCommunicator(), status);
        std::exit(status); // MPI_Abort does not return; in case it does
    }
#else
    (void)status;
#endif
}

bool
MoseDistributed::IsEnabled()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled();
#else
    return false;
#endif
}

uint32_t
MoseDistributed::GetRank()
{
    return MoseRankMessages::GetRank();
}

uint32_t
MoseDistributed::GetNRanks()
{
    return MoseRankMessages::GetNRanks();
}

#ifdef NS3_MPI
namespace
{

/// element-wise MPI_Allreduce of values with op over ns-3's communicator, in place
template <typename T>
void
AllReduce(std::vector<T>& values, MPI_Datatype type, MPI_Op op)
{
    if (MoseDistributed::GetNRanks() <= 1 || values.empty())
    {
        return;
    }
    std::vector<T> reduced(values.size(), 0);
    MPI_Allreduce(values.data(),
                  reduced.data(),
                  static_cast<int>(values.size()),
                  type,
                  op,
                  MpiInterface::GetCommunicator());
    values.swap(reduced);
}

} // namespace
#endif

void
MoseDistributed::SumOverRanks(std::vector<uint64_t>& values)
{
#ifdef NS3_MPI
    AllReduce(values, MPI_UINT64_T, MPI_SUM);
#else
    (void)values;
#endif
}

void
MoseDistributed::SumEachOverRanks(const std::vector<uint64_t*>& counters)
{
    if (GetNRanks() <= 1)
    {
        return;
    }
    std::vector<uint64_t> values;
    values.reserve(counters.size());
    for (const uint64_t* c : counters)
    {
        values.push_back(*c);
    }
    SumOverRanks(values);
    for (std::size_t i = 0; i < counters.size(); ++i)
    {
        *counters[i] = values[i];
    }
}

void
MoseDistributed::MaxOverRanks(std::vector<int64_t>& values)
{
#ifdef NS3_MPI
    AllReduce(values, MPI_INT64_T, MPI_MAX);
#else
    (void)values;
#endif
}

std::vector<uint64_t>
MoseDistributed::GatherOverRanks(uint64_t value)
{
    std::vector<uint64_t> all(GetNRanks(), value);
#ifdef NS3_MPI
    if (GetNRanks() > 1)
    {
        MPI_Allgather(&value,
                      1,
                      MPI_UINT64_T,
                      all.data(),
                      1,
                      MPI_UINT64_T,
                      MpiInterface::GetCommunicator());
    }
#endif
    return all;
}

void
MoseDistributed::MergeTransfers(std::vector<MoseTransfer>& transfers)
{
    NS_LOG_FUNCTION(transfers.size());
    if (GetNRanks() <= 1)
    {
        return;
    }
    // one MPI_Allreduce: a transfer's received bytes, end and completion (all >= 0, and a
    // payload count fits int64_t)
    std::vector<int64_t> figures(3 * transfers.size());
    for (std::size_t i = 0; i < transfers.size(); ++i)
    {
        figures[3 * i] = static_cast<int64_t>(transfers[i].received);
        figures[3 * i + 1] = transfers[i].end.GetTimeStep();
        figures[3 * i + 2] = transfers[i].complete ? 1 : 0;
    }
    MaxOverRanks(figures);
    for (std::size_t i = 0; i < transfers.size(); ++i)
    {
        transfers[i].received = static_cast<uint64_t>(figures[3 * i]);
        transfers[i].end = TimeStep(figures[3 * i + 1]);
        transfers[i].complete = figures[3 * i + 2] != 0;
    }
}

void
MoseDistributed::MergeSwitchRecords(std::vector<MoseSwitchRecord>& records)
{
    NS_LOG_FUNCTION(records.size());
    if (GetNRanks() <= 1)
    {
        return;
    }
    // every rank ran the same schedule: check the shape before merging figure by figure
    uint64_t shape = 1469598103934665603ULL; // FNV-1a over the counts
    auto mix = [&shape](uint64_t x) { shape = (shape ^ x) * 1099511628211ULL; };
    mix(records.size());
    for (const MoseSwitchRecord& r : records)
    {
        mix(r.index);
        mix(r.batches.size());
        mix(r.start.GetTimeStep());
    }
    const std::vector<uint64_t> shapes = GatherOverRanks(shape);
    if (std::adjacent_find(shapes.begin(), shapes.end(), std::not_equal_to<>()) != shapes.end())
    {
        throw mose::Error("MoseDistributed::MergeSwitchRecords: the ranks recorded different "
                          "numbers of switches and batches (the switcher must run the same "
                          "schedule on every rank)");
    }
    std::vector<uint64_t> sums;
    std::vector<int64_t> maxima;
    for (const MoseSwitchRecord& r : records)
    {
        sums.push_back(r.packetsHeld);
        sums.push_back(r.lost);
        sums.insert(sums.end(), r.drops.begin(), r.drops.end());
        maxima.push_back(r.longestHold.GetTimeStep());
        maxima.push_back(r.until.GetTimeStep());
        for (const MoseSwitchBatch& b : r.batches)
        {
            sums.push_back(b.packetsLeft);
            maxima.push_back(b.drainTimedOut ? 1 : 0);
        }
    }
    SumOverRanks(sums);
    MaxOverRanks(maxima);
    std::size_t s = 0;
    std::size_t m = 0;
    for (MoseSwitchRecord& r : records)
    {
        r.packetsHeld = sums[s++];
        r.lost = sums[s++];
        for (uint64_t& d : r.drops)
        {
            d = sums[s++];
        }
        r.longestHold = TimeStep(maxima[m++]);
        r.until = TimeStep(maxima[m++]);
        r.drainTimeouts = 0;
        for (MoseSwitchBatch& b : r.batches)
        {
            b.packetsLeft = static_cast<uint32_t>(sums[s++]);
            b.drainTimedOut = maxima[m++] != 0;
            r.drainTimeouts += b.drainTimedOut ? 1 : 0;
        }
    }
}

} // namespace ns3
