/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-aicb-workload.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <charconv>
#include <fstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseAicbWorkload");

namespace
{

/// the policies read: both run one pipeline stage the same way
const char* const POLICIES[] = {"HYBRID_TRANSFORMER_FWD_IN_BCKWD", "HYBRID_TRANSFORMER"};

/// the fields of a layer line, for messages
const char* const FIELDS[] = {"name",
                              "reserved",
                              "forward compute time",
                              "forward collective",
                              "forward collective size",
                              "input-gradient compute time",
                              "input-gradient collective",
                              "input-gradient collective size",
                              "weight-gradient compute time",
                              "weight-gradient collective",
                              "weight-gradient collective size",
                              "weight-update time"};

/// the largest plan built: 2^24 nodes, a few GB (a node holds its name, origin and group);
/// real AICB files (1,024 ranks x 200 lines) make 1.4 million
constexpr uint64_t MAX_PLAN_NODES = uint64_t{1} << 24;

/// fields per layer line
constexpr std::size_t N_FIELDS = sizeof(FIELDS) / sizeof(FIELDS[0]);

/// AICB's collective names and mose's collectives
const std::pair<const char*, NcclCollective> COLLECTIVES[] = {
    {"ALLREDUCE", NcclCollective::ALL_REDUCE},
    {"ALLGATHER", NcclCollective::ALL_GATHER},
    {"REDUCESCATTER", NcclCollective::REDUCE_SCATTER},
    {"ALLTOALL", NcclCollective::ALL_TO_ALL},
    {"BROADCAST", NcclCollective::BROADCAST},
};

/// \return the blank-separated fields of a line
std::vector<std::string_view>
SplitBlanks(std::string_view text)
{
    std::vector<std::string_view> fields;
    text = TrimBlanks(text);
    while (!text.empty())
    {
        const auto end = std::find_if(text.begin(), text.end(), IsBlank) - text.begin();
        fields.push_back(text.substr(0, end));
        text = TrimBlanks(text.substr(end));
    }
    return fields;
}

/// \return a signed integer field; fails naming the field otherwise (from_chars: the standard
///         library's parser, which ParseUnsigned64 has no signed twin of)
int64_t
ParseSigned(const LineReader& reader, const std::string& field, std::string_view text)
{
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
    {
        reader.Fail(field + " = " + QuoteFileText(text) + ": an integer");
    }
    return value;
}

/// \return a time field (ns >= 0)
int64_t
ParseTime(const LineReader& reader, const std::string& field, std::string_view text)
{
    const int64_t v = ParseSigned(reader, field, text);
    if (v < 0)
    {
        reader.Fail(field + " = " + std::to_string(v) + ": a time in ns >= 0");
    }
    return v;
}

/// \return a header value (>= 1)
uint32_t
ParseHeaderCount(const LineReader& reader, const std::string& key, std::string_view text)
{
    const int64_t v = ParseSigned(reader, key, text);
    if (v < 1 || v > UINT32_MAX)
    {
        reader.Fail(key + " " + std::to_string(v) + ": a count >= 1");
    }
    return static_cast<uint32_t>(v);
}

/// \return a collective field and its size
AicbComm
ParseComm(const LineReader& reader,
          const std::string& field,
          std::string_view type,
          std::string_view sizeText)
{
    AicbComm comm;
    const int64_t size = ParseSigned(reader, field + " size", sizeText);
    if (size < 0)
    {
        reader.Fail(field + " size = " + std::to_string(size) + ": bytes >= 0");
    }
    comm.bytes = static_cast<uint64_t>(size);
    if (type == "NONE")
    {
        return comm;
    }
    std::string_view base = type;
    if (base.size() > 6 && base.substr(base.size() - 6) == "_DP_EP")
    {
        comm.group = AicbGroup::DP_EP;
        base.remove_suffix(6);
    }
    else if (base.size() > 3 && base.substr(base.size() - 3) == "_EP")
    {
        comm.group = AicbGroup::EP;
        base.remove_suffix(3);
    }
    bool known = false;
    for (const auto& [name, collective] : COLLECTIVES)
    {
        if (base == name &&
            (collective != NcclCollective::BROADCAST || comm.group == AicbGroup::PHASE))
        {
            comm.collective = collective;
            known = true;
        }
    }
    if (!known)
    {
        reader.Fail(field + " = " + QuoteFileText(type) +
                    ": a collective mose does not plan; allowed: NONE, ALLREDUCE, ALLGATHER, "
                    "REDUCESCATTER, ALLTOALL (each also with _EP or _DP_EP), BROADCAST");
    }
    if (comm.bytes == 0)
    {
        reader.Fail(field + " " + std::string(type) + " of size 0: a collective needs bytes >= 1");
    }
    comm.present = true;
    return comm;
}

/// \brief Reads the header line into w
void
ParseHeader(const LineReader& reader, std::string_view line, AicbWorkload& w)
{
    const std::vector<std::string_view> tokens = SplitBlanks(line);
    std::string policies;
    for (const char* p : POLICIES)
    {
        policies += (policies.empty() ? "" : ", ") + std::string(p);
    }
    if (tokens.empty() || std::all_of(tokens[0].begin(), tokens[0].end(), [](char c) {
            return c >= '0' && c <= '9';
        }))
    {
        reader.Fail("no header: an AICB workload starts with the parallelism line (" + policies +
                    " model_parallel_NPU_group: TP ep: EP pp: 1 ... all_gpus: RANKS), then the "
                    "layer count");
    }
    if (std::find(std::begin(POLICIES), std::end(POLICIES), tokens[0]) == std::end(POLICIES))
    {
        reader.Fail("policy " + QuoteFileText(tokens[0]) + ": mose reads " + policies);
    }
    w.policy = std::string(tokens[0]);
    bool haveTp = false;
    bool haveRanks = false;
    for (std::size_t i = 1; i < tokens.size(); ++i)
    {
        const std::string key(tokens[i]);
        if (i + 1 >= tokens.size())
        {
            reader.Fail("header field " + key + " without its value");
        }
        const std::string_view value = tokens[++i];
        if (key == "model_parallel_NPU_group:")
        {
            w.tensorParallel = ParseHeaderCount(reader, key, value);
            haveTp = true;
        }
        else if (key == "ep:")
        {
            w.expertParallel = ParseHeaderCount(reader, key, value);
        }
        else if (key == "pp:")
        {
            w.pipelineParallel = ParseHeaderCount(reader, key, value);
        }
        else if (key == "vpp:")
        {
            w.virtualPipeline = ParseHeaderCount(reader, key, value);
        }
        else if (key == "ga:")
        {
            w.gradientAccumulation = ParseHeaderCount(reader, key, value);
        }
        else if (key == "all_gpus:")
        {
            w.ranks = ParseHeaderCount(reader, key, value);
            haveRanks = true;
        }
        else if (key == "checkpoints:" || key == "checkpoint_initiates:")
        {
            if (ParseSigned(reader, key, value) != 0)
            {
                reader.Fail(key + " " + std::string(value) +
                            ": activation checkpoints (recomputation in the backward pass) are "
                            "not modelled; mose reads " +
                            key + " 0");
            }
        }
        else if (key == "pp_comm:" || key == "pp_comm")
        {
            if (ParseSigned(reader, key, value) != 0)
            {
                reader.Fail(key + " " + std::string(value) +
                            ": pipeline messages with pp: 1 (SimAI warns of a mismatch); mose "
                            "reads pp_comm: 0");
            }
        }
        else
        {
            reader.Fail("header field " + QuoteFileText(key) +
                        ": not an AICB field (model_parallel_NPU_group:, ep:, pp:, vpp:, ga:, "
                        "all_gpus:, checkpoints:, checkpoint_initiates:, pp_comm:)");
        }
    }
    if (!haveTp || !haveRanks)
    {
        reader.Fail(std::string("the header has no ") +
                    (haveTp ? "all_gpus: (the ranks)" : "model_parallel_NPU_group: (TP)") +
                    "; AICB's generator writes both");
    }
    if (w.pipelineParallel != 1)
    {
        reader.Fail("pp: " + std::to_string(w.pipelineParallel) +
                    ": pipeline parallelism is not modelled; mose reads pp: 1");
    }
    if (w.tensorParallel > w.ranks || w.ranks % w.tensorParallel != 0)
    {
        reader.Fail("model_parallel_NPU_group: " + std::to_string(w.tensorParallel) +
                    ": a TP group divides all_gpus: " + std::to_string(w.ranks));
    }
    const uint32_t dp = w.GetDataParallel();
    if (w.expertParallel > dp || dp % w.expertParallel != 0)
    {
        reader.Fail(
            "ep: " + std::to_string(w.expertParallel) +
            ": an EP group divides the data-parallel size all_gpus / TP = " + std::to_string(dp));
    }
}

} // namespace

