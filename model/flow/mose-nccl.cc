/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-nccl.h"

#include "mose-collective.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <string>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseNccl");

namespace
{

/// \return ceil(a / b) for b > 0
uint64_t
DivUp(uint64_t a, uint64_t b)
{
    return a / b + (a % b == 0 ? 0 : 1);
}

/**
 * \brief Throws a mose::Error if a plan of count = a x b x c x d transfers would exceed the
 *        cap (each factor >= 1; checked without overflow).
 * \param what the collective, for the message
 * \param factors the factors
 */
void
CheckTransfers(const std::string& what, const std::vector<uint64_t>& factors)
{
    uint64_t count = 1;
    for (uint64_t f : factors)
    {
        if (f != 0 && count > MAX_COLLECTIVE_TRANSFERS / f)
        {
            ThrowBadParameter("size",
                              "a plan of more than " + std::to_string(MAX_COLLECTIVE_TRANSFERS) +
                                  " transfers",
                              what + " within " + std::to_string(MAX_COLLECTIVE_TRANSFERS) +
                                  " transfers (fewer members, fewer channels or larger chunks)");
        }
        count *= f;
    }
}

/// \return the NCCL name of the collective, for messages
std::string
Name(NcclCollective collective)
{
    return ToString(collective);
}

/**
 * \brief The ring collectives: 2(n - 1) steps for an all-reduce, n - 1 for the others.
 * \param plan the plan (collective, members, size, channels set)
 * \param chunkBytes the chunk size
 */
void
PlanRing(NcclPlan& plan, uint64_t chunkBytes)
{
    const uint64_t n = plan.members;
    const uint64_t steps = plan.collective == NcclCollective::ALL_REDUCE ? 2 * (n - 1) : n - 1;
    const uint32_t channels = plan.channels;
    // the largest chunk is chunk 0 of channel 0; the smallest chunk of the last channel bounds
    // the pieces so that every piece has a byte
    const uint64_t largest = ChunkBytes(ChunkBytes(plan.size, channels, 0), plan.members, 0);
    const uint64_t smallest = ChunkBytes(plan.size, channels, channels - 1) / n;
    const uint64_t pieces = std::min(DivUp(largest, chunkBytes), smallest);
    plan.pieces = static_cast<uint32_t>(pieces);
    CheckTransfers("a ring " + Name(plan.collective), {channels, steps, pieces, n});
    plan.transfers.reserve(channels * steps * pieces * n);
    for (uint32_t c = 0; c < channels; ++c)
    {
        const uint64_t share = ChunkBytes(plan.size, channels, c);
        const uint64_t base = plan.transfers.size();
        for (uint64_t k = 0; k < steps; ++k)
        {
            for (uint64_t p = 0; p < pieces; ++p)
            {
                for (uint64_t i = 0; i < n; ++i)
                {
                    // chunk (i - k) mod n, as PlanRingAllReduce() (k < 2n - 2)
                    const auto chunk = static_cast<uint32_t>((i + 2 * n - k) % n);
                    const uint64_t chunkSize = ChunkBytes(share, plan.members, chunk);
                    NcclTransfer t;
                    t.step = static_cast<uint32_t>(k);
                    t.src = static_cast<uint32_t>(i);
                    t.dst = static_cast<uint32_t>((i + 1) % n);
                    t.channel = c;
                    t.piece = static_cast<uint32_t>(p);
                    t.rail = c;
                    t.bytes = ChunkBytes(chunkSize,
                                         static_cast<uint32_t>(pieces),
                                         static_cast<uint32_t>(p));
                    if (k > 0)
                    {
                        // piece p of the previous step from the predecessor brought this chunk
                        t.after.push_back(base + ((k - 1) * pieces + p) * n + (i + n - 1) % n);
                    }
                    plan.transfers.push_back(std::move(t));
                }
            }
        }
    }
}

/// \return the depth of heap position r (root 0)
uint32_t
Depth(uint64_t r)
{
    uint32_t d = 0;
    for (uint64_t x = r + 1; x > 1; x >>= 1)
    {
        ++d;
    }
    return d;
}

/**
 * \brief The tree all-reduce: per channel, tree c mod 2, each piece reduced up and broadcast
 *        down.
 * \param plan the plan (members, size, channels set)
 * \param chunkBytes the chunk size
 */
void
PlanTree(NcclPlan& plan, uint64_t chunkBytes)
{
    const uint64_t n = plan.members;
    const uint32_t channels = plan.channels;
    const uint64_t pieces = std::min(DivUp(ChunkBytes(plan.size, channels, 0), chunkBytes),
                                     ChunkBytes(plan.size, channels, channels - 1));
    plan.pieces = static_cast<uint32_t>(pieces);
    // n - 1 edges, each once up and once down
    CheckTransfers("a tree all-reduce", {channels, pieces, 2 * (n - 1)});
    const uint32_t height = Depth(n - 1);
    std::vector<uint64_t> up(n);
    std::vector<uint64_t> down(n);
    for (uint32_t c = 0; c < channels; ++c)
    {
        const uint64_t share = ChunkBytes(plan.size, channels, c);
        const bool mirror = c % 2 == 1;
        auto member = [n, mirror](uint64_t r) {
            return static_cast<uint32_t>(mirror ? n - 1 - r : r);
        };
        for (uint64_t p = 0; p < pieces; ++p)
        {
            const uint64_t bytes =
                ChunkBytes(share, static_cast<uint32_t>(pieces), static_cast<uint32_t>(p));
            // reduce: children (higher positions) before their parents
            for (uint64_t r = n - 1; r >= 1; --r)
            {
                NcclTransfer t;
                t.step = height - Depth(r);
                t.src = member(r);
                t.dst = member((r - 1) / 2);
                t.channel = c;
                t.piece = static_cast<uint32_t>(p);
                t.rail = c;
                t.bytes = bytes;
                for (uint64_t child = 2 * r + 1; child <= 2 * r + 2 && child < n; ++child)
                {
                    t.after.push_back(up[child]);
                }
                up[r] = plan.transfers.size();
                plan.transfers.push_back(std::move(t));
            }
            // broadcast: parents before their children
            for (uint64_t r = 0; r < n; ++r)
            {
                for (uint64_t child = 2 * r + 1; child <= 2 * r + 2 && child < n; ++child)
                {
                    NcclTransfer t;
                    t.step = height + Depth(r);
                    t.src = member(r);
                    t.dst = member(child);
                    t.channel = c;
                    t.piece = static_cast<uint32_t>(p);
                    t.rail = c;
                    t.bytes = bytes;
                    if (r == 0)
                    {
                        // the root has the sum when its children's parts came
                        for (uint64_t rc = 1; rc <= 2 && rc < n; ++rc)
                        {
                            t.after.push_back(up[rc]);
                        }
                    }
                    else
                    {
                        t.after.push_back(down[r]);
                    }
                    down[child] = plan.transfers.size();
                    plan.transfers.push_back(std::move(t));
                }
            }
        }
    }
}

/**
 * \brief The broadcast: a chain from the root, pieces pipelined.
 * \param plan the plan (members, size, channels set)
 * \param chunkBytes the chunk size
 * \param root the root member
 */
void
PlanBroadcast(NcclPlan& plan, uint64_t chunkBytes, uint32_t root)
{
    const uint64_t n = plan.members;
    const uint32_t channels = plan.channels;
    const uint64_t pieces = std::min(DivUp(ChunkBytes(plan.size, channels, 0), chunkBytes),
                                     ChunkBytes(plan.size, channels, channels - 1));
    plan.pieces = static_cast<uint32_t>(pieces);
    CheckTransfers("a broadcast", {channels, pieces, n - 1});
    for (uint32_t c = 0; c < channels; ++c)
    {
        const uint64_t share = ChunkBytes(plan.size, channels, c);
        const uint64_t base = plan.transfers.size();
        for (uint64_t h = 1; h < n; ++h)
        {
            for (uint64_t p = 0; p < pieces; ++p)
            {
                NcclTransfer t;
                t.step = static_cast<uint32_t>(h - 1);
                t.src = static_cast<uint32_t>((root + h - 1) % n);
                t.dst = static_cast<uint32_t>((root + h) % n);
                t.channel = c;
                t.piece = static_cast<uint32_t>(p);
                t.rail = c;
                t.bytes =
                    ChunkBytes(share, static_cast<uint32_t>(pieces), static_cast<uint32_t>(p));
                if (h > 1)
                {
                    t.after.push_back(base + (h - 2) * pieces + p);
                }
                plan.transfers.push_back(std::move(t));
            }
        }
    }
}

/**
 * \brief The all-to-all as pairwise exchanges, all started together.
 * \param plan the plan (members, size set)
 */
void
PlanPairwise(NcclPlan& plan)
{
    const uint64_t n = plan.members;
    CheckTransfers("an all-to-all", {n, n - 1});
    plan.channels = 1;
    plan.pieces = 1;
    const uint64_t q = plan.size / n;
    const uint64_t r = plan.size % n;
    plan.transfers.reserve(n * (n - 1));
    for (uint64_t k = 1; k < n; ++k)
    {
        for (uint64_t i = 0; i < n; ++i)
        {
            NcclTransfer t;
            t.step = static_cast<uint32_t>(k - 1);
            t.src = static_cast<uint32_t>(i);
            t.dst = static_cast<uint32_t>((i + k) % n);
            t.rail = static_cast<uint32_t>(k);
            t.bytes = q + (k <= r ? 1 : 0); // PlanAllToAll()'s part at offset k
            plan.transfers.push_back(std::move(t));
        }
    }
}

} // namespace

