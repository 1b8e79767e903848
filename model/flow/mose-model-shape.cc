/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-model-shape.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <limits>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseModelShape");

namespace
{

/// \return the field's name as messages give it: "layers", or "layers (model "x")"
std::string
FieldOf(const ModelShape& shape, const std::string& field)
{
    return shape.name.empty() ? field : field + " (model " + QuoteText(shape.name) + ")";
}

} // namespace

uint64_t
CheckedProduct(const std::string& what, const std::vector<NamedFactor>& factors)
{
    uint64_t product = 1;
    bool overflow = false;
    for (const NamedFactor& f : factors)
    {
        if (f.value != 0 && product > std::numeric_limits<uint64_t>::max() / f.value)
        {
            overflow = true;
        }
        product *= f.value;
    }
    // a zero factor makes the product 0 whatever wrapped before it; report the overflow anyway,
    // since the formula's inputs are what the user must fix
    if (overflow)
    {
        std::string formula;
        for (const NamedFactor& f : factors)
        {
            formula +=
                (formula.empty() ? "" : " x ") + f.name + " (" + std::to_string(f.value) + ")";
        }
        throw Error(what + " = " + formula + " does not fit in 64 bits (at most " +
                    std::to_string(std::numeric_limits<uint64_t>::max()) + ")");
    }
    return product;
}

const std::vector<EnumEntry<ModelPreset>>&
EnumTable<ModelPreset>::Get()
{
    static const std::vector<EnumEntry<ModelPreset>> names = {
        {ModelPreset::LLAMA_3_8B, "llama-3-8b", {"llama-3.1-8b"}},
        {ModelPreset::LLAMA_3_70B, "llama-3-70b", {"llama-3.1-70b"}},
        {ModelPreset::MIXTRAL_8X7B, "mixtral-8x7b", {}},
        {ModelPreset::DEEPSEEK_V3, "deepseek-v3", {}},
    };
    return names;
}

void
ModelShape::Validate() const
{
    NS_LOG_FUNCTION(name << layers << kvHeads << headDim << kvBytesPerElement
                         << kvBytesPerTokenDirect << experts << expertsPerToken << moeLayers);
    if (layers == 0)
    {
        ThrowBadParameter(FieldOf(*this, "layers"), "0", "a model has at least 1 layer");
    }
    if (kvBytesPerTokenDirect > 0)
    {
        if (kvHeads != 0 || headDim != 0)
        {
            ThrowBadParameter(FieldOf(*this, "kvBytesPerTokenDirect"),
                              std::to_string(kvBytesPerTokenDirect),
                              "KV bytes per token come either from kvHeads and headDim or directly "
                              "from kvBytesPerTokenDirect, not both (kvHeads = " +
                                  std::to_string(kvHeads) +
                                  ", headDim = " + std::to_string(headDim) + "); set them to 0");
        }
    }
    else
    {
        if (kvHeads == 0)
        {
            ThrowBadParameter(FieldOf(*this, "kvHeads"),
                              "0",
                              "at least 1 KV head per layer (or give kvBytesPerTokenDirect)");
        }
        if (headDim == 0)
        {
            ThrowBadParameter(FieldOf(*this, "headDim"),
                              "0",
                              "a head dimension of at least 1 (or give kvBytesPerTokenDirect)");
        }
        if (kvBytesPerElement == 0)
        {
            ThrowBadParameter(FieldOf(*this, "kvBytesPerElement"),
                              "0",
                              "at least 1 byte per cached element");
        }
    }
    if (experts == 0)
    {
        if (expertsPerToken != 0 || moeLayers != 0)
        {
            ThrowBadParameter(FieldOf(*this, "experts"),
                              "0",
                              "a dense model (experts = 0) has expertsPerToken = 0 and "
                              "moeLayers = 0; got expertsPerToken = " +
                                  std::to_string(expertsPerToken) +
                                  ", moeLayers = " + std::to_string(moeLayers));
        }
    }
    else
    {
        if (expertsPerToken == 0 || expertsPerToken > experts)
        {
            ThrowBadParameter(FieldOf(*this, "expertsPerToken"),
                              std::to_string(expertsPerToken),
                              "1 <= expertsPerToken <= experts = " + std::to_string(experts));
        }
        if (moeLayers == 0 || moeLayers > layers)
        {
            ThrowBadParameter(FieldOf(*this, "moeLayers"),
                              std::to_string(moeLayers),
                              "1 <= moeLayers <= layers = " + std::to_string(layers));
        }
    }
}

