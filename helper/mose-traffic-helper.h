/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRAFFIC_HELPER_H
#define MOSE_TRAFFIC_HELPER_H

#include "ns3/application-container.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/mose-flow-workload.h"
#include "ns3/mose-traffic.h"
#include "ns3/mose-transfer-monitor.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-helpers
 * \brief Turns a workload mode's flows (from mose::GenerateTraffic() or a flows CSV) into ns-3
 *        applications: one sender and one PacketSink per transfer.
 *
 * Like ns-3's LteHelper, the helper is an Object so that its parameters are Attributes
 * (settable with Config::SetDefault and --ns3::MoseTrafficHelper::Attr=value):
 *  - demand to bytes: a transfer of demand x sends round(x * BytesPerUnit) bytes;
 *  - MaxFlows: a uniform sample (without replacement) of that many flows, 0 = all;
 *  - Aggregation: one transfer per (source, destination) pair (default) or per flow. The default
 *    is per pair because the flow level routes every flow of a pair on the same path and the
 *    paper's KV traffic is about 171 unit flows per prefill-decode pair: one connection per pair
 *    is how a KV-cache transfer between two groups runs, and it keeps the event count (and the
 *    per-circuit bytes, which are the same either way) tractable at N=1024;
 *  - start times: all at StartTime, uniform over [StartTime, StartTime + StartWindow], or a
 *    Poisson process of PoissonRate transfers per second from StartTime;
 *  - transport: SocketFactory (ns3::TcpSocketFactory by default: a BulkSendApplication sends
 *    the bytes; ns3::UdpSocketFactory: an OnOffApplication sends them at UdpDataRate; any other
 *    stream socket factory is driven by BulkSend) and TcpVariant (the TcpL4Protocol SocketType
 *    of the endpoints).
 * Completion times come from the MoseTransferMonitor (GetMonitor()): every sink listens on a
 * port of its own, so its Rx trace counts exactly one transfer.
 */
class MoseTrafficHelper : public Object
{
  public:
    /// The largest UDP payload over IPv4: 65535 - 20 (IPv4 header) - 8 (UDP header)
    static constexpr uint32_t MAX_UDP_PAYLOAD = 65507;

    /// How transfers are formed from flows
    enum Aggregation
    {
        PER_PAIR, //!< one transfer per (source, destination, class): the sum of its demands
        PER_FLOW, //!< one transfer per flow
    };

    /// When transfers start
    enum StartMode
    {
        START_TOGETHER, //!< all at StartTime
        START_UNIFORM,  //!< uniformly over [StartTime, StartTime + StartWindow]
        START_POISSON,  //!< Poisson arrivals at PoissonRate from StartTime
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a helper with the attribute defaults and an empty MoseTransferMonitor
    MoseTrafficHelper();
    ~MoseTrafficHelper() override;

    /**
     * \brief Installs one sender and one sink per transfer.
     *
     * Throws a mose::Error (before anything is installed) when a flow names a group that
     * has no endpoint, an endpoint has no IPv4 address, a transfer would carry 0 bytes, or a
     * destination would need more sink ports than [SinkPortBase, 65535] holds.
     * \param endpoints node i runs group i's applications (the group node, or one of its hosts)
     * \param flows the flows (demands in flow-level units)
     * \return the senders and the sinks; their start times are already set
     */
    ApplicationContainer Install(const NodeContainer& endpoints,
                                 const std::vector<mose::Flow>& flows);

    /**
     * \brief Install(), with the transfers handed to a flow workload (MoseWorkloadHelper calls
     *        it): the workload gets this helper's monitor and each transfer's senders. Once per
     *        helper (a workload owns the monitor's transfers).
     * \param endpoints node i runs group i's applications
     * \param flows the flows
     * \param workload the workload (MoseFlowWorkload::SetInstalled())
     * \return the senders and the sinks, as Install()
     */
    ApplicationContainer Install(const NodeContainer& endpoints,
                                 const std::vector<mose::Flow>& flows,
                                 Ptr<MoseFlowWorkload> workload);

