/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-model-shape.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <limits>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/**
 * \brief Parameters of a decoder-only transformer from its configuration: token embeddings and
 *        an untied output layer (2 x vocab x hidden), per layer attention (q and o: hidden x
 *        heads x headDim, k and v: hidden x kvHeads x headDim), a gated MLP per expert
 *        (3 x hidden x intermediate), the router (hidden x experts) and two norms (2 x hidden),
 *        and the final norm.
 */
uint64_t
TransformerParameters(uint64_t vocab,
                      uint64_t hidden,
                      uint64_t intermediate,
                      uint64_t layers,
                      uint64_t heads,
                      uint64_t kvHeads,
                      uint64_t experts)
{
    const uint64_t headDim = hidden / heads;
    const uint64_t attention = 2 * hidden * heads * headDim + 2 * hidden * kvHeads * headDim;
    const uint64_t mlp = (experts == 0 ? 1 : experts) * 3 * hidden * intermediate;
    const uint64_t router = experts == 0 ? 0 : hidden * experts;
    return 2 * vocab * hidden + layers * (attention + mlp + router + 2 * hidden) + hidden;
}

} // namespace

TEST(ModelShape, PresetKvBytesPerToken)
{
    // layers x KV heads x head dim x 2 (K and V) x 2 bytes
    EXPECT_EQ(ModelShape::FromPreset(ModelPreset::LLAMA_3_8B).GetKvBytesPerToken(), 131072U);
    EXPECT_EQ(ModelShape::FromPreset(ModelPreset::LLAMA_3_70B).GetKvBytesPerToken(), 327680U);
    EXPECT_EQ(ModelShape::FromPreset(ModelPreset::MIXTRAL_8X7B).GetKvBytesPerToken(), 131072U);
    // MLA: 61 layers x (512 latent + 64 RoPE key) x 2 bytes
    EXPECT_EQ(ModelShape::FromPreset(ModelPreset::DEEPSEEK_V3).GetKvBytesPerToken(), 70272U);
}

TEST(ModelShape, KvBytesOfPrompts)
{
    // a 2,000-token prompt of Llama-3-70B is 655 MB
    ModelShape l70 = ModelShape::FromPreset(ModelPreset::LLAMA_3_70B);
    EXPECT_EQ(l70.GetKvBytes(2000), 655360000U);
    EXPECT_EQ(l70.GetKvBytes(0), 0U);
    EXPECT_EQ(ModelShape::FromPreset(ModelPreset::LLAMA_3_8B).GetKvBytes(1), 131072U);
    EXPECT_EQ(ModelShape::FromPreset(ModelPreset::DEEPSEEK_V3).GetKvBytes(1000), 70272000U);
}

TEST(ModelShape, PresetFigures)
{
    ModelShape s = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    EXPECT_EQ(s.name, "llama-3-8b");
    EXPECT_EQ(s.layers, 32U);
    EXPECT_EQ(s.kvHeads, 8U);
    EXPECT_EQ(s.headDim, 128U);
    EXPECT_EQ(s.hiddenSize, 4096U);
    EXPECT_FALSE(s.IsMoe());
    // the counts follow from the published configurations
    EXPECT_EQ(s.parameters, TransformerParameters(128256, 4096, 14336, 32, 32, 8, 0));
    EXPECT_EQ(s.parameters, 8030261248U);

    s = ModelShape::FromPreset(ModelPreset::LLAMA_3_70B);
    EXPECT_EQ(s.hiddenSize, 8192U);
    EXPECT_EQ(s.parameters, TransformerParameters(128256, 8192, 28672, 80, 64, 8, 0));
    EXPECT_EQ(s.parameters, 70553706496U);

    s = ModelShape::FromPreset(ModelPreset::MIXTRAL_8X7B);
    EXPECT_TRUE(s.IsMoe());
    EXPECT_EQ(s.experts, 8U);
    EXPECT_EQ(s.expertsPerToken, 2U);
    EXPECT_EQ(s.moeLayers, 32U);
    EXPECT_EQ(s.hiddenSize, 4096U);
    EXPECT_EQ(s.parameters, TransformerParameters(32000, 4096, 14336, 32, 32, 8, 8));
    EXPECT_EQ(s.parameters, 46702792704U);

    s = ModelShape::FromPreset(ModelPreset::DEEPSEEK_V3);
    EXPECT_EQ(s.kvHeads, 0U);
    EXPECT_EQ(s.kvBytesPerTokenDirect, 70272U);
    EXPECT_EQ(s.hiddenSize, 7168U);
    EXPECT_EQ(s.experts, 256U);
    EXPECT_EQ(s.expertsPerToken, 8U);
    EXPECT_EQ(s.moeLayers, 58U);
    EXPECT_EQ(s.parameters, 671000000000U);
}

