/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_WORKLOAD_FABRIC_H
#define MOSE_WORKLOAD_FABRIC_H

#include "ns3/mose-traffic.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief The small interface between a workload and the fabric that carries it: a clock, a
 *        scheduler and transfers with completion callbacks. Each level is a backend of it.
 */

/**
 * \defgroup mose-workload Workload model
 * \ingroup mose
 * \brief The LLM workloads written once, without a Simulator: the inference server
 *        (InferenceServer) and the training job (TrainingJob) run on any WorkloadFabric. The
 *        fluid and aggregate levels (FluidWorkloadFabric) and the packet level
 *        (MoseSimulatorFabric under MoseInferenceWorkload and MoseTrainingWorkload) are its
 *        backends, so a rule of a workload cannot differ between the levels.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-workload
 * \brief One transfer a workload asks its fabric for: B bytes from a group to a group on a rail.
 */
struct TransferSpec
{
    uint32_t src{0};                             //!< source group
    uint32_t dst{0};                             //!< destination group
    uint64_t bytes{0};                           //!< payload bytes (> 0)
    TrafficClass trafficClass{TrafficClass::KV}; //!< what it carries
    uint32_t rail{0}; //!< with G hosts per group, from host rail mod G to host rail mod G
    /// send it over the connection kept between src and dst (opened by the first such transfer,
    /// kept until CloseConnections()); false: a transfer of its own. The fluid level models a
    /// kept connection only with TCP's start (FluidFabricConfig::tcp: no handshake, the window
    /// the last transfer left); otherwise it moves both alike
    bool keepConnection{false};
};

/**
 * \ingroup mose-workload
 * \brief One part of an aggregate (WorkloadFabric::StartAggregate()): a transfer whose start
 *        and class it shares with the other parts.
 */
struct TransferPart
{
    uint32_t src{0};   //!< source group
    uint32_t dst{0};   //!< destination group
    uint64_t bytes{0}; //!< payload bytes
    uint32_t rail{0};  //!< its rail (TransferSpec::rail)
};

/**
 * \ingroup mose-workload
 * \brief What a fabric reports of a completed transfer.
 */
struct TransferReport
{
    uint64_t id{0};       //!< the id StartTransfer() or StartAggregate() returned
    uint64_t received{0}; //!< payload bytes the destination received
    int64_t endNs{0};     //!< its last byte arrived (ns); the callback runs a notice delay later
};

/**
 * \ingroup mose-workload
 * \brief The fabric as a workload sees it: the time, events, transfers. Times are in ns from
 *        the start of the run.
 *
 * A workload (InferenceServer, TrainingJob) holds a reference to one and calls nothing else of
 * its level, as ASTRA-sim's network API or htsim's event source keep a workload apart from its
 * network. A backend:
 *  - runs the events of one time in the order they were scheduled;
 *  - calls a transfer's callback once, when it notices the transfer complete (after its last
 *    byte, by the backend's notice delay), never from inside StartTransfer();
 *  - gives transfer ids that are unique within the fabric.
 */
class WorkloadFabric
{
  public:
    /// an event
    using Event = std::function<void()>;
    /// a transfer's completion
    using DoneCallback = std::function<void(const TransferReport& report)>;
    /// a scheduled event, for Cancel() and IsPending()
    using EventHandle = uint64_t;

    virtual ~WorkloadFabric();

    /// \return the time now (ns)
    virtual int64_t Now() const = 0;

    /**
     * \brief Runs an event later.
     * \param delayNs the delay from now (>= 0)
     * \param event the event
     * \return its handle
     */
    virtual EventHandle Schedule(int64_t delayNs, Event event) = 0;

    /// \brief The event will not run (nothing if it ran or was cancelled)
    /// \param event its handle
    virtual void Cancel(EventHandle event) = 0;

    /**
     * \brief Starts a transfer.
     * \param transfer what to move
     * \param done called when the transfer is noticed complete
     * \return its id
     */
    virtual uint64_t StartTransfer(const TransferSpec& transfer, DoneCallback done) = 0;

    /**
     * \brief Starts transfers that begin together as one aggregate whose parts progress
     *        together (the aggregate level's collectives). A backend that moves every transfer
     *        on its own refuses it (this default throws a mose::Error).
     * \param parts the parts (the same object again lets the backend reuse their routes)
     * \param trafficClass what they carry
     * \param done called once, when the last part is noticed complete
     * \return its id
     */
    virtual uint64_t StartAggregate(std::shared_ptr<const std::vector<TransferPart>> parts,
                                    TrafficClass trafficClass,
                                    DoneCallback done);

    /// \return whether StartAggregate() is supported (false in this default)
    virtual bool CanAggregate() const;

    /**
     * \brief Closes the kept connections among these groups (TransferSpec::keepConnection);
     *        a backend without connections does nothing (this default).
     * \param groups the groups
     */
    virtual void CloseConnections(const std::vector<uint32_t>& groups);
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_WORKLOAD_FABRIC_H */
