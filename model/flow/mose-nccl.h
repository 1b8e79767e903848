/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_NCCL_H
#define MOSE_NCCL_H

#include "ns3/mose-parse.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief Collectives decomposed into transfers as NCCL runs them: ring and tree all-reduce,
 *        ring all-gather and reduce-scatter, all-to-all as pairwise exchanges, broadcast as a
 *        pipelined chain; channels on rails, chunks pipelined.
 *
 * Members are numbered 0..n-1 (the caller maps them to groups and rails). Nothing here moves a
 * byte: a plan is plain data, executed by the training plan runner at every level.
 *
 * \section mose-nccl-sources Sources
 *
 * NCCL cuts a collective's buffer over its channels, each channel running the algorithm on its
 * share on its own network interface (here: channel c on rail c). Inside a channel it loops over
 * the share in chunks of chunkSize = stepSize x CHUNKSTEPS, with stepSize = NCCL_BUFFSIZE /
 * NCCL_STEPS: NCCL_BUFFSIZE is 4194304 by default (NCCL documentation, "Environment
 * Variables"), NCCL_STEPS is 8 (src/include/device.h), ALLREDUCE_CHUNKSTEPS,
 * ALLGATHER_CHUNKSTEPS and REDUCESCATTER_CHUNKSTEPS are NCCL_STEPS / 2 and
 * BROADCAST_CHUNKSTEPS is 1 (src/include/collectives.h): 2 MiB chunks for the rings and the
 * tree, 512 KiB for a broadcast. The number of channels is what NCCL's topology search finds;
 * 2 (one ring duplicated on each NIC, the usual result with one NIC per GPU) is the default
 * here, bounded by MAXCHANNELS = 32 (src/include/device.h).
 *
 * \section mose-nccl-model What a plan models
 *
 * - ring (all-reduce, reduce-scatter, all-gather): member i sends to member (i + 1) mod n. The
 *   channel's share S_c is cut into n chunks (ChunkBytes()); in step k member i sends chunk
 *   (i - k) mod n. An all-reduce has 2(n - 1) steps (reduce-scatter then all-gather), the
 *   others n - 1. Each step's chunk is cut into P pieces (chunks of the chunk size); piece p of
 *   step k waits for piece p of step k - 1 from the predecessor: the pipeline of NCCL's loop.
 *   Each ring link carries exactly the chunks of its steps: 2(n-1)/n x S for an all-reduce of S
 *   when n x channels divides S.
 * - tree all-reduce: NCCL's double binary tree as two heap-ordered binary trees (member r's
 *   parent (r - 1) / 2 in tree 0; tree 1 the mirror, r -> n - 1 - r), channel c on tree c mod 2.
 *   Each piece goes up (reduce: a member sends to its parent after its children's pieces came)
 *   and down (broadcast from the root). Every tree edge carries S_c up and S_c down. NCCL numbers
 *   its trees differently (ncclGetDtree); the bytes per edge and the depth are the same.
 * - all-to-all: NCCL runs it as grouped send/receive pairs; step k (1..n-1) pairs member i with
 *   member (i + k) mod n. All pairs start together (one ncclGroupStart/End), none waits for
 *   another; member i's part for j has PlanAllToAll()'s bytes, on rail (j - i) mod n.
 * - broadcast: a chain from the root, root + 1, ..., n - 1 links, pieces pipelined: piece p of
 *   hop h waits for piece p of hop h - 1. Every link of the chain carries S.
 *
 * Not modelled: NCCL's protocols (LL, LL128: their flag overhead), its choice between ring and
 * tree by size (the caller picks), the intra-node part of a hierarchical ring (the caller's
 * members are groups), PXN and CollNet/NVLS.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-llm
 * \brief The collectives NCCL plans here.
 */
enum class NcclCollective : uint8_t
{
    ALL_REDUCE,     //!< every member ends with the sum of all members' S bytes
    ALL_GATHER,     //!< every member ends with all n parts of S
    REDUCE_SCATTER, //!< member i ends with part i of the sum
    ALL_TO_ALL,     //!< every member sends S/n to every other member
    BROADCAST,      //!< the root's S bytes reach every member
};

/// \ingroup mose-llm
/// Names of NcclCollective: "all-reduce", "all-gather", "reduce-scatter", "all-to-all",
/// "broadcast"
template <>
struct EnumTable<NcclCollective>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<NcclCollective>>& Get();
};

