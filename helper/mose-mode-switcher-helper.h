/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_MODE_SWITCHER_HELPER_H
#define MOSE_MODE_SWITCHER_HELPER_H

#include "mose-topology-helper.h"
#include "mose-traffic-helper.h"

#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-routing-protocol.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-traffic.h"
#include "ns3/object-factory.h"

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-helpers
 * \brief Installs a MoseModeSwitcher on a fabric built by MoseTopologyHelper.
 *
 * The helper turns the hold queue on in every group node's MoseRoutingProtocol (HoldPackets
 * true), so that packets for a destination cut off during a switch wait instead of being
 * dropped; the queue's size and time are the protocol's attributes, whose defaults
 * (HoldQueueSize 100000, HoldTime 2 s) are what a switch needs. No value the user set is
 * replaced: HoldPackets stays as the user set it (Config::SetDefault, the command line,
 * SetAttribute on a node's protocol, or SetRoutingAttribute()); SetRoutingAttribute() values
 * are set on every group node's protocol, over the attribute's default, and one that differs
 * from a value set on a node's protocol with SetAttribute is a mose::Error from Install() naming
 * both. Creates a
 * MoseLossMonitor on the group nodes, hosts and OCS unless one is given (the switcher snapshots
 * it per switch); and validates the whole configuration (MoseModeSwitcher::Prepare()) in
 * Install(), before the simulation.
 *
 * The targets come from a MoseTargetProvider: MakePolicyProvider() builds one from a policy and
 * the core's three templates (mose::TemplateId order), roles and P-D assignments per mode (the
 * layout of mose::Scenario), so a MoSE policy switches H^PD <-> H^U and a static policy
 * never changes a circuit (its switches are no-ops, with records).
 */
class MoseModeSwitcherHelper
{
  public:
    /// Creates a helper with no targets and no schedule (hold queue as described above)
    MoseModeSwitcherHelper();

    /// \param name a MoseModeSwitcher attribute \param value its value
    void SetSwitcherAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Reads an attribute of the switcher Install() creates: SetSwitcherAttribute()'s
     *        value, else the attribute's default.
     * \param name the MoseModeSwitcher attribute, e.g. "Phases" or "ReconfigurationDelay"
     * \param value receives it
     */
    void GetSwitcherAttribute(const std::string& name, AttributeValue& value) const;
    /**
     * \brief A MoseRoutingProtocol attribute set on every group node at Install(), over the
     *        attribute's default (Config::SetDefault, the command line); a group node whose
     *        protocol holds another value set with SetAttribute makes Install() throw a
     *        mose::Error naming both. An unknown name or a bad value is a mose::Error here.
     * \param name the attribute
     * \param value its value
     */
    void SetRoutingAttribute(const std::string& name, const AttributeValue& value);
    /// \param provider the targets per mode
    void SetTargetProvider(MoseTargetProvider provider);
    /**
     * \brief The workload modes over time (MoseModeSwitcher::SetSchedule()): the fabric starts
     *        in the first period's mode and switches at the start of every later period, e.g.
     *        {{mose::WorkloadMode::INFERENCE_HEAVY, 0.5}, {mose::WorkloadMode::TRAINING_HEAVY,
     *        0}} switches to training-heavy at 0.5 s. As text, the programs' MODE:DURATION
     *        periods (mose::ParseSchedule()).
     * \param schedule the schedule (validated at Install(); default: inference-heavy, no
     *        switch)
     */
    void SetSchedule(const mose::ModeSchedule& schedule);
    /// \param monitor the loss monitor to snapshot (default: one the helper installs)
    void SetLossMonitor(Ptr<MoseLossMonitor> monitor);

    /**
     * \brief A provider that gives, per mode, the mode's roles and assignment and the template
     *        the policy selects (mose::SelectTemplate()): the scenario provider below, on a
     *        scenario of these templates, roles and assignments (fresh construction).
     * \param policy the policy
     * \param templates the circuit graphs per mose::TemplateId (ALL_TEMPLATES order)
     * \param roles per mode (ALL_MODES order: inference-heavy, training-heavy)
     * \param assignments per mode
     * \return the provider
     */
    static MoseTargetProvider MakePolicyProvider(
        mose::Policy policy,
        const std::array<mose::CircuitGraph, mose::ALL_TEMPLATES.size()>& templates,
        const std::array<mose::RoleAssignment, 2>& roles,
        const std::array<mose::PdAssignment, 2>& assignments);
    /// As above, the policy by name ("MoSE", "S-Train", ...; mose::Error naming "policy" and the
    /// allowed names otherwise) \param policy the name \param templates \param roles
    /// \param assignments see above \return the provider
    static MoseTargetProvider MakePolicyProvider(
        const std::string& policy,
        const std::array<mose::CircuitGraph, mose::ALL_TEMPLATES.size()>& templates,
        const std::array<mose::RoleAssignment, 2>& roles,
        const std::array<mose::PdAssignment, 2>& assignments);