    /// \return the monitor that records the transfers of every Install() of this helper
    Ptr<MoseTransferMonitor> GetMonitor() const;

    /// \return the flow workload the transfers were handed to (null unless Install() was given
    ///         one)
    Ptr<MoseFlowWorkload> GetWorkload() const;

    /**
     * \brief Fixes the random streams of the flow sample and the start times.
     * \param stream the first stream number
     * \return the number of streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief The transfers that Install() would make from these flows (sampled and aggregated,
     *        no start times), without installing anything; draws from the sample stream when
     *        MaxFlows samples.
     * \param flows the flows
     * \return the transfers (src, dst, cls, demand, bytes)
     */
    std::vector<MoseTransfer> MakeTransfers(const std::vector<mose::Flow>& flows);

    /**
     * \brief The transfers that Install() would make from these flows, with the start times it
     *        would give them, without installing anything: the same draws from the same
     *        streams (MakeTransfers(), then the start times in transfer order). The fluid and
     *        aggregate levels run these (mose::FlowBatch).
     * \param flows the flows
     * \return the transfers (src, dst, cls, demand, bytes, start)
     */
    std::vector<MoseTransfer> MakeStartedTransfers(const std::vector<mose::Flow>& flows);

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Install()'s work
     * \param endpoints the endpoints \param flows the flows
     * \param senders if not null, per transfer its senders
     * \return the senders and the sinks
     */
    ApplicationContainer DoInstall(const NodeContainer& endpoints,
                                   const std::vector<mose::Flow>& flows,
                                   std::vector<ApplicationContainer>* senders);
    /**
     * \brief DoInstall()'s checks before anything is installed (mose::Error): the endpoints'
     *        addresses, their sink ports and the socket factory; sets the TCP variant
     * \param endpoints the endpoints \param transfers the transfers
     * \return each endpoint's address (for the groups the transfers use)
     */
    std::vector<Ipv4Address> PrepareEndpoints(const NodeContainer& endpoints,
                                              const std::vector<MoseTransfer>& transfers);
    /**
     * \brief A transfer's sender: ns-3's BulkSend, or OnOff for UDP (the full datagrams, then
     *        the remainder as one short datagram)
     * \param t the transfer \param node its source endpoint \param remote its sink
     * \return the sender applications
     */
    ApplicationContainer InstallSender(const MoseTransfer& t,
                                       Ptr<Node> node,
                                       const InetSocketAddress& remote) const;

    /// \brief Gives each transfer its start time (StartMode), drawing in transfer order
    /// \param transfers the transfers
    void DrawStartTimes(std::vector<MoseTransfer>& transfers);

    uint64_t m_bytesPerUnit;               //!< bytes per unit of demand
    uint64_t m_maxFlows;                   //!< sample size, 0 = all flows
    Aggregation m_aggregation;             //!< per pair or per flow
    StartMode m_startMode;                 //!< how start times are drawn
    Time m_startTime;                      //!< first start
    Time m_startWindow;                    //!< length of the uniform start window
    double m_poissonRate;                  //!< Poisson arrivals per second
    TypeId m_socketFactory;                //!< transport
    TypeId m_tcpVariant;                   //!< TcpL4Protocol::SocketType of the endpoints
    DataRate m_udpRate;                    //!< rate of each UDP sender
    uint32_t m_sendSize;                   //!< bytes per send call / UDP packet size
    uint16_t m_sinkPortBase;               //!< first sink port at each destination
    Ptr<UniformRandomVariable> m_sample;   //!< stream of the flow sample
    Ptr<UniformRandomVariable> m_uniform;  //!< stream of uniform start times
    Ptr<ExponentialRandomVariable> m_gaps; //!< stream of Poisson inter-arrival gaps
    Ptr<MoseTransferMonitor> m_monitor;    //!< transfers and completions
    Ptr<MoseFlowWorkload> m_workload;      //!< the workload of the transfers, or null
};

} // namespace ns3

#endif /* MOSE_TRAFFIC_HELPER_H */