/**
 * \ingroup mose-llm
 * \brief NCCL's algorithms (NCCL_ALGO).
 */
enum class NcclAlgorithm : uint8_t
{
    RING, //!< rings (every collective)
    TREE, //!< double binary tree (all-reduce only)
};

/// \ingroup mose-llm
/// Names of NcclAlgorithm: "ring", "tree"
template <>
struct EnumTable<NcclAlgorithm>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<NcclAlgorithm>>& Get();
};

/**
 * \ingroup mose-llm
 * \brief NCCL's settings that shape a plan, with NCCL's defaults (see \ref mose-nccl-sources).
 */
struct NcclSettings
{
    /// the most channels (NCCL's MAXCHANNELS)
    static constexpr uint32_t MAX_CHANNELS = 32;

    NcclAlgorithm algorithm{NcclAlgorithm::RING}; //!< NCCL_ALGO (tree: all-reduce only)
    uint32_t channels{2};                         //!< channels, each on its own rail (1..32)
    uint64_t bufferBytes{4194304};                //!< NCCL_BUFFSIZE
    uint32_t ncclSteps{8};                        //!< NCCL_STEPS: slots of a channel's buffer
    uint32_t root{0};                             //!< a broadcast's root member

    /// \brief Throws a mose::Error naming the first invalid field
    void Validate() const;

    /**
     * \param collective the collective
     * \return its chunk size: bufferBytes / ncclSteps x ncclSteps / 2 for the rings and the
     *         tree (2 MiB by default), bufferBytes / ncclSteps for a broadcast (512 KiB); at
     *         least 1
     */
    uint64_t GetChunkBytes(NcclCollective collective) const;
};

/**
 * \ingroup mose-llm
 * \brief One transfer of an NCCL plan.
 */
struct NcclTransfer
{
    uint32_t step{0};            //!< ring step, tree level or pairwise step
    uint32_t src{0};             //!< sending member
    uint32_t dst{0};             //!< receiving member
    uint32_t channel{0};         //!< its channel
    uint32_t piece{0};           //!< its piece of the step's chunk (the pipeline)
    uint32_t rail{0};            //!< the rail it goes on (channel, or (dst - src) mod n)
    uint64_t bytes{0};           //!< bytes moved (> 0)
    std::vector<uint64_t> after; //!< indices of the transfers whose arrival it waits for
};

/**
 * \ingroup mose-llm
 * \brief The transfers of one collective over n members, as NCCL runs it.
 */
struct NcclPlan
{
    NcclCollective collective{NcclCollective::ALL_REDUCE}; //!< which collective
    NcclAlgorithm algorithm{NcclAlgorithm::RING};          //!< which algorithm
    uint32_t members{0};                                   //!< n
    uint64_t size{0};                                      //!< S in bytes
    uint32_t channels{0};                //!< channels used: min(settings, S / n), at least 1
    uint32_t pieces{0};                  //!< pieces per step and channel (the pipeline's depth)
    std::vector<NcclTransfer> transfers; //!< every transfer after all it waits for

    /// \param src a member \param dst a member \return bytes src sends to dst over the plan
    uint64_t GetBytesBetween(uint32_t src, uint32_t dst) const;
    /// \param member a member \return bytes it sends over the plan
    uint64_t GetBytesSent(uint32_t member) const;
    /// \return bytes over all transfers
    uint64_t GetTotalBytes() const;
};

/**
 * \ingroup mose-llm
 * \brief Plans a collective as NCCL runs it (\ref mose-nccl-model).
 * \param collective the collective
 * \param members n (>= 1; n = 1 gives an empty plan)
 * \param size S: the buffer every member reduces, gathers into, scatters from, exchanges or
 *        receives (>= n for the rings and the all-to-all, so that every chunk has a byte; >= 1
 *        for a broadcast and the tree)
 * \param settings NCCL's settings
 * \return the plan; a mose::Error naming the parameter for bad input (a tree for anything but an
 *         all-reduce, a root >= n, more than MAX_COLLECTIVE_TRANSFERS transfers)
 */
NcclPlan PlanNccl(NcclCollective collective,
                  uint32_t members,
                  uint64_t size,
                  const NcclSettings& settings);

} // namespace mose
} // namespace ns3

#endif /* MOSE_NCCL_H */
