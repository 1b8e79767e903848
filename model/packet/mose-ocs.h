/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_OCS_H
#define MOSE_OCS_H

#include "mose-ocs-channel.h"

#include "ns3/data-rate.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief An optical circuit switch: N groups with d ports each, paired into bidirectional
 *        circuits that can be connected and disconnected at set-up and at run time.
 *
 * Port (group g, port p) has the flat index g*d + p. Each port that takes part in the fabric is
 * added with AddPort, which gives it its own MoseOcsChannel and attaches the group's
 * PointToPointNetDevice to it. Connect/Disconnect/ApplyMatching change which port each port's
 * channel delivers to; the devices never change channel, so they keep their queues, queue discs,
 * addresses and traces.
 *
 * What a change does to packets:
 *  - packets in a device queue or queue disc are not touched; while the port is dark the device
 *    keeps transmitting them at line rate into the dark port, where each is dropped and fired on
 *    "DarkPortDrop" (a ModeSwitcher drains first: stop routing onto the port, wait until its
 *    queues and GetPacketsInFlight() are empty, then disconnect);
 *  - packets on the wire (sent, last bit not yet arrived) when their circuit is disconnected are
 *    lost when their delivery time comes and fired on "WireDrop", also if the same port pair is
 *    reconnected in the meantime; they never reach the old or the new peer;
 *  - a circuit that ApplyMatching keeps is not touched: packets on it are delivered.
 *
 * Errors. Configuration methods (SetSize, AddPort, Connect, Disconnect, ApplyMatching and the
 * getters taking a port) throw ns3::mose::Error for bad input, naming the parameter and
 * value, and change nothing when they throw. Inside a simulation event a throw would abort the
 * run: from events, use ScheduleConnect/ScheduleDisconnect/ScheduleMatching, which validate the
 * indices when called and, if the fabric's state makes the operation invalid when the event
 * runs, skip it, log an error and count it in GetNRejected() (and fire "OperationRejected").
 *
 * Config path: /MoseOcsList/[i] (SetSize() lists the switch, see MoseObjectList); its port
 * channels are in /ChannelList/[c]/$ns3::MoseOcsChannel.
 */
class MoseOcs : public Object
{
  public:
    /// The peer value of a port that has no circuit
    static constexpr uint32_t DARK = std::numeric_limits<uint32_t>::max();

    /**
     * \brief Signature of the "CircuitConnected" and "CircuitDisconnected" traces.
     * \param groupA the group of the first end
     * \param portA the port of the first end within its group
     * \param groupB the group of the second end
     * \param portB the port of the second end within its group
     */
    typedef void (*CircuitCallback)(uint32_t groupA,
                                    uint32_t portA,
                                    uint32_t groupB,
                                    uint32_t portB);

    /**
     * \brief Signature of the "OperationRejected" trace.
     * \param reason the message the operation would have thrown
     */
    typedef void (*RejectedCallback)(const std::string& reason);

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /// An OCS of size 0 x 0; call SetSize before adding ports
    MoseOcs();
    ~MoseOcs() override;

    /**
     * \brief Sets the number of groups N and ports per group d. Allowed once, before any port is
     *        added (a mose::Error otherwise, or if N or d is 0 or N*d >= 2^32 - 1). Lists the
     * switch in this simulation's /MoseOcsList (MoseObjectList). \param groups N \param ports d
     */
    void SetSize(uint32_t groups, uint32_t ports);
    /// \return N
    uint32_t GetNGroups() const;
    /// \return d
    uint32_t GetNPortsPerGroup() const;
    /// \return N*d, the number of ports
    uint32_t GetNPorts() const;

    /**
     * \brief Adds a port: creates its MoseOcsChannel (Delay = this switch's "Delay"), sets the
     *        device's DataRate to this switch's "DataRate" and attaches the device. The port is
     *        dark.
     *
     * Throws a mose::Error if the indices are out of range, the port was already added, or the
     * device is null or already attached to a channel.
     * \param group the group, < N
     * \param port the port within the group, < d
     * \param device the group's device for this port, not attached to any channel
     * \return the port's channel
     */
    Ptr<MoseOcsChannel> AddPort(uint32_t group, uint32_t port, Ptr<PointToPointNetDevice> device);

    /// \return true if the port (in range) has been added
    bool HasPort(uint32_t group, uint32_t port) const;

    /**
     * \brief Connects two dark ports into a circuit. Throws a mose::Error naming the port if either
     *        is out of range, not added or lit, or if both are the same port. Two ports of the
     *        same group may be joined (the circuit graph then has a self-loop; templates never
     *        ask for one).
     * \param groupA the group of the first end
     * \param portA the port of the first end
     * \param groupB the group of the second end
     * \param portB the port of the second end
     */
    void Connect(uint32_t groupA, uint32_t portA, uint32_t groupB, uint32_t portB);

    /**
     * \brief Disconnects the circuit at a port (both of its ends go dark). A dark port is a
     *        no-op that returns false; an out-of-range port is a mose::Error.
     * \param group the group
     * \param port the port
     * \return true if a circuit was disconnected
     */
    bool Disconnect(uint32_t group, uint32_t port);

    /**
     * \brief Makes the fabric equal to a port matching in one step: circuits not in it are
     *        disconnected, circuits only in it are connected, circuits in both are left alone
     *        (their packets on the wire are delivered).
     *
     * The matching is validated completely before anything changes (mose::Error naming the first
     * bad entry): size N*d; each entry DARK or < N*d; no port paired with itself; symmetric
     * (peers[peers[i]] == i); every lit entry names ports that were added.
     * \param peers peer flat index per flat port index, DARK for a dark port
     *        (the format of GetPortMatching())
     */
    void ApplyMatching(const std::vector<uint32_t>& peers);

