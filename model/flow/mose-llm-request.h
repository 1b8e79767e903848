/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_REQUEST_H
#define MOSE_LLM_REQUEST_H

#include "mose-model-shape.h"

#include "ns3/mose-random.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief LLM inference requests: the request, its KV-cache bytes, the checks of a list
 *        and the generator (Poisson arrivals, lognormal token lengths). Traces in the public
 *        forms and the serving simulators' forms are read and written by mose-llm-trace.h.
 */

namespace ns3
{
namespace mose
{

/// \ingroup mose-llm
/// The most tokens a request may have in input or output (traces and generator): 10 million,
/// far above any public model's context, so a larger number is a broken file
constexpr uint64_t MAX_REQUEST_TOKENS = 10000000;

/// \ingroup mose-llm
/// The latest arrival, in ns after the start: 10^18 ns (about 31.7 years)
constexpr uint64_t MAX_ARRIVAL_NS = 1000000000000000000ULL;

/**
 * \ingroup mose-llm
 * \brief One LLM inference request.
 */
struct LlmRequest
{
    uint64_t arrivalNs{0};    //!< arrival time in ns after the start of the trace
    uint64_t inputTokens{0};  //!< prompt tokens (>= 1): the KV cache prefill hands to decode
    uint64_t outputTokens{0}; //!< generated tokens (>= 0)
    /// where it was read, not part of the request: the trace's own request id (SplitwiseSim's
    /// request_id), empty for the forms without one and for generated requests
    std::string traceId;
    /// where it was read: the 1-based physical line of the trace that holds it (0: generated)
    uint64_t traceLine{0};

    /// \return true if the request is the same: arrival and token counts equal (where it was
    ///         read, traceId and traceLine, is not compared)
    bool operator==(const LlmRequest& o) const
    {
        return arrivalNs == o.arrivalNs && inputTokens == o.inputTokens &&
               outputTokens == o.outputTokens;
    }
};

/**
 * \ingroup mose-llm
 * \brief Checks a list of requests: arrivals sorted (non-decreasing) and at most
 *        MAX_ARRIVAL_NS, 1 <= inputTokens <= MAX_REQUEST_TOKENS, outputTokens <=
 *        MAX_REQUEST_TOKENS.
 * \param requests the requests
 * \param name how the caller calls the list, for the message
 * Throws a mose::Error naming the list, the request's index, the field and its value.
 */
void ValidateLlmRequests(const std::vector<LlmRequest>& requests, const std::string& name);

/**
 * \ingroup mose-llm
 * \brief The KV cache a request's prefill hands to its decode group: one entry per prompt token,
 *        inputTokens x the model's KV bytes per token, exactly (overflow-checked).
 * \param request the request
 * \param shape the model
 * \return bytes
 */
uint64_t GetKvBytes(const LlmRequest& request, const ModelShape& shape);

/**
 * \ingroup mose-llm
 * \brief A byte count divided by a run's scale (--scale), as both levels send it: round(bytes /
 *        scale), halves up, and at least `least` (a KV cache at least 1 byte, a collective at
 *        least one byte per member).
 * \param bytes the unscaled bytes
 * \param scale the factor (>= 1)
 * \param least the smallest result
 * \return the scaled bytes
 */
uint64_t ScaleBytes(uint64_t bytes, uint64_t scale, uint64_t least);

/**
 * \ingroup mose-llm
 * \brief A token-length distribution: lognormal, clamped, rounded to an integer.
 *
 * A draw is round(clamp(exp(mu + sigma z), min, max)) with z a standard normal and
 * mu = ln(mean) - sigma^2 / 2, so that mean is the mean of the lognormal before clamping (its
 * median is exp(mu)); sigma = 0 gives round(clamp(mean)) every time. Halves round away from
 * zero.
 */
struct TokenLengthDistribution
{
    double mean{1024.0}; //!< mean of the lognormal before clamping (> 0, finite)
    double sigma{1.0};   //!< standard deviation of the underlying normal (>= 0, finite)
    uint64_t min{1};     //!< smallest length (>= 1)
    uint64_t max{32768}; //!< largest length (min <= max <= MAX_REQUEST_TOKENS)
};

/**
 * \ingroup mose-llm
 * \brief The request generator's parameters.
 *
 * The defaults are round numbers of the order the public traces show (prompts of about a
 * thousand tokens, outputs of about a hundred, heavy right tails); they are not fitted to any
 * trace.
 */
struct LlmRequestGeneratorOptions
{
    uint64_t requests{1000}; //!< number of requests (>= 1)
    double rate{10.0};       //!< Poisson arrival rate in requests per second (> 0, finite)
    TokenLengthDistribution input{1024.0, 1.0, 1, 32768}; //!< prompt lengths
    TokenLengthDistribution output{128.0, 1.0, 1, 4096};  //!< output lengths
    /// arrivals are rounded to whole multiples of this many ns (>= 1): 100 writes exactly in the
    /// Azure form, 1000000 gives whole milliseconds as the Mooncake traces have
    uint64_t tickNs{100};
};

/**
 * \ingroup mose-llm
 * \brief Generates requests: Poisson arrivals at a rate, lognormal token lengths.
 *
 * The first request arrives at 0; each later one after an exponential gap of mean 1/rate
 * seconds, -ln(U)/rate with U uniform on (0, 1). The arrival times are summed as reals in
 * seconds and each is rounded to the nearest multiple of tickNs (so rounding errors do not
 * accumulate; equal arrivals can result). Per request the draws are, in this order: the gap
 * (not for the first request), then input and output length, each from one standard normal
 * z = sqrt(-2 ln U1) cos(2 pi U2) (two Uniform01() draws; the sine half is not used). The
 * stream fixes every draw: the same options and stream (Stream::LLM_REQUESTS of a run) give
 * the same requests, bit for bit, on every machine with the same C library.
 * \param options the parameters
 * \param rng the random stream
 * \return the requests, sorted by arrival; throws a mose::Error naming the option for
 *         requests = 0, a rate that is not positive and finite, a distribution outside its
 *         bounds (input.mean, output.sigma, ...), tickNs = 0, or requests whose arrivals would
 *         pass MAX_ARRIVAL_NS
 */
std::vector<LlmRequest> GenerateLlmRequests(const LlmRequestGeneratorOptions& options, Random& rng);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_REQUEST_H */