std::string
AicbComm::GetName() const
{
    if (!present)
    {
        return "NONE";
    }
    for (const auto& [name, c] : COLLECTIVES)
    {
        if (c == collective)
        {
            return std::string(name) + (group == AicbGroup::EP      ? "_EP"
                                        : group == AicbGroup::DP_EP ? "_DP_EP"
                                                                    : "");
        }
    }
    return "NONE";
}

uint32_t
AicbWorkload::GetDataParallel() const
{
    return ranks / (tensorParallel * pipelineParallel);
}

std::vector<uint32_t>
AicbWorkload::GetGroup(uint32_t rank, AicbGroup group, bool weightGradient) const
{
    const uint32_t tp = tensorParallel;
    const uint32_t ep = expertParallel;
    const uint32_t dp = GetDataParallel();
    const uint32_t t = rank / tp; // its TP group
    const uint32_t k = rank % tp; // its place in it
    std::vector<uint32_t> g;
    switch (group)
    {
    case AicbGroup::PHASE:
        if (weightGradient)
        {
            for (uint32_t j = 0; j < dp; ++j)
            {
                g.push_back(k + j * tp);
            }
        }
        else
        {
            for (uint32_t j = 0; j < tp; ++j)
            {
                g.push_back(t * tp + j);
            }
        }
        break;
    case AicbGroup::EP:
        for (uint32_t l = 0; l < ep; ++l)
        {
            g.push_back((t / ep * ep + l) * tp + k);
        }
        break;
    case AicbGroup::DP_EP:
        for (uint32_t m = 0; m < dp / ep; ++m)
        {
            g.push_back((t % ep + m * ep) * tp + k);
        }
        break;
    }
    return g;
}

