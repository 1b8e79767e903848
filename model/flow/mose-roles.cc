/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-roles.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseRoles");

const std::vector<EnumEntry<GroupRole>>&
EnumTable<GroupRole>::Get()
{
    static const std::vector<EnumEntry<GroupRole>> names = {
        {GroupRole::PREFILL, "prefill", {"P"}},
        {GroupRole::DECODE, "decode", {"D"}},
        {GroupRole::TRAINING, "training", {"T", "train"}},
    };
    return names;
}

const std::vector<EnumEntry<WorkloadMode>>&
EnumTable<WorkloadMode>::Get()
{
    static const std::vector<EnumEntry<WorkloadMode>> names = {
        {WorkloadMode::INFERENCE_HEAVY, "inference-heavy", {"inference"}},
        {WorkloadMode::TRAINING_HEAVY, "training-heavy", {"training"}},
    };
    return names;
}

const std::vector<EnumEntry<RoleTransition>>&
EnumTable<RoleTransition>::Get()
{
    static const std::vector<EnumEntry<RoleTransition>> names = {
        {RoleTransition::SWAP, "swap", {}},
        {RoleTransition::NESTED, "nested", {}},
    };
    return names;
}

uint64_t
RoleCounts::Total() const
{
    return static_cast<uint64_t>(prefill) + decode + training;
}

RoleCounts
RoleCounts::InferenceHeavyDefault()
{
    return RoleCounts{410, 410, 204};
}

RoleCounts
RoleCounts::TrainingHeavyDefault()
{
    return RoleCounts{102, 102, 820};
}

RoleCounts
RoleCounts::PaperScaled(uint32_t nodes, WorkloadMode mode)
{
    NS_LOG_FUNCTION(nodes << ToString(mode));
    const uint64_t share = mode == WorkloadMode::INFERENCE_HEAVY ? 410 : 102;
    const auto pd = static_cast<uint32_t>(static_cast<uint64_t>(nodes) * share / 1024);
    NS_LOG_LOGIC(ToString(mode) << " on " << nodes << " groups: " << pd << " P + " << pd << " D + "
                                << nodes - 2 * pd << " T");
    if (pd == 0 && nodes > 0)
    {
        NS_LOG_WARN(nodes << " groups are too few for the paper's " << ToString(mode)
                          << " shares: no prefill and no decode group");
    }
    return RoleCounts{pd, pd, nodes - 2 * pd};
}

void
RoleCounts::Validate(uint32_t nodes, const std::string& name) const
{
    NS_LOG_FUNCTION(this << nodes << name);
    if (Total() != nodes)
    {
        ThrowBadParameter(name + " role counts",
                          std::to_string(prefill) + " P + " + std::to_string(decode) + " D + " +
                              std::to_string(training) + " T = " + std::to_string(Total()),
                          "the counts must sum to the number of groups N = " +
                              std::to_string(nodes));
    }
}

RoleAssignment::RoleAssignment(std::vector<GroupRole> roles)
    : m_roles(std::move(roles))
{
    NS_LOG_FUNCTION(this << m_roles.size());
    for (uint32_t v = 0; v < m_roles.size(); ++v)
    {
        switch (m_roles[v])
        {
        case GroupRole::PREFILL:
            m_prefill.push_back(v);
            break;
        case GroupRole::DECODE:
            m_decode.push_back(v);
            break;
        case GroupRole::TRAINING:
            m_training.push_back(v);
            break;
        }
    }
    NS_LOG_LOGIC(m_prefill.size() << " P + " << m_decode.size() << " D + " << m_training.size()
                                  << " T");
}

RoleAssignment
RoleAssignment::Contiguous(const RoleCounts& counts)
{
    NS_LOG_FUNCTION(counts.prefill << counts.decode << counts.training);
    if (counts.Total() > UINT32_MAX)
    {
        ThrowBadParameter("role counts",
                          std::to_string(counts.Total()),
                          "the total must fit 32 bits");
    }
    std::vector<GroupRole> roles;
    roles.reserve(counts.Total());
    roles.insert(roles.end(), counts.prefill, GroupRole::PREFILL);
    roles.insert(roles.end(), counts.decode, GroupRole::DECODE);
    roles.insert(roles.end(), counts.training, GroupRole::TRAINING);
    return RoleAssignment(std::move(roles));
}

