/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_BREAK_EVEN_H
#define MOSE_BREAK_EVEN_H

#include "mose-metrics.h"
#include "mose-mode-schedule.h"
#include "mose-policy.h"
#include "mose-roles.h"

#include "ns3/mose-parse.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/**
 * \file
 * \ingroup mose-flow
 * When switching pays: the flow-level cost of a policy integrated over a schedule of workload
 * modes, with a penalty for every reconfiguration, and the mode duration at which a switching
 * policy (MoSE) breaks even with a static one. Pure computation: no Simulator, no randomness.
 *
 * The model (doc/mose.rst, "When switching pays"):
 * - a policy p in mode m has a cost rate c(p, m): a flow-level metric (Metric) of the
 *   graph p uses in m under m's traffic, charged per unit of time;
 * - a schedule is a list of periods (m_k, T_k), T_k in seconds; the fabric starts in the first
 *   period's graph, so the first period has no switch;
 * - period k > 0 is a *switch* of p when m_k != m_{k-1} and p's graph in m_k differs from its
 *   graph in m_{k-1} (PolicyCostRates::switchesInto); a static policy never switches;
 * - a switch into mode m costs the penalty
 *       P(p, m) = darkTime * u(p, m) * unservedFactor * c(p, m),
 *   where u(p, m) is the share of m's traffic not served while the circuits the switch adds are
 *   dark (PolicyCostRates::unservedShare, or SwitchCostParameters::unservedShare when set);
 * - the integrated cost is C(p) = sum_k c(p, m_k) T_k + sum over switches P(p, m_k).
 *
 * Alternating schedule with equal durations T (one period per mode per cycle, two switches per
 * cycle in steady state): a cycle costs T * R(p) + Q(p), with R(p) = sum_m c(p, m) and
 * Q(p) = sum_m P(p, m) (CycleCost). A switching policy a equals a policy b after
 *       T* = (Q(a) - Q(b)) / (R(b) - R(a))
 * per mode; for T > T* a is cheaper. a never pays when R(a) >= R(b) (its rate is not lower over
 * a cycle), and always pays when R(a) < R(b) and Q(a) <= Q(b) (ComputeBreakEven()).
 */

namespace ns3
{
namespace mose
{

/// \ingroup mose-flow
/// The metrics a switch cost can charge per unit of time as a policy's cost rate: over all
/// traffic, lower is better
constexpr std::array<Metric, 5> SWITCH_COST_METRICS = {Metric::AVG_COST,
                                                       Metric::P95_COST,
                                                       Metric::MAX_LOAD,
                                                       Metric::P95_LOAD,
                                                       Metric::AVG_HOP};

/// \ingroup mose-flow
/// \return the switch-cost metrics for a message: "avg_cost, p95_cost, max_load, p95_load and
///         avg_hop (any letter case; also avg-cost, ...)"
std::string AllowedSwitchCostMetrics();

/**
 * \ingroup mose-flow
 * \param text a name of one of SWITCH_COST_METRICS (any letter case, '-' or '_')
 * \param parameter the option's name, for the message
 * \return the metric; a mose::Error names the parameter, the text and the allowed names
 */
Metric ParseSwitchCostMetric(std::string_view text, const std::string& parameter);

/**
 * \ingroup mose-flow
 * \param m the metrics of one evaluation
 * \param metric one of SWITCH_COST_METRICS (another is a mose::Error)
 * \return the metric's value, the cost rate of that evaluation
 */
double GetSwitchCostRate(const FlowMetrics& m, Metric metric);

/**
 * \ingroup mose-flow
 * \brief The parameters of the switch penalty.
 */
struct SwitchCostParameters
{
    /// seconds a re-paired circuit is dark at a switch; 25 ms is an assumed MEMS OCS
    /// reconfiguration time, not a measured one
    double darkTime{0.025};
    /// cost rate of unserved traffic per unit of the policy's cost rate in the new mode: 1 means
    /// traffic that waits costs what it costs when served
    double unservedFactor{1.0};
    /// if set, the unserved share of every switch (e.g. 1: the whole fabric is dark), instead of
    /// PolicyCostRates::unservedShare; a policy that does not switch still pays nothing
    std::optional<double> unservedShare;

