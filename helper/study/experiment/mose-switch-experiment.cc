/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-experiment.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-format.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/mose-workload-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchExperiment");

namespace mose
{

const MoseFctSummary&
SwitchInterval::GetFct(mose::TrafficClass cls) const
{
    return cls == mose::TrafficClass::KV ? kv : training;
}

std::string
SwitchResult::GetWorkloadText(const Experiment& experiment) const
{
    const ExperimentConfig& config = experiment.GetConfig();
    std::ostringstream o;
    o << "N=" << config.scenario.nodes << " d=" << config.scenario.degree << ", run " << config.run
      << ", schedule " << config.ScheduleShown() << ", " << config.scenario.flows
      << " flows per mode interval of " << bytesPerUnit << " bytes per unit of demand, "
      << switcherText;
    return o.str();
}

namespace
{

/// What a run at the packet level keeps from its Build() to the end of its Run()
struct PacketState
{
    Experiment* experiment{nullptr};              //!< the run
    std::shared_ptr<SwitchResult> result;         //!< its result
    std::vector<Ptr<MoseFlowWorkload>> workloads; //!< per interval (tcp)
    std::vector<Ptr<MoseBatchWorkload>> batches;  //!< per interval (rdma)
    std::vector<std::vector<MoseTransfer>> drawn; //!< per interval, its transfers (rdma)
    std::array<uint64_t, 2> binReceived{};        //!< bytes received at the last sample (rdma)
    EventId sampler;                              //!< the next sample (rdma)
};

/**
 * \brief The intervals' flow-level parts, from the Experiment's (one evaluation per template
 *        and mode): interval 0's transfers start at firstStart, the others' at their boundary.
 * \param experiment the run, built
 * \return the intervals
 */
std::vector<SwitchInterval>
MakeIntervals(const Experiment& experiment)
{
    const ExperimentConfig& config = experiment.GetConfig();
    const mose::Scenario& sc = experiment.GetScenario();
    std::map<std::pair<const mose::CircuitGraph*, mose::WorkloadMode>, mose::FlowMetrics> cache;
    std::vector<SwitchInterval> intervals;
    for (const ExperimentInterval& probe : experiment.GetIntervals())
    {
        SwitchInterval iv;
        iv.index = probe.index;
        iv.mode = probe.mode;
        iv.start = probe.index == 0 ? config.firstStart : probe.start;
        iv.end = probe.end;
        iv.templateId = mose::SelectTemplate(config.policy, iv.mode);
        const mose::CircuitGraph& graph = sc.GetGraph(config.policy, iv.mode);
        iv.graph = graph;
        const std::vector<mose::Flow>& flows = sc.flows[static_cast<std::size_t>(iv.mode)];
        iv.flows = flows.size();
        auto it = cache.find({&graph, iv.mode});
        if (it == cache.end())
        {
            it = cache
                     .emplace(std::make_pair(&graph, iv.mode),
                              experiment.EvaluateFlows(iv.graph, flows))
                     .first;
        }
        iv.metrics = it->second;
        intervals.push_back(std::move(iv));
    }
    return intervals;
}

/**
 * \brief The transfers MoseModeSwitcherHelper::InstallModeTraffic() installs in an interval
 *        (its attributes and streams); interval 0 sets the result's bytesPerUnit.
 * \param config the run's \param iv the interval \param result its result
 * \param flows its mode's flows
 * \return the transfers
 */
std::vector<MoseTransfer>
DrawIntervalTransfers(const ExperimentConfig& config,
                      const SwitchInterval& iv,
                      SwitchResult& result,
                      const std::vector<mose::Flow>& flows)
{
    // InstallModeTraffic()'s default helper, attributes and streams: the same sample and start
    // times
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("StartMode", StringValue("uniform"));
    MoseModeSwitcherHelper::SetIntervalTraffic(traffic,
                                               iv.index,
                                               iv.start,
                                               iv.end,
                                               config.startWindow,
                                               mose::Stream::TRANSFERS);
    if (iv.index == 0)
    {
        UintegerValue unit;
        traffic->GetAttribute("BytesPerUnit", unit);
        result.bytesPerUnit = unit.Get();
    }
    std::vector<MoseTransfer> drawn = traffic->MakeStartedTransfers(flows);
    traffic->Dispose();
    return drawn;
}

/// \brief An interval's FCT summaries from its transfers \param iv the interval
void
SummarizeInterval(SwitchInterval& iv)
{
    iv.kv = MoseTransferMonitor::SummarizeTransfers(iv.transfers, mose::TrafficClass::KV);
    iv.training =
        MoseTransferMonitor::SummarizeTransfers(iv.transfers, mose::TrafficClass::TRAINING);
}

/// \brief On several MPI ranks, each goodput bin becomes its sum over the ranks (each counted
///        the bytes its own receivers got); nothing on one process \param bins the bins
void
SumBinsOverRanks(std::vector<std::array<uint64_t, 2>>& bins)
{
    if (MoseDistributed::GetNRanks() <= 1)
    {
        return;
    }
    // a rank counted only its own sinks: the goodput bins are the sums (first one length on
    // every rank)
    std::vector<int64_t> longest{static_cast<int64_t>(bins.size())};
    MoseDistributed::MaxOverRanks(longest);
    bins.resize(static_cast<std::size_t>(longest[0]), {0, 0});
    std::vector<uint64_t*> counts;
    for (auto& bin : bins)
    {
        for (uint64_t& b : bin)
        {
            counts.push_back(&b);
        }
    }
    MoseDistributed::SumEachOverRanks(counts);
}

/// \brief The packet level over tcp: every interval's transfers, the goodput timeline from
///        their monitors' TransferRx traces \param experiment the run, built
/// \param result its result
void
InstallSockets(Experiment& experiment, const std::shared_ptr<SwitchResult>& result)
{
    const ExperimentConfig& config = experiment.GetConfig();
    const mose::Scenario& sc = experiment.GetScenario();
    auto state = std::make_shared<PacketState>();
    state->workloads = experiment.InstallModeFlows(
        [&sc](mose::WorkloadMode mode) { return sc.flows[static_cast<std::size_t>(mode)]; },
        config.firstStart,
        config.startWindow);
    result->bytesPerUnit = experiment.GetBytesPerUnit();
    uint32_t transfers = 0;
    for (uint32_t i = 0; i < state->workloads.size(); ++i)
    {
        Ptr<MoseTransferMonitor> monitor = state->workloads[i]->GetMonitor();
        transfers += monitor->GetNTransfers();
        // the bytes to the current bin of the transfer's class
        const Time width = config.binWidth;
        monitor->TraceConnectWithoutContext(
            "TransferRx",
            Callback<void, uint32_t, uint32_t>(
                [monitor = PeekPointer(monitor), result, width](uint32_t index, uint32_t bytes) {
                    const MoseTransfer& t = monitor->GetTransfer(index);
                    const auto bin = static_cast<std::size_t>(Simulator::Now().GetTimeStep() /
                                                              width.GetTimeStep());
                    std::vector<std::array<uint64_t, 2>>& bins = result->goodputBins;
                    if (bin >= bins.size())
                    {
                        bins.resize(bin + 1, {0, 0});
                    }
                    bins[bin][t.cls == mose::TrafficClass::KV ? 0 : 1] += bytes;
                }));
    }
    NS_LOG_INFO(result->intervals.size() << " intervals, " << transfers << " transfers");
    experiment.SetCollect([result, state]() {
        // every interval's transfers, merged over the ranks
        for (uint32_t i = 0; i < result->intervals.size(); ++i)
        {
            SwitchInterval& iv = result->intervals[i];
            iv.transfers = Experiment::CollectTransfers(state->workloads[i]);
            SummarizeInterval(iv);
        }
        state->workloads.clear();
        SumBinsOverRanks(result->goodputBins);
    });
}

/**
 * \return payload bytes the batches' started transfers received so far, KV then training
 * \param state the run
 */
std::array<uint64_t, 2>
CountBatchBytes(const PacketState& state)
{
    // the bytes every started transfer received so far (the transport's record), per class;
    // on several MPI ranks those this rank received, packet by packet (the bins are summed
    // over the ranks at the end)
    std::array<uint64_t, 2> received{0, 0};
    Ptr<MoseTransport> transport = state.experiment->GetTransport();
    for (const Ptr<MoseBatchWorkload>& b : state.batches)
    {
        for (const mose::FlowRecord& r : b->GetBatch().GetRecords())
        {
            if (r.started && transport->IsReceivedHere(r.transfer))
            {
                received[r.flow.trafficClass == mose::TrafficClass::KV ? 0 : 1] +=
                    transport->GetTransfer(r.transfer).received;
            }
        }
    }
    return received;
}

/// \brief Adds the bytes received since the last sample to the bin of a time
/// \param state the run \param binTime a time in the bin
void
AddBatchBytes(PacketState& state, Time binTime)
{
    const std::array<uint64_t, 2> received = CountBatchBytes(state);
    const auto bin = static_cast<std::size_t>(binTime.GetTimeStep() /
                                              state.experiment->GetConfig().binWidth.GetTimeStep());
    std::vector<std::array<uint64_t, 2>>& bins = state.result->goodputBins;
    if (bin >= bins.size())
    {
        bins.resize(bin + 1, {0, 0});
    }
    for (std::size_t c = 0; c < 2; ++c)
    {
        bins[bin][c] += received[c] - state.binReceived[c];
    }
    state.binReceived = received;
}

/// \brief At every bin's end (rdma): the bytes received since the last sample into the bin
/// \param run the run, held by its collector: the event holds it weakly, since the run holds
///        the event (its sampler), and a strong hold both ways would never be freed
void
SampleBatches(std::weak_ptr<PacketState> run)
{
    const std::shared_ptr<PacketState> state = run.lock();
    if (!state)
    {
        return;
    }
    // the transport reports no per-packet receive trace: the goodput timeline is sampled at
    // every bin's end, each bin getting the bytes received since the previous sample
    const Time width = state->experiment->GetConfig().binWidth;
    const Time now = Simulator::Now();
    if (now.IsStrictlyPositive())
    {
        AddBatchBytes(*state, now - width);
    }
    state->sampler = Simulator::Schedule(width, &SampleBatches, run);
}

/// \brief The packet level with rdma: the transport installed on the groups' endpoints and each
///        interval's transfers as a flow batch on it (MoseBatchWorkload)
/// \param experiment the run, built \param result its result
void
InstallBatches(Experiment& experiment, const std::shared_ptr<SwitchResult>& result)
{
    // the transport on each group's endpoints through the helper's topology-aware Install (its
    // attributes' defaults, the fabric's in-flight cap and notice delay unless the user set
    // them); per interval the transfers InstallModeTraffic() would install, as a flow batch on
    // it that the switcher keeps in the fabric's mode
    const ExperimentConfig& config = experiment.GetConfig();
    const mose::Scenario& sc = experiment.GetScenario();
    const ScaleScope scale(config.scale);
    experiment.InstallTransport(MoseTransportHelper(config.transport));
    auto state = std::make_shared<PacketState>();
    state->experiment = &experiment;
    state->result = result;
    uint32_t transfers = 0;
    for (const SwitchInterval& iv : result->intervals)
    {
        state->drawn.push_back(DrawIntervalTransfers(config,
                                                     iv,
                                                     *result,
                                                     sc.flows[static_cast<std::size_t>(iv.mode)]));
        Ptr<MoseBatchWorkload> batch = DynamicCast<MoseBatchWorkload>(
            experiment.InstallWorkload(MoseWorkloadHelper("ns3::MoseBatchWorkload")));
        batch->SetFlows(ToBatchFlows(state->drawn.back()));
        batch->Start(Seconds(0));
        state->batches.push_back(batch);
        transfers += static_cast<uint32_t>(state->drawn.back().size());
    }
    SampleBatches(std::weak_ptr<PacketState>(state));
    NS_LOG_INFO(result->intervals.size() << " intervals, " << transfers << " transfers");
    experiment.SetCollect([state]() {
        // every interval's transfers from its batch (merged over the ranks), the transport's
        // drops and the goodput bins summed over the ranks
        SwitchResult& r = *state->result;
        state->sampler.Cancel();
        AddBatchBytes(*state, Simulator::Now()); // the bin the run ends in
        for (uint32_t i = 0; i < r.intervals.size(); ++i)
        {
            SwitchInterval& iv = r.intervals[i];
            iv.transfers = Experiment::CollectTransfers(state->batches[i]);
            for (std::size_t k = 0; k < iv.transfers.size() && k < state->drawn[i].size(); ++k)
            {
                iv.transfers[k].demand = state->drawn[i][k].demand;
            }
            SummarizeInterval(iv);
            r.batchErrors += state->batches[i]->GetNErrors();
        }
        // each rank runs the batches whole: their errors over the ranks, as the run's errors
        MoseDistributed::SumEachOverRanks({&r.batchErrors});
        r.transportDrops = ReadTransportDrops(state->experiment->GetTransport());
        state->batches.clear();
        SumBinsOverRanks(r.goodputBins);
    });
}

/// What the fluid and aggregate levels keep from Build() to the fluid run
struct FluidPlan
{
    mose::FluidFlowConfig config;                 //!< the fluid run
    std::vector<std::vector<MoseTransfer>> drawn; //!< per interval, its transfers
};

/**
 * \brief RunFluid(): an interval ends; its circuits' bytes since its graph was in place
 * \param fabric the fluid fabric \param degree d \param iv the interval (its graph)
 * \param probe the Experiment's interval, its figures set
 * \param now the port bytes now \param inPlace the port bytes when its graph was in place
 *        (empty: never)
 */
void
CloseFluidInterval(const mose::FluidFabric& fabric,
                   uint32_t degree,
                   const SwitchInterval& iv,
                   ExperimentInterval& probe,
                   const std::vector<double>& now,
                   const std::vector<double>& inPlace)
{
    const mose::PortPlan plan = fabric.GetPortPlan();
    probe.graphRealised = plan.Matches(iv.graph);
    probe.circuitBytes.assign(iv.graph.GetNCircuits(), 0);
    if (!probe.graphRealised || inPlace.empty())
    {
        return; // its graph was never in place
    }
    for (uint32_t c = 0; c < iv.graph.GetNCircuits(); ++c)
    {
        const mose::Circuit& e = iv.graph.GetCircuits()[c];
        const mose::CircuitPorts p = plan.GetCircuitPorts(iv.graph, c);
        const std::size_t a = static_cast<std::size_t>(e.u) * degree + p.portU;
        const std::size_t b = static_cast<std::size_t>(e.v) * degree + p.portV;
        probe.circuitBytes[c] =
            static_cast<uint64_t>(std::llround(now[a] - inPlace[a] + now[b] - inPlace[b]));
    }
}

/**
 * \brief RunFluid(): every interval's transfers from its batch's records, and their summaries
 * \param run the finished run \param fabric its fabric \param plan the run's
 * \param result the result
 */
void
CollectFluidTransfers(const mose::FluidFlowRun& run,
                      const mose::FluidFabric& fabric,
                      const FluidPlan& plan,
                      SwitchResult& result)
{
    // the batches' records, in each interval's drawn order
    for (uint32_t i = 0; i < result.intervals.size(); ++i)
    {
        SwitchInterval& iv = result.intervals[i];
        iv.transfers = plan.drawn[i];
        for (const mose::FlowRecord& r : run.GetBatches()[i].GetRecords())
        {
            MoseTransfer& t = iv.transfers[r.index];
            t.complete = r.complete;
            t.received = r.complete ? r.received
                                    : (r.started ? static_cast<uint64_t>(
                                                       std::floor(fabric.GetBytesSent(r.transfer)))
                                                 : 0);
            if (r.complete)
            {
                t.end = r.end;
            }
        }
        SummarizeInterval(iv);
    }
}

/**
 * \brief The fluid run: the goodput bins, the transfers, per interval the probe's figures and
 *        the switches
 * \param experiment the run \param result its result \param plan the fluid run's
 * \return what the run took, the intervals' figures and the switch records
 */
FluidRunOutput
RunFluid(const Experiment& experiment, SwitchResult& result, const FluidPlan& plan)
{
    mose::FluidFlowRun run(plan.config);
    FluidRunOutput output;
    output.intervals = experiment.GetIntervals();
    const uint32_t degree = experiment.GetConfig().scenario.degree;
    const mose::FluidFabric* fabric = nullptr;
    std::vector<double> inPlace;    // port bytes when the current interval's graph was in place
    std::vector<double> atBoundary; // port bytes at the start of the switch under way
    uint32_t current = 0;           // the interval under way
    const auto sum = [](const std::vector<double>& v) {
        double total = 0;
        for (double x : v)
        {
            total += x;
        }
        return total;
    };
    const auto close = [&](const std::vector<double>& now) {
        CloseFluidInterval(*fabric,
                           degree,
                           result.intervals[current],
                           output.intervals[current],
                           now,
                           inPlace);
    };
    // the goodput bins: the bytes the fluid model sent of each transfer, per bin and class
    std::vector<std::vector<double>> sent(plan.drawn.size());
    for (std::size_t i = 0; i < sent.size(); ++i)
    {
        sent[i].assign(plan.drawn[i].size(), 0.0);
    }
    std::vector<std::array<double, 2>> bins;
    const int64_t width = experiment.GetConfig().binWidth.GetNanoSeconds();
    const auto sample = [&](int64_t nowNs) {
        // the bytes sent since the last sample go to the bin before this time (the last
        // sample, at the run's end, to the bin it falls in)
        const auto bin = static_cast<std::size_t>(std::max<int64_t>(nowNs - 1, 0) / width);
        if (bin >= bins.size())
        {
            bins.resize(bin + 1, {0.0, 0.0});
        }
        for (std::size_t i = 0; i < sent.size(); ++i)
        {
            for (const mose::FlowRecord& r : run.GetBatches()[i].GetRecords())
            {
                if (r.started)
                {
                    const double s = fabric->GetBytesSent(r.transfer);
                    bins[bin][r.flow.trafficClass == mose::TrafficClass::KV ? 0 : 1] +=
                        s - sent[i][r.index];
                    sent[i][r.index] = s;
                }
            }
        }
    };
    mose::FluidFlowRun::Observers o;
    o.boundary = [&](std::size_t b) {
        fabric = run.GetFabric();
        const std::vector<double> now = fabric->GetPortBytesNow();
        if (current == 0 && inPlace.empty())
        {
            inPlace.assign(now.size(), 0.0); // interval 0's graph from time 0
        }
        close(now);
        current = static_cast<uint32_t>(b + 1);
        atBoundary = now;
        inPlace.clear();
    };
    o.switchDone = [&](uint32_t) {
        fabric = run.GetFabric();
        const std::vector<double> now = fabric->GetPortBytesNow();
        output.intervals[current].bytesDuringSwitch =
            static_cast<uint64_t>(std::llround(sum(now) - sum(atBoundary)));
        inPlace = now;
    };
    o.sample = [&]() {
        fabric = run.GetFabric();
        sample(fabric->Now());
    };
    run.SetObservers(o);
    output.figures = RunFluidMeasured(run);
    fabric = run.GetFabric();
    if (inPlace.empty() && current == 0)
    {
        inPlace.assign(fabric->GetPortBytes().size(), 0.0); // interval 0's graph from time 0
    }
    const std::vector<double> now = fabric->GetPortBytesNow();
    if (!atBoundary.empty() && inPlace.empty())
    {
        // the last switch did not end: its bytes up to the end
        output.intervals[current].bytesDuringSwitch =
            static_cast<uint64_t>(std::llround(sum(now) - sum(atBoundary)));
    }
    close(now);
    sample(fabric->Now());
    result.goodputBins.assign(bins.size(), {0, 0});
    for (std::size_t b = 0; b < bins.size(); ++b)
    {
        for (int cls = 0; cls < 2; ++cls)
        {
            result.goodputBins[b][cls] =
                static_cast<uint64_t>(std::llround(std::max(0.0, bins[b][cls])));
        }
    }

    CollectFluidTransfers(run, *fabric, plan, result);
    std::vector<std::pair<int64_t, mose::WorkloadMode>> boundaries;
    for (const mose::FluidFlowConfig::Boundary& boundary : plan.config.boundaries)
    {
        boundaries.emplace_back(boundary.atNs, boundary.mode);
    }
    output.switchRecords = FluidSwitchRecords(*fabric,
                                              boundaries,
                                              experiment.GetConfig().GetInitialMode(),
                                              plan.config.fabric.phases,
                                              run.GetEndNs());
    if (run.GetNErrors() > 0)
    {
        NS_LOG_ERROR(run.GetNErrors() << " errors in the fluid run");
    }
    return output;
}

/// \brief The fluid and aggregate levels: the fabric read from the helpers (nothing
///        installed) and one flow batch per interval, run by the Experiment's Run()
/// \param experiment the run, built \param result its result
void
PrepareFluid(Experiment& experiment, const std::shared_ptr<SwitchResult>& result)
{
    const ExperimentConfig& config = experiment.GetConfig();
    const mose::Scenario& sc = experiment.GetScenario();
    // the intervals as Experiment::Build() makes them: interval 0 from time 0 (its transfers
    // from firstStart), then one per boundary; the last ends at `end`
    FluidPlan plan;
    mose::FluidFlowConfig& f = plan.config;
    for (const SwitchInterval& iv : result->intervals)
    {
        if (iv.end <= iv.start)
        {
            mose::ThrowBadParameter("mode interval " + std::to_string(iv.index),
                                    "[" + std::to_string(iv.start.GetSeconds()) + " s, " +
                                        std::to_string(iv.end.GetSeconds()) + " s)",
                                    "a non-empty interval (firstStart before the first "
                                    "boundary, end after the last)");
        }
        // the transfers MoseModeSwitcherHelper::InstallModeTraffic() would install
        plan.drawn.push_back(DrawIntervalTransfers(config,
                                                   iv,
                                                   *result,
                                                   sc.flows[static_cast<std::size_t>(iv.mode)]));
        f.batches.push_back(ToBatchFlows(plan.drawn.back()));
        if (iv.index > 0)
        {
            f.boundaries.push_back({iv.start.GetNanoSeconds(), iv.mode, iv.graph});
        }
    }

    // the fabric from the helpers the packet level builds it with (nothing is installed)
    f.fabric = experiment.ReadFluidFabric();
    f.graph = result->intervals.front().graph;
    f.initialMode = config.GetInitialMode();
    f.stopNs = config.stopTime.GetNanoSeconds();
    f.endNs = config.GetEnd().GetNanoSeconds();
    f.waitForSwitches = true;
    f.sampleNs = config.binWidth.GetNanoSeconds();
    f.Validate();
    result->switcherText = DescribeSwitcher(f.fabric.phases,
                                            f.fabric.drain,
                                            NanoSeconds(f.fabric.drainTimeoutNs),
                                            NanoSeconds(f.fabric.darkNs));
    experiment.SetFluidRun([&experiment, result, plan = std::move(plan)]() {
        return RunFluid(experiment, *result, plan);
    });
}

} // namespace

std::shared_ptr<const SwitchResult>
InstallSwitchWorkload(Experiment& experiment)
{
    NS_LOG_FUNCTION(&experiment);
    ValidateSwitchConfig(experiment.GetConfig());
    auto result = std::make_shared<SwitchResult>();
    experiment.SetInstall([&experiment, result]() {
        // the Experiment built the scenario, the fabric in the initial mode's template, its
        // monitors, the switcher (its attributes are MoseModeSwitcher's defaults,
        // Config::SetDefault) and the interval probe (at a fluid level: the scenario and the
        // intervals)
        result->intervals = MakeIntervals(experiment);
        if (IsFluid(experiment.GetConfig().level))
        {
            PrepareFluid(experiment, result);
            return;
        }
        result->switcherText = experiment.GetSwitcherText();
        if (experiment.GetConfig().IsRdma())
        {
            InstallBatches(experiment, result);
        }
        else
        {
            InstallSockets(experiment, result);
        }
    });
    return result;
}

SwitchRunSummary
SwitchResult::GetSummary(const Experiment& experiment) const
{
    const ExperimentConfig& config = experiment.GetConfig();
    SwitchRunSummary s;
    s.policy = config.policy;
    std::vector<MoseTransfer> all;
    for (const auto& iv : intervals)
    {
        all.insert(all.end(), iv.transfers.begin(), iv.transfers.end());
    }
    s.kv = MoseTransferMonitor::SummarizeTransfers(all, mose::TrafficClass::KV);
    s.training = MoseTransferMonitor::SummarizeTransfers(all, mose::TrafficClass::TRAINING);
    Time first = Time::Max();
    Time last = Time(0);
    double sum = 0;
    for (const auto& t : all)
    {
        ++s.transfers;
        first = std::min(first, t.start);
        if (t.complete)
        {
            ++s.completed;
            sum += t.GetCompletionTime().GetSeconds();
            last = std::max(last, t.end);
        }
    }
    s.meanFctS = s.completed > 0 ? sum / s.completed : 0.0;
    s.makespanS = s.completed > 0 ? (last - first).GetSeconds() : 0.0;
    for (const auto& r : experiment.GetSwitchRecords())
    {
        ++s.switches;
        s.circuitsChanged += r.removed + r.added;
        s.switchTime += r.GetDuration();
        s.blackoutTime += r.blackoutTime;
        s.packetsHeld += r.packetsHeld;
        s.longestHold = std::max(s.longestHold, r.longestHold);
    }
    for (const auto& iv : intervals)
    {
        double fctSum = 0;
        uint32_t done = 0;
        for (const auto& t : iv.transfers)
        {
            if (t.complete)
            {
                fctSum += t.GetCompletionTime().GetSeconds();
                ++done;
            }
        }
        s.intervalModes.push_back(iv.mode);
        s.intervalMeanFctS.push_back(done > 0 ? fctSum / done : 0.0);
        s.intervalMaxLoad.push_back(iv.metrics.all.maxLoad);
    }
    s.packetsLost = experiment.GetPacketsLost(); // none at a fluid level
    s.fluid = IsFluid(config.level);
    s.wallSeconds = experiment.GetWallSeconds();
    s.simulatedSeconds = experiment.GetRunFigures().simulatedSeconds;
    return s;
}

} // namespace mose
} // namespace ns3
