/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-collective.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <string>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseCollective");

namespace
{

/**
 * \brief Throws a mose::Error unless n >= 1, S >= n and the plan's transfers fit the cap.
 * \param what the collective, for the message
 * \param members n
 * \param size S
 * \param transfers the plan's number of transfers
 */
void
CheckPlanInputs(const std::string& what, uint32_t members, uint64_t size, uint64_t transfers)
{
    if (members == 0)
    {
        ThrowBadParameter("members", "0", what + " needs at least 1 member");
    }
    if (size < members)
    {
        ThrowBadParameter("size",
                          std::to_string(size),
                          what + " over members = " + std::to_string(members) +
                              " needs size >= members, so that every chunk has at least one byte");
    }
    if (transfers > MAX_COLLECTIVE_TRANSFERS)
    {
        ThrowBadParameter("members",
                          std::to_string(members),
                          what + " plans at most " + std::to_string(MAX_COLLECTIVE_TRANSFERS) +
                              " transfers; members = " + std::to_string(members) + " needs " +
                              std::to_string(transfers));
    }
}

/// \return the member's bytes under a predicate on the transfer
template <class Pred>
uint64_t
SumBytes(const std::vector<CollectiveTransfer>& transfers, Pred pred)
{
    uint64_t sum = 0;
    for (const CollectiveTransfer& t : transfers)
    {
        if (pred(t))
        {
            sum += t.bytes;
        }
    }
    return sum;
}

} // namespace

const std::vector<EnumEntry<CollectiveKind>>&
EnumTable<CollectiveKind>::Get()
{
    static const std::vector<EnumEntry<CollectiveKind>> names = {
        {CollectiveKind::ALL_TO_ALL, "all-to-all", {"alltoall"}},
        {CollectiveKind::RING_ALL_REDUCE, "ring-all-reduce", {"all-reduce", "allreduce"}},
    };
    return names;
}

uint64_t
CollectivePlan::GetBytesSent(uint32_t member) const
{
    return SumBytes(transfers, [member](const CollectiveTransfer& t) { return t.src == member; });
}

uint64_t
CollectivePlan::GetBytesReceived(uint32_t member) const
{
    return SumBytes(transfers, [member](const CollectiveTransfer& t) { return t.dst == member; });
}

uint64_t
CollectivePlan::GetBytesBetween(uint32_t src, uint32_t dst) const
{
    return SumBytes(transfers, [src, dst](const CollectiveTransfer& t) {
        return t.src == src && t.dst == dst;
    });
}

uint64_t
CollectivePlan::GetTotalBytes() const
{
    return SumBytes(transfers, [](const CollectiveTransfer&) { return true; });
}

uint32_t
CollectivePlan::GetRail(const CollectiveTransfer& transfer) const
{
    if (kind == CollectiveKind::ALL_TO_ALL)
    {
        return members == 0 ? 0 : (transfer.dst + members - transfer.src) % members;
    }
    return transfer.chunk;
}

uint64_t
ChunkBytes(uint64_t size, uint32_t members, uint32_t chunk)
{
    if (members == 0 || chunk >= members)
    {
        ThrowBadParameter("chunk",
                          std::to_string(chunk),
                          "0 <= chunk < members = " + std::to_string(members));
    }
    return size / members + (chunk < size % members ? 1 : 0);
}

CollectivePlan
PlanAllToAll(uint32_t members, uint64_t size)
{
    NS_LOG_FUNCTION(members << size);
    const uint64_t n = members;
    CheckPlanInputs("an all-to-all", members, size, n * (n == 0 ? 0 : n - 1));
    CollectivePlan plan;
    plan.kind = CollectiveKind::ALL_TO_ALL;
    plan.members = members;
    plan.size = size;
    plan.steps = 1;
    plan.transfers.reserve(n * (n - 1));
    const uint64_t q = size / n;
    const uint64_t r = size % n;
    for (uint32_t i = 0; i < members; ++i)
    {
        for (uint32_t j = 0; j < members; ++j)
        {
            if (j == i)
            {
                continue;
            }
            const uint64_t offset = (uint64_t{j} + n - i) % n; // 1..n-1
            const uint64_t bytes = q + (offset <= r ? 1 : 0);
            plan.transfers.push_back({0, i, j, j, bytes, CollectiveTransfer::NONE});
        }
    }
    NS_LOG_INFO("all-to-all of " << size << " B over " << members
                                 << " members: " << plan.transfers.size() << " transfers");
    return plan;
}

CollectivePlan
PlanRingAllReduce(uint32_t members, uint64_t size)
{
    NS_LOG_FUNCTION(members << size);
    const uint64_t n = members;
    const uint64_t steps = n == 0 ? 0 : 2 * (n - 1);
    CheckPlanInputs("a ring all-reduce", members, size, steps * n);
    CollectivePlan plan;
    plan.kind = CollectiveKind::RING_ALL_REDUCE;
    plan.members = members;
    plan.size = size;
    plan.steps = static_cast<uint32_t>(steps);
    plan.transfers.reserve(steps * n);
    for (uint64_t k = 0; k < steps; ++k)
    {
        for (uint64_t i = 0; i < n; ++i)
        {
            // chunk (i - k) mod n in both phases (k < 2n - 2, so i + 2n - k > 0)
            const uint64_t chunk = (i + 2 * n - k) % n;
            const uint64_t predecessor = (i + n - 1) % n;
            const uint64_t dependsOn =
                k == 0 ? CollectiveTransfer::NONE : (k - 1) * n + predecessor;
            plan.transfers.push_back({static_cast<uint32_t>(k),
                                      static_cast<uint32_t>(i),
                                      static_cast<uint32_t>((i + 1) % n),
                                      static_cast<uint32_t>(chunk),
                                      ChunkBytes(size, members, static_cast<uint32_t>(chunk)),
                                      dependsOn});
        }
    }
    NS_LOG_INFO("ring all-reduce of " << size << " B over " << members << " members: " << steps
                                      << " steps, " << plan.transfers.size() << " transfers");
    return plan;
}

CollectivePlan
PlanCollective(CollectiveKind kind, uint32_t members, uint64_t size)
{
    switch (kind)
    {
    case CollectiveKind::ALL_TO_ALL:
        return PlanAllToAll(members, size);
    case CollectiveKind::RING_ALL_REDUCE:
        return PlanRingAllReduce(members, size);
    }
    ThrowBadParameter("kind",
                      std::to_string(static_cast<int>(kind)),
                      "one of " + AllowedEnumNames<CollectiveKind>());
}

} // namespace mose
} // namespace ns3