TrainingPlan
AicbWorkload::ToPlan() const
{
    // each line gives a rank at most 7 nodes: refuse a plan too large to hold (a typo in
    // all_gpus) before allocating it
    const uint64_t nodes = uint64_t{ranks} * layers.size() * 7;
    if (nodes > MAX_PLAN_NODES)
    {
        throw Error(source + ": all_gpus: " + std::to_string(ranks) + " ranks x " +
                    std::to_string(layers.size()) + " layer lines make up to " +
                    std::to_string(nodes) + " plan nodes; mose builds at most " +
                    std::to_string(MAX_PLAN_NODES));
    }
    TrainingPlan plan;
    plan.source = source;
    plan.ranks.resize(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        std::vector<PlanNode>& nodes = plan.ranks[r];
        const AicbLayer* layer = nullptr;
        // adds a node of the current layer after the node deps (if any); returns its id
        auto add = [&](const std::string& phase,
                       int64_t ns,
                       const AicbComm* comm,
                       bool weightGradient,
                       const std::vector<uint64_t>& deps) {
            PlanNode n;
            n.id = nodes.size();
            n.name = layer->name + " " + phase;
            n.origin = source + " line " + std::to_string(layer->line) + " (" + phase + ")";
            n.kind = PlanNodeKind::COMPUTE;
            n.durationNs = ns;
            if (comm != nullptr)
            {
                n.kind = PlanNodeKind::COLLECTIVE;
                n.name += " " + comm->GetName();
                n.origin = source + " line " + std::to_string(layer->line) + " (" + phase + " " +
                           comm->GetName() + ")";
                n.collective = comm->collective;
                n.bytes = comm->bytes;
                n.group = GetGroup(r, comm->group, weightGradient);
            }
            n.dataDeps = deps;
            nodes.push_back(std::move(n));
            return std::vector<uint64_t>{nodes.back().id};
        };
        // adds a phase, its compute and collective (if any); returns {compute, last node}
        auto phase = [&](const std::string& name,
                         int64_t ns,
                         const AicbComm& comm,
                         bool weightGradient,
                         const std::vector<uint64_t>& deps) {
            const std::vector<uint64_t> compute = add(name, ns, nullptr, weightGradient, deps);
            return std::make_pair(compute,
                                  comm.present ? add(name, 0, &comm, weightGradient, compute)
                                               : compute);
        };
        // the node the next step of the pass waits for
        std::vector<uint64_t> last;
        for (const AicbLayer& l : layers)
        {
            layer = &l;
            last = phase("forward", l.forwardNs, l.forward, false, last).second;
        }
        for (auto it = layers.rbegin(); it != layers.rend(); ++it)
        {
            layer = &*it;
            last = phase("input-gradient", it->inputGradNs, it->inputGrad, false, last).second;
            const auto [compute, collective] =
                phase("weight-gradient", it->weightGradNs, it->weightGrad, true, last);
            add("weight-update", it->updateNs, nullptr, true, collective);
            // the weight-gradient collective does not hold the backward pass up
            last = compute;
        }
    }
    plan.Validate();
    return plan;
}

