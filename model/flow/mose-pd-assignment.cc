/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-pd-assignment.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MosePdAssignment");

namespace
{

/// \return "(p, d)" for messages
std::string
PairText(const PdPair& pair)
{
    return "(" + std::to_string(pair.prefill) + ", " + std::to_string(pair.decode) + ")";
}

/// \return the role of a node as text, or "out of range" for an id >= N
std::string
RoleText(const RoleAssignment& roles, uint32_t node)
{
    if (node >= roles.GetN())
    {
        return "not a node (N = " + std::to_string(roles.GetN()) + ")";
    }
    return "a " + ToString(roles.Get(node)) + " group";
}

} // namespace

const std::vector<EnumEntry<PdAssignmentKind>>&
EnumTable<PdAssignmentKind>::Get()
{
    static const std::vector<EnumEntry<PdAssignmentKind>> names = {
        {PdAssignmentKind::ONE_TO_ONE, "one-to-one", {}},
        {PdAssignmentKind::MANY_TO_ONE, "many-to-one", {}},
    };
    return names;
}

PdAssignment::PdAssignment(std::vector<PdPair> pairs)
    : m_pairs(std::move(pairs))
{
    NS_LOG_FUNCTION(this << m_pairs.size());
}

PdAssignment
PdAssignment::Draw(const RoleAssignment& roles, PdAssignmentKind kind, uint32_t cap, Random& rng)
{
    NS_LOG_FUNCTION(roles.GetN() << ToString(kind) << cap << &rng);
    const std::vector<uint32_t>& prefill = roles.GetPrefill();
    const std::vector<uint32_t>& decode = roles.GetDecode();
    std::vector<PdPair> pairs;
    pairs.reserve(prefill.size());
    if (kind == PdAssignmentKind::ONE_TO_ONE)
    {
        if (prefill.size() != decode.size())
        {
            ThrowBadParameter(
                "assignment",
                "one-to-one",
                "a one-to-one assignment needs as many prefill as decode groups, got " +
                    std::to_string(prefill.size()) + " prefill and " +
                    std::to_string(decode.size()) + " decode groups; use many-to-one");
        }
        // A uniformly random perfect matching: prefill i (in id order) sends to the i-th decode
        // of a random permutation of the decodes.
        std::vector<uint32_t> perm = decode;
        rng.Shuffle(perm);
        for (std::size_t i = 0; i < prefill.size(); ++i)
        {
            pairs.push_back(PdPair{prefill[i], perm[i], 1.0});
        }
        NS_LOG_INFO("drew a one-to-one assignment: " << pairs.size() << " pairs");
        return PdAssignment(std::move(pairs));
    }

    if (cap == 0)
    {
        ThrowBadParameter("assignment cap",
                          "0",
                          "a many-to-one assignment needs cap >= 1 (the most prefill groups one "
                          "decode group may receive from)");
    }
    if (static_cast<uint64_t>(prefill.size()) > static_cast<uint64_t>(cap) * decode.size())
    {
        ThrowBadParameter("assignment",
                          "many-to-one",
                          "a many-to-one assignment with cap = " + std::to_string(cap) +
                              " needs prefill groups <= cap * decode groups, got " +
                              std::to_string(prefill.size()) + " prefill > " + std::to_string(cap) +
                              " * " + std::to_string(decode.size()) + " decode groups");
    }
    // `open` holds the decodes that have fewer than cap prefills so far, in an arbitrary order;
    // a full decode is removed by swapping it with the last entry, so every draw is O(1) and
    // uniform among the open decodes.
    std::vector<uint32_t> open = decode;
    std::vector<uint32_t> load(roles.GetN(), 0);
    for (uint32_t p : prefill)
    {
        uint32_t i = rng.Index(static_cast<uint32_t>(open.size()));
        uint32_t d = open[i];
        pairs.push_back(PdPair{p, d, 1.0});
        if (++load[d] == cap)
        {
            open[i] = open.back();
            open.pop_back();
        }
    }
    NS_LOG_INFO("drew a many-to-one assignment: "
                << pairs.size() << " pairs; " << decode.size() - open.size() << " of "
                << decode.size() << " decodes at the cap " << cap);
    return PdAssignment(std::move(pairs));
}

void
PdAssignment::Validate(const RoleAssignment& roles) const
{
    NS_LOG_FUNCTION(this << roles.GetN());
    for (const PdPair& pair : m_pairs)
    {
        if (pair.prefill >= roles.GetN() || roles.Get(pair.prefill) != GroupRole::PREFILL)
        {
            throw Error("invalid assignment pair " + PairText(pair) + ": its prefill end " +
                        std::to_string(pair.prefill) + " is " + RoleText(roles, pair.prefill) +
                        ", not a prefill group");
        }
        if (pair.decode >= roles.GetN() || roles.Get(pair.decode) != GroupRole::DECODE)
        {
            throw Error("invalid assignment pair " + PairText(pair) + ": its decode end " +
                        std::to_string(pair.decode) + " is " + RoleText(roles, pair.decode) +
                        ", not a decode group");
        }
        if (!(pair.weight > 0.0) || !std::isfinite(pair.weight))
        {
            std::ostringstream w;
            w << pair.weight;
            throw Error("invalid assignment pair " + PairText(pair) + ": weight = " + w.str() +
                        ", weights must be positive and finite");
        }
    }
    std::vector<std::pair<uint32_t, uint32_t>> keys;
    keys.reserve(m_pairs.size());
    for (const PdPair& pair : m_pairs)
    {
        keys.emplace_back(pair.prefill, pair.decode);
    }
    std::sort(keys.begin(), keys.end());
    auto dup = std::adjacent_find(keys.begin(), keys.end());
    if (dup != keys.end())
    {
        throw Error("invalid assignment pair (" + std::to_string(dup->first) + ", " +
                    std::to_string(dup->second) +
                    "): the pair is listed more than once; merge repeated pairs by adding "
                    "their weights");
    }
}

const std::vector<PdPair>&
PdAssignment::GetPairs() const
{
    return m_pairs;
}

double
PdAssignment::GetTotalWeight() const
{
    double total = 0.0;
    for (const PdPair& pair : m_pairs)
    {
        total += pair.weight;
    }
    return total;
}

} // namespace mose
} // namespace ns3
