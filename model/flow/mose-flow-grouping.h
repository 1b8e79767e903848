/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_GROUPING_H
#define MOSE_FLOW_GROUPING_H

#include "mose-traffic.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief All flows of one (source, destination) pair, per class: the unit the flow-level
 *        evaluation routes (every flow of a pair takes the same path, or the same ECMP split).
 */
struct PairDemand
{
    uint32_t src{0};           //!< source
    uint32_t dst{0};           //!< destination
    uint32_t firstFlow{0};     //!< index of the pair's first flow (for error messages)
    uint32_t hops{0};          //!< distance from src to dst (set by the destination sweep)
    double demandKv{0};        //!< summed KV demand
    double demandTraining{0};  //!< summed training demand
    uint32_t countKv{0};       //!< number of KV flows (fits: at most 2^32 - 2 flows)
    uint32_t countTraining{0}; //!< number of training flows
    double cost{0};            //!< load-aware cost from src to dst (set by the cost pass)
};

/**
 * \ingroup mose-flow
 * \brief One destination's run of pairs in FlowGroups::pairs.
 */
struct DestinationRun
{
    uint32_t destination{0}; //!< t
    std::size_t begin{0};    //!< first pair
    std::size_t end{0};      //!< one past the last pair
};

/**
 * \ingroup mose-flow
 * \brief One flow as GroupFlowsByDestination() lays it out, by destination.
 *
 * 16 bytes: the class is the sign of the stored demand (demands are positive), so that the
 * grouping's scatter and read touch a third fewer cache lines than with a separate class field.
 */
struct SortedFlow
{
    /// the demand, negated for a training flow (see Demand() and Class())
    double signedDemand{0};
    uint32_t flow{0}; //!< its index in the flow vector
    uint32_t src{0};  //!< its source

    /**
     * \param demand the flow's demand (positive)
     * \param index its index in the flow vector
     * \param source its source
     * \param cls its class
     * \return the sorted flow
     */
    static SortedFlow Make(double demand, uint32_t index, uint32_t source, TrafficClass cls)
    {
        return SortedFlow{cls == TrafficClass::TRAINING ? -demand : demand, index, source};
    }

    /// \return the flow's demand
    double Demand() const
    {
        return signedDemand < 0 ? -signedDemand : signedDemand;
    }

    /// \return the flow's class
    TrafficClass Class() const
    {
        return signedDemand < 0 ? TrafficClass::TRAINING : TrafficClass::KV;
    }
};

/**
 * \ingroup mose-flow
 * \brief The flows grouped by destination and aggregated per (source, destination) pair.
 */
struct FlowGroups
{
    /// the pairs, destination by destination in increasing destination id; within a
    /// destination, in the order of each pair's first flow
    std::vector<PairDemand> pairs;
    /// one run per destination with flows, in increasing destination id
    std::vector<DestinationRun> runs;
    /// per flow, the index of its pair (empty unless asked for)
    std::vector<uint32_t> flowPair;
    /// the flows sorted by destination (stable: flow order within a destination)
    std::vector<SortedFlow> byDestination;
};

/**
 * \ingroup mose-flow
 * \brief Checks every flow: endpoints < n and different, demand positive and finite, class KV
 *        or training, and at most 2^32 - 2 flows.
 *
 * Throws a mose::Error naming the first malformed flow's index.
 * \param flows the flows
 * \param n the number of nodes
 */
void ValidateFlows(const std::vector<Flow>& flows, uint32_t n);

/**
 * \ingroup mose-flow
 * \brief Checks the flows as ValidateFlows() does (the same errors), groups them by
 *        destination and aggregates them per pair.
 *
 * A counting sort by destination (stable; its counting pass checks each flow), then a dense
 * per-source slot stamped by the destination: O(F + N) time, no comparison sort.
 * \param flows the flows
 * \param n the number of nodes
 * \param flowPair whether to fill FlowGroups::flowPair
 * \param groups filled in (its storage is reused: grouping into the same FlowGroups again
 *        allocates nothing once it is large enough)
 */
void GroupFlowsByDestination(const std::vector<Flow>& flows,
                             uint32_t n,
                             bool flowPair,
                             FlowGroups& groups);

/**
 * \ingroup mose-flow
 * \brief Throws the Error of a malformed flow.
 * \param index the flow's index
 * \param problem what is wrong with it
 */
[[noreturn]] void ThrowBadFlow(std::size_t index, const std::string& problem);

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLOW_GROUPING_H */
