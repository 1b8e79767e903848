/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-roce-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRoceHeader");
NS_OBJECT_ENSURE_REGISTERED(MoseRoceBthHeader);
NS_OBJECT_ENSURE_REGISTERED(MoseRoceAethHeader);

TypeId
MoseRoceBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseRoceBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseRoceBthHeader>();
    return tid;
}

TypeId
MoseRoceBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
MoseRoceBthHeader::Print(std::ostream& os) const
{
    os << "opcode=0x" << std::hex << uint32_t{m_opcode} << std::dec << " pkey=" << m_pkey
       << " qp=" << m_destQp << " ack=" << m_ackRequest << " psn=" << m_psn;
}

uint32_t
MoseRoceBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MoseRoceBthHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_opcode);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_pkey);
    i.WriteU8(0); // FECN, BECN, reserved
    i.WriteU8(static_cast<uint8_t>(m_destQp >> 16));
    i.WriteHtonU16(static_cast<uint16_t>(m_destQp & 0xffff));
    i.WriteU8(m_ackRequest ? 0x80 : 0);
    i.WriteU8(static_cast<uint8_t>(m_psn >> 16));
    i.WriteHtonU16(static_cast<uint16_t>(m_psn & 0xffff));
}

uint32_t
MoseRoceBthHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_opcode = i.ReadU8();
    m_flags = i.ReadU8();
    m_pkey = i.ReadNtohU16();
    i.ReadU8();
    m_destQp = uint32_t{i.ReadU8()} << 16;
    m_destQp |= i.ReadNtohU16();
    m_ackRequest = (i.ReadU8() & 0x80) != 0;
    m_psn = uint32_t{i.ReadU8()} << 16;
    m_psn |= i.ReadNtohU16();
    return SIZE;
}

void
MoseRoceBthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
MoseRoceBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
MoseRoceBthHeader::SetFlags(uint8_t flags)
{
    m_flags = flags;
}

uint8_t
MoseRoceBthHeader::GetFlags() const
{
    return m_flags;
}

void
MoseRoceBthHeader::SetPartitionKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
MoseRoceBthHeader::GetPartitionKey() const
{
    return m_pkey;
}

void
MoseRoceBthHeader::SetDestQp(uint32_t qpn)
{
    m_destQp = qpn & MASK24;
}

uint32_t
MoseRoceBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
MoseRoceBthHeader::SetAckRequest(bool ackRequest)
{
    m_ackRequest = ackRequest;
}

bool
MoseRoceBthHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
MoseRoceBthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & MASK24;
}

uint32_t
MoseRoceBthHeader::GetPsn() const
{
    return m_psn;
}

TypeId
MoseRoceAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseRoceAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseRoceAethHeader>();
    return tid;
}

TypeId
MoseRoceAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
MoseRoceAethHeader::Print(std::ostream& os) const
{
    os << (IsNak() ? "NAK" : "ACK") << " syndrome=0x" << std::hex << uint32_t{m_syndrome}
       << std::dec << " msn=" << m_msn;
}

uint32_t
MoseRoceAethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
MoseRoceAethHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_syndrome);
    i.WriteU8(static_cast<uint8_t>(m_msn >> 16));
    i.WriteHtonU16(static_cast<uint16_t>(m_msn & 0xffff));
}

uint32_t
MoseRoceAethHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_syndrome = i.ReadU8();
    m_msn = uint32_t{i.ReadU8()} << 16;
    m_msn |= i.ReadNtohU16();
    return SIZE;
}

void
MoseRoceAethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
MoseRoceAethHeader::GetSyndrome() const
{
    return m_syndrome;
}

bool
MoseRoceAethHeader::IsNak() const
{
    return (m_syndrome & 0xe0) == 0x60;
}

void
MoseRoceAethHeader::SetMsn(uint32_t msn)
{
    m_msn = msn & MoseRoceBthHeader::MASK24;
}

uint32_t
MoseRoceAethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
