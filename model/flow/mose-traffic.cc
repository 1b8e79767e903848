/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-traffic.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseTraffic");

const std::vector<EnumEntry<TrafficClass>>&
EnumTable<TrafficClass>::Get()
{
    static const std::vector<EnumEntry<TrafficClass>> names = {
        {TrafficClass::KV, "kv", {}},
        {TrafficClass::TRAINING, "training", {"tr"}},
    };
    return names;
}

std::vector<Flow>
GenerateTraffic(const RoleAssignment& roles,
                const PdAssignment& assignment,
                const TrafficOptions& options,
                Random& rng)
{
    NS_LOG_FUNCTION(roles.GetN() << assignment.GetPairs().size() << options.flows << options.kvShare
                                 << options.demand << &rng);
    // the negated comparisons also reject NaN
    if (!(options.kvShare >= 0.0 && options.kvShare <= 1.0))
    {
        ThrowBadParameter(options.kvShareName,
                          FormatNumber(options.kvShare),
                          "0 <= " + options.kvShareName + " <= 1");
    }
    if (options.flows == 0)
    {
        ThrowBadParameter("flows", "0", "at least 1 flow");
    }
    if (!(options.demand > 0.0 && std::isfinite(options.demand)))
    {
        ThrowBadParameter("demand",
                          FormatNumber(options.demand),
                          "a positive, finite demand per flow");
    }
    const auto kvFlows =
        static_cast<uint64_t>(std::llround(options.kvShare * static_cast<double>(options.flows)));
    const uint64_t trainingFlows = options.flows - std::min(kvFlows, options.flows);
    const std::vector<PdPair>& pairs = assignment.GetPairs();
    if (kvFlows > 0 && pairs.empty())
    {
        ThrowBadParameter("assignment",
                          "an empty P-D assignment",
                          "at least one prefill->decode pair, since " + options.kvShareName +
                              " = " + FormatNumber(options.kvShare) +
                              " and flows = " + std::to_string(options.flows) + " give " +
                              std::to_string(kvFlows) + " KV flows");
    }
    const std::vector<uint32_t>& training = roles.GetTraining();
    if (trainingFlows > 0 && training.size() < 2)
    {
        ThrowBadParameter("roles",
                          std::to_string(training.size()) + " training group(s)",
                          "at least 2 training groups, since " + options.kvShareName + " = " +
                              FormatNumber(options.kvShare) +
                              " and flows = " + std::to_string(options.flows) + " give " +
                              std::to_string(trainingFlows) + " training flows");
    }
    assignment.Validate(roles);
    NS_LOG_INFO("generating " << options.flows << " flows: " << kvFlows << " KV over "
                              << pairs.size() << " P-D pairs, " << trainingFlows
                              << " training among " << training.size() << " training groups");
    if (kvFlows == 0 && options.kvShare > 0.0)
    {
        NS_LOG_WARN(options.kvShareName << " = " << options.kvShare << " of " << options.flows
                                        << " flows rounds to no KV flow");
    }

    std::vector<Flow> flows;
    flows.reserve(options.flows);

    // KV flows: inverse-CDF sampling on the cumulative weights (one Uniform01() draw and a
    // binary search per flow, O(log pairs)). Chosen over Walker's alias method because it
    // consumes exactly one draw per flow with no table construction subtleties, and its result
    // depends only on the pair order, which makes runs easy to reproduce by hand.
    if (kvFlows > 0)
    {
        std::vector<double> cumulative(pairs.size());
        double sum = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i)
        {
            sum += pairs[i].weight;
            cumulative[i] = sum;
        }
        for (uint64_t f = 0; f < kvFlows; ++f)
        {
            const double x = rng.Uniform01() * sum;
            auto it = std::upper_bound(cumulative.begin(), cumulative.end(), x);
            std::size_t i = std::min<std::size_t>(it - cumulative.begin(), pairs.size() - 1);
            flows.push_back({pairs[i].prefill, pairs[i].decode, TrafficClass::KV, options.demand});
        }
    }

    // Training flows: s uniform among the training groups, t uniform among the others.
    const auto nt = static_cast<uint32_t>(training.size());
    for (uint64_t f = 0; f < trainingFlows; ++f)
    {
        uint32_t i = rng.Index(nt);
        uint32_t j = rng.Index(nt - 1);
        j += (j >= i) ? 1 : 0;
        flows.push_back({training[i], training[j], TrafficClass::TRAINING, options.demand});
    }
    return flows;
}

} // namespace mose
} // namespace ns3