AicbWorkload
ParseAicbWorkload(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(name);
    LineReader reader(in, name);
    AicbWorkload w;
    w.source = name;
    std::string_view line;
    if (!reader.Next(line))
    {
        reader.Fail("empty: no header (an AICB workload starts with its parallelism line)");
    }
    ParseHeader(reader, line, w);
    if (!reader.Next(line))
    {
        reader.Fail("no layer count after the header");
    }
    const std::vector<std::string_view> countField = SplitBlanks(line);
    if (countField.size() != 1)
    {
        reader.Fail("the layer count: one integer, found " + QuoteFileText(line));
    }
    const int64_t count = ParseSigned(reader, "the layer count", countField[0]);
    if (count < 1)
    {
        reader.Fail("the layer count " + std::to_string(count) + ": >= 1");
    }
    const uint64_t countLine = reader.GetLine();
    while (reader.Next(line))
    {
        const std::vector<std::string_view> f = SplitBlanks(line);
        if (f.empty())
        {
            continue;
        }
        if (w.layers.size() == static_cast<uint64_t>(count))
        {
            reader.Fail("a layer line beyond the " + std::to_string(count) + " that line " +
                        std::to_string(countLine) + " announces");
        }
        if (f.size() != N_FIELDS)
        {
            reader.Fail(std::to_string(f.size()) + " fields" +
                        (f.size() < N_FIELDS ? " (no " + std::string(FIELDS[f.size()]) + ")"
                                             : std::string()) +
                        ": a layer line has 12: name, reserved, then per phase (forward, input "
                        "gradient, weight gradient) compute time, collective, size, then the "
                        "weight-update time");
        }
        AicbLayer l;
        l.line = reader.GetLine();
        l.name = std::string(f[0]);
        l.reserved = ParseSigned(reader, FIELDS[1], f[1]);
        l.forwardNs = ParseTime(reader, FIELDS[2], f[2]);
        l.forward = ParseComm(reader, FIELDS[3], f[3], f[4]);
        l.inputGradNs = ParseTime(reader, FIELDS[5], f[5]);
        l.inputGrad = ParseComm(reader, FIELDS[6], f[6], f[7]);
        l.weightGradNs = ParseTime(reader, FIELDS[8], f[8]);
        l.weightGrad = ParseComm(reader, FIELDS[9], f[9], f[10]);
        l.updateNs = ParseTime(reader, FIELDS[11], f[11]);
        w.layers.push_back(std::move(l));
    }
    if (w.layers.size() != static_cast<uint64_t>(count))
    {
        reader.Fail("line " + std::to_string(countLine) + " announces " + std::to_string(count) +
                    " layers and the file has " + std::to_string(w.layers.size()) + " layer lines");
    }
    return w;
}