    /// The option that gave a field and its text as typed, for messages
    struct Option
    {
        std::string name; //!< the option, with dashes ("--darkTime")
        std::string text; //!< its text as typed ("25 ms")
    };

    /// the option of darkTime, if one gave it (messages name it instead of "dark time")
    std::optional<Option> darkTimeOption;
    /// the option of unservedFactor, if one gave it
    std::optional<Option> unservedFactorOption;
    /// the option of unservedShare, if one gave it
    std::optional<Option> unservedShareOption;

    /**
     * \brief Throws a mose::Error unless darkTime and unservedFactor are finite and >= 0 and
     *        unservedShare (if set) is in [0, 1]. The message names the field's option and its
     *        text as typed ("invalid --unservedFactor = "-2": ..."), or, for a field no option
     *        gave, "dark time", "unserved factor" or "unserved share" and the value.
     */
    void Validate() const;
};

/**
 * \ingroup mose-flow
 * \brief What the model needs of one policy (of one seed): its cost rate in each mode, whether
 *        entering each mode from the other changes its graph, and the share of the traffic
 *        left unserved by that switch. Arrays are indexed in ALL_MODES order
 *        (static_cast<std::size_t>(mode)).
 */
struct PolicyCostRates
{
    std::array<double, 2> rate{0, 0};               //!< c(p, m): finite, >= 0
    std::array<bool, 2> switchesInto{false, false}; //!< entering m from the other mode switches
    std::array<double, 2> unservedShare{0, 0};      //!< u(p, m) in [0, 1] (used when switching)

    /**
     * \brief Throws a mose::Error naming "cost rate" or "unserved share" and the mode unless every
     *        rate is finite and >= 0 and every share is in [0, 1].
     */
    void Validate() const;
};

/**
 * \ingroup mose-flow
 * \brief An upper bound of every cost rate of a study whose flows are drawn (unit demand): a
 *        circuit's load is at most the F flows of the mode, a shortest path has at most N - 1
 *        circuits, so the load-aware cost, the loads and the hop count are at most (N - 1) F.
 * \param nodes N \param flows F per mode
 * \return (N - 1) F, at least 1
 */
double MaxDrawnCostRate(uint32_t nodes, uint64_t flows);

/**
 * \ingroup mose-flow
 * \brief The largest penalty of a cycle's two switches for cost rates up to maxRate (unserved
 *        share 1 unless params fixes it), to check before a study that the penalties stay
 *        finite.
 * \param params the switch cost parameters \param maxRate the largest cost rate
 * \return 2 x darkTime x share x unservedFactor x maxRate (inf if it leaves a double's range)
 */
double MaxCyclePenalty(const SwitchCostParameters& params, double maxRate);

/**
 * \ingroup mose-flow
 * \brief The penalty of a switch into a mode.
 * \param p the policy's rates (validated)
 * \param entered the mode entered
 * \param params the parameters (validated)
 * \return darkTime * u * unservedFactor * c(p, entered) if p switches into that mode, else 0
 */
double SwitchPenalty(const PolicyCostRates& p,
                     WorkloadMode entered,
                     const SwitchCostParameters& params);

/**
 * \ingroup mose-flow
 * \brief A policy's cost integrated over a schedule.
 */
struct ScheduleCost
{
    double duration{0};   //!< sum of T_k, seconds
    double servedCost{0}; //!< sum_k c(p, m_k) T_k
    uint32_t switches{0}; //!< periods that are a switch of p
    double penalty{0};    //!< sum of the switches' penalties
    double total{0};      //!< servedCost + penalty

