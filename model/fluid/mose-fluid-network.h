/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLUID_NETWORK_H
#define MOSE_FLUID_NETWORK_H

#include <cstdint>
#include <limits>
#include <vector>

/**
 * \file
 * \ingroup mose-flow
 * \brief The fluid level's rate computation: directed links of a capacity, flows on paths of
 *        links, rates shared max-min fairly.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief A network of directed links shared by fluid flows at max-min fair rates.
 *
 * A flow has a path (a list of links) and bytes left; ComputeRates() gives every flow its
 * max-min fair rate (the unique allocation in which no flow can get more without taking from
 * a flow of equal or smaller rate), by progressive filling: the link with the smallest fair
 * share (capacity left / unfrozen flows crossing it) fixes the rate of its unfrozen flows,
 * which are removed with their rate from every link they cross, until no flow is left. Each
 * step takes the link from a binary heap keyed on the share; shares only grow as flows leave
 * a link, so a link's key is re-computed only when it reaches the top: one computation costs
 * O(H + K log L) for H flow-hops over L links and K heap moves (K <= L + the re-keyed tops).
 *
 * A weighted flow (AddFlow() with weights) is a bundle of flows that progress together: on the
 * link of hop k it stands for weights[k] flows at its rate, counting weights[k] times in the
 * share (capacity left / the weights of the unfrozen flows crossing it) and using weights[k] x
 * its rate. The fluid level's aggregated collectives are such bundles (FluidFabric).
 *
 * A flow with an empty path is held: it has no route (rate 0, not counted on any link) until
 * SetPath() gives it one. A link of capacity 0 (a dark circuit) gives every flow crossing it
 * rate 0. Advance() drains every flow's bytes at its rate; a flow whose bytes reach zero (within
 * CompletionSlack()) is complete and TakeCompleted() returns it.
 *
 * After removals only (completions), the flows slower than every removed flow keep their rates
 * and only the others are filled again (the rates are those of a full computation; see
 * ComputeRates()).
 *
 * Written by hand because neither Boost.Graph nor ns-3 has a max-min fair allocation (Boost's
 * flow algorithms maximise a single commodity's flow; ns-3 models packets).
 */
class FluidNetwork
{
  public:
    using LinkId = uint32_t; //!< a link's index, in AddLink() order
    using FlowId = uint32_t; //!< a flow's index (reused after RemoveFlow())

    /// "no flow"
    static constexpr FlowId NONE = std::numeric_limits<FlowId>::max();

    /**
     * \brief Adds a link.
     * \param capacity bytes per second (finite, >= 0; Error otherwise)
     * \return its id
     */
    LinkId AddLink(double capacity);

    /**
     * \brief Changes a link's capacity (takes effect at the next ComputeRates()).
     * \param link the link
     * \param capacity bytes per second (finite, >= 0)
     */
    void SetCapacity(LinkId link, double capacity);

    /// \param link the link \return its capacity (bytes per second)
    double GetCapacity(LinkId link) const;

    /// \return the number of links
    uint32_t GetNLinks() const;

    /**
     * \brief Adds a flow (rate 0 until the next ComputeRates()).
     * \param bytes its size (finite, > 0)
     * \param path the links it crosses, in order (empty: held, no route); each link once
     * \return its id
     */
    FlowId AddFlow(double bytes, const std::vector<LinkId>& path);

    /**
     * \brief Adds a weighted flow: a bundle of flows that progress together. On the link of hop
     *        k it stands for weights[k] flows (a real number > 0), each at the flow's rate, so
     *        it uses weights[k] x its rate of that link and counts weights[k] times in the
     *        link's fair share (weighted max-min fairness); its bytes are one member's bytes.
     *        With every weight 1 it is AddFlow(bytes, path).
     * \param bytes one member's size (finite, > 0)
     * \param path the links it crosses, in order (empty: held); each link once
     * \param weights per hop, finite and > 0, as many as the path's links
     * \return its id
     */
    FlowId AddFlow(double bytes,
                   const std::vector<LinkId>& path,
                   const std::vector<double>& weights);

    /**
     * \brief Gives a flow a new path (a route change; empty: held).
     * \param flow the flow
     * \param path the links
     */
    void SetPath(FlowId flow, const std::vector<LinkId>& path);

    /**
     * \brief Gives a weighted flow a new path and weights (see the weighted AddFlow()).
     * \param flow the flow \param path the links \param weights per hop (> 0)
     */
    void SetPath(FlowId flow, const std::vector<LinkId>& path, const std::vector<double>& weights);

    /// \param flow an active flow \return its path (empty: held)
    const std::vector<LinkId>& GetPath(FlowId flow) const;