    /**
     * \brief Schedules Connect after `delay`. Indices are checked now (mose::Error); if a port is
     *        lit when the event runs, the event is rejected (see the class description).
     * \param delay the delay from now
     * \param groupA the group of the first end
     * \param portA the port of the first end
     * \param groupB the group of the second end
     * \param portB the port of the second end
     */
    void ScheduleConnect(Time delay,
                         uint32_t groupA,
                         uint32_t portA,
                         uint32_t groupB,
                         uint32_t portB);

    /**
     * \brief Schedules Disconnect after `delay`. Indices are checked now (mose::Error).
     * \param delay the delay from now
     * \param group the group
     * \param port the port
     */
    void ScheduleDisconnect(Time delay, uint32_t group, uint32_t port);

    /**
     * \brief Schedules ApplyMatching after `delay`. The matching is validated now (mose::Error);
     *        it cannot become invalid later.
     * \param delay the delay from now
     * \param peers the matching
     */
    void ScheduleMatching(Time delay, const std::vector<uint32_t>& peers);

    /// \param group the group \param port the port \return true if the port has a circuit
    bool IsLit(uint32_t group, uint32_t port) const;

    /**
     * \param group the group
     * \param port the port
     * \return the flat index (group*d + port) of the peer port, or DARK
     */
    uint32_t GetPeer(uint32_t group, uint32_t port) const;

    /// \return the peer flat index per flat port index (DARK for dark ports), size N*d
    std::vector<uint32_t> GetPortMatching() const;

    /// \return the number of lit circuits
    uint32_t GetNCircuits() const;

    /**
     * \return the lit circuits as a flow-level circuit graph on N nodes (one circuit per lit
     *         port pair, between the two ports' groups)
     */
    mose::CircuitGraph GetCircuitGraph() const;

    /// \param group the group \param port the port \return the port's device (null if not added)
    Ptr<PointToPointNetDevice> GetDevice(uint32_t group, uint32_t port) const;
    /// \param group the group \param port the port \return the port's channel (null if not added)
    Ptr<MoseOcsChannel> GetChannel(uint32_t group, uint32_t port) const;

    /// \return the circuit data rate given to port devices by AddPort
    DataRate GetDataRate() const;
    /// \return the propagation delay given to port channels by AddPort
    Time GetDelay() const;

    /// \return packets refused by dark ports, all ports
    uint64_t GetDarkDrops() const;
    /// \return packets lost on the wire by circuit changes, all ports
    uint64_t GetWireDrops() const;
    /// \param group the group \param port the port \return packets on that port's wire
    uint32_t GetPacketsInFlight(uint32_t group, uint32_t port) const;
    /// \return packets on the wire, all ports
    uint64_t GetPacketsInFlight() const;
    /// \return circuits connected so far
    uint64_t GetNConnects() const;
    /// \return circuits disconnected so far
    uint64_t GetNDisconnects() const;
    /// \return scheduled operations skipped because they had become invalid
    uint64_t GetNRejected() const;

  protected:
    void DoDispose() override;

  private:
    /// \return "(group g, port p)" for messages
    static std::string PortName(uint32_t group, uint32_t port);
    /// throws a mose::Error unless group < N and port < d; \return the flat index
    uint32_t CheckIndex(uint32_t group, uint32_t port) const;
    /// \return "" if Connect would succeed, else its error message
    std::string ConnectProblem(uint32_t groupA,
                               uint32_t portA,
                               uint32_t groupB,
                               uint32_t portB) const;
    /// \return "" if the matching is valid, else the error message
    std::string MatchingProblem(const std::vector<uint32_t>& peers) const;
    /// connects two valid dark ports (no checks)
    void DoConnect(uint32_t a, uint32_t b);
    /// disconnects the circuit at a lit flat port (no checks)
    void DoDisconnect(uint32_t a);
    /// applies a valid matching (no checks)
    void DoApplyMatching(const std::vector<uint32_t>& peers);
    /// event body of ScheduleConnect
    void ConnectEvent(uint32_t groupA, uint32_t portA, uint32_t groupB, uint32_t portB);
    /// event body of ScheduleDisconnect
    void DisconnectEvent(uint32_t group, uint32_t port);
    /// channel trace sink
    void NotifyDarkDrop(Ptr<const Packet> p, uint32_t group, uint32_t port);
    /// channel trace sink
    void NotifyWireDrop(Ptr<const Packet> p, uint32_t group, uint32_t port);

    DataRate m_dataRate;                         //!< circuit data rate
    Time m_delay;                                //!< propagation delay
    uint32_t m_groups;                           //!< N
    uint32_t m_ports;                            //!< d
    std::vector<uint32_t> m_peers;               //!< peer per flat port, DARK if dark
    std::vector<Ptr<MoseOcsChannel>> m_channels; //!< channel per flat port, null if not added
    uint64_t m_darkDrops;                        //!< sum over ports
    uint64_t m_wireDrops;                        //!< sum over ports
    uint64_t m_nConnects;                        //!< circuits connected
    uint64_t m_nDisconnects;                     //!< circuits disconnected
    uint64_t m_nRejected;                        //!< scheduled operations skipped

    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t> m_connectedTrace;    //!< connect
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t> m_disconnectedTrace; //!< disconnect
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_darkDropTrace;      //!< dark drop
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_wireDropTrace;      //!< wire drop
    TracedCallback<const std::string&> m_rejectedTrace;                         //!< rejected
};

} // namespace ns3

#endif /* MOSE_OCS_H */
