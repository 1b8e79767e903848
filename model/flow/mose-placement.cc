/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-placement.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <limits>
#include <string>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MosePlacement");

const std::vector<EnumEntry<PlacementRule>>&
EnumTable<PlacementRule>::Get()
{
    static const std::vector<EnumEntry<PlacementRule>> names = {
        {PlacementRule::ROUND_ROBIN, "round-robin", {"rr"}},
        {PlacementRule::LEAST_OUTSTANDING, "least-outstanding", {"least-loaded"}},
        {PlacementRule::CIRCUIT_AWARE, "circuit-aware", {}},
    };
    return names;
}

RequestPlacer::RequestPlacer(PlacementRule rule,
                             const RoleAssignment& roles,
                             std::shared_ptr<const CircuitGraph> graph)
    : m_rule(rule)
{
    NS_LOG_FUNCTION(this << ToString(rule) << roles.GetN() << graph.get());
    Check(roles, graph);
    m_roles = roles;
    m_graph = std::move(graph);
    m_outstanding.assign(roles.GetN(), 0);
}

void
RequestPlacer::Check(const RoleAssignment& roles,
                     const std::shared_ptr<const CircuitGraph>& graph) const
{
    if (roles.GetPrefill().empty() || roles.GetDecode().empty())
    {
        const RoleCounts c = roles.GetCounts();
        ThrowBadParameter("roles",
                          std::to_string(c.prefill) + " prefill and " + std::to_string(c.decode) +
                              " decode group(s)",
                          "placing requests needs at least one prefill and one decode group");
    }
    if (!m_outstanding.empty() && roles.GetN() != m_outstanding.size())
    {
        ThrowBadParameter("roles",
                          std::to_string(roles.GetN()) + " groups",
                          "the same N = " + std::to_string(m_outstanding.size()) +
                              " groups in every mode");
    }
    if (graph && graph->GetNNodes() != roles.GetN())
    {
        ThrowBadParameter("graph",
                          std::to_string(graph->GetNNodes()) + " groups",
                          "a circuit graph on the roles' N = " + std::to_string(roles.GetN()) +
                              " groups");
    }
    if (!graph && m_rule == PlacementRule::CIRCUIT_AWARE)
    {
        ThrowBadParameter("graph",
                          "none",
                          "the circuit-aware placement rule needs the current circuit graph");
    }
}

void
RequestPlacer::SetMode(const RoleAssignment& roles, std::shared_ptr<const CircuitGraph> graph)
{
    NS_LOG_FUNCTION(this << roles.GetN() << graph.get());
    Check(roles, graph);
    m_roles = roles;
    m_graph = std::move(graph);
    m_nextPrefill = 0;
    m_nextDecode = 0;
    NS_LOG_INFO("placement now over " << m_roles.GetPrefill().size() << " prefill and "
                                      << m_roles.GetDecode().size() << " decode groups");
}

uint32_t
RequestPlacer::LeastOutstanding(const std::vector<uint32_t>& groups) const
{
    uint32_t best = groups.front();
    for (uint32_t g : groups)
    {
        // strict comparison: the first (lowest) id wins a tie, the lists being ascending
        if (m_outstanding[g] < m_outstanding[best])
        {
            best = g;
        }
    }
    return best;
}

RequestPlacement
RequestPlacer::Place()
{
    NS_LOG_FUNCTION(this);
    const std::vector<uint32_t>& prefill = m_roles.GetPrefill();
    const std::vector<uint32_t>& decode = m_roles.GetDecode();
    RequestPlacement p{0, 0, false};
    switch (m_rule)
    {
    case PlacementRule::ROUND_ROBIN:
        p.prefill = prefill[m_nextPrefill];
        p.decode = decode[m_nextDecode];
        m_nextPrefill = (m_nextPrefill + 1) % prefill.size();
        m_nextDecode = (m_nextDecode + 1) % decode.size();
        break;
    case PlacementRule::LEAST_OUTSTANDING:
        p.prefill = LeastOutstanding(prefill);
        p.decode = LeastOutstanding(decode);
        break;
    case PlacementRule::CIRCUIT_AWARE: {
        p.prefill = LeastOutstanding(prefill);
        bool found = false;
        for (uint32_t v : m_graph->GetNeighbours(p.prefill))
        {
            if (m_roles.Get(v) != GroupRole::DECODE)
            {
                continue;
            }
            // neighbours come in ascending id order: strict comparison keeps the lowest id
            if (!found || m_outstanding[v] < m_outstanding[p.decode])
            {
                p.decode = v;
                found = true;
            }
        }
        if (!found)
        {
            p.decode = LeastOutstanding(decode);
        }
        break;
    }
    }
    p.direct = m_graph && m_graph->HasCircuit(p.prefill, p.decode);
    NS_LOG_LOGIC("placed on prefill " << p.prefill << ", decode " << p.decode
                                      << (p.direct ? " (direct circuit)" : ""));
    return p;
}

void
RequestPlacer::CheckGroup(uint32_t group, const char* method) const
{
    if (group >= m_outstanding.size())
    {
        ThrowBadParameter(std::string(method) + " group",
                          std::to_string(group),
                          "a group id below N = " + std::to_string(m_outstanding.size()));
    }
}

void
RequestPlacer::StartWork(uint32_t group, uint64_t tokens)
{
    NS_LOG_FUNCTION(this << group << tokens);
    CheckGroup(group, "StartWork");
    if (tokens > std::numeric_limits<uint64_t>::max() - m_outstanding[group])
    {
        ThrowBadParameter("StartWork tokens",
                          std::to_string(tokens),
                          "outstanding tokens within 64 bits: group " + std::to_string(group) +
                              " has " + std::to_string(m_outstanding[group]));
    }
    m_outstanding[group] += tokens;
}

void
RequestPlacer::FinishWork(uint32_t group, uint64_t tokens)
{
    NS_LOG_FUNCTION(this << group << tokens);
    CheckGroup(group, "FinishWork");
    if (tokens > m_outstanding[group])
    {
        ThrowBadParameter("FinishWork tokens",
                          std::to_string(tokens),
                          "at most the " + std::to_string(m_outstanding[group]) +
                              " tokens outstanding on group " + std::to_string(group));
    }
    m_outstanding[group] -= tokens;
}

uint64_t
RequestPlacer::GetOutstanding(uint32_t group) const
{
    CheckGroup(group, "GetOutstanding");
    return m_outstanding[group];
}

PlacementRule
RequestPlacer::GetRule() const
{
    return m_rule;
}

const RoleAssignment&
RequestPlacer::GetRoles() const
{
    return m_roles;
}

std::shared_ptr<const CircuitGraph>
RequestPlacer::GetGraph() const
{
    return m_graph;
}

} // namespace mose
} // namespace ns3
