/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLUID_FLOW_RUN_H
#define MOSE_FLUID_FLOW_RUN_H

#include "mose-fluid-fabric.h"
#include "mose-fluid-workload-fabric.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-flow-batch.h"
#include "ns3/mose-roles.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief Flow batches (mose::FlowBatch) at the fluid level: mose-packet's and
 *        mose-mode-switch's flows on a FluidFabric that switches at the schedule's boundaries,
 *        without a Simulator.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-llm
 * \brief One fluid run of flow batches: the fabric, its initial graph, the boundaries with
 *        their target graphs, and the batches.
 */
struct FluidFlowConfig
{
    FluidFabricConfig fabric;                                //!< rates, delays, switch phases
    CircuitGraph graph;                                      //!< the graph at time 0
    WorkloadMode initialMode{WorkloadMode::INFERENCE_HEAVY}; //!< the mode at time 0

    /// One mode boundary: a switch to a graph
    struct Boundary
    {
        int64_t atNs{0};                                 //!< its time (> 0, increasing)
        WorkloadMode mode{WorkloadMode::TRAINING_HEAVY}; //!< the mode entered
        CircuitGraph graph;                              //!< the switch's target
    };

    std::vector<Boundary> boundaries;            //!< in time order
    std::vector<std::vector<BatchFlow>> batches; //!< one FlowBatch each
    int64_t stopNs{60000000000};                 //!< the run ends here at the latest
    /// a switch under way holds the run (the packet level's ExperimentConfig::waitForSwitches)
    bool waitForSwitches{true};
    int64_t endNs{0}; //!< the last interval's end (0: stopNs), as ExperimentConfig::end
    /// above 0: Observers::sample is called at every multiple of this time while the run goes
    int64_t sampleNs{0};

    /// \brief Throws a mose::Error naming the first invalid field
    void Validate() const;
};

/**
 * \ingroup mose-llm
 * \brief Runs flow batches on a FluidFabric as the packet level's Experiment runs
 *        MoseFlowWorkload: each batch starts its flows at their times; at each boundary the
 *        fabric starts a switch to the boundary's graph and every batch takes the new mode (a
 *        boundary during a switch is skipped and counted as an error, as the packet level's
 *        switcher skips it, and as FluidLlmRun does); the run stops once every batch is done,
 *        no switch is under way (waitForSwitches) and the last boundary is past (or endNs
 *        reached), or at stopNs.
 *
 * Observers see each boundary before its switch starts and each switch's end (right after the
 * event that relinked its last batch), e.g. to read the fabric's per-port bytes per interval.
 */
class FluidFlowRun
{
  public:
    /// What the run tells its owner (each optional)
    struct Observers
    {
        /// a boundary, before its switch starts (index into FluidFlowConfig::boundaries)
        std::function<void(std::size_t boundary)> boundary;
        /// a switch ended (index among the switches started)
        std::function<void(uint32_t index)> switchDone;
        /// a multiple of FluidFlowConfig::sampleNs (an event of that time)
        std::function<void()> sample;
    };

    /// \param config the run (validated by Run())
    explicit FluidFlowRun(const FluidFlowConfig& config);

    /// \param observers what to call
    void SetObservers(Observers observers);

    /// \brief Runs the batches to the stop rule; once
    void Run();

    /// \return the batches (after Run()), one per FluidFlowConfig::batches
    const std::vector<FlowBatch>& GetBatches() const;
    /// \return the fabric (after Run(); null before)
    const FluidFabric* GetFabric() const;
    /// \return the time the run stopped (ns)
    int64_t GetEndNs() const;
    /// \return switches started
    uint32_t GetNSwitchesStarted() const;
    /// \return errors: boundaries skipped and the batches' errors
    uint64_t GetNErrors() const;

  private:
    /// \brief Boundary b: a switch to its graph, the batches take its mode
    void Boundary(std::size_t b);
    /// \return whether the stop rule holds now; notices switch ends
    bool CheckStop();
    /// \brief Calls the sample observer and schedules the next sample
    void Sample();

    FluidFlowConfig m_config;                            //!< parameters
    Observers m_observers;                               //!< SetObservers()
    std::optional<FluidFabric> m_fabric;                 //!< the fabric (Run())
    std::optional<FluidWorkloadFabric> m_workloadFabric; //!< the batches' view of it
    std::vector<FlowBatch> m_batches;                    //!< per batch
    bool m_ran{false};                                   //!< Run() ran
    bool m_switching{false};                             //!< a switch was under way
    uint32_t m_switches{0};                              //!< switches started
    uint64_t m_boundaryErrors{0};                        //!< boundaries skipped
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLUID_FLOW_RUN_H */