    /// \return total / duration, the integrated cost per unit of time
    double PerUnitTime() const;
};

/**
 * \ingroup mose-flow
 * \brief Integrates a policy's cost over a schedule (see the file's model).
 * \param p the policy's rates (validated: Error)
 * \param schedule the periods (ValidateSchedule() with parameter "schedule")
 * \param params the parameters (validated)
 * \return the integrated cost
 */
ScheduleCost IntegrateSchedule(const PolicyCostRates& p,
                               const ModeSchedule& schedule,
                               const SwitchCostParameters& params);

/**
 * \ingroup mose-flow
 * \brief One cycle of the alternating schedule with equal durations T: it costs
 *        T * rateSum + penaltySum. Linear in the rates and penalties, so the mean over seeds
 *        of CycleCost is the CycleCost of the mean cost.
 */
struct CycleCost
{
    double rateSum{0};    //!< R(p) = sum over modes of c(p, m)
    double penaltySum{0}; //!< Q(p) = sum over modes of SwitchPenalty(p, m)

    /**
     * \param duration T, seconds (> 0)
     * \return (T R + Q) / (2 T), the integrated cost per unit of time of the alternating
     *         schedule with mode duration T
     */
    double PerUnitTime(double duration) const;
};

/**
 * \ingroup mose-flow
 * \param p the policy's rates (validated)
 * \param params the parameters (validated)
 * \return the policy's cycle cost under the alternating schedule
 */
CycleCost ComputeCycleCost(const PolicyCostRates& p, const SwitchCostParameters& params);

/**
 * \ingroup mose-flow
 * \brief Where a switching policy breaks even with another under the alternating schedule.
 */
struct BreakEven
{
    /// the three outcomes
    enum Kind : uint8_t
    {
        AT,     //!< the switching policy is cheaper for mode durations above duration
        ALWAYS, //!< cheaper for every T > 0 (its rate is lower and its penalties are not higher)
        NEVER,  //!< never cheaper: its rate over a cycle is not lower
    };

    Kind kind{NEVER};       //!< the outcome
    double duration{0};     //!< T* in seconds (AT only; 0 for ALWAYS, +inf for NEVER)
    double rateSaving{0};   //!< R(other) - R(switching), cost per unit of time over a cycle
    double extraPenalty{0}; //!< Q(switching) - Q(other), penalties per cycle

    /// \return "1234.5 s", "always" or "never"
    std::string ToText() const;
};

/**
 * \ingroup mose-flow
 * \brief The mode duration at which the alternating schedule costs a switching policy as much
 *        as another policy: T* = (Q(a) - Q(b)) / (R(b) - R(a)).
 * \param switching a's cycle cost (finite)
 * \param other b's cycle cost (finite)
 * \return NEVER when R(a) >= R(b); ALWAYS when R(a) < R(b) and Q(a) <= Q(b); otherwise AT T*
 */
BreakEven ComputeBreakEven(const CycleCost& switching, const CycleCost& other);

/**
 * \ingroup mose-flow
 * \brief The share of a graph's total circuit load that lies on given circuits: the unserved
 *        share u of a switch whose added circuits are dark, O(E log E).
 *
 * Circuits are a multiset of group pairs (as DiffCircuits() lists them). When a pair is joined
 * by k parallel circuits of which a are listed, a / k of the pair's summed load counts, since
 * the pair's copies are indistinguishable as group pairs.
 * \param graph the graph after the switch
 * \param load per circuit of graph (GetCircuits() order), FlowMetrics::load: finite, >= 0, and
 *        graph.GetNCircuits() entries (Error naming "load" otherwise)
 * \param circuits the circuits, e.g. DiffCircuits(before, graph).added; each must be in graph,
 *        with no more copies than graph has (Error naming "circuits" otherwise)
 * \return their share of the total load in [0, 1]; 0 when the total load is 0
 */
double LoadShareOfCircuits(const CircuitGraph& graph,
                           const std::vector<double>& load,
                           const std::vector<Circuit>& circuits);

} // namespace mose
} // namespace ns3

#endif /* MOSE_BREAK_EVEN_H */
