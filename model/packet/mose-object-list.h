/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_OBJECT_LIST_H
#define MOSE_OBJECT_LIST_H

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief Puts the module's fabric-wide objects at the root of the configuration namespace, one
 *        list per kind, as ns-3's NodeList and ChannelList do for nodes and channels, so that
 *        Config::Connect() and Config::Set() reach them:
 *
 * | path                         | holds               | an object joins when          |
 * |------------------------------|---------------------|-------------------------------|
 * | /MoseOcsList/[i]             | MoseOcs             | MoseOcs::SetSize()            |
 * | /MoseRouteTableList/[i]      | MoseRouteTable      | MoseRouteTable::SetAddressing() |
 * | /MoseLossMonitorList/[i]     | MoseLossMonitor     | MoseLossMonitor::Install()    |
 * | /MoseTransferMonitorList/[i] | MoseTransferMonitor | its first transfer (Add())    |
 * | /MoseTransportList/[i]       | MoseRdmaTransport   | MoseRdmaTransport::Install()  |
 * | /MosePfcList/[i]             | MosePfc             | MosePfc::Install()            |
 *
 * e.g. Config::Connect("/MoseOcsList/0/CircuitConnected", MakeCallback(&Sink)). The per-node
 * objects live where ns-3 puts such objects: /NodeList/[n]/$ns3::MoseRoutingProtocol (aggregated
 * by MoseRoutingHelper), /NodeList/[n]/ApplicationList/[a]/$ns3::MoseModeSwitcher, and the OCS
 * port channels in /ChannelList/[c]/$ns3::MoseOcsChannel.
 *
 * The index i counts from 0, per kind, in the order the objects join. The lists belong to one
 * simulation: Simulator::Destroy() empties them (it drops their references and disposes
 * nothing), so the next simulation of the same process starts again at 0 and never sees the
 * objects of an earlier one; two fabrics built in one simulation are 0 and 1. GetPath() names an
 * object's entry.
 */
class MoseObjectList
{
  public:
    /// The kinds of listed objects, one root list each
    enum Kind
    {
        OCS,              //!< MoseOcs: /MoseOcsList
        ROUTE_TABLE,      //!< MoseRouteTable: /MoseRouteTableList
        LOSS_MONITOR,     //!< MoseLossMonitor: /MoseLossMonitorList
        TRANSFER_MONITOR, //!< MoseTransferMonitor: /MoseTransferMonitorList
        TRANSPORT,        //!< MoseTransport (MoseRdmaTransport): /MoseTransportList
        PFC,              //!< MosePfc: /MosePfcList
        N_KINDS,          //!< number of kinds
    };

    /**
     * \brief Adds an object to its kind's list of this simulation (once: adding it again gives
     *        its index). mose::Error if the kind does not exist, the object is null or not of the
     *        kind's type (or a subclass).
     * \param kind the list
     * \param object the object
     * \return its index in the list
     */
    static uint32_t Add(Kind kind, Ptr<Object> object);

    /// \param kind a list \return how many objects it holds in this simulation
    static uint32_t GetN(Kind kind);

    /**
     * \param kind a list
     * \param index an index < GetN(kind) (mose::Error otherwise)
     * \return the object
     */
    static Ptr<Object> Get(Kind kind, uint32_t index);

    /// \param kind a list \return its name, the first segment of its paths ("MoseOcsList", ...)
    static std::string GetListName(Kind kind);

    /**
     * \param object an object
     * \return its path, e.g. "/MoseOcsList/0", or "" if no list of this simulation holds it
     */
    static std::string GetPath(Ptr<const Object> object);
};

} // namespace ns3

#endif /* MOSE_OBJECT_LIST_H */