    /// \param flow an active flow \return its weights per hop (empty: 1 on every hop)
    const std::vector<double>& GetWeights(FlowId flow) const;

    /// \brief Removes a flow (complete or withdrawn); its id may be reused \param flow the flow
    void RemoveFlow(FlowId flow);

    /// \param flow a flow \return whether it is active (added, not removed)
    bool IsActive(FlowId flow) const;

    /// \return the number of active flows
    uint32_t GetNFlows() const;

    /// \brief Sets every active flow's max-min fair rate
    void ComputeRates();

    /// \param flow an active flow \return its rate (bytes per second) from the last ComputeRates()
    double GetRate(FlowId flow) const;

    /// \param flow an active flow \return its bytes left
    double GetRemaining(FlowId flow) const;

    /// \param link a link \return the rate the flows crossing it use of it (their rates times
    ///         their weights there)
    double GetLinkRate(LinkId link) const;

    /**
     * \brief Lets a time pass: every flow drains at its rate; flows whose bytes left fall to
     *        CompletionSlack() or below become complete (TakeCompleted()). O(completions x
     *        log F): a flow's bytes left are kept as (bytes, time) and computed when asked.
     * \param seconds the time (finite, >= 0)
     */
    void Advance(double seconds);

    /// \param link a link \return the bytes the flows crossing it have sent over it so far
    double GetLinkBytes(LinkId link) const;

    /**
     * \return the time in seconds until the first active, not complete flow with a rate above 0
     *         completes at the current rates (infinity if none)
     */
    double GetTimeToNextCompletion() const;

    /// \return the flows that became complete since the last call, in increasing id order
    ///         (they stay active, at their rates, until RemoveFlow())
    std::vector<FlowId> TakeCompleted();

    /// \return how many times ComputeRates() ran
    uint64_t GetNComputations() const;

    /**
     * \param rate a flow's rate (bytes per second)
     * \return the bytes a flow may have left and still count as complete: what it sends in
     *         half a nanosecond at its rate, plus 1e-6 bytes for the rounding of the sums
     */
    static double CompletionSlack(double rate);

  private:
    /// One flow
    struct FlowState
    {
        std::vector<LinkId> path;   //!< links crossed
        std::vector<uint32_t> slot; //!< per hop, its position in that link's flow list
        std::vector<double> weight; //!< per hop, the flows it stands for (empty: 1 on every hop)
        double remainingAt{0};      //!< bytes left at time `since`
        double since{0};            //!< when remainingAt was taken (network time, s)
        uint32_t version{0};        //!< bumped at every rate change (finish heap entries)
        double rate{0};             //!< bytes per second
        bool active{false};         //!< added, not removed
        bool complete{false};       //!< bytes left reached zero
        bool reported{false};       //!< TakeCompleted() returned it
    };

    /// \brief Puts a flow on the lists of its path's links
    void Attach(FlowId flow);
    /// \brief Takes a flow off the lists of its path's links
    void Detach(FlowId flow);
    /// \brief Throws unless the flow is active \param flow it \param who the caller
    void CheckFlow(FlowId flow, const char* who) const;
    /// \param f a flow \return its bytes left now
    double RemainingNow(const FlowState& f) const;
    /// \brief Adds delta times the hop's weight to the rate of every link of a flow's path
    ///        (banking their bytes first)
    void AddLinkRates(const FlowState& f, double delta);
    /// \brief Throws unless weights fit a path (as many, finite, > 0; empty: all 1)
    static void CheckWeights(const std::vector<LinkId>& path, const std::vector<double>& weights);

    /// \return the weight of hop k of a flow (inline: the rate computation's inner loops)
    static double WeightOf(const FlowState& f, std::size_t k)
    {
        return f.weight.empty() ? 1.0 : f.weight[k];
    }

    /// \brief Changes a flow's rate now (banking its bytes, renewing its finish time)
    void SetRate(FlowId id, double rate);
    /// \brief Empties a flow's state for a new flow or a free id, keeping its version
    static void Reset(FlowState& f);
    /// \brief Marks a flow id active or not in m_activeBits
    void SetActiveBit(FlowId id, bool active);

    /**
     * \brief Calls visit(id) for every active flow, in increasing id order (the order of the
     *        rate computation's sums, so that its rounding does not depend on the ids' history).
     *        Ids are reused, so the flows' table keeps its peak size (an all-to-all's parts);
     *        this walks the active ones only, 64 ids per word of m_activeBits.
     * \param visit the call
     */
    template <class Visit>
    void ForEachActive(Visit&& visit) const
    {
        for (std::size_t w = 0; w < m_activeBits.size(); ++w)
        {
            uint64_t bits = m_activeBits[w];
            while (bits != 0)
            {
                const auto bit = static_cast<FlowId>(__builtin_ctzll(bits));
                bits &= bits - 1;
                visit(static_cast<FlowId>(w * 64) + bit);
            }
        }
    }

