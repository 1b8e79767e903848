/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \brief libFuzzer target for the mose file readers (model/flow/mose-file-io.h).
 *
 * Input layout: byte 0 selects the format (value & 3), byte 1 holds its options, the rest is the
 * file text.
 *
 * | byte 0 & 3 | format        | byte 1                                                         |
 * |------------|---------------|----------------------------------------------------------------|
 * | 0 ('0')    | edge list     | low nibble: node count (0 = infer), high nibble: degree (0 = none)
 * | | 1 ('1')    | roles         | low nibble: node count (0 = infer)                             |
 * | 2 ('2')    | flows         | low nibble: node count (0 = no bound)                          |
 * | 3 ('3')    | P-D assignment| both nibbles non-zero: roles = low P, high D, then 1 T
 * (contiguous) |
 *
 * Every reader must either return or throw a mose::Error; anything else (a crash, a sanitizer
 * report, another exception, a hang) is a finding. When a read succeeds, the result must satisfy
 * the format's guarantees and survive a write/read round trip unchanged; a violation aborts.
 */

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-traffic.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// Reports a broken guarantee and aborts, which libFuzzer records as a crash.
[[noreturn]] void
Broken(const char* what)
{
    std::fprintf(stderr, "mose-file-io-fuzz: %s\n", what);
    std::abort();
}

/// \brief Calls read(in, name) on the text; returns nothing if it throws a mose::Error.
template <typename Read>
auto
TryRead(const std::string& text, Read read)
    -> std::optional<decltype(read(std::declval<std::istream&>()))>
{
    std::istringstream in(text);
    try
    {
        return read(in);
    }
    catch (const Error&)
    {
        return std::nullopt;
    }
}

void
FuzzCircuitGraph(const std::string& text, uint8_t options)
{
    const uint32_t nodes = options & 0x0F;
    const std::optional<uint32_t> degree =
        (options >> 4) != 0 ? std::optional<uint32_t>(options >> 4) : std::nullopt;
    auto graph = TryRead(text, [&](std::istream& in) {
        return ReadCircuitGraphCsv(in, "fuzz.csv", nodes, degree);
    });
    if (!graph)
    {
        return;
    }
    if (!graph->IsSimple() || graph->GetNCircuits() == 0)
    {
        Broken("edge list reader returned a graph that is not simple or has no circuit");
    }
    if (nodes != 0 && graph->GetNNodes() != nodes)
    {
        Broken("edge list reader ignored the given node count");
    }
    if (degree && !graph->FindProblem(*degree).empty())
    {
        Broken("edge list reader accepted a graph that is not a d-regular connected fabric");
    }
    std::ostringstream out;
    WriteCircuitGraphCsv(*graph, out);
    auto back = TryRead(out.str(), [&](std::istream& in) {
        return ReadCircuitGraphCsv(in, "round-trip.csv", graph->GetNNodes(), degree);
    });
    if (!back || back->GetNNodes() != graph->GetNNodes() ||
        back->GetCircuits() != graph->GetCircuits())
    {
        Broken("edge list round trip changed the graph");
    }
    std::ostringstream dot;
    WriteCircuitGraphDot(*graph, dot);
}

void
FuzzRoles(const std::string& text, uint8_t options)
{
    const uint32_t nodes = options & 0x0F;
    auto roles =
        TryRead(text, [&](std::istream& in) { return ReadRolesCsv(in, "fuzz.csv", nodes); });
    if (!roles)
    {
        return;
    }
    if (roles->GetN() == 0 || (nodes != 0 && roles->GetN() != nodes))
    {
        Broken("roles reader returned the wrong number of nodes");
    }
    std::ostringstream out;
    WriteRolesCsv(*roles, out);
    auto back = TryRead(out.str(), [&](std::istream& in) {
        return ReadRolesCsv(in, "round-trip.csv", roles->GetN());
    });
    if (!back || back->GetRoles() != roles->GetRoles())
    {
        Broken("roles round trip changed the roles");
    }
}

void
FuzzFlows(const std::string& text, uint8_t options)
{
    const uint32_t nodes = options & 0x0F;
    auto flows =
        TryRead(text, [&](std::istream& in) { return ReadFlowsCsv(in, "fuzz.csv", nodes); });
    if (!flows)
    {
        return;
    }
    for (const Flow& f : *flows)
    {
        if (f.src == f.dst || !std::isfinite(f.demand) || !(f.demand > 0) ||
            (nodes != 0 && (f.src >= nodes || f.dst >= nodes)))
        {
            Broken("flows reader returned an invalid flow");
        }
    }
    std::ostringstream out;
    WriteFlowsCsv(*flows, out);
    auto back = TryRead(out.str(), [&](std::istream& in) {
        return ReadFlowsCsv(in, "round-trip.csv", nodes);
    });
    if (!back || back->size() != flows->size())
    {
        Broken("flows round trip changed the number of flows");
    }
    for (std::size_t i = 0; i < flows->size(); ++i)
    {
        const Flow& a = (*flows)[i];
        const Flow& b = (*back)[i];
        if (a.src != b.src || a.dst != b.dst || a.cls != b.cls || a.demand != b.demand)
        {
            Broken("flows round trip changed a flow");
        }
    }
}

void
FuzzPdAssignment(const std::string& text, uint8_t options)
{
    std::optional<RoleAssignment> roles;
    if ((options & 0x0F) != 0 && (options >> 4) != 0)
    {
        roles = RoleAssignment::Contiguous(RoleCounts{static_cast<uint32_t>(options & 0x0F),
                                                      static_cast<uint32_t>(options >> 4),
                                                      1});
    }
    const RoleAssignment* rolesPtr = roles ? &*roles : nullptr;
    auto assignment = TryRead(text, [&](std::istream& in) {
        return ReadPdAssignmentCsv(in, "fuzz.csv", rolesPtr);
    });
    if (!assignment)
    {
        return;
    }
    if (roles)
    {
        try
        {
            assignment->Validate(*roles);
        }
        catch (const Error&)
        {
            Broken("P-D assignment reader accepted pairs that PdAssignment::Validate rejects");
        }
    }
    std::ostringstream out;
    WritePdAssignmentCsv(*assignment, out);
    auto back = TryRead(out.str(), [&](std::istream& in) {
        return ReadPdAssignmentCsv(in, "round-trip.csv", rolesPtr);
    });
    if (!back || back->GetPairs().size() != assignment->GetPairs().size())
    {
        Broken("P-D assignment round trip changed the number of pairs");
    }
    for (std::size_t i = 0; i < back->GetPairs().size(); ++i)
    {
        const PdPair& a = assignment->GetPairs()[i];
        const PdPair& b = back->GetPairs()[i];
        if (a.prefill != b.prefill || a.decode != b.decode || a.weight != b.weight)
        {
            Broken("P-D assignment round trip changed a pair");
        }
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size < 2)
    {
        return 0;
    }
    const std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);
    switch (data[0] & 3)
    {
    case 0:
        FuzzCircuitGraph(text, data[1]);
        break;
    case 1:
        FuzzRoles(text, data[1]);
        break;
    case 2:
        FuzzFlows(text, data[1]);
        break;
    default:
        FuzzPdAssignment(text, data[1]);
        break;
    }
    return 0;
}
