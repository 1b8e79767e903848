/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup mose-tests
 * \brief The packet-level fabric on ns-3's distributed simulator (built only with NS3_MPI).
 *
 * Runs the mode-switch scenario of the test suite (test/mose-switch-scenario.h: 16 or 32
 * groups, TCP or RoCEv2 (--transport=rdma) transfers of both modes, one ModeSwitcher with
 * FixedDrain) on however many MPI
 * ranks mpirun gives it, groups partitioned in contiguous blocks, and writes what this rank saw
 * to <out>.rank<r>.txt, one figure a line:
 *  - "sum ..."  a count this rank contributes to (port bytes, losses, hold counts): the run's
 *               figure is the sum over ranks;
 *  - "max ..."  a figure one rank owns (a transfer's completion time, on its sink's rank; the
 *               others write -1): the run's figure is the maximum over ranks;
 *  - "same ..." a figure every rank must agree on (switch and batch times, the schedule);
 *  - "info ..." not compared (events executed by this rank, lookahead, circuits cut).
 * utils/mpi-check.sh merges the files of a 1-rank and a 2-rank run and diffs them.
 *
 *   mpirun -np 2 ./build/contrib/mose/examples/ns3.37-mose-mpi-check-default --switches=2
 */

#include "mose-switch-scenario.h"

#include "ns3/command-line.h"
#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"

#include <fstream>
#include <iostream>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

uint64_t g_events = 0; //!< events this rank executed, read while the simulator is destroyed

/// Destroy event: keeps the event count before the simulator implementation goes
void
KeepEventCount()
{
    g_events = Simulator::GetEventCount();
}

/// PhyTxEnd of a port device: counts its bytes
void
CountPortBytes(uint64_t* bytes, Ptr<const Packet> p)
{
    *bytes += p->GetSize();
}

} // namespace

