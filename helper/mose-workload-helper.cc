/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-workload-helper.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-flow-workload.h"
#include "ns3/mose-llm-workload.h"
#include "ns3/mose-parse.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseWorkloadHelper");

MoseWorkloadHelper::MoseWorkloadHelper(const std::string& typeName)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid) ||
        !tid.IsChildOf(MoseWorkload::GetTypeId()) || tid == MoseWorkload::GetTypeId())
    {
        mose::ThrowBadParameter("MoseWorkloadHelper type",
                                mose::QuoteText(typeName),
                                "a MoseWorkload type: ns3::MoseInferenceWorkload, "
                                "ns3::MoseTrainingWorkload or ns3::MoseFlowWorkload");
    }
    m_factory.SetTypeId(tid);
}

void
MoseWorkloadHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

TypeId
MoseWorkloadHelper::GetTypeId() const
{
    return m_factory.GetTypeId();
}

Ptr<MoseWorkload>
MoseWorkloadHelper::Install(Ptr<MoseTransport> transport) const
{
    NS_LOG_FUNCTION(this << transport);
    if (!transport)
    {
        throw mose::Error("MoseWorkloadHelper::Install: no transport (an installed "
                          "MoseTransport: MoseSocketTransfers or MoseRdmaTransport)");
    }
    Ptr<MoseWorkload> workload = m_factory.Create<MoseWorkload>();
    workload->SetTransfers(transport); // refused by a workload that takes flows instead
    if (!transport->IsInstalled())
    {
        throw mose::Error("MoseWorkloadHelper::Install: the transport is not installed on the "
                          "fabric: call the transport's Install(topology->"
                          "GetGroupEndpoints()) first");
    }
    return workload;
}

Ptr<MoseWorkload>
MoseWorkloadHelper::Install(Ptr<MoseTrafficHelper> traffic,
                            const NodeContainer& endpoints,
                            const std::vector<mose::Flow>& flows) const
{
    NS_LOG_FUNCTION(this << traffic << flows.size());
    if (!traffic)
    {
        throw mose::Error("MoseWorkloadHelper::Install: no traffic helper");
    }
    Ptr<MoseFlowWorkload> workload = DynamicCast<MoseFlowWorkload>(m_factory.Create());
    if (!workload)
    {
        throw mose::Error("MoseWorkloadHelper::Install: " + m_factory.GetTypeId().GetName() +
                          " takes no flow list; flows are installed as ns3::MoseFlowWorkload");
    }
    traffic->Install(endpoints, flows, workload);
    return workload;
}

} // namespace ns3