uint64_t
ModelShape::GetKvBytesPerToken() const
{
    Validate();
    if (kvBytesPerTokenDirect > 0)
    {
        return kvBytesPerTokenDirect;
    }
    return CheckedProduct("KV bytes per token" +
                              (name.empty() ? std::string() : " of " + QuoteText(name)),
                          {{"layers", layers},
                           {"kvHeads", kvHeads},
                           {"headDim", headDim},
                           {"K and V", 2},
                           {"kvBytesPerElement", kvBytesPerElement}});
}

uint64_t
ModelShape::GetKvBytes(uint64_t tokens) const
{
    const uint64_t perToken = GetKvBytesPerToken();
    return CheckedProduct("KV bytes" + (name.empty() ? std::string() : " of " + QuoteText(name)),
                          {{"tokens", tokens}, {"KV bytes per token", perToken}});
}

bool
ModelShape::IsMoe() const
{
    return experts > 0;
}

ModelShape
ModelShape::FromPreset(ModelPreset preset)
{
    NS_LOG_FUNCTION(static_cast<int>(preset));
    ModelShape s;
    s.name = ToString(preset);
    switch (preset)
    {
    case ModelPreset::LLAMA_3_8B:
        // meta-llama/Meta-Llama-3-8B config.json: num_hidden_layers 32, num_key_value_heads 8,
        // hidden_size 4096 / num_attention_heads 32 = head dim 128, intermediate_size 14336,
        // vocab_size 128256, bf16
        s.layers = 32;
        s.kvHeads = 8;
        s.headDim = 128;
        s.hiddenSize = 4096;
        s.parameters = 8030261248ULL;
        break;
    case ModelPreset::LLAMA_3_70B:
        // meta-llama/Meta-Llama-3-70B config.json: 80 layers, 8 KV heads, 8192 / 64 = 128,
        // intermediate_size 28672, vocab_size 128256
        s.layers = 80;
        s.kvHeads = 8;
        s.headDim = 128;
        s.hiddenSize = 8192;
        s.parameters = 70553706496ULL;
        break;
    case ModelPreset::MIXTRAL_8X7B:
        // mistralai/Mixtral-8x7B-v0.1 config.json: 32 layers, 8 KV heads, 4096 / 32 = 128,
        // intermediate_size 14336, vocab_size 32000, num_local_experts 8, num_experts_per_tok 2
        // (every layer's MLP is an MoE block)
        s.layers = 32;
        s.kvHeads = 8;
        s.headDim = 128;
        s.hiddenSize = 4096;
        s.parameters = 46702792704ULL;
        s.experts = 8;
        s.expertsPerToken = 2;
        s.moeLayers = 32;
        break;
    case ModelPreset::DEEPSEEK_V3:
        // deepseek-ai/DeepSeek-V3 config.json: num_hidden_layers 61, kv_lora_rank 512,
        // qk_rope_head_dim 64 (MLA caches the 512-wide latent and the 64-wide decoupled RoPE
        // key per layer, DeepSeek-V2 paper, section 2.1), bf16: 61 x (512 + 64) x 2 = 70,272 B;
        // hidden_size 7168, n_routed_experts 256, num_experts_per_tok 8, first_k_dense_replace 3
        // (58 MoE layers); 671 B parameters (DeepSeek-V3 technical report, without the 14 B of
        // its multi-token-prediction module)
        s.layers = 61;
        s.kvBytesPerTokenDirect = 61ULL * (512 + 64) * 2;
        s.hiddenSize = 7168;
        s.parameters = 671000000000ULL;
        s.experts = 256;
        s.expertsPerToken = 8;
        s.moeLayers = 58;
        break;
    default:
        ThrowBadParameter("model preset",
                          std::to_string(static_cast<int>(preset)),
                          "one of " + AllowedEnumNames<ModelPreset>());
    }
    return s;
}