const std::vector<EnumEntry<NcclCollective>>&
EnumTable<NcclCollective>::Get()
{
    static const std::vector<EnumEntry<NcclCollective>> names = {
        {NcclCollective::ALL_REDUCE, "all-reduce", {"allreduce"}},
        {NcclCollective::ALL_GATHER, "all-gather", {"allgather"}},
        {NcclCollective::REDUCE_SCATTER, "reduce-scatter", {"reducescatter"}},
        {NcclCollective::ALL_TO_ALL, "all-to-all", {"alltoall"}},
        {NcclCollective::BROADCAST, "broadcast", {}},
    };
    return names;
}

const std::vector<EnumEntry<NcclAlgorithm>>&
EnumTable<NcclAlgorithm>::Get()
{
    static const std::vector<EnumEntry<NcclAlgorithm>> names = {
        {NcclAlgorithm::RING, "ring", {}},
        {NcclAlgorithm::TREE, "tree", {}},
    };
    return names;
}

void
NcclSettings::Validate() const
{
    if (channels == 0 || channels > MAX_CHANNELS)
    {
        ThrowBadParameter("NCCL channels",
                          std::to_string(channels),
                          "1 to " + std::to_string(MAX_CHANNELS) + " (NCCL's MAXCHANNELS)");
    }
    if (ncclSteps < 2)
    {
        ThrowBadParameter("NCCL steps", std::to_string(ncclSteps), "at least 2 (NCCL_STEPS)");
    }
    if (bufferBytes < ncclSteps)
    {
        ThrowBadParameter("NCCL buffer bytes",
                          std::to_string(bufferBytes),
                          "at least NCCL steps = " + std::to_string(ncclSteps) +
                              " (a step of at least one byte)");
    }
}

