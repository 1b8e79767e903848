/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_COLLECTIVE_H
#define MOSE_COLLECTIVE_H

#include "ns3/mose-parse.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief Exact byte plans of the training collectives (MoE all-to-all, ring all-reduce): which
 *        member sends how many bytes to which, in which step, after which other transfer.
 *
 * Members are numbered 0..n-1; the caller maps them to groups (for the ring, member i + 1 is
 * member i's successor, so the order of that mapping is the ring). Plans are plain data that the
 * packet level executes; nothing here moves a packet. A plan holds at most
 * MAX_COLLECTIVE_TRANSFERS transfers (32 bytes each): n <= 11,585 for an all-to-all, n <= 8,192
 * for a ring all-reduce.
 *
 * \section mose-collective-remainder Remainders
 *
 * S bytes are cut into n chunks of q = floor(S / n) bytes, and the r = S mod n chunks that come
 * first in the rule's order get one byte more, so the chunks always add up to exactly S:
 *
 * - all-to-all: member i's buffer has one part per destination j; part j has offset
 *   k = (j - i) mod n, and parts with 1 <= k <= r have q + 1 bytes, the others q. The part a
 *   member keeps (k = 0) is never one of the larger ones, so every member sends exactly
 *   S - q bytes and, by symmetry, receives exactly S - q bytes.
 * - ring all-reduce: chunk c has q + 1 bytes if c < r, q otherwise.
 */

namespace ns3
{
namespace mose
{

/// \ingroup mose-llm
/// The most transfers a plan may hold: 2^27 (4 GiB of transfers)
constexpr uint64_t MAX_COLLECTIVE_TRANSFERS = uint64_t{1} << 27;

/**
 * \ingroup mose-llm
 * \brief The collectives the module plans.
 */
enum class CollectiveKind : uint8_t
{
    ALL_TO_ALL,      //!< every member sends S/n to every other member (MoE dispatch or combine)
    RING_ALL_REDUCE, //!< reduce-scatter then all-gather around a ring, 2(n-1) steps
};

/// \ingroup mose-llm
/// Names of CollectiveKind: "all-to-all", "ring-all-reduce"; also alltoall, all-reduce, allreduce
template <>
struct EnumTable<CollectiveKind>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<CollectiveKind>>& Get();
};

/**
 * \ingroup mose-llm
 * \brief One transfer of a collective plan.
 */
struct CollectiveTransfer
{
    /// "no dependency" in dependsOn
    static constexpr uint64_t NONE = UINT64_MAX;

    uint32_t step;      //!< the step it belongs to (all-to-all: 0)
    uint32_t src;       //!< sending member
    uint32_t dst;       //!< receiving member
    uint32_t chunk;     //!< the chunk of S it carries (all-to-all: the destination's part, dst)
    uint64_t bytes;     //!< bytes moved
    uint64_t dependsOn; //!< index in the plan of the transfer whose arrival it waits for, or NONE
};

/**
 * \ingroup mose-llm
 * \brief The transfers of one collective over n members.
 */
struct CollectivePlan
{
    CollectiveKind kind{CollectiveKind::ALL_TO_ALL}; //!< which collective
    uint32_t members{0};                             //!< n
    uint64_t size{0};                                //!< S in bytes
    uint32_t steps{0}; //!< number of steps: 1 for all-to-all, 2(n-1) for the ring
    std::vector<CollectiveTransfer> transfers; //!< ordered by (step, src, dst)

    /// \param member a member \return bytes it sends over the whole plan
    uint64_t GetBytesSent(uint32_t member) const;
    /// \param member a member \return bytes it receives over the whole plan
    uint64_t GetBytesReceived(uint32_t member) const;
    /// \param src a member \param dst a member \return bytes src sends to dst over the plan
    uint64_t GetBytesBetween(uint32_t src, uint32_t dst) const;
    /// \return bytes over all transfers
    uint64_t GetTotalBytes() const;

    /**
     * \brief The rail a transfer of this plan goes on, with G endpoints per group (hosts, one
     *        per GPU or NIC): (dst - src) mod n for an all-to-all part (a member's n - 1 parts,
     *        and the parts it receives, spread evenly over its hosts), the chunk for a ring
     *        all-reduce transfer (G rings, each chunk forwarded on its own rail). Both levels
     *        send it from host (rail mod G) of the source group to host (rail mod G) of the
     *        destination group.
     * \param transfer one of the plan's transfers
     * \return the rail
     */
    uint32_t GetRail(const CollectiveTransfer& transfer) const;
};

/**
 * \ingroup mose-llm
 * \brief The bytes of chunk c when S bytes are cut into n chunks, the first S mod n one byte
 *        larger.
 * \param size S
 * \param members n (>= 1)
 * \param chunk c (< n)
 * \return floor(S / n) + (c < S mod n ? 1 : 0)
 */
uint64_t ChunkBytes(uint64_t size, uint32_t members, uint32_t chunk);

/**
 * \ingroup mose-llm
 * \brief An all-to-all: every member sends its part of S to every other member, n(n-1) transfers
 *        in one step, none waiting for another.
 *
 * Member i sends member j (j != i) the part with offset k = (j - i) mod n: q + 1 bytes if
 * 1 <= k <= r, else q (q = floor(S / n), r = S mod n). With S divisible by n every ordered pair
 * carries exactly S/n; otherwise each member sends and receives exactly S - q and its kept part
 * (q) brings its buffer to S.
 * \param members n (>= 1; n = 1 gives an empty plan)
 * \param size S, the bytes of each member's buffer (>= n, so every part has at least a byte)
 * \return the plan; throws a mose::Error naming the parameter for n = 0, S < n or more than
 *         MAX_COLLECTIVE_TRANSFERS transfers
 */
CollectivePlan PlanAllToAll(uint32_t members, uint64_t size);

/**
 * \ingroup mose-llm
 * \brief A ring all-reduce of S bytes: reduce-scatter in steps 0..n-2, then all-gather in steps
 *        n-1..2n-3.
 *
 * S is cut into n chunks (chunk c: q + 1 bytes if c < r, else q). In step k member i sends
 * chunk (i - k) mod n to its successor (i + 1) mod n. In the reduce-scatter steps (k < n - 1)
 * that is the chunk it has just added its share to; after them member i holds chunk
 * (i + 1) mod n fully reduced, and all-gather step k' = k - (n - 1) forwards chunk
 * (i + 1 - k') mod n, which is the same (i - k) mod n.
 * Step k > 0 of member i depends on step k - 1 of member i - 1 (mod n): that transfer brought
 * the chunk member i forwards (partially reduced, or fully reduced from step n - 2 on); step 0
 * depends on nothing. Transfers are stored step by step, in member order: the transfer of
 * member i in step k has index k n + i.
 *
 * Every member sends 2(n - 1) chunks, every chunk but one in each phase: exactly 2(n-1)/n x S
 * when n divides S; otherwise member i sends 2S - chunk (i + 1) - chunk (i + 2) (chunks mod n),
 * within 2 bytes of 2(n-1)/n x S, and all members together exactly 2(n-1) x S.
 * \param members n (>= 1; n = 1 gives an empty plan)
 * \param size S (>= n, so every chunk has at least a byte)
 * \return the plan; throws a mose::Error naming the parameter for n = 0, S < n or more than
 *         MAX_COLLECTIVE_TRANSFERS transfers
 */
CollectivePlan PlanRingAllReduce(uint32_t members, uint64_t size);

/**
 * \ingroup mose-llm
 * \brief Plans a collective of the given kind (PlanAllToAll() or PlanRingAllReduce()).
 * \param kind the collective
 * \param members n
 * \param size S
 * \return the plan
 */
CollectivePlan PlanCollective(CollectiveKind kind, uint32_t members, uint64_t size);

} // namespace mose
} // namespace ns3

#endif /* MOSE_COLLECTIVE_H */