TEST(ModelShape, PresetNames)
{
    for (const auto& e : EnumTable<ModelPreset>::Get())
    {
        EXPECT_EQ(ParseEnum<ModelPreset>(e.name, "--model"), e.value);
        EXPECT_EQ(ModelShape::FromPreset(e.value).name, e.name);
        EXPECT_NO_THROW(ModelShape::FromPreset(e.value).Validate());
    }
    EXPECT_EQ(ParseEnum<ModelPreset>("Llama-3.1-70B", "--model"), ModelPreset::LLAMA_3_70B);
    std::string m = ErrorOf([] { ParseEnum<ModelPreset>("gpt-5", "--model"); });
    EXPECT_CONTAINS(m, "--model");
    EXPECT_CONTAINS(m, "mixtral-8x7b");
}

TEST(ModelShape, AnyShapeByFields)
{
    ModelShape s;
    s.layers = 2;
    s.kvHeads = 3;
    s.headDim = 5;
    s.kvBytesPerElement = 4;
    EXPECT_EQ(s.GetKvBytesPerToken(), 2U * 3 * 5 * 2 * 4);
    EXPECT_EQ(s.GetKvBytes(7), 7U * 240);
    s.kvBytesPerElement = 1; // 8-bit cache
    EXPECT_EQ(s.GetKvBytesPerToken(), 60U);

    ModelShape direct;
    direct.layers = 10;
    direct.kvBytesPerTokenDirect = 12345;
    direct.kvBytesPerElement = 0; // not used with a direct figure
    EXPECT_EQ(direct.GetKvBytesPerToken(), 12345U);
    EXPECT_EQ(direct.GetKvBytes(3), 37035U);
}

TEST(ModelShape, BadFields)
{
    ModelShape good;
    good.name = "toy";
    good.layers = 4;
    good.kvHeads = 2;
    good.headDim = 8;

    ModelShape s = good;
    s.layers = 0;
    std::string m = ErrorOf([&s] { s.Validate(); });
    EXPECT_CONTAINS(m, "layers");
    EXPECT_CONTAINS(m, "\"toy\"");
    EXPECT_CONTAINS(m, "= 0");

    s = good;
    s.kvHeads = 0;
    ExpectErrorContaining([&s] { s.GetKvBytesPerToken(); }, "kvHeads");
    s = good;
    s.headDim = 0;
    ExpectErrorContaining([&s] { s.GetKvBytesPerToken(); }, "headDim");
    s = good;
    s.kvBytesPerElement = 0;
    ExpectErrorContaining([&s] { s.GetKvBytesPerToken(); }, "kvBytesPerElement");
    s = good;
    s.kvBytesPerTokenDirect = 100;
    m = ErrorOf([&s] { s.Validate(); });
    EXPECT_CONTAINS(m, "invalid kvBytesPerTokenDirect (model \"toy\") = 100");
    EXPECT_CONTAINS(m, "not both");

    s = good;
    s.expertsPerToken = 2; // dense model
    ExpectErrorContaining([&s] { s.Validate(); }, "expertsPerToken = 2");
    s = good;
    s.experts = 8;
    s.expertsPerToken = 9;
    s.moeLayers = 4;
    ExpectErrorContaining([&s] { s.Validate(); }, "1 <= expertsPerToken <= experts = 8");
    s.expertsPerToken = 2;
    s.moeLayers = 5;
    ExpectErrorContaining([&s] { s.Validate(); }, "1 <= moeLayers <= layers = 4");
    s.moeLayers = 0;
    ExpectErrorContaining([&s] { s.Validate(); }, "moeLayers");
    s.moeLayers = 4;
    EXPECT_NO_THROW(s.Validate());
}

TEST(ModelShape, OverflowNamesTheFields)
{
    ModelShape s;
    s.name = "huge";
    s.layers = UINT32_MAX;
    s.kvHeads = UINT32_MAX;
    s.headDim = UINT32_MAX;
    std::string m = ErrorOf([&s] { s.GetKvBytesPerToken(); });
    EXPECT_CONTAINS(m, "KV bytes per token");
    EXPECT_CONTAINS(m, "layers (4294967295)");
    EXPECT_CONTAINS(m, "headDim (4294967295)");
    EXPECT_CONTAINS(m, "does not fit in 64 bits");

    ModelShape l8 = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    m = ErrorOf([&l8] { l8.GetKvBytes(uint64_t{1} << 50); });
    EXPECT_CONTAINS(m, "tokens (1125899906842624)");
    EXPECT_CONTAINS(m, "KV bytes per token (131072)");
    // the largest product that fits does not throw
    EXPECT_EQ(CheckedProduct("x", {{"a", UINT64_MAX}, {"b", 1}}), UINT64_MAX);
    EXPECT_EQ(CheckedProduct("x", {{"a", uint64_t{1} << 32}, {"b", (uint64_t{1} << 32) - 1}}),
              (uint64_t{1} << 32) * ((uint64_t{1} << 32) - 1));
    ExpectErrorContaining(
        [] {
            CheckedProduct("x", {{"a", uint64_t{1} << 32}, {"b", 1ULL << 32}});
        },
        "x = a (4294967296) x b (4294967296) does not fit");
}

