/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-workload.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseWorkload");
NS_OBJECT_ENSURE_REGISTERED(MoseWorkload);

TypeId
MoseWorkload::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseWorkload")
            .SetParent<Object>()
            .SetGroupName("Mose")
            .AddTraceSource("WorkDone",
                            "A unit of the workload's work completed (a request served, an "
                            "iteration done, a transfer complete); the argument is how many "
                            "have so far.",
                            MakeTraceSourceAccessor(&MoseWorkload::m_workDoneTrace),
                            "ns3::MoseWorkload::WorkDoneCallback");
    return tid;
}

MoseWorkload::MoseWorkload()
{
    NS_LOG_FUNCTION(this);
}

MoseWorkload::~MoseWorkload()
{
    NS_LOG_FUNCTION(this);
}

void
MoseWorkload::SetTransfers(Ptr<MoseTransport> /* transfers */)
{
    throw mose::Error("MoseWorkloadHelper::Install: " + GetInstanceTypeId().GetName() +
                      " does not run on a transport; a flow list is installed with "
                      "Install(traffic, endpoints, flows)");
}

void
MoseWorkload::NotifyWorkDone()
{
    m_workDoneTrace(GetNDone());
}

} // namespace ns3
