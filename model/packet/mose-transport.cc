/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-transport.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseTransport");
NS_OBJECT_ENSURE_REGISTERED(MoseTransport);

TypeId
MoseTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseTransport").SetParent<Object>().SetGroupName("Mose");
    return tid;
}

MoseTransport::MoseTransport() = default;

MoseTransport::~MoseTransport() = default;

void
MoseTransport::Install(const NodeContainer& endpoints)
{
    NS_LOG_FUNCTION(this << endpoints.GetN());
    std::vector<NodeContainer> groups;
    groups.reserve(endpoints.GetN());
    for (uint32_t g = 0; g < endpoints.GetN(); ++g)
    {
        groups.emplace_back(endpoints.Get(g));
    }
    Install(groups);
}

std::vector<MoseTransfer>
MoseTransport::GetTransfers(const std::vector<uint64_t>& ids) const
{
    std::vector<MoseTransfer> transfers;
    transfers.reserve(ids.size());
    for (uint64_t id : ids)
    {
        transfers.push_back(GetTransfer(id));
    }
    return transfers;
}

} // namespace ns3
