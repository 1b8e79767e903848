/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_CIRCUIT_MONITOR_H
#define MOSE_CIRCUIT_MONITOR_H

#include "mose-ocs.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief Counts the transport payload bytes (TCP or UDP data, without any header) that every
 *        OCS port receives, so that per-circuit packet-level bytes can be set beside the
 *        flow-level load of the same circuit.
 *
 * It listens to the PhyRxEnd trace of every port device of an OCS: a packet is counted once,
 * when it has crossed the circuit (packets dropped at a dark port or on the wire never count).
 * A circuit's bytes are the bytes received at both its ends, i.e. both directions, as the
 * flow-level load adds both directions. Retransmitted segments count again, so the bytes equal
 * load x bytes per unit only when nothing is lost.
 */
class MoseCircuitMonitor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a monitor that counts nothing until Install()
    MoseCircuitMonitor();
    ~MoseCircuitMonitor() override;

    /**
     * \brief Starts counting on every port of an OCS (its ports must all have been added).
     * \param ocs the switch
     */
    void Install(Ptr<MoseOcs> ocs);

    /// \param group a group \param port a port \return payload bytes received at that port
    uint64_t GetPortBytes(uint32_t group, uint32_t port) const;

    /**
     * \return per circuit of the OCS's current circuit graph (in the order of
     *         GetCircuitGraph().GetCircuits()), the payload bytes received at both its ends
     *         since Install() or the last Reset()
     */
    std::vector<uint64_t> GetCircuitBytes() const;

    /// \brief Sets every count to zero (e.g. at a mode boundary)
    void Reset();

    /**
     * \brief Writes circuit,u,v,port_u,port_v,bytes rows for the current circuit graph.
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief PhyRxEnd sink.
     * \param flatPort the receiving port, group * d + port
     * \param packet the packet with its point-to-point header
     */
    void NotifyRx(uint32_t flatPort, Ptr<const Packet> packet);

    Ptr<MoseOcs> m_ocs;            //!< the switch
    std::vector<uint64_t> m_bytes; //!< per flat port, payload bytes received
};

} // namespace ns3

#endif /* MOSE_CIRCUIT_MONITOR_H */
