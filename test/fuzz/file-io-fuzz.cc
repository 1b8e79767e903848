/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \brief libFuzzer target for the mose file readers: the flow-level files
 *        (model/flow/mose-file-io.h), the request traces of every form (ReadLlmTrace(),
 *        model/flow/mose-llm-trace.h), the run records (RunRecord::FromText(),
 *        helper/study/runs/mose-run-list.h) and the regime maps (ReadRegimeMapFile(),
 *        helper/study/llm/mose-llm-level-validation.h).
 *
 * Input layout: byte 0 selects the reader (bits 2-3, then bits 0-1), byte 1 holds its options,
 * the rest is the file text. The seeds (test/fuzz/corpus) start with the characters below.
 *
 * - '0' (low bits 0000): edge list; byte 1: low nibble the node count (0: infer), high nibble the
 *   degree (0: none)
 * - '1' (low bits 0001): roles; byte 1: low nibble the node count (0: infer)
 * - '2' (low bits 0010): flows; byte 1: low nibble the node count (0: no bound)
 * - '3' (low bits 0011): P-D assignment; byte 1: both nibbles non-zero: roles = low P, high D, then
 *   1 T (contiguous)
 * - '4' (low bits 01xx): request trace; byte 1: value % 8 the form (0: AUTO, then LlmTraceFormat's
 *   order), bit 3: keep BurstGPT's failed requests
 * - '8' (low bits 10xx): run record; byte 1 unused
 * - '<' (low bits 11xx): regime map; byte 1 unused (the text is written to a scratch file: the
 *   reader reads a path)
 *
 * Every reader must either return or throw a mose::Error; anything else (a crash, a sanitizer
 * report, another exception, a hang) is a finding. When a read succeeds, the result must satisfy
 * the format's guarantees and survive a write/read round trip unchanged (where a writer exists);
 * a violation aborts.
 */

#include "mose-llm-level-validation.h"
#include "mose-run-list.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-llm-trace.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-traffic.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>

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

void
FuzzLlmTrace(const std::string& text, uint8_t options)
{
    LlmTraceReadOptions read;
    read.format = static_cast<LlmTraceFormat>(options % 8);
    read.keepFailed = (options & 8) != 0;
    auto trace = TryRead(text, [&](std::istream& in) { return ReadLlmTrace(in, "fuzz", read); });
    if (!trace)
    {
        return;
    }
    if (trace->requests.empty() || trace->format == LlmTraceFormat::AUTO ||
        (read.format != LlmTraceFormat::AUTO && trace->format != read.format))
    {
        Broken("trace reader returned no request or another form than the one forced");
    }
    if (trace->requests.size() + trace->filtered + trace->failed > trace->records)
    {
        Broken("trace reader kept, filtered or failed more requests than the file holds");
    }
    for (std::size_t i = 0; i < trace->requests.size(); ++i)
    {
        const LlmRequest& r = trace->requests[i];
        if (r.inputTokens == 0 || (i > 0 && r.arrivalNs < trace->requests[i - 1].arrivalNs))
        {
            Broken("trace reader returned a request without input or out of arrival order");
        }
    }
    // the round trip in the form read (WriteLlmTrace()'s conditions: SplitwiseSim's ids and
    // BurstGPT's failed requests read back otherwise; Azure's arrivals start at 0)
    if (trace->format == LlmTraceFormat::SPLITWISE || trace->format == LlmTraceFormat::BURSTGPT)
    {
        return;
    }
    std::ostringstream out;
    WriteLlmTrace(trace->requests, trace->format, out);
    LlmTraceReadOptions again;
    again.format = trace->format;
    auto back =
        TryRead(out.str(), [&](std::istream& in) { return ReadLlmTrace(in, "round-trip", again); });
    if (!back || back->requests.size() != trace->requests.size())
    {
        Broken("trace round trip changed the number of requests");
    }
    const uint64_t shift =
        trace->format == LlmTraceFormat::AZURE ? trace->requests.front().arrivalNs : 0;
    for (std::size_t i = 0; i < back->requests.size(); ++i)
    {
        LlmRequest a = trace->requests[i];
        a.arrivalNs -= shift;
        if (!(back->requests[i] == a))
        {
            Broken("trace round trip changed a request");
        }
    }
}

void
FuzzRunRecord(const std::string& text)
{
    std::optional<RunRecord> record;
    try
    {
        record = RunRecord::FromText("fuzz.record", text);
    }
    catch (const Error&)
    {
        return;
    }
    RunRecord back;
    try
    {
        back = RunRecord::FromText("round-trip.record", record->ToText());
    }
    catch (const Error&)
    {
        Broken("run record round trip: the written record does not read");
    }
    if (back.build != record->build || back.options != record->options ||
        back.index != record->index || back.run != record->run || back.figures != record->figures ||
        back.resources.wallSeconds != record->resources.wallSeconds ||
        back.resources.cpuSeconds != record->resources.cpuSeconds ||
        back.resources.maxRssKb != record->resources.maxRssKb)
    {
        Broken("run record round trip changed the record");
    }
}

/// A file in TMPDIR (or /tmp) holding a text, removed when it goes out of scope (a run that
/// libFuzzer ends leaves none behind): the regime map reader reads a path
class ScratchFile
{
  public:
    /// \param text the file's text
    explicit ScratchFile(const std::string& text)
    {
        const char* dir = std::getenv("TMPDIR");
        m_path = std::string(dir != nullptr ? dir : "/tmp") + "/mose-fuzz-XXXXXX";
        const int fd = mkstemp(m_path.data());
        if (fd < 0)
        {
            Broken("cannot create a scratch file");
        }
        close(fd);
        std::ofstream file(m_path, std::ios::binary | std::ios::trunc);
        file << text;
        if (!file.flush())
        {
            Broken("cannot write the scratch file");
        }
    }

    ~ScratchFile()
    {
        std::remove(m_path.c_str());
    }

    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    /// \return the file's path
    const std::string& GetPath() const
    {
        return m_path;
    }

  private:
    std::string m_path; //!< the file
};

void
FuzzRegimeMap(const std::string& text)
{
    const ScratchFile file(text);
    std::optional<RegimeMapFile> map;
    try
    {
        map = ReadRegimeMapFile(file.GetPath());
    }
    catch (const Error&)
    {
        return;
    }
    if (map->cells.empty() || map->cells.size() != map->order.size() || map->seeds == 0 ||
        !(map->bandLow < map->bandHigh))
    {
        Broken("regime map reader returned no cell, a cell twice, no seed or an empty tie band");
    }
    for (const auto& key : map->order)
    {
        if (map->cells.count(key) == 0)
        {
            Broken("regime map reader's order names a cell it does not hold");
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
    switch ((data[0] >> 2) & 3)
    {
    case 1:
        FuzzLlmTrace(text, data[1]);
        return 0;
    case 2:
        FuzzRunRecord(text);
        return 0;
    case 3:
        FuzzRegimeMap(text);
        return 0;
    default:
        break;
    }
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