TEST(CollectiveSize, GradientAllReduce)
{
    const ModelShape l8 = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    // parameters x 2 bytes / (TP x PP)
    EXPECT_EQ(GradientAllReduceBytes(l8, {}), 16060522496U);
    EXPECT_EQ(GradientAllReduceBytes(l8, {8, 1, 2}), 2007565312U);
    // not divisible: the largest shard, rounded up (16060522496 = 3 x 5353507498 + 2)
    EXPECT_EQ(GradientAllReduceBytes(l8, {3, 1, 2}), 5353507499U);
    EXPECT_EQ(GradientAllReduceBytes(l8, {1, 1, 4}), 32121044992U);
    const ModelShape l70 = ModelShape::FromPreset(ModelPreset::LLAMA_3_70B);
    EXPECT_EQ(GradientAllReduceBytes(l70, {8, 4, 2}), 4409606656U);
}

TEST(CollectiveSize, GradientAllReduceErrors)
{
    ModelShape s = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    ExpectErrorContaining([&s] { GradientAllReduceBytes(s, {0, 1, 2}); }, "tensorParallel");
    ExpectErrorContaining([&s] { GradientAllReduceBytes(s, {1, 0, 2}); }, "pipelineParallel");
    ExpectErrorContaining(
        [&s] {
            GradientAllReduceBytes(s, {1, 1, 0});
        },
        "gradientBytesPerElement");
    s.parameters = 0;
    ExpectErrorContaining([&s] { GradientAllReduceBytes(s, {}); }, "parameters");
    s.parameters = uint64_t{1} << 62;
    std::string m = ErrorOf([&s] { GradientAllReduceBytes(s, {1, 1, 4}); });
    EXPECT_CONTAINS(m, "parameters (4611686018427387904)");
    EXPECT_CONTAINS(m, "gradientBytesPerElement (4)");
}

TEST(CollectiveSize, MoeAllToAll)
{
    const ModelShape mixtral = ModelShape::FromPreset(ModelPreset::MIXTRAL_8X7B);
    // 4096 tokens x top-2 x hidden 4096 x 2 bytes per operation; 2 x 32 layers x 2 passes
    AllToAllSize a = MoeAllToAllBytes(mixtral, {4096, 2, 2});
    EXPECT_EQ(a.bytesPerOperation, 67108864U);
    EXPECT_EQ(a.operationsPerIteration, 128U);
    EXPECT_EQ(a.bytesPerIteration, 8589934592U);
    a = MoeAllToAllBytes(mixtral, {4096, 2, 1}); // forward only
    EXPECT_EQ(a.operationsPerIteration, 64U);
    EXPECT_EQ(a.bytesPerIteration, 4294967296U);

    const ModelShape dsv3 = ModelShape::FromPreset(ModelPreset::DEEPSEEK_V3);
    // 1024 tokens x top-8 x 7168 x 2 bytes; 2 x 58 MoE layers x 1 pass
    a = MoeAllToAllBytes(dsv3, {1024, 2, 1});
    EXPECT_EQ(a.bytesPerOperation, 117440512U);
    EXPECT_EQ(a.operationsPerIteration, 116U);
    EXPECT_EQ(a.bytesPerIteration, 13623099392U);
}

TEST(CollectiveSize, MoeAllToAllErrors)
{
    const ModelShape dense = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    ExpectErrorContaining([&dense] { MoeAllToAllBytes(dense, {1024, 2, 2}); }, "experts");
    ModelShape moe = ModelShape::FromPreset(ModelPreset::MIXTRAL_8X7B);
    ExpectErrorContaining([&moe] { MoeAllToAllBytes(moe, {0, 2, 2}); }, "tokensPerMember");
    ExpectErrorContaining(
        [&moe] {
            MoeAllToAllBytes(moe, {1, 0, 2});
        },
        "activationBytesPerElement");
    ExpectErrorContaining([&moe] { MoeAllToAllBytes(moe, {1, 2, 3}); }, "passes = 3");
    moe.hiddenSize = 0;
    ExpectErrorContaining([&moe] { MoeAllToAllBytes(moe, {1, 2, 2}); }, "hiddenSize");
    moe = ModelShape::FromPreset(ModelPreset::MIXTRAL_8X7B);
    std::string m = ErrorOf([&moe] { MoeAllToAllBytes(moe, {uint64_t{1} << 50, 2, 2}); });
    EXPECT_CONTAINS(m, "tokensPerMember (1125899906842624)");
    EXPECT_CONTAINS(m, "hiddenSize (4096)");
    // per operation fits, per iteration does not
    m = ErrorOf([&moe] { MoeAllToAllBytes(moe, {uint64_t{1} << 45, 1, 2}); });
    EXPECT_CONTAINS(m, "bytes per iteration");
    EXPECT_CONTAINS(m, "moeLayers (32)");
}