int
main(int argc, char* argv[])
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(&argc, &argv);
    const uint32_t rank = MpiInterface::GetSystemId();
    const uint32_t size = MpiInterface::GetSize();

    uint32_t groups = 16;
    uint32_t switches = 2;
    uint32_t phases = 1;
    bool drain = true;
    uint32_t shrinkDelay = 0;
    bool darkPort = false;
    std::string transport = "tcp";
    std::string out = "mose-mpi";
    CommandLine cmd(__FILE__);
    cmd.AddValue("groups", "N: 16 or 32", groups);
    cmd.AddValue("switches",
                 "0 (a static fabric) or 2 (inference -> training -> inference)",
                 switches);
    cmd.AddValue("phases", "K, the batches of each switch", phases);
    cmd.AddValue("drain", "drain before the dark period", drain);
    cmd.AddValue("transport",
                 "tcp (MoseTrafficHelper's TCP transfers) or rdma (a MoseRdmaTransport)",
                 transport);
    cmd.AddValue("out", "output prefix: <out>.rank<r>.txt", out);
    cmd.AddValue("darkPort",
                 "disconnect the circuit of (group 0, port 0) before Run(): a dark port when "
                 "ns-3 computes its lookahead",
                 darkPort);
    cmd.AddValue("shrinkDelay",
                 "if > 0: at 45 ms, set every circuit's Delay to this many ns (below the "
                 "lookahead: the run must stop with an error, not violate causality)",
                 shrinkDelay);
    cmd.Parse(argc, argv);
    if ((groups != 16 && groups != 32) || (switches != 0 && switches != 2) || phases < 1 ||
        (transport != "tcp" && transport != "rdma"))
    {
        std::cerr << "mose-mpi-check: --groups = " << groups << ", --switches = " << switches
                  << ", --phases = " << phases << ", --transport = " << transport
                  << "; allowed: groups 16 or 32, switches 0 or 2, phases >= 1, transport tcp "
                     "or rdma\n";
        MpiInterface::Disable();
        return 2;
    }

    // the drain end every rank agrees on (a rank sees only its own queues)
    Config::SetDefault("ns3::MoseModeSwitcher::FixedDrain", BooleanValue(true));
    SwitchRunOptions o;
    o.groups = groups;
    o.phases = phases;
    o.drain = drain;
    o.drainTimeout = MilliSeconds(2);
    o.reconfigurationDelay = MilliSeconds(1);
    o.stop = MilliSeconds(400);
    o.transport = transport;
    if (transport == "rdma")
    {
        // RoCEv2 has no slow start: at 100 Mb/s behind 1000-packet queues a packet can wait
        // 88 ms, far past RetransmitTimeout (1 ms), and a closed QP's late ACK outlives the
        // quarantine of its number (4 x RetransmitTimeout). 1 Gb/s and 100 packets: 0.9 ms
        o.dataRate = "1Gbps";
        o.portQueue = "100p";
    }
    if (switches == 0)
    {
        // a static fabric: S-Train's template serves both modes, the boundary changes nothing
        o.policy = "S-Train";
        o.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.05}, {WorkloadMode::TRAINING_HEAVY, 0}};
    }
    else
    {
        o.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.05},
                      {WorkloadMode::TRAINING_HEAVY, 0.1},
                      {WorkloadMode::INFERENCE_HEAVY, 0}};
    }

    std::vector<uint64_t> portBytes;
    uint32_t ports = 0;
    Time lookAhead;
    uint32_t cut = 0;
    uint32_t darkAtRun = 0;
    o.beforeRun = [&](Ptr<MoseTopologyHelper> topo, Ptr<MoseModeSwitcher>) {
        lookAhead = topo->PrepareDistributedRun();
        cut = topo->GetNCircuitsCut();
        if (darkPort)
        {
            topo->GetOcs()->Disconnect(0, 0);
            topo->GetRouteTable()->Update(topo->GetOcs()->GetPortMatching());
        }
        for (uint32_t peer : topo->GetOcs()->GetPortMatching())
        {
            darkAtRun += peer == MoseOcs::DARK ? 1 : 0; // ns-3's CalculateLookAhead sees them
        }
        ports = topo->GetNPorts();
        portBytes.assign(static_cast<std::size_t>(topo->GetNGroups()) * ports, 0);
        for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
        {
            for (uint32_t p = 0; p < ports; ++p)
            {
                topo->GetOcs()->GetDevice(g, p)->TraceConnectWithoutContext(
                    "PhyTxEnd",
                    MakeBoundCallback(&CountPortBytes, &portBytes[g * ports + p]));
            }
        }
        if (shrinkDelay > 0)
        {
            Ptr<MoseOcs> ocs = topo->GetOcs();
            Simulator::Schedule(MilliSeconds(45), [ocs, shrinkDelay]() {
                for (uint32_t g = 0; g < ocs->GetNGroups(); ++g)
                {
                    for (uint32_t p = 0; p < ocs->GetNPortsPerGroup(); ++p)
                    {
                        ocs->GetChannel(g, p)->SetAttribute("Delay",
                                                            TimeValue(NanoSeconds(shrinkDelay)));
                    }
                }
            });
        }
        Simulator::ScheduleDestroy(&KeepEventCount);
    };
    SwitchRun r;
    try
    {
        r = RunSwitchScenario(o);
    }
    catch (const std::exception& e)
    {
        std::cerr << "mose-mpi-check (rank " << rank << "): " << e.what() << "\n";
        MpiInterface::Disable();
        return 1;
    }

    std::ofstream f(out + ".rank" + std::to_string(rank) + ".txt");
    f << "info rank " << rank << " of " << size << " events " << g_events << " lookahead_ns "
      << lookAhead.GetNanoSeconds() << " circuits_cut " << cut << " dark_ports_at_run " << darkAtRun
      << "\n";
    f << "same transfers " << r.transfers << "\n";
    f << "same errors " << r.errors << " rejected " << r.ocsRejected << "\n";
    // TCP: a transfer is complete on its sink's rank; rdma: every rank keeps every record and
    // completes it at the same time (the completion notice)
    f << (r.transport ? "same" : "sum") << " completed " << r.completed << "\n";
    for (const auto& [name, count] : r.rdmaCounts)
    {
        f << "sum rdma " << name << " " << count << "\n";
    }
    for (const auto& [name, count] : r.rdmaShared)
    {
        f << "same rdma " << name << " " << count << "\n";
    }
    f << "sum bytes_received " << r.bytesReceived << "\n";
    f << "sum lost " << r.lost << "\n";
    for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
    {
        f << "sum drops " << p << " " << r.drops[p] << "\n";
    }
    f << "sum wire_drops " << r.ocsWireDrops << "\n";
    f << "sum dark_drops " << r.ocsDarkDrops << "\n";
    f << "sum hold_entered " << r.holdEntered << "\n";
    f << "sum hold_drops " << r.holdDrops << "\n";
    f << "sum no_route_drops " << r.noRouteDrops << "\n";
    for (std::size_t i = 0; i < r.fcts.size(); ++i)
    {
        f << (r.transport ? "same" : "max") << " fct_ns " << i << " " << r.fcts[i] << "\n";
    }
    for (std::size_t a = 0; a < portBytes.size(); ++a)
    {
        f << "sum port_bytes " << a / ports << " " << a % ports << " " << portBytes[a] << "\n";
    }
    for (const MoseSwitchRecord& s : r.records)
    {
        f << "same switch " << s.index << " start " << s.start.GetTimeStep() << " end "
          << s.end.GetTimeStep() << " done " << s.done << " kept " << s.kept << " removed "
          << s.removed << " added " << s.added << " drain " << s.drainTime.GetTimeStep() << " dark "
          << s.darkTime.GetTimeStep() << " blackout " << s.blackoutTime.GetTimeStep() << "\n";
        for (std::size_t b = 0; b < s.batches.size(); ++b)
        {
            const MoseSwitchBatch& x = s.batches[b];
            f << "same batch " << s.index << " " << b << " drain_start "
              << x.drainStart.GetTimeStep() << " dark_start " << x.darkStart.GetTimeStep()
              << " relink " << x.relinkTime.GetTimeStep() << " connected " << x.connected << "\n";
            f << "sum batch_packets_left " << s.index << " " << b << " " << x.packetsLeft << "\n";
        }
        f << "sum switch_held " << s.index << " " << s.packetsHeld << "\n";
        f << "sum switch_lost " << s.index << " " << s.lost << "\n";
        f << "max switch_longest_hold_ps " << s.index << " " << s.longestHold.GetTimeStep() << "\n";
    }
    f.close();
    std::cout << "rank " << rank << " of " << size << ": " << g_events << " events, lookahead "
              << lookAhead.As(Time::NS) << ", " << cut << " circuits cut, " << r.completed
              << " transfers completed here, " << r.lost << " packets lost here\n";
    MpiInterface::Disable();
    return 0;
}
