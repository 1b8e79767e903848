/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_HASH_H
#define MOSE_HASH_H

#include <cstdint>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijection on 64-bit words whose
 *        output bits each depend on every input bit.
 *
 * The one mixing step of the module's stateless hashes: RANDOM_SHORTEST_PATH's next-hop choice
 * (mose-routing.cc) and the packet level's ECMP flow hash (mose-route-table.cc). Hand-written,
 * not std::hash, so that every compiler and machine gives the same values.
 * \param z a 64-bit word
 * \return its mix
 */
inline uint64_t
Mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace mose
} // namespace ns3

#endif /* MOSE_HASH_H */
