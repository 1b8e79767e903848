/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PLACEMENT_H
#define MOSE_PLACEMENT_H

#include "mose-circuit-graph.h"
#include "mose-roles.h"

#include "ns3/mose-parse.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-llm
 * \brief How an inference request is placed on a prefill and a decode group.
 */
enum class PlacementRule : uint8_t
{
    /// prefill and decode groups each in turn, in ascending id order, independently
    ROUND_ROBIN,
    /// the prefill and the decode group with the fewest outstanding tokens (lowest id on ties)
    LEAST_OUTSTANDING,
    /// the prefill group with the fewest outstanding tokens; then, among the decode groups with a
    /// direct circuit to it, the one with the fewest outstanding tokens (lowest id on ties); if
    /// none has a circuit to it, the decode group with the fewest outstanding tokens
    CIRCUIT_AWARE,
};

/// \ingroup mose-llm
/// Names of PlacementRule: "round-robin", "least-outstanding", "circuit-aware"; also rr,
/// least-loaded
template <>
struct EnumTable<PlacementRule>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<PlacementRule>>& Get();
};

/**
 * \ingroup mose-llm
 * \brief Where a request goes.
 */
struct RequestPlacement
{
    uint32_t prefill; //!< the prefill group that computes the KV cache
    uint32_t decode;  //!< the decode group that receives it
    /// true if a circuit of the current graph joins them (false when the placer has no graph)
    bool direct;
};

/**
 * \ingroup mose-llm
 * \brief Places inference requests on the prefill (P) and decode (D) groups of the current
 *        workload mode's roles; Simulator-free decision logic.
 *
 * The placer knows the current roles and, optionally, the current circuit graph. SetMode()
 * switches both at a mode boundary: from then on only the new mode's P and D groups are chosen.
 * The caller reports work: StartWork() when a group takes tokens to process (typically a
 * request's input tokens on its prefill group, its output tokens on its decode group),
 * FinishWork() when they are done. Outstanding tokens are kept per group id across mode
 * boundaries, so work still running on a group whose role changed finishes normally.
 *
 * Ties are always broken by the lowest group id, and round-robin walks the ascending id lists
 * of RoleAssignment::GetPrefill() and GetDecode(); SetMode() restarts both at their first group.
 * The same calls therefore give the same placements.
 */
class RequestPlacer
{
  public:
    /**
     * \param rule the placement rule
     * \param roles the current roles (at least one P and one D group)
     * \param graph the current circuit graph on the same N groups; required for CIRCUIT_AWARE,
     *        optional otherwise (it only sets RequestPlacement::direct)
     * Throws a mose::Error naming the parameter if the roles have no P or D group, the graph's N
     * differs from the roles', or CIRCUIT_AWARE has no graph.
     */
    RequestPlacer(PlacementRule rule,
                  const RoleAssignment& roles,
                  std::shared_ptr<const CircuitGraph> graph = nullptr);

    /**
     * \brief Switches to a new mode's roles and circuit graph (a mode boundary).
     * \param roles the new roles, on the same N groups
     * \param graph the new circuit graph (required for CIRCUIT_AWARE)
     * Throws a mose::Error as the constructor does, and if N changes; a call that throws changes
     * nothing.
     */
    void SetMode(const RoleAssignment& roles, std::shared_ptr<const CircuitGraph> graph = nullptr);

    /**
     * \brief Chooses the groups for the next request by the rule. It does not record any work:
     *        call StartWork() for what the request puts on each group.
     * \return the placement
     */
    RequestPlacement Place();

    /**
     * \brief Records tokens a group starts processing.
     * \param group a group id (< N)
     * \param tokens the tokens
     * Throws a mose::Error for a group id out of range or a 64-bit overflow.
     */
    void StartWork(uint32_t group, uint64_t tokens);

    /**
     * \brief Records tokens a group has finished.
     * \param group a group id (< N)
     * \param tokens the tokens, at most its outstanding tokens
     * Throws a mose::Error for a group id out of range or more tokens than are outstanding.
     */
    void FinishWork(uint32_t group, uint64_t tokens);

    /// \param group a group id (< N) \return its outstanding tokens
    uint64_t GetOutstanding(uint32_t group) const;

    /// \return the rule
    PlacementRule GetRule() const;

    /// \return the current roles
    const RoleAssignment& GetRoles() const;

    /// \return the current circuit graph (may be null)
    std::shared_ptr<const CircuitGraph> GetGraph() const;

  private:
    /// \brief Throws a mose::Error unless roles and graph fit the rule (and N, once set)
    void Check(const RoleAssignment& roles, const std::shared_ptr<const CircuitGraph>& graph) const;
    /// \brief Throws a mose::Error unless the group id is below N
    void CheckGroup(uint32_t group, const char* method) const;
    /// \return the group of the list with the fewest outstanding tokens, lowest id on ties
    uint32_t LeastOutstanding(const std::vector<uint32_t>& groups) const;

    PlacementRule m_rule;                        //!< the rule
    RoleAssignment m_roles;                      //!< current roles
    std::shared_ptr<const CircuitGraph> m_graph; //!< current circuit graph (may be null)
    std::vector<uint64_t> m_outstanding;         //!< outstanding tokens per group id
    std::size_t m_nextPrefill{0};                //!< round-robin position in GetPrefill()
    std::size_t m_nextDecode{0};                 //!< round-robin position in GetDecode()
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_PLACEMENT_H */
