/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRANSPORT_HELPER_H
#define MOSE_TRANSPORT_HELPER_H

#include "mose-topology-helper.h"

#include "ns3/attribute.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-transport.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-helpers
 * \brief Creates and installs the workloads' transport (MoseTransport) by its TypeId name, as
 *        ns-3's ApplicationHelper creates applications: the helper holds a transport type and
 *        its attributes, and each Install() creates one transport with them.
 *
 * So a script picks its transport by name or attribute, not by the class it creates:
 *
 * \code
 *   MoseTransportHelper helper(MoseTransportHelper::GetTypeName("--transport", "rdma"));
 *   helper.SetAttribute("PayloadSize", UintegerValue(4096));
 *   Ptr<MoseTransport> transport = helper.Install(topology); // its GetGroupEndpoints()
 *   Ptr<MoseWorkload> w = MoseWorkloadHelper("ns3::MoseInferenceWorkload").Install(transport);
 * \endcode
 *
 * The programs spell the transports "tcp" (ns3::MoseSocketTransfers, ns-3's TCP) and "rdma"
 * (ns3::MoseRdmaTransport, RoCEv2 with DCQCN); GetTypeName() maps the one to the other. Every
 * misuse is a mose::Error naming what was given and what is allowed (ns-3's ObjectFactory
 * aborts on an unknown attribute, which Debian's release build reports with no name).
 */
class MoseTransportHelper
{
  public:
    /// The program spelling of the TCP transport ("tcp")
    static constexpr const char* TCP = "tcp";
    /// The program spelling of the RoCEv2 transport ("rdma")
    static constexpr const char* RDMA = "rdma";

    /**
     * \param typeName a MoseTransport type with a constructor: "ns3::MoseSocketTransfers" (the
     *        default) or "ns3::MoseRdmaTransport"; mose::Error naming it if there is no such
     *        type, or it is not a MoseTransport one can create
     */
    explicit MoseTransportHelper(const std::string& typeName = "ns3::MoseSocketTransfers");

    /**
     * \brief An attribute of every transport this helper creates.
     * \param name the attribute, e.g. "NoticeDelay"
     * \param value its value (a StringValue is read by the attribute's checker, as
     *        Object::SetAttribute() reads it: ns-3 aborts on text some checkers cannot read,
     *        so a program parses its text first)
     * mose::Error naming the type and the attribute if the type has no such attribute, or
     * naming the value if the attribute's checker refuses it.
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /// \return the transport type
    TypeId GetTypeId() const;

    /// \return whether the transport type has an attribute of this name \param name the name
    bool HasAttribute(const std::string& name) const;

    /// \return a transport with the helper's attributes, not installed yet
    Ptr<MoseTransport> Create() const;

    /**
     * \brief A transport with the helper's attributes, installed on the groups' endpoints
     *        (MoseTransport::Install()).
     * \param endpoints per group (index g), its endpoints (rail h at index h)
     * \return the installed transport
     */
    Ptr<MoseTransport> Install(const std::vector<NodeContainer>& endpoints) const;

    /**
     * \brief A transport installed on a fabric's endpoints (MoseTopologyHelper::
     *        GetGroupEndpoints(): a group's hosts, or the group node). Its NoticeDelay, unless
     *        set on this helper or as the attribute's default (Config::SetDefault, the command
     *        line), is twice the fabric's smallest link delay
     *        (MoseTopologyHelper::GetSmallestLinkDelay()), as the programs set it: what a run on
     *        several MPI ranks needs, and the same on one. A MoseRdmaTransport's MaxInFlight,
     *        unless set on this helper or as the attribute's default (0 included), is IRN's
     *        BDP-FC cap on the fabric's longest route (MoseRdmaTransport::GetBdpInFlight()): as
     *        many circuits as the circuit graph's diameter, with a host link at each end when
     *        there are hosts, at the installed rates (divided by MoseScale). A transport created
     *        by hand (Create(), Install(endpoints)) keeps the attribute's default.
     * \param topology the installed topology (mose::Error if null or not installed)
     * \return the installed transport
     */
    Ptr<MoseTransport> Install(Ptr<MoseTopologyHelper> topology) const;

    /**
     * \brief As Install(topology), on a fabric that a switcher reconfigures: a
     *        MoseRdmaTransport's MaxInFlight (unless the user set it) is IRN's BDP-FC cap on the
     *        longest route over every graph the run installs, the graph installed now and the
     *        target of every mode of the switcher's schedule (MoseModeSwitcher::GetTarget()).
     *        The cap is one attribute, read per packet, so it is sized once for the whole run:
     *        a cap below a route's bandwidth-delay product slows that route's QPs, one above it
     *        lets them hold more than a round trip, so the longest route is the one that must
     *        keep its line rate. The graphs between two phases of a switch (Phases above 1)
     *        are not counted: packets held or rerouted during a switch only wait.
     * \param topology the installed topology (mose::Error if null or not installed)
     * \param switcher the fabric's installed switcher (MoseModeSwitcherHelper::Install(), which
     *        prepares its targets), or null: Install(topology)
     * \return the installed transport
     */
    Ptr<MoseTransport> Install(Ptr<MoseTopologyHelper> topology,
                               Ptr<MoseModeSwitcher> switcher) const;

    /**
     * \brief The TypeId name of a transport in the programs' spelling.
     * \param option the option's name as the user typed it, for the message ("--transport")
     * \param text "tcp" or "rdma" (exactly: the programs' other names are lower case too)
     * \return "ns3::MoseSocketTransfers" or "ns3::MoseRdmaTransport"; a mose::Error naming the
     *         option, the text and "tcp or rdma" otherwise
     */
    static std::string GetTypeName(const std::string& option, const std::string& text);

    /**
     * \param typeName a transport TypeId name
     * \return its program spelling: "tcp", "rdma", or "" for another type
     */
    static std::string GetProgramName(const std::string& typeName);

  private:
    ObjectFactory m_factory;     //!< the transport type and its attributes
    std::set<std::string> m_set; //!< the attributes SetAttribute() set
};

} // namespace ns3

#endif /* MOSE_TRANSPORT_HELPER_H */