uint64_t
NcclSettings::GetChunkBytes(NcclCollective collective) const
{
    const uint64_t stepBytes = bufferBytes / ncclSteps;
    const uint64_t chunkSteps = collective == NcclCollective::BROADCAST ? 1 : ncclSteps / 2;
    return std::max<uint64_t>(1, stepBytes * chunkSteps);
}

uint64_t
NcclPlan::GetBytesBetween(uint32_t src, uint32_t dst) const
{
    uint64_t sum = 0;
    for (const NcclTransfer& t : transfers)
    {
        sum += t.src == src && t.dst == dst ? t.bytes : 0;
    }
    return sum;
}

uint64_t
NcclPlan::GetBytesSent(uint32_t member) const
{
    uint64_t sum = 0;
    for (const NcclTransfer& t : transfers)
    {
        sum += t.src == member ? t.bytes : 0;
    }
    return sum;
}

uint64_t
NcclPlan::GetTotalBytes() const
{
    uint64_t sum = 0;
    for (const NcclTransfer& t : transfers)
    {
        sum += t.bytes;
    }
    return sum;
}

NcclPlan
PlanNccl(NcclCollective collective, uint32_t members, uint64_t size, const NcclSettings& settings)
{
    NS_LOG_FUNCTION(Name(collective) << members << size);
    settings.Validate();
    const std::string what = "a " + ToString(settings.algorithm) + " " + Name(collective);
    if (members == 0)
    {
        ThrowBadParameter("members", "0", what + " needs at least 1 member");
    }
    if (settings.algorithm == NcclAlgorithm::TREE && collective != NcclCollective::ALL_REDUCE)
    {
        ThrowBadParameter("NCCL algorithm",
                          "tree",
                          "ring for " + Name(collective) + " (NCCL's tree runs all-reduce only)");
    }
    const bool perMember =
        collective != NcclCollective::BROADCAST && settings.algorithm == NcclAlgorithm::RING;
    if (size < (perMember ? members : 1))
    {
        ThrowBadParameter("size",
                          std::to_string(size),
                          what + " over " + std::to_string(members) +
                              " members needs size >= " + std::to_string(perMember ? members : 1) +
                              (perMember ? " (a byte per chunk)" : ""));
    }
    if (collective == NcclCollective::BROADCAST && settings.root >= members)
    {
        ThrowBadParameter("broadcast root",
                          std::to_string(settings.root),
                          "a member, 0 to " + std::to_string(members - 1));
    }
    NcclPlan plan;
    plan.collective = collective;
    plan.algorithm = settings.algorithm;
    plan.members = members;
    plan.size = size;
    const uint64_t perChannel = perMember ? size / members : size;
    plan.channels = static_cast<uint32_t>(
        std::max<uint64_t>(1, std::min<uint64_t>(settings.channels, perChannel)));
    if (members == 1)
    {
        return plan; // nothing to move
    }
    const uint64_t chunk = settings.GetChunkBytes(collective);
    switch (collective)
    {
    case NcclCollective::ALL_TO_ALL:
        PlanPairwise(plan);
        break;
    case NcclCollective::BROADCAST:
        PlanBroadcast(plan, chunk, settings.root);
        break;
    case NcclCollective::ALL_REDUCE:
        if (settings.algorithm == NcclAlgorithm::TREE)
        {
            PlanTree(plan, chunk);
            break;
        }
        PlanRing(plan, chunk);
        break;
    case NcclCollective::ALL_GATHER:
    case NcclCollective::REDUCE_SCATTER:
        PlanRing(plan, chunk);
        break;
    }
    NS_LOG_INFO(what << " of " << size << " B over " << members
                     << " members: " << plan.transfers.size() << " transfers, " << plan.channels
                     << " channels, " << plan.pieces << " pieces");
    return plan;
}

} // namespace mose
} // namespace ns3
