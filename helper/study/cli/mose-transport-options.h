/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRANSPORT_OPTIONS_H
#define MOSE_TRANSPORT_OPTIONS_H

#include "mose-experiment.h"

#include "ns3/command-line.h"

#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief --transport=tcp|rdma and RED's --ecnKmin, --ecnKmax and --ecnPmax, as mose-llm,
 *        mose-packet and mose-mode-switch read them.
 *
 * --pfc (PFC on the ports, MosePfc) and the ECN options act with rdma at the packet level only:
 * with tcp, or with no packet level, a given one is refused with the reason.
 */
class TransportOptions
{
  public:
    /**
     * \brief Adds the five options.
     * \param cmd the command line
     * \param what what runs on the transport, for the help ("the workloads'", "the transfers'")
     * \param rdmaByDefault whether --transport defaults to rdma (the LLM programs: the
     *        validation against the fluid level chose it) or to tcp (the flow programs)
     */
    void AddOptions(CommandLine& cmd, const std::string& what, bool rdmaByDefault = false);

    /// \return the transport's TypeId name (MoseTransportHelper::GetTypeName(); mose::Error
    ///         naming --transport for another spelling)
    std::string GetTypeName() const;

    /**
     * \brief The ports' RED with ECN from the options (unset ones: EcnMarking's defaults).
     *        mose::Error naming the option for a value out of range, a Kmax above the ports'
     *        queue, or an option given with tcp or without a packet level.
     * \param rdma whether the transport is rdma
     * \param packetLevel whether a packet level runs (it has the queues)
     * \param portQueue the ports' queue, e.g. "1000p" (Kmax must not exceed it)
     * \param packetLevels how the program runs the packet level, for the message
     *        ("--level=packet")
     * \return the marking
     */
    EcnMarking ReadEcn(bool rdma,
                       bool packetLevel,
                       const std::string& portQueue,
                       const std::string& packetLevels = "--level=packet") const;

    /**
     * \brief With rdma at the packet level: throws a mose::Error naming the first attribute
     *        the user set that only TCP's path reads (every attribute of the ns3::Tcp* types,
     *        ns3::MoseSocketTransfers', and MoseTrafficHelper's SocketFactory, TcpVariant,
     *        UdpDataRate, SendSize and SinkPortBase), and MoseTopologyHelper QueueDiscType,
     *        which rdma sets to RED. Nothing is checked otherwise.
     * \param rdma whether the transport is rdma
     * \param packetLevel whether the run is at the packet level
     */
    static void RejectTcpOnlyAttributes(bool rdma, bool packetLevel);

    /**
     * \brief --pfc as given (default false). mose::Error naming --pfc when it is given with
     *        tcp (PFC makes RoCE's Ethernet lossless; TCP recovers its losses itself, and its
     *        sockets do not hear a pause) or without a packet level (nothing is queued).
     * \param rdma whether the transport is rdma
     * \param packetLevel whether a packet level runs
     * \param packetLevels how the program runs the packet level, for the message
     * \return whether the packet level runs with PFC (ExperimentConfig::pfc)
     */
    bool ReadPfc(bool rdma,
                 bool packetLevel,
                 const std::string& packetLevels = "--level=packet") const;

  private:
    std::string m_transport{"tcp"}; //!< --transport
    std::string m_ecnKmin;          //!< --ecnKmin (empty: not given)
    std::string m_ecnKmax;          //!< --ecnKmax (empty: not given)
    std::string m_ecnPmax;          //!< --ecnPmax (empty: not given)
    bool m_pfc{false};              //!< --pfc
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_TRANSPORT_OPTIONS_H */