AicbWorkload
ReadAicbWorkload(const std::string& path)
{
    std::ifstream file;
    OpenForReading(path, file);
    return ParseAicbWorkload(file, path);
}

void
WriteAicbWorkload(const AicbWorkload& workload, const std::string& path)
{
    (void)workload.ToPlan(); // refuses what the reader would refuse
    WriteTextFile(path, [&](std::ostream& os) {
        os << workload.policy << " model_parallel_NPU_group: " << workload.tensorParallel
           << " ep: " << workload.expertParallel << " pp: " << workload.pipelineParallel
           << " vpp: " << workload.virtualPipeline << " ga: " << workload.gradientAccumulation
           << " all_gpus: " << workload.ranks
           << " checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0\n"
           << workload.layers.size() << "\n";
        for (const AicbLayer& l : workload.layers)
        {
            os << l.name << "\t" << l.reserved << "\t" << l.forwardNs << "\t" << l.forward.GetName()
               << "\t" << l.forward.bytes << "\t" << l.inputGradNs << "\t" << l.inputGrad.GetName()
               << "\t" << l.inputGrad.bytes << "\t" << l.weightGradNs << "\t"
               << l.weightGrad.GetName() << "\t" << l.weightGrad.bytes << "\t" << l.updateNs
               << "\n";
        }
    });
}

AicbWorkload
MakeMoeAicbWorkload(const MoeShape& shape)
{
    if (shape.expertParallel == 0 || shape.ranks == 0 || shape.ranks % shape.expertParallel != 0 ||
        shape.layers == 0)
    {
        ThrowBadParameter("MoE ranks / expert parallel / layers",
                          std::to_string(shape.ranks) + " / " +
                              std::to_string(shape.expertParallel) + " / " +
                              std::to_string(shape.layers),
                          "ranks a positive multiple of expert parallel >= 1, layers >= 1");
    }
    AicbWorkload w;
    w.source = "moe-aicb";
    w.expertParallel = shape.expertParallel;
    w.ranks = shape.ranks;
    w.virtualPipeline = shape.layers;
    // a MoE line: compute ns in each phase, all-to-alls over EP forward and backward, the
    // weight gradients all-reduced over the given group
    auto moeLine = [&](const std::string& name, int64_t ns, AicbGroup weights, uint64_t bytes) {
        AicbComm a2a;
        a2a.present = true;
        a2a.collective = NcclCollective::ALL_TO_ALL;
        a2a.group = AicbGroup::EP;
        a2a.bytes = shape.tokenBytes;
        AicbLayer l;
        l.name = name;
        l.forwardNs = l.inputGradNs = l.weightGradNs = ns;
        l.forward = l.inputGrad = a2a;
        l.weightGrad.present = true;
        l.weightGrad.collective = NcclCollective::ALL_REDUCE;
        l.weightGrad.group = weights;
        l.weightGrad.bytes = bytes;
        l.updateNs = 100;
        w.layers.push_back(std::move(l));
    };
    const uint64_t layers = shape.layers;
    for (uint32_t l = 0; l < shape.layers; ++l)
    {
        const std::string prefix = "layer" + std::to_string(l) + ".";
        moeLine(prefix + "attention",
                shape.attentionNs,
                AicbGroup::PHASE,
                shape.gradientBytes / (8 * layers));
        moeLine(prefix + "experts",
                shape.expertNs,
                AicbGroup::DP_EP,
                shape.gradientBytes / (2 * layers));
    }
    return w;
}

} // namespace mose
} // namespace ns3