    /// \brief Drops the stale entries (rate changed, flow removed or complete) of m_finish
    void CompactFinish() const;

    /**
     * \brief ComputeRates(), step 1: the capacity left on every link and the unfrozen flows'
     *        count and weight per link; with `partial`, the flows below keepBelow keep their
     *        rates (frozen) and the others' rates are added back to their links' capacity.
     * \param partial whether only flows were removed since the last computation
     * \param keepBelow the rate below which a flow keeps its rate (with `partial`)
     * \return the flows with a path that the filling has to fix
     */
    uint64_t PrepareFilling(bool partial, double keepBelow);
    /// \brief ComputeRates(), step 2: m_heap with a shared link's share, a flow's smallest
    ///        share over its lone links
    void BuildFillingHeap();
    /**
     * \brief ComputeRates(), step 3: the progressive filling; pops the bottleneck and fixes
     *        its unfrozen flows at its share into m_newRate until every flow is fixed.
     * \param unfrozenFlows the flows to fix (PrepareFilling())
     */
    void FillRates(uint64_t unfrozenFlows);
    /**
     * \brief Fixes a flow at a share and takes it off its links' unfrozen counts and weights.
     * \param fid the flow \param share its rate \param unfrozenFlows the count, decremented
     */
    void FreezeFlow(FlowId fid, double share, uint64_t& unfrozenFlows);

    /// A flow's finish time at its rate when the entry was made
    struct FinishEntry
    {
        double at;        //!< network time (s)
        FlowId flow;      //!< the flow
        uint32_t version; //!< the flow's version then (stale if it changed)

        /// \return whether this finishes after o
        bool operator>(const FinishEntry& o) const
        {
            return at > o.at || (at == o.at && flow > o.flow);
        }
    };

    std::vector<double> m_capacity;               //!< per link
    std::vector<std::vector<FlowId>> m_linkFlows; //!< per link, the flows crossing it
    std::vector<FlowState> m_flows;               //!< per flow id
    std::vector<FlowId> m_free;                   //!< ids to reuse
    uint32_t m_active{0};                         //!< active flows
    std::vector<uint64_t> m_activeBits;           //!< bit id set: flow id active
    uint64_t m_computations{0};                   //!< ComputeRates() calls
    /// flows were added or rerouted, or capacities changed, since the last computation
    bool m_fullRecompute{true};
    /// the smallest rate of a flow removed since the last computation (infinity: none)
    double m_removedMinRate{std::numeric_limits<double>::infinity()};
    std::vector<FlowId> m_completed;           //!< complete, not yet reported
    double m_time{0};                          //!< network time (s): Advance()'s sum
    mutable std::vector<FinishEntry> m_finish; //!< min-heap of finish times (lazy)
    std::vector<double> m_linkRate;            //!< per link, the sum of its flows' rates
    std::vector<double> m_linkBytesAt;         //!< per link, bytes up to m_linkSince
    std::vector<double> m_linkSince;           //!< per link, when m_linkRate last changed
    std::vector<double> m_newRate;             //!< ComputeRates() scratch, per flow
    // scratch space of ComputeRates(), kept to avoid reallocation
    std::vector<double> m_left;           //!< per link, capacity not yet given
    std::vector<uint32_t> m_unfrozen;     //!< per link, flows without a rate yet
    std::vector<double> m_unfrozenWeight; //!< per link, the weights of those flows

    /// An entry of ComputeRates()' heap: a link and its key, a lower bound of its share
    struct HeapEntry
    {
        double key;    //!< the share when last keyed
        uint32_t link; //!< the link
    };

    std::vector<HeapEntry> m_heap; //!< links with unfrozen flows, a min-heap on the key

    /// \return whether a comes before b in m_heap: a smaller key, then a smaller link
    static bool HeapLess(const HeapEntry& a, const HeapEntry& b);
    /// \brief Moves entry i of m_heap down to its place \param i the entry
    void SiftDown(std::size_t i);
    /// \brief Removes the top of m_heap
    void PopHeapTop();
    std::vector<uint64_t> m_seen;  //!< Attach(): per link, the check that last saw it
    uint64_t m_check{0};           //!< Attach(): checks made
    std::vector<uint8_t> m_frozen; //!< per flow
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLUID_NETWORK_H */
