/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ADDRESSING_H
#define MOSE_ADDRESSING_H

#include "ns3/ipv4-address.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The fabric's IPv4 address plan: one aligned address block per group.
 *
 * Group g owns the block base + g * 2^(32 - prefix) of 2^(32 - prefix) addresses. Inside a block:
 *  - offset 0 is the block's network address (never assigned);
 *  - offsets 1 .. d are the d port addresses (port p at offset 1 + p);
 *  - offsets d + 1 .. d + H are the H host addresses behind the group (host h at d + 1 + h);
 *  - the last offset is the block's broadcast address (never assigned, never forwarded).
 * So a block holds d + H <= 2^(32 - prefix) - 2 addresses: with the default /24 and d = 4, up to
 * 250 hosts per group (GetMaxHosts()).
 *
 * Addresses are never renumbered when circuits change: a port keeps its address whichever peer
 * the OCS gives it (DESIGN.md section 5). GetGroupOf() is O(1) arithmetic, so the routing
 * protocol finds a packet's destination group without any table.
 *
 * The blocks of all N groups must lie in one usable unicast range: inside the base's private
 * range (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16) when the base is private, otherwise below
 * 224.0.0.0 and outside 0.0.0.0/8 and 127.0.0.0/8. Configuration errors throw a mose::Error
 * naming the parameter, its value and what is allowed.
 */
class MoseAddressing
{
  public:
    /// The "none" value of GetGroupOf(), GetPortOf() and GetHostOf()
    static constexpr uint32_t NONE = UINT32_MAX;

    /// An empty plan (no groups); every lookup returns NONE
    MoseAddressing();

    /**
     * \param groups N, the number of groups (>= 1)
     * \param portsPerGroup d, the optical ports per group (>= 1)
     * \param hostsPerGroup H, host addresses reserved per group behind the group node (>= 0)
     * \param base the first block's network address (default 10.0.0.0); must be aligned to the
     *        block size
     * \param prefixLength the block prefix length, 1..30 (default 24: 256 addresses per group)
     */
    MoseAddressing(uint32_t groups,
                   uint32_t portsPerGroup,
                   uint32_t hostsPerGroup = 0,
                   Ipv4Address base = Ipv4Address("10.0.0.0"),
                   uint32_t prefixLength = 24);

    /// \return N
    uint32_t GetNGroups() const;
    /// \return d
    uint32_t GetPortsPerGroup() const;
    /// \return H
    uint32_t GetHostsPerGroup() const;
    /// \return the base address
    Ipv4Address GetBase() const;
    /// \return the block prefix length
    uint32_t GetPrefixLength() const;
    /// \return the block's network mask (e.g. 255.255.255.0 for /24)
    Ipv4Mask GetBlockMask() const;
    /// \return addresses per block, 2^(32 - prefix)
    uint32_t GetBlockSize() const;
    /// \return the most hosts a block could hold with this prefix and d: block size - 2 - d
    uint32_t GetMaxHosts() const;

    /// \param group g (< N, mose::Error otherwise) \return its block's network address
    Ipv4Address GetGroupBlock(uint32_t group) const;
    /// \param group g (< N) \param port p (< d) \return the address of port p of group g
    Ipv4Address GetPortAddress(uint32_t group, uint32_t port) const;
    /// \param group g (< N) \param host h (< H) \return the address of host h behind group g
    Ipv4Address GetHostAddress(uint32_t group, uint32_t host) const;

    /**
     * \brief O(1): the group whose block holds an address.
     * \param address any address
     * \return the group, or NONE if the address is outside all N blocks
     */
    uint32_t GetGroupOf(Ipv4Address address) const
    {
        const uint32_t offset = address.Get() - m_base; // wraps for addresses below the base
        return offset < m_span ? (offset >> m_hostBits) : NONE;
    }

    /// \param address any address \return the port it is the address of, or NONE
    uint32_t GetPortOf(Ipv4Address address) const;
    /// \param address any address \return the host index it is the address of, or NONE
    uint32_t GetHostOf(Ipv4Address address) const;
    /// \param address any address \return true if it is the broadcast address of a group block
    bool IsBlockBroadcast(Ipv4Address address) const;

  private:
    uint32_t m_groups{0};    //!< N
    uint32_t m_ports{0};     //!< d
    uint32_t m_hosts{0};     //!< H
    uint32_t m_base{0};      //!< base address, host order
    uint32_t m_prefix{24};   //!< block prefix length
    uint32_t m_hostBits{8};  //!< 32 - prefix
    uint32_t m_blockSize{0}; //!< 2^(32 - prefix)
    uint32_t m_span{0};      //!< N * block size (fits: checked)
};

} // namespace ns3

#endif /* MOSE_ADDRESSING_H */
