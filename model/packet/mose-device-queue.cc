/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-device-queue.h"

#include "ns3/mose-error.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseDeviceQueue");

NS_OBJECT_ENSURE_REGISTERED(MoseDeviceQueue);

TypeId
MoseDeviceQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseDeviceQueue")
                            .SetParent<NetDeviceQueue>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseDeviceQueue>();
    return tid;
}

MoseDeviceQueue::MoseDeviceQueue()
    : NS_LOG_TEMPLATE_DEFINE("MoseDeviceQueue")
{
    NS_LOG_FUNCTION(this);
}

MoseDeviceQueue::~MoseDeviceQueue()
{
    NS_LOG_FUNCTION(this);
}

void
MoseDeviceQueue::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_device = nullptr;
    m_queue = nullptr;
    m_wake = WakeCallback();
    NetDeviceQueue::DoDispose();
}

void
MoseDeviceQueue::Attach(Ptr<PointToPointNetDevice> device, Ptr<Queue<Packet>> queue)
{
    NS_LOG_FUNCTION(this << device << queue);
    if (!device || !queue)
    {
        throw mose::Error("MoseDeviceQueue::Attach: a device and its queue are needed");
    }
    if (m_device)
    {
        throw mose::Error("MoseDeviceQueue::Attach: this queue follows a device already");
    }
    m_device = device;
    m_queue = queue;
    // raw pointers, as NetDeviceQueue::ConnectQueueTraces() binds them: the device and its queue
    // interface (which holds this queue) go together
    queue->TraceConnectWithoutContext("Enqueue", MakeCallback(&MoseDeviceQueue::Enqueued, this));
    queue->TraceConnectWithoutContext("Dequeue", MakeCallback(&MoseDeviceQueue::Dequeued, this));
    queue->TraceConnectWithoutContext("DropBeforeEnqueue",
                                      MakeCallback(&MoseDeviceQueue::Discarded, this));
    device->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&MoseDeviceQueue::TxBegin, this));
}

void
MoseDeviceQueue::SetWakeCallback(WakeCallback cb)
{
    m_wake = cb;
    NetDeviceQueue::SetWakeCallback(cb);
}

uint64_t
MoseDeviceQueue::GetNWakes() const
{
    return m_wakes;
}

void
MoseDeviceQueue::Enqueued(Ptr<const Packet> packet)
{
    NotifyQueuedBytes(packet->GetSize()); // byte queue limits, if any
    if (m_queue->WouldOverflow(1, m_device->GetMtu()))
    {
        NS_LOG_LOGIC("stopped with " << m_queue->GetCurrentSize() << " inside");
        Stop();
    }
}

void
MoseDeviceQueue::Dequeued(Ptr<const Packet> packet)
{
    NotifyTransmittedBytes(packet->GetSize()); // byte queue limits, if any (they wake as ns-3's)
    if (!m_queue->WouldOverflow(1, m_device->GetMtu()))
    {
        // as NetDeviceQueue::Wake() without its event: the layer above may send again at once,
        // and a queue the device had stopped runs the queue disc when the device's next frame
        // begins (TxBegin(), later in this same call of the device)
        m_pending = m_pending || IsStopped();
        Start();
    }
}

void
MoseDeviceQueue::Discarded(Ptr<const Packet> /* packet */)
{
    NS_LOG_WARN("no room in the device queue (" << m_queue->GetCurrentSize() << " inside)");
    Stop();
}

void
MoseDeviceQueue::TxBegin(Ptr<const Packet> /* packet */)
{
    if (!m_pending)
    {
        return;
    }
    m_pending = false;
    if (!m_wake.IsNull())
    {
        ++m_wakes;
        m_wake();
    }
}

} // namespace ns3
