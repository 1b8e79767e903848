/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-addressing.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseAddressing");

namespace
{

/// An address range [first, end) in host order (end as 64 bits so that it may be 2^32)
struct Range
{
    uint64_t first;   //!< first address
    uint64_t end;     //!< one past the last address
    const char* name; //!< how the error message names it
};

/// \return the address as dotted text
std::string
Text(uint64_t address)
{
    std::ostringstream os;
    Ipv4Address(static_cast<uint32_t>(address)).Print(os);
    return os.str();
}

/**
 * \brief The usable range the base address lies in.
 * \param base the base, host order
 * \param found set to false if the base lies in a reserved range (0/8, 127/8, >= 224.0.0.0)
 * \return the range the N blocks must fit in
 */
Range
UsableRange(uint32_t base, bool& found)
{
    static const Range PRIVATE[] = {
        {0x0A000000ULL, 0x0B000000ULL, "the private range 10.0.0.0/8"},
        {0xAC100000ULL, 0xAC200000ULL, "the private range 172.16.0.0/12"},
        {0xC0A80000ULL, 0xC0A90000ULL, "the private range 192.168.0.0/16"},
    };
    found = true;
    for (const Range& r : PRIVATE)
    {
        if (base >= r.first && base < r.end)
        {
            return r;
        }
    }
    if (base < 0x01000000U || (base >= 0x7F000000U && base < 0x80000000U) || base >= 0xE0000000U)
    {
        found = false;
        return {0, 0, ""};
    }
    if (base < 0x7F000000U)
    {
        return {0x01000000ULL, 0x7F000000ULL, "the unicast range below 127.0.0.0"};
    }
    return {0x80000000ULL, 0xE0000000ULL, "the unicast range 128.0.0.0 to 223.255.255.255"};
}

} // namespace

MoseAddressing::MoseAddressing() = default;

MoseAddressing::MoseAddressing(uint32_t groups,
                               uint32_t portsPerGroup,
                               uint32_t hostsPerGroup,
                               Ipv4Address base,
                               uint32_t prefixLength)
    : m_groups(groups),
      m_ports(portsPerGroup),
      m_hosts(hostsPerGroup),
      m_base(base.Get()),
      m_prefix(prefixLength)
{
    NS_LOG_FUNCTION(this << groups << portsPerGroup << hostsPerGroup << base << prefixLength);
    using mose::ThrowBadParameter;
    if (groups == 0)
    {
        ThrowBadParameter("groups", "0", "at least one group");
    }
    if (portsPerGroup == 0)
    {
        ThrowBadParameter("portsPerGroup", "0", "at least one port per group");
    }
    if (prefixLength < 1 || prefixLength > 30)
    {
        ThrowBadParameter("prefixLength",
                          std::to_string(prefixLength),
                          "1 to 30 (a block needs a network and a broadcast address)");
    }
    m_hostBits = 32 - prefixLength;
    const uint64_t blockSize = uint64_t{1} << m_hostBits;
    m_blockSize = static_cast<uint32_t>(blockSize);
    if (uint64_t{portsPerGroup} + hostsPerGroup > blockSize - 2)
    {
        ThrowBadParameter("portsPerGroup + hostsPerGroup",
                          std::to_string(portsPerGroup) + " + " + std::to_string(hostsPerGroup),
                          "a /" + std::to_string(prefixLength) + " block holds " +
                              std::to_string(blockSize - 2) +
                              " port and host addresses (network and broadcast excluded)");
    }
    if ((m_base & (m_blockSize - 1)) != 0)
    {
        ThrowBadParameter("address base",
                          Text(m_base),
                          "a multiple of the /" + std::to_string(prefixLength) +
                              " block size, e.g. " + Text(m_base & ~(m_blockSize - 1)));
    }
    bool usable = false;
    const Range range = UsableRange(m_base, usable);
    if (!usable)
    {
        ThrowBadParameter("address base",
                          Text(m_base),
                          "a unicast address outside 0.0.0.0/8, 127.0.0.0/8 and 224.0.0.0 and "
                          "above (default 10.0.0.0)");
    }
    const uint64_t room = (range.end - m_base) / blockSize;
    if (room < groups)
    {
        ThrowBadParameter("address base",
                          Text(m_base),
                          "address base " + Text(m_base) + " with /" +
                              std::to_string(prefixLength) + " blocks leaves room for " +
                              std::to_string(room) + " groups in " + range.name +
                              ", N=" + std::to_string(groups) + " needs " +
                              std::to_string(uint64_t{groups} * blockSize) + " addresses up to " +
                              Text(m_base + uint64_t{groups} * blockSize - 1) +
                              ": use a lower base or a longer prefix");
    }
    m_span = static_cast<uint32_t>(uint64_t{groups} * blockSize);
    NS_LOG_INFO(groups << " /" << prefixLength << " blocks of " << blockSize << " addresses from "
                       << Text(m_base) << " to " << Text(m_base + uint64_t{m_span} - 1) << " in "
                       << range.name << ", " << portsPerGroup << " port and " << hostsPerGroup
                       << " host addresses each");
}

