/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_RANK_MESSAGES_H
#define MOSE_RANK_MESSAGES_H

#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/tag.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup mose-mpi
 * \brief A message between the replicas of a model object on two MPI ranks: the number of the
 *        handler it is for and three 64-bit words. It is the packet tag of an empty packet
 *        (ns-3.37's Packet::Serialize carries packet tags across ranks).
 */
class MoseRankMessageTag : public Tag
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    uint32_t handler{0};            //!< MoseRankMessages::Register() number of the receiver
    std::array<uint64_t, 3> word{}; //!< the message
};

/**
 * \ingroup mose-mpi
 * \brief Messages in simulated time between the ranks of a distributed run, for model objects
 *        whose state every rank keeps whole (MoseSocketTransfers and the LLM workloads): one
 *        rank sees an event (a transfer's last byte at its receiver) and tells the others, who
 *        act on it at a time every rank agrees on.
 *
 * Why hand-written: ns-3's MPI interface (MpiInterface::SendPacket) carries packets to the
 * MpiReceiver of a device only, for channels. This class sends a message as the
 * MoseRankMessageTag of an empty packet to a mailbox of the receiving rank, an OCS port device
 * of a node on that rank (MoseOcs::AddPort() offers each port, the first of each rank is kept),
 * whose MpiReceiver callback, MoseOcsChannel::ReceiveFromRank(), hands tagged packets to
 * Receive() before anything else; Receive() calls the handler registered under the message's
 * number. Objects register in the same order on every rank (the model is built the same way
 * on every rank), so a number names the same object everywhere.
 *
 * A message must arrive at least the lookahead after it is sent (MoseOcsChannel::
 * GetDistributedLookAhead(), fixed by MoseTopologyHelper::PrepareDistributedRun()): Send()
 * with a shorter delay is a mose::Error. Registrations and mailboxes belong to one simulation:
 * Simulator::Destroy() clears them. Without MPI (or on one rank) IsDistributed() is false and
 * Send() is a mose::Error.
 */
class MoseRankMessages
{
  public:
    /// A message's handler: (word 0, word 1, word 2), run on the receiving rank at the
    /// message's time in the context of the mailbox's node
    using Handler = Callback<void, uint64_t, uint64_t, uint64_t>;

    /// \return whether this is a run on several MPI ranks (MPI enabled, more than 1 rank)
    static bool IsDistributed();
    /// \return this process's rank (0 without MPI)
    static uint32_t GetRank();
    /// \return the ranks of this run (1 without MPI)
    static uint32_t GetNRanks();
    /**
     * \param node a node
     * \return whether the node is simulated by this rank (always true when not distributed)
     */
    static bool IsLocal(Ptr<const Node> node);

    /**
     * \brief Registers a handler. Call in the same order on every rank.
     * \param handler the handler (not null)
     * \return its number (0, 1, 2, ... in registration order)
     */
    static uint32_t Register(Handler handler);
    /// \param number a Register() number: its handler receives nothing more
    static void Unregister(uint32_t number);

    /**
     * \brief Offers a device with an MpiReceiver (whose callback hands messages to Receive())
     *        as the mailbox of its node's rank: the first device offered for a rank is kept.
     * \param device the device
     */
    static void OfferMailbox(Ptr<NetDevice> device);

    /**
     * \brief Sends a message to one other rank, to arrive delay from now.
     * \param rank the receiving rank (not this one, below GetNRanks())
     * \param number the handler's Register() number
     * \param delay at least the lookahead
     * \param word the message
     * mose::Error when not distributed, for this rank or a rank out of range, a rank with no
     * mailbox, or a delay below the lookahead.
     */
    static void Send(uint32_t rank,
                     uint32_t number,
                     Time delay,
                     const std::array<uint64_t, 3>& word);
    /**
     * \brief Sends a message to every other rank (Send() to each, in rank order).
     * \param number the handler's number \param delay at least the lookahead
     * \param word the message
     */
    static void SendToOthers(uint32_t number, Time delay, const std::array<uint64_t, 3>& word);

    /**
     * \brief Hands a packet from another rank to its handler if it is a message.
     * \param p a packet an MpiReceiver received
     * \return false if it carries no MoseRankMessageTag (not a message); true otherwise (a
     *         message for an unregistered number, or whose handler threw, is counted in
     *         GetNErrors() and logged)
     */
    static bool Receive(Ptr<Packet> p);

    /// \return messages received for no handler, or whose handler threw, in this simulation
    static uint64_t GetNErrors();
};

} // namespace ns3

#endif /* MOSE_RANK_MESSAGES_H */
