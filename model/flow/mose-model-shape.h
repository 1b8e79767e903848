/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_MODEL_SHAPE_H
#define MOSE_MODEL_SHAPE_H

#include "ns3/mose-parse.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief Model shapes of LLMs: KV-cache bytes per token, and the sizes S of the training
 *        collectives (gradient all-reduce, MoE all-to-all) from the shape and the parallelism.
 *
 * All arithmetic is in unsigned 64 bits and checked: a product or sum that does not fit is a
 * mose::Error naming every factor and its value, never a wrapped number.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-llm
 * \brief One named factor of a checked product, for the message if the product overflows.
 */
struct NamedFactor
{
    std::string name; //!< how the user calls the factor (a field name, or e.g. "K and V")
    uint64_t value;   //!< its value
};

/**
 * \ingroup mose-llm
 * \brief The product of the factors, checked for 64-bit overflow.
 * \param what what the product is, for the message (e.g. "KV bytes per token")
 * \param factors the factors, in the order the formula writes them
 * \return the product; throws a mose::Error "WHAT = a (x) x b (y) x ... does not fit in 64 bits
 *         (at most 18446744073709551615)" if it overflows
 */
uint64_t CheckedProduct(const std::string& what, const std::vector<NamedFactor>& factors);

/**
 * \ingroup mose-llm
 * \brief Public model shapes with their published figures (ModelShape::FromPreset()).
 */
enum class ModelPreset : uint8_t
{
    LLAMA_3_8B,   //!< Llama-3/3.1-8B: 32 layers, 8 KV heads, head dim 128 (131,072 B/token)
    LLAMA_3_70B,  //!< Llama-3/3.1-70B: 80 layers, 8 KV heads, head dim 128 (327,680 B/token)
    MIXTRAL_8X7B, //!< Mixtral-8x7B: 32 layers, 8 KV heads, head dim 128, 8 experts, top-2
    DEEPSEEK_V3,  //!< DeepSeek-V3: MLA cache, 61 layers x (512 + 64) x 2 B = 70,272 B/token
};

/// \ingroup mose-llm
/// Names of ModelPreset: "llama-3-8b", "llama-3-70b", "mixtral-8x7b", "deepseek-v3"; also
/// llama-3.1-8b, llama-3.1-70b
template <>
struct EnumTable<ModelPreset>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<ModelPreset>>& Get();
};

/**
 * \ingroup mose-llm
 * \brief The shape of an LLM as far as the network sees it: the KV cache a prefill group sends
 *        to a decode group per token, and the sizes that set the training collectives.
 *
 * KV bytes per token is either computed from attention heads,
 *
 *   layers x kvHeads x headDim x 2 (K and V) x kvBytesPerElement,
 *
 * or, for caches that store one compressed latent per layer (multi-head latent attention),
 * given directly in kvBytesPerTokenDirect (then kvHeads and headDim must be 0 and
 * kvBytesPerElement is not used). Any shape can be written field by field; FromPreset() gives
 * the public ones.
 */
struct ModelShape
{
    std::string name;                  //!< the model's name, for output (may be empty)
    uint32_t layers{0};                //!< transformer layers (>= 1)
    uint32_t kvHeads{0};               //!< KV heads per layer (grouped-query attention)
    uint32_t headDim{0};               //!< dimension of one head
    uint32_t kvBytesPerElement{2};     //!< bytes per cached element (2 at 16 bit)
    uint64_t kvBytesPerTokenDirect{0}; //!< if > 0: KV bytes per token given directly (MLA)
    uint32_t hiddenSize{0};            //!< hidden (model) dimension; 0 if unknown
    uint64_t parameters{0};            //!< total parameter count; 0 if unknown
    uint32_t experts{0};               //!< routed experts per MoE layer; 0 for a dense model
    uint32_t expertsPerToken{0};       //!< experts each token is routed to (top-k); 0 if dense
    uint32_t moeLayers{0};             //!< layers with an MoE block; 0 if dense

    /**
     * \brief Throws a mose::Error naming the field, its value and what is allowed unless:
     *        layers >= 1; either kvBytesPerTokenDirect > 0 with kvHeads = headDim = 0, or
     *        kvBytesPerTokenDirect = 0 with kvHeads, headDim, kvBytesPerElement >= 1; for a dense
     *        model (experts = 0) expertsPerToken = moeLayers = 0, for an MoE model
     *        1 <= expertsPerToken <= experts and 1 <= moeLayers <= layers.
     */
    void Validate() const;

