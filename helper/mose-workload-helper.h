/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_WORKLOAD_HELPER_H
#define MOSE_WORKLOAD_HELPER_H

#include "mose-traffic-helper.h"

#include "ns3/attribute.h"
#include "ns3/mose-traffic.h"
#include "ns3/mose-transport.h"
#include "ns3/mose-workload.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-helpers
 * \brief Installs packet-level workloads (MoseWorkload) on a fabric, as ns-3's application
 *        helpers install applications on nodes: the helper holds a workload type and its
 *        attributes, and each Install() creates one workload with them.
 *
 * The LLM workloads (ns3::MoseInferenceWorkload, ns3::MoseTrainingWorkload) start their
 * transfers while the simulation runs, over the fabric's transport: Install(transport), which
 * refuses a transport not installed on the fabric. A flow
 * list (ns3::MoseFlowWorkload) is made into transfers and applications by a MoseTrafficHelper
 * (its attributes: bytes per unit, sample, start times, socket factory):
 * Install(traffic, endpoints, flows).
 *
 * \code
 *   MoseWorkloadHelper inference("ns3::MoseInferenceWorkload");
 *   inference.SetAttribute("PrefillTokensPerSecond", DoubleValue(5e4));
 *   Ptr<MoseInferenceWorkload> w =
 *       DynamicCast<MoseInferenceWorkload>(inference.Install(transport));
 *   w->SetRequests(requests);
 *   switcher->AddWorkload(w); // in step with the fabric's mode from now on
 *   w->Start(Seconds(0));
 * \endcode
 * examples/mose-llm-script.cc is a whole script.
 */
class MoseWorkloadHelper
{
  public:
    /**
     * \param typeName a MoseWorkload type, e.g. "ns3::MoseInferenceWorkload"; mose::Error
     *        naming it if there is no such type or it is not a MoseWorkload
     */
    explicit MoseWorkloadHelper(const std::string& typeName);

    /**
     * \brief An attribute of every workload this helper installs.
     * \param name the attribute \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /// \return the workload type
    TypeId GetTypeId() const;

    /**
     * \brief A workload on a transport (MoseInferenceWorkload, MoseTrainingWorkload):
     *        created with the helper's attributes, given the transport. mose::Error for a type
     *        that takes flows instead (MoseFlowWorkload) or a transport not installed.
     * \param transport the fabric's installed transport
     * \return the workload (not started: SetMode(), then Start())
     */
    Ptr<MoseWorkload> Install(Ptr<MoseTransport> transport) const;

    /**
     * \brief A flow-list workload (MoseFlowWorkload): the flows made into transfers and their
     *        applications by the traffic helper (MoseTrafficHelper::Install()), handed to a
     *        workload created with this helper's attributes. mose::Error for another type.
     * \param traffic the traffic helper (one per workload)
     * \param endpoints node i runs group i's applications
     * \param flows the flows
     * \return the workload
     */
    Ptr<MoseWorkload> Install(Ptr<MoseTrafficHelper> traffic,
                              const NodeContainer& endpoints,
                              const std::vector<mose::Flow>& flows) const;

  private:
    ObjectFactory m_factory; //!< the workload type and its attributes
};

} // namespace ns3

#endif /* MOSE_WORKLOAD_HELPER_H */