RoleAssignment
RoleAssignment::Transition(const RoleCounts& to, RoleTransition transition, Random& rng) const
{
    NS_LOG_FUNCTION(this << to.prefill << to.decode << to.training << ToString(transition) << &rng);
    to.Validate(GetN(), "next mode's");
    std::vector<GroupRole> roles(GetN(), GroupRole::TRAINING);
    auto place = [&roles](const std::vector<uint32_t>& pool,
                          uint32_t first,
                          uint32_t count,
                          GroupRole role) {
        for (uint32_t i = first; i < first + count; ++i)
        {
            roles[pool[i]] = role;
        }
    };
    if (transition == RoleTransition::SWAP)
    {
        if (static_cast<uint64_t>(to.prefill) + to.decode > m_training.size())
        {
            ThrowBadParameter("roleTransition",
                              "swap",
                              "swap needs the next mode's P + D = " +
                                  std::to_string(static_cast<uint64_t>(to.prefill) + to.decode) +
                                  " groups to fit in the " + std::to_string(m_training.size()) +
                                  " current training groups; use nested or change the counts");
        }
        NS_LOG_INFO("swap: " << to.prefill << " P + " << to.decode << " D drawn from the "
                             << m_training.size() << " training groups, the "
                             << m_prefill.size() + m_decode.size()
                             << " current P and D groups become training");
        std::vector<uint32_t> pool = m_training;
        rng.Shuffle(pool);
        place(pool, 0, to.prefill, GroupRole::PREFILL);
        place(pool, to.prefill, to.decode, GroupRole::DECODE);
    }
    else
    {
        if (to.prefill > m_prefill.size() || to.decode > m_decode.size())
        {
            ThrowBadParameter(
                "roleTransition",
                "nested",
                "nested needs the next mode's P <= " + std::to_string(m_prefill.size()) +
                    " and D <= " + std::to_string(m_decode.size()) + ", got P = " +
                    std::to_string(to.prefill) + " and D = " + std::to_string(to.decode));
        }
        NS_LOG_INFO("nested: " << to.prefill << " of " << m_prefill.size() << " P and " << to.decode
                               << " of " << m_decode.size()
                               << " D keep their role, the rest become training");
        std::vector<uint32_t> p = m_prefill;
        std::vector<uint32_t> d = m_decode;
        rng.Shuffle(p);
        rng.Shuffle(d);
        place(p, 0, to.prefill, GroupRole::PREFILL);
        place(d, 0, to.decode, GroupRole::DECODE);
    }
    return RoleAssignment(std::move(roles));
}

uint32_t
RoleAssignment::GetN() const
{
    return static_cast<uint32_t>(m_roles.size());
}

GroupRole
RoleAssignment::Get(uint32_t node) const
{
    return m_roles.at(node);
}

const std::vector<GroupRole>&
RoleAssignment::GetRoles() const
{
    return m_roles;
}

const std::vector<uint32_t>&
RoleAssignment::GetPrefill() const
{
    return m_prefill;
}

const std::vector<uint32_t>&
RoleAssignment::GetDecode() const
{
    return m_decode;
}

const std::vector<uint32_t>&
RoleAssignment::GetTraining() const
{
    return m_training;
}

RoleCounts
RoleAssignment::GetCounts() const
{
    return RoleCounts{static_cast<uint32_t>(m_prefill.size()),
                      static_cast<uint32_t>(m_decode.size()),
                      static_cast<uint32_t>(m_training.size())};
}

bool
RoleAssignment::IsPd(uint32_t node) const
{
    return m_roles.at(node) != GroupRole::TRAINING;
}

} // namespace mose
} // namespace ns3
