/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ROCE_HEADER_H
#define MOSE_ROCE_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The InfiniBand Base Transport Header (BTH) of a RoCEv2 packet: 12 bytes after the
 *        UDP header (destination port 4791), as the InfiniBand Architecture Specification
 *        (vol. 1, 9.2) and its RoCEv2 annex (A17) lay it out, so that a pcap decodes as RoCEv2 in
 *        Wireshark:
 *
 * | byte | field                                                                  |
 * |------|------------------------------------------------------------------------|
 * | 0    | opcode (the transport RC = 0b000 and the operation)                   |
 * | 1    | solicited event (bit 7), migration (6), pad count (5-4), version (3-0) |
 * | 2-3  | partition key (P_Key)                                                  |
 * | 4    | FECN (bit 7), BECN (6), reserved                                       |
 * | 5-7  | destination QP number (24 bits)                                        |
 * | 8    | acknowledge request (bit 7), reserved                                  |
 * | 9-11 | packet sequence number (24 bits)                                       |
 *
 * The module's RDMA transport (MoseRdmaTransport) uses the reliable-connected SEND opcodes for
 * data, ACKNOWLEDGE (with a MoseRoceAethHeader) for acknowledgements and negative ones, and
 * the RoCEv2 congestion notification packet (CNP, opcode 0x81).
 */
class MoseRoceBthHeader : public Header
{
  public:
    /// The opcodes the transport sends (reliable connected, IBA table 38; CNP: RoCEv2 annex)
    enum Opcode : uint8_t
    {
        SEND_FIRST = 0x00,  //!< first packet of a multi-packet message
        SEND_MIDDLE = 0x01, //!< a middle packet
        SEND_LAST = 0x02,   //!< last packet of a multi-packet message
        SEND_ONLY = 0x04,   //!< a message of one packet
        ACKNOWLEDGE = 0x11, //!< an ACK or NAK, followed by an AETH
        CNP = 0x81,         //!< RoCEv2 congestion notification packet (16 reserved bytes follow)
    };

    /// The size of a BTH in bytes
    static constexpr uint32_t SIZE = 12;
    /// The largest PSN and QPN (24 bits)
    static constexpr uint32_t MASK24 = 0xffffff;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param opcode the opcode
    void SetOpcode(uint8_t opcode);
    /// \return the opcode
    uint8_t GetOpcode() const;
    /// \param flags byte 1 (solicited event, migration, pad count, transport version)
    void SetFlags(uint8_t flags);
    /// \return byte 1
    uint8_t GetFlags() const;
    /// \param pkey the partition key
    void SetPartitionKey(uint16_t pkey);
    /// \return the partition key
    uint16_t GetPartitionKey() const;
    /// \param qpn the destination QP number (its low 24 bits are kept)
    void SetDestQp(uint32_t qpn);
    /// \return the destination QP number
    uint32_t GetDestQp() const;
    /// \param ackRequest whether the responder is asked for an acknowledgement
    void SetAckRequest(bool ackRequest);
    /// \return the acknowledge request bit
    bool GetAckRequest() const;
    /// \param psn the packet sequence number (its low 24 bits are kept)
    void SetPsn(uint32_t psn);
    /// \return the packet sequence number (24 bits)
    uint32_t GetPsn() const;

  private:
    uint8_t m_opcode{SEND_ONLY}; //!< opcode
    uint8_t m_flags{0};          //!< SE, M, pad count, TVer (all 0: version 0, no padding)
    uint16_t m_pkey{0xffff};     //!< the default partition key
    uint32_t m_destQp{0};        //!< 24 bits
    bool m_ackRequest{false};    //!< the A bit
    uint32_t m_psn{0};           //!< 24 bits
};

/**
 * \ingroup mose-packet
 * \brief The ACK Extended Transport Header (AETH, 4 bytes) after the BTH of an ACKNOWLEDGE
 *        packet: a syndrome byte (bits 7-5: 000 ACK, 011 NAK; bits 4-0: credits of an ACK or the
 *        NAK code, 00000 for a PSN sequence error) and the 24-bit message sequence number. The
 *        BTH's PSN of an ACK is the last PSN received in order; of a NAK, the PSN expected.
 */
class MoseRoceAethHeader : public Header
{
  public:
    /// The size of an AETH in bytes
    static constexpr uint32_t SIZE = 4;
    /// The syndrome of an ACK (with no credit count: 11111 "invalid credit")
    static constexpr uint8_t ACK = 0x1f;
    /// The syndrome of a NAK for a PSN sequence error
    static constexpr uint8_t NAK_SEQUENCE = 0x60;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param syndrome the syndrome byte
    void SetSyndrome(uint8_t syndrome);
    /// \return the syndrome byte
    uint8_t GetSyndrome() const;
    /// \return whether the syndrome is a NAK (bits 7-5 = 011)
    bool IsNak() const;
    /// \param msn the message sequence number (low 24 bits kept)
    void SetMsn(uint32_t msn);
    /// \return the message sequence number
    uint32_t GetMsn() const;

  private:
    uint8_t m_syndrome{ACK}; //!< syndrome
    uint32_t m_msn{0};       //!< 24 bits
};

} // namespace ns3

#endif /* MOSE_ROCE_HEADER_H */
