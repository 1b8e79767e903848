/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-workload-fabric.h"

#include "ns3/mose-error.h"

namespace ns3
{
namespace mose
{

WorkloadFabric::~WorkloadFabric() = default;

uint64_t
WorkloadFabric::StartAggregate(std::shared_ptr<const std::vector<TransferPart>> /* parts */,
                               TrafficClass /* trafficClass */,
                               DoneCallback /* done */)
{
    throw Error("this fabric moves every transfer on its own: it has no aggregates (run the "
                "aggregate level, or give no aggregate collectives)");
}

bool
WorkloadFabric::CanAggregate() const
{
    return false;
}

void
WorkloadFabric::CloseConnections(const std::vector<uint32_t>& /* groups */)
{
}

} // namespace mose
} // namespace ns3
