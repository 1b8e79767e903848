/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_DEVICE_QUEUE_H
#define MOSE_DEVICE_QUEUE_H

#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The transmission queue of an optical port's device (a NetDeviceQueue, the
 *        NetDeviceQueueInterface's TxQueuesType): it stops the traffic-control layer when the
 *        device queue is full, as ns-3's does, and wakes it when the device starts its next
 *        frame, inside that event, instead of in an event of its own.
 *
 * ns-3's NetDeviceQueue learns of a dequeue inside the device's own Dequeue(), before the device
 * has started the frame it took. Running the queue disc there would hand the device a packet
 * while it is still idle and holding the one it dequeued, so ns-3 defers the wake to a new event
 * at the same time (3.37: Simulator::ScheduleNow() in Wake(); later releases: one such event per
 * dequeue). With a one-packet device queue, which the RDMA fabrics use so that RED sees the
 * backlog, that is an event per packet and port, about a fifth of a fabric's events.
 *
 * This queue waits instead for the device's PhyTxBegin trace. The point-to-point device fires it
 * in TransmitStart(), after it has become busy with the next frame, and it calls TransmitStart()
 * after each of its dequeues. The wake callback (the queue disc's Run()) then finds the device
 * as the deferred event would: busy, with room for one packet. A dequeue that leaves the device
 * queue full wakes nothing, as in ns-3.
 *
 * Why hand-written: ns-3 has no transmission queue without the deferred event, and its own
 * NetDeviceQueue::ConnectQueueTraces() is what schedules it; this class connects its own sinks
 * to the device queue's traces instead (Attach()). Byte queue limits (NetDeviceQueue's
 * SetQueueLimits()) work as in ns-3, their own wake included. MoseTopologyHelper's
 * PortTxQueuesType selects this class (the default) or ns-3's NetDeviceQueue.
 *
 * Only the device may dequeue its device queue: a dequeue that no TransmitStart() follows would
 * leave the wake pending until the device's next frame.
 */
class MoseDeviceQueue : public NetDeviceQueue
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    MoseDeviceQueue();
    ~MoseDeviceQueue() override;

    /**
     * \brief Follow the device queue of a point-to-point device (in place of
     *        NetDeviceQueue::ConnectQueueTraces()) and its PhyTxBegin trace
     * \param device the device whose NetDeviceQueueInterface holds this queue
     * \param queue the device's queue (PointToPointNetDevice::GetQueue())
     * \throws mose::Error when the device or queue is null or this queue was attached before
     */
    void Attach(Ptr<PointToPointNetDevice> device, Ptr<Queue<Packet>> queue);

    void SetWakeCallback(WakeCallback cb) override;

    /**
     * \brief Get the number of wakes run when the device started a frame
     * \return the wakes that ns-3's NetDeviceQueue would have run in an event of their own
     */
    uint64_t GetNWakes() const;

  protected:
    void DoDispose() override;

  private:
    /// The device queue's Enqueue trace: stop when no further packet fits
    void Enqueued(Ptr<const Packet> packet);
    /// The device queue's Dequeue trace: a stopped queue with room again wakes at TxBegin()
    void Dequeued(Ptr<const Packet> packet);
    /// The device queue's DropBeforeEnqueue trace: stop (the layer above sent into a full queue)
    void Discarded(Ptr<const Packet> packet);
    /// The device's PhyTxBegin trace: run a pending wake
    void TxBegin(Ptr<const Packet> packet);

    Ptr<PointToPointNetDevice> m_device; //!< the device
    Ptr<Queue<Packet>> m_queue;          //!< its device queue
    WakeCallback m_wake;                 //!< the queue disc's Run(), as set by the TC layer
    bool m_pending{false};               //!< a dequeue made room in a stopped queue
    uint64_t m_wakes{0};                 //!< wakes run at TxBegin()

    NS_LOG_TEMPLATE_DECLARE; //!< this class's log component (NetDeviceQueue's is private)
};

} // namespace ns3

#endif // MOSE_DEVICE_QUEUE_H