uint32_t
MoseAddressing::GetNGroups() const
{
    return m_groups;
}

uint32_t
MoseAddressing::GetPortsPerGroup() const
{
    return m_ports;
}

uint32_t
MoseAddressing::GetHostsPerGroup() const
{
    return m_hosts;
}

Ipv4Address
MoseAddressing::GetBase() const
{
    return Ipv4Address(m_base);
}

uint32_t
MoseAddressing::GetPrefixLength() const
{
    return m_prefix;
}

Ipv4Mask
MoseAddressing::GetBlockMask() const
{
    return Ipv4Mask(~(m_blockSize - 1));
}

uint32_t
MoseAddressing::GetBlockSize() const
{
    return m_blockSize;
}

uint32_t
MoseAddressing::GetMaxHosts() const
{
    return m_blockSize >= m_ports + 2 ? m_blockSize - 2 - m_ports : 0;
}

Ipv4Address
MoseAddressing::GetGroupBlock(uint32_t group) const
{
    if (group >= m_groups)
    {
        mose::ThrowBadParameter("group",
                                std::to_string(group),
                                "group ids must be < N = " + std::to_string(m_groups));
    }
    return Ipv4Address(m_base + (group << m_hostBits));
}

Ipv4Address
MoseAddressing::GetPortAddress(uint32_t group, uint32_t port) const
{
    if (port >= m_ports)
    {
        mose::ThrowBadParameter("port",
                                std::to_string(port),
                                "ports must be < d = " + std::to_string(m_ports));
    }
    return Ipv4Address(GetGroupBlock(group).Get() + 1 + port);
}

Ipv4Address
MoseAddressing::GetHostAddress(uint32_t group, uint32_t host) const
{
    if (host >= m_hosts)
    {
        mose::ThrowBadParameter("host",
                                std::to_string(host),
                                "hosts must be < H = " + std::to_string(m_hosts));
    }
    return Ipv4Address(GetGroupBlock(group).Get() + 1 + m_ports + host);
}

uint32_t
MoseAddressing::GetPortOf(Ipv4Address address) const
{
    if (GetGroupOf(address) == NONE)
    {
        return NONE;
    }
    const uint32_t offset = (address.Get() - m_base) & (m_blockSize - 1);
    return (offset >= 1 && offset <= m_ports) ? offset - 1 : NONE;
}

uint32_t
MoseAddressing::GetHostOf(Ipv4Address address) const
{
    if (GetGroupOf(address) == NONE)
    {
        return NONE;
    }
    const uint32_t offset = (address.Get() - m_base) & (m_blockSize - 1);
    return (offset > m_ports && offset <= m_ports + m_hosts) ? offset - 1 - m_ports : NONE;
}

bool
MoseAddressing::IsBlockBroadcast(Ipv4Address address) const
{
    return GetGroupOf(address) != NONE &&
           ((address.Get() - m_base) & (m_blockSize - 1)) == m_blockSize - 1;
}

} // namespace ns3
