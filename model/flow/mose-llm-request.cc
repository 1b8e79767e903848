/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-request.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLlmRequest");

namespace
{

/// pi, for the Box-Muller transform
constexpr double PI = 3.14159265358979323846;

/// \brief Checks a token-length distribution; names its fields "NAME.mean", ...
void
ValidateDistribution(const TokenLengthDistribution& d, const std::string& name)
{
    if (!(d.mean > 0.0 && std::isfinite(d.mean)))
    {
        ThrowBadParameter(name + ".mean", FormatNumber(d.mean), "a positive, finite mean");
    }
    if (!(d.sigma >= 0.0 && d.sigma <= 10.0))
    {
        ThrowBadParameter(name + ".sigma", FormatNumber(d.sigma), "0 <= sigma <= 10");
    }
    if (d.min < 1)
    {
        ThrowBadParameter(name + ".min", std::to_string(d.min), "at least 1 token");
    }
    if (d.max < d.min || d.max > MAX_REQUEST_TOKENS)
    {
        ThrowBadParameter(name + ".max",
                          std::to_string(d.max),
                          name + ".min = " + std::to_string(d.min) +
                              " <= max <= " + std::to_string(MAX_REQUEST_TOKENS));
    }
}

/// \return a standard normal from two uniform draws (Box-Muller, cosine half)
double
DrawNormal(Random& rng)
{
    const double u1 = rng.Uniform01();
    const double u2 = rng.Uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * PI * u2);
}

/// \return one token length drawn from the distribution
uint64_t
DrawLength(const TokenLengthDistribution& d, Random& rng)
{
    const double z = DrawNormal(rng);
    const double mu = std::log(d.mean) - d.sigma * d.sigma / 2.0;
    const double x = std::exp(mu + d.sigma * z);
    const double clamped =
        std::min(std::max(x, static_cast<double>(d.min)), static_cast<double>(d.max));
    return static_cast<uint64_t>(std::llround(clamped));
}

} // namespace

void
ValidateLlmRequests(const std::vector<LlmRequest>& requests, const std::string& name)
{
    NS_LOG_FUNCTION(requests.size() << name);
    for (std::size_t i = 0; i < requests.size(); ++i)
    {
        const LlmRequest& r = requests[i];
        const std::string at = name + "[" + std::to_string(i) + "]";
        if (r.arrivalNs > MAX_ARRIVAL_NS)
        {
            ThrowBadParameter(at + ".arrivalNs",
                              std::to_string(r.arrivalNs),
                              "at most " + std::to_string(MAX_ARRIVAL_NS) + " ns");
        }
        if (i > 0 && r.arrivalNs < requests[i - 1].arrivalNs)
        {
            ThrowBadParameter(at + ".arrivalNs",
                              std::to_string(r.arrivalNs),
                              "requests sorted by arrival: the previous one arrives at " +
                                  std::to_string(requests[i - 1].arrivalNs) + " ns");
        }
        if (r.inputTokens < 1 || r.inputTokens > MAX_REQUEST_TOKENS)
        {
            ThrowBadParameter(at + ".inputTokens",
                              std::to_string(r.inputTokens),
                              "1 <= inputTokens <= " + std::to_string(MAX_REQUEST_TOKENS));
        }
        if (r.outputTokens > MAX_REQUEST_TOKENS)
        {
            ThrowBadParameter(at + ".outputTokens",
                              std::to_string(r.outputTokens),
                              "outputTokens <= " + std::to_string(MAX_REQUEST_TOKENS));
        }
    }
}

uint64_t
GetKvBytes(const LlmRequest& request, const ModelShape& shape)
{
    return shape.GetKvBytes(request.inputTokens);
}

std::vector<LlmRequest>
GenerateLlmRequests(const LlmRequestGeneratorOptions& options, Random& rng)
{
    NS_LOG_FUNCTION(options.requests << options.rate << options.tickNs << &rng);
    if (options.requests == 0)
    {
        ThrowBadParameter("requests", "0", "at least 1 request");
    }
    if (!(options.rate > 0.0 && std::isfinite(options.rate)))
    {
        ThrowBadParameter("rate",
                          FormatNumber(options.rate),
                          "a positive, finite arrival rate in requests per second");
    }
    ValidateDistribution(options.input, "input");
    ValidateDistribution(options.output, "output");
    if (options.tickNs == 0 || options.tickNs > MAX_ARRIVAL_NS)
    {
        ThrowBadParameter("tickNs",
                          std::to_string(options.tickNs),
                          "1 <= tickNs <= " + std::to_string(MAX_ARRIVAL_NS));
    }
    std::vector<LlmRequest> requests;
    requests.reserve(static_cast<std::size_t>(std::min<uint64_t>(options.requests, 1 << 20)));
    const auto tick = static_cast<double>(options.tickNs);
    const uint64_t maxTicks = MAX_ARRIVAL_NS / options.tickNs;
    double seconds = 0.0;
    for (uint64_t i = 0; i < options.requests; ++i)
    {
        if (i > 0)
        {
            seconds += -std::log(rng.Uniform01()) / options.rate;
        }
        const double ticks = std::nearbyint(seconds * 1e9 / tick);
        if (!(ticks <= static_cast<double>(maxTicks)))
        {
            ThrowBadParameter("requests",
                              std::to_string(options.requests),
                              "arrivals within " + std::to_string(MAX_ARRIVAL_NS) +
                                  " ns: at rate = " + FormatNumber(options.rate) + "/s request " +
                                  std::to_string(i) + " arrives after " + FormatNumber(seconds) +
                                  " s");
        }
        LlmRequest r;
        r.arrivalNs = static_cast<uint64_t>(ticks) * options.tickNs;
        r.inputTokens = DrawLength(options.input, rng);
        r.outputTokens = DrawLength(options.output, rng);
        requests.push_back(r);
    }
    NS_LOG_INFO("generated " << requests.size() << " requests over "
                             << static_cast<double>(requests.back().arrivalNs) * 1e-9 << " s");
    return requests;
}

uint64_t
ScaleBytes(uint64_t bytes, uint64_t scale, uint64_t least)
{
    uint64_t q = bytes / scale;
    if ((bytes % scale) * 2 >= scale && scale > 1)
    {
        ++q;
    }
    return std::max(q, least);
}

} // namespace mose
} // namespace ns3