uint64_t
GradientAllReduceBytes(const ModelShape& shape, const AllReduceSizing& sizing)
{
    NS_LOG_FUNCTION(shape.name << shape.parameters << sizing.tensorParallel
                               << sizing.pipelineParallel << sizing.gradientBytesPerElement);
    shape.Validate();
    if (shape.parameters == 0)
    {
        ThrowBadParameter(FieldOf(shape, "parameters"),
                          "0",
                          "the gradient all-reduce size needs the model's parameter count");
    }
    if (sizing.tensorParallel == 0)
    {
        ThrowBadParameter("tensorParallel", "0", "a tensor-parallel degree of at least 1");
    }
    if (sizing.pipelineParallel == 0)
    {
        ThrowBadParameter("pipelineParallel", "0", "a pipeline-parallel degree of at least 1");
    }
    if (sizing.gradientBytesPerElement == 0)
    {
        ThrowBadParameter("gradientBytesPerElement", "0", "at least 1 byte per gradient element");
    }
    const uint64_t bytes =
        CheckedProduct("gradient bytes",
                       {{"parameters", shape.parameters},
                        {"gradientBytesPerElement", sizing.gradientBytesPerElement}});
    // TP x PP fits: both are 32-bit
    const uint64_t shards = uint64_t{sizing.tensorParallel} * sizing.pipelineParallel;
    return bytes / shards + (bytes % shards != 0 ? 1 : 0);
}

AllToAllSize
MoeAllToAllBytes(const ModelShape& shape, const AllToAllSizing& sizing)
{
    NS_LOG_FUNCTION(shape.name << sizing.tokensPerMember << sizing.activationBytesPerElement
                               << sizing.passes);
    shape.Validate();
    if (!shape.IsMoe())
    {
        ThrowBadParameter(FieldOf(shape, "experts"),
                          "0",
                          "the MoE all-to-all needs an MoE model (experts >= 1)");
    }
    if (shape.hiddenSize == 0)
    {
        ThrowBadParameter(FieldOf(shape, "hiddenSize"),
                          "0",
                          "the MoE all-to-all size needs the model's hidden size");
    }
    if (sizing.tokensPerMember == 0)
    {
        ThrowBadParameter("tokensPerMember", "0", "at least 1 token per member and iteration");
    }
    if (sizing.activationBytesPerElement == 0)
    {
        ThrowBadParameter("activationBytesPerElement",
                          "0",
                          "at least 1 byte per activation element");
    }
    if (sizing.passes != 1 && sizing.passes != 2)
    {
        ThrowBadParameter("passes",
                          std::to_string(sizing.passes),
                          "1 (forward only) or 2 (forward and backward)");
    }
    AllToAllSize size;
    size.bytesPerOperation =
        CheckedProduct("MoE all-to-all bytes per operation",
                       {{"tokensPerMember", sizing.tokensPerMember},
                        {"expertsPerToken", shape.expertsPerToken},
                        {"hiddenSize", shape.hiddenSize},
                        {"activationBytesPerElement", sizing.activationBytesPerElement}});
    size.operationsPerIteration = uint64_t{2} * shape.moeLayers * sizing.passes;
    size.bytesPerIteration = CheckedProduct("MoE all-to-all bytes per iteration",
                                            {{"bytes per operation", size.bytesPerOperation},
                                             {"dispatch and combine", 2},
                                             {"moeLayers", shape.moeLayers},
                                             {"passes", sizing.passes}});
    return size;
}

} // namespace mose
} // namespace ns3