    /// \return KV bytes per token (validated; overflow-checked, the message names the fields)
    uint64_t GetKvBytesPerToken() const;

    /**
     * \param tokens a number of tokens
     * \return tokens x GetKvBytesPerToken(), overflow-checked
     */
    uint64_t GetKvBytes(uint64_t tokens) const;

    /// \return true if the model has MoE layers (experts > 0)
    bool IsMoe() const;

    /**
     * \brief A public model shape. Figures from each model's published configuration
     *        (config.json of its Hugging Face repository); parameter counts are those the
     *        configuration gives (embeddings, attention, MLP or experts, norms; untied output
     *        layer), except DeepSeek-V3's, the rounded 671 B of its technical report.
     * \param preset the model
     * \return its shape
     */
    static ModelShape FromPreset(ModelPreset preset);
};

/**
 * \ingroup mose-llm
 * \brief The parallelism that sets the gradient all-reduce of data-parallel training.
 */
struct AllReduceSizing
{
    uint32_t tensorParallel{1};          //!< tensor-parallel degree TP (>= 1)
    uint32_t pipelineParallel{1};        //!< pipeline-parallel degree PP (>= 1)
    uint32_t gradientBytesPerElement{2}; //!< bytes per gradient element (2: bf16, 4: fp32)
};

/**
 * \ingroup mose-llm
 * \brief The size S of the gradient all-reduce one data-parallel group runs per iteration.
 *
 * Each data-parallel replica holds the gradients of its model shard, 1/(TP x PP) of the
 * parameters, and the replicas of one shard all-reduce them:
 *
 *   S = ceil(parameters x gradientBytesPerElement / (tensorParallel x pipelineParallel)),
 *
 * rounded up (the largest shard when the division is not exact). Every parameter is counted as
 * data-parallel replicated; for an MoE model under expert parallelism, where each expert's
 * gradients are reduced only among that expert's replicas, this overstates S.
 * \param shape the model (parameters must be > 0)
 * \param sizing TP, PP and the gradient element size
 * \return S in bytes; throws a mose::Error naming the field for parameters = 0, a degree or
 *         element size of 0, or a product that overflows 64 bits
 */
uint64_t GradientAllReduceBytes(const ModelShape& shape, const AllReduceSizing& sizing);

/**
 * \ingroup mose-llm
 * \brief The inputs of the MoE all-to-all size.
 */
struct AllToAllSizing
{
    /// tokens each member (expert-parallel rank) processes per iteration, all its
    /// micro-batches together (>= 1): the global batch's tokens / the number of members
    uint64_t tokensPerMember{0};
    uint32_t activationBytesPerElement{2}; //!< bytes per activation element (>= 1)
    /// passes per iteration that run the all-to-alls: 1 forward only (inference), 2 forward and
    /// backward (training; the backward pass runs the same two all-to-alls in reverse)
    uint32_t passes{2};
};

/**
 * \ingroup mose-llm
 * \brief The sizes of a model's MoE all-to-alls (expert-parallel dispatch and combine).
 */
struct AllToAllSize
{
    /// S of one all-to-all (one dispatch or one combine of one MoE layer in one pass), per
    /// member: tokensPerMember x expertsPerToken x hiddenSize x activationBytesPerElement
    uint64_t bytesPerOperation{0};
    /// all-to-alls per iteration: 2 (dispatch and combine) x moeLayers x passes
    uint64_t operationsPerIteration{0};
    /// bytesPerOperation x operationsPerIteration: one member's all-to-all volume per iteration
    uint64_t bytesPerIteration{0};
};

/**
 * \ingroup mose-llm
 * \brief The MoE all-to-all sizes of one iteration.
 *
 * A dispatch sends each token's hidden vector to each of its top-k experts (k copies, no
 * de-duplication of experts that share a member, as capacity-based dispatch sends them) and the
 * combine sends the expert outputs back, the same volume. Under uniform routing over n members
 * a member sends bytesPerOperation / n to every member (PlanAllToAll(n, bytesPerOperation)),
 * keeping its own share.
 * \param shape the model (an MoE model with hiddenSize > 0)
 * \param sizing tokens per member, element size, passes
 * \return the sizes; throws a mose::Error naming the field for a dense model, hiddenSize = 0,
 *         tokensPerMember = 0, activationBytesPerElement = 0, passes outside {1, 2}, or a product
 *         that overflows 64 bits
 */
AllToAllSize MoeAllToAllBytes(const ModelShape& shape, const AllToAllSizing& sizing);

} // namespace mose
} // namespace ns3

#endif /* MOSE_MODEL_SHAPE_H */
