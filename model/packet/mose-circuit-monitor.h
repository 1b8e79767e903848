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
#include <map>
#include <ostream>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief What one circuit carried in one interval (MoseCircuitMonitor::GetIntervals()): the
 *        payload bytes received at both its ends while it was connected.
 */
struct MoseCircuitBytes
{
    uint32_t groupA{0}; //!< one end's group (the lower flat port index: groupA * d + portA)
    uint32_t portA{0};  //!< its port
    uint32_t groupB{0}; //!< the other end's group
    uint32_t portB{0};  //!< its port
    uint64_t bytes{0};  //!< payload bytes received at both ends, both directions
};

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
 *
 * Across switches, the monitor also keeps the bytes of every circuit per interval, by itself:
 * when the OCS disconnects a circuit (its CircuitDisconnected trace), the bytes its ends received
 * since it was connected are credited to it in the current interval; StartInterval() closes the
 * interval (crediting the circuits still connected) and opens the next. A mode switcher given
 * the monitor (MoseModeSwitcher::SetCircuitMonitor()) starts an interval at every switch, so a
 * script reads each mode interval's per-circuit bytes (GetIntervals()) without resetting
 * anything. Reset() does not touch these interval counts.
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

    /// \brief Sets every port count to zero (GetPortBytes(), GetCircuitBytes(); the interval
    ///        counts are kept)
    void Reset();

    /**
     * \brief Closes the current interval (every circuit connected in it, with its bytes) and
     *        starts the next one now.
     */
    void StartInterval();
    /// \return the closed intervals, in order; each lists its circuits in the order of their
    ///         lower flat port index, a circuit connected twice in an interval once
    const std::vector<std::vector<MoseCircuitBytes>>& GetIntervals() const;
    /// \return the current interval so far (as a closed one, not closing it)
    std::vector<MoseCircuitBytes> GetCurrentInterval() const;

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

    /**
     * \brief CircuitDisconnected sink: credits the circuit's bytes to the current interval.
     * \param groupA \param portA \param groupB \param portB its ends
     */
    void NotifyDisconnected(uint32_t groupA, uint32_t portA, uint32_t groupB, uint32_t portB);
    /// \brief Credits the circuit of flat ports a and b with what they received since it was
    ///        connected (or the interval started) to `into`, and zeroes that
    void Credit(uint32_t a, uint32_t b, std::map<uint64_t, uint64_t>& into);
    /// \return the map of an interval as its list
    std::vector<MoseCircuitBytes> ToList(const std::map<uint64_t, uint64_t>& interval) const;

    Ptr<MoseOcs> m_ocs;            //!< the switch
    std::vector<uint64_t> m_bytes; //!< per flat port, payload bytes received
    /// per flat port, payload bytes received since its circuit was connected or the interval
    /// started
    std::vector<uint64_t> m_since;
    /// the current interval: bytes per circuit, keyed by (lower flat port << 32 | higher)
    std::map<uint64_t, uint64_t> m_open;
    std::vector<std::vector<MoseCircuitBytes>> m_intervals; //!< the closed intervals
};

} // namespace ns3

#endif /* MOSE_CIRCUIT_MONITOR_H */