    /**
     * \brief A provider that gives, per mode, the scenario's roles and assignment of the mode
     *        and the graph the policy uses in it (mose::Scenario::GetGraph()): with
     *        rewiring-aware construction, MoSE's targets keep the circuits their templates
     *        allow, so a switch re-pairs about 60% of the fabric at the paper's scale instead
     *        of all of it.
     * \param policy the policy
     * \param scenario the scenario (copied)
     * \return the provider
     */
    static MoseTargetProvider MakePolicyProvider(mose::Policy policy,
                                                 const mose::Scenario& scenario);

    /**
     * \brief Creates the switcher on the fabric (installed on group node 0, started at 0),
     *        turns the hold queues on, and validates everything (mose::Error before the run).
     * \param topology an installed fabric
     * \return the switcher
     */
    Ptr<MoseModeSwitcher> Install(Ptr<MoseTopologyHelper> topology) const;

    /**
     * \brief Sets a traffic helper up as InstallModeTraffic() does for mode interval \p index:
     *        its StartTime at \p from, StartWindow = min(to - from, maxWindow) and its random
     *        streams (stream + 2 index). A study that draws an interval's transfers without
     *        installing them (MakeStartedTransfers()) calls it too, so that it draws the same
     *        sample and start times.
     * \param traffic the helper
     * \param index the interval's number (0 for the initial mode's)
     * \param from the interval's start \param to its end
     * \param maxWindow the longest start window
     * \param stream the first random stream of the intervals
     */
    static void SetIntervalTraffic(Ptr<MoseTrafficHelper> traffic,
                                   uint32_t index,
                                   Time from,
                                   Time to,
                                   Time maxWindow,
                                   int64_t stream);

    /**
     * \brief The traffic of every mode interval, driven by the schedule: interval i (the
     *        initial mode from firstStart to the first boundary, then each boundary's mode until
     *        the next boundary or `end`) gets a fresh MoseTrafficHelper from makeTraffic (or a
     *        default one: uniform starts) installed with flowsOf(mode), its StartTime at the
     *        interval's start, StartWindow = min(interval length, maxWindow), its own sink ports
     *        (SinkPortBase 10000 + i * 55535 / intervals) and random streams (stream + 2 i).
     *        Transfers of an ending mode still in flight at a boundary continue to completion;
     *        the new mode's transfers follow its roles and P-D assignment (flowsOf's flows).
     * \param switcher an installed switcher (its schedule and initial mode)
     * \param endpoints node g runs group g's applications (MoseTopologyHelper::GetEndpoints())
     * \param flowsOf the flows of a mode
     * \param firstStart the start of the first interval
     * \param end the end of the last interval
     * \param maxWindow the longest start window
     * \param stream the first random stream
     * \param makeTraffic makes each interval's traffic helper (attributes set), or null
     * \return the traffic helpers, one per interval (their monitors give the FCTs; each
     *         hands its transfers to a MoseFlowWorkload, GetWorkload())
     */
    static std::vector<Ptr<MoseTrafficHelper>> InstallModeTraffic(
        Ptr<MoseModeSwitcher> switcher,
        const NodeContainer& endpoints,
        const std::function<std::vector<mose::Flow>(mose::WorkloadMode)>& flowsOf,
        Time firstStart,
        Time end,
        Time maxWindow,
        int64_t stream = 100,
        const std::function<Ptr<MoseTrafficHelper>()>& makeTraffic = nullptr);

  private:
    /**
     * \brief Sets the SetRoutingAttribute() values and turns the hold queue on, where the user
     *        did not choose otherwise (mose::Error on a conflict)
     * \param routing a group node's protocol
     * \param group its group
     */
    void ConfigureRouting(Ptr<MoseRoutingProtocol> routing, uint32_t group) const;

    ObjectFactory m_factory;                              //!< the switcher
    std::map<std::string, Ptr<AttributeValue>> m_routing; //!< routing attributes
    MoseTargetProvider m_provider;                        //!< targets
    mose::ModeSchedule m_schedule;                        //!< the schedule
    Ptr<MoseLossMonitor> m_loss;                          //!< given monitor, or null
};

} // namespace ns3

#endif /* MOSE_MODE_SWITCHER_HELPER_H */
