/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-percentile.h"

#include "mose-error.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MosePercentile");

namespace
{

/// Throws unless 0 <= p <= 100 (NaN included)
void
CheckPercent(double p)
{
    if (!(p >= 0.0 && p <= 100.0))
    {
        ThrowBadParameter("percentile", FormatNumber(p), "0 <= p <= 100");
    }
}

/// \return the fractional rank h = (n - 1) p / 100 of type-7 interpolation
double
Rank(uint64_t n, double p)
{
    return static_cast<double>(n - 1) * p / 100.0;
}

/// \return v[k] + (h - k)(v[k+1] - v[k]), written once so both percentile functions agree
double
Interpolate(double lower, double upper, double h, double k)
{
    return lower + (h - k) * (upper - lower);
}

/**
 * \brief The value at a 0-based rank of a multiset given as (value, count) pairs.
 *
 * Quickselect on the pairs with a three-way partition around a median-of-three pivot value,
 * weighing each side by its counts: O(m) on average for m pairs. After 2 log2(m) + 8 rounds
 * (an adversarial order) it sorts what is left and walks the cumulative counts, so the worst
 * case stays O(m log m). Reorders the pairs.
 * \param values the pairs, counts > 0
 * \param rank the rank, < the total count
 * \return the value
 */
double
SelectRank(std::vector<std::pair<double, uint64_t>>& values, uint64_t rank)
{
    using Entry = std::pair<double, uint64_t>;
    auto lo = values.begin();
    auto hi = values.end();
    uint32_t rounds = 8;
    for (std::size_t m = values.size(); m > 1; m >>= 1)
    {
        rounds += 2;
    }
    while (hi - lo > 1 && rounds-- > 0)
    {
        const double a = lo->first;
        const double b = (lo + (hi - lo) / 2)->first;
        const double c = (hi - 1)->first;
        const double pivot = std::max(std::min(a, b), std::min(std::max(a, b), c));
        auto mid1 = std::partition(lo, hi, [pivot](const Entry& e) { return e.first < pivot; });
        auto mid2 = std::partition(mid1, hi, [pivot](const Entry& e) { return e.first == pivot; });
        uint64_t less = 0;
        for (auto it = lo; it != mid1; ++it)
        {
            less += it->second;
        }
        uint64_t equal = 0;
        for (auto it = mid1; it != mid2; ++it)
        {
            equal += it->second;
        }
        if (rank < less)
        {
            hi = mid1;
        }
        else if (rank < less + equal)
        {
            return pivot;
        }
        else
        {
            rank -= less + equal;
            lo = mid2;
        }
    }
    std::sort(lo, hi);
    for (auto it = lo; it != hi; ++it)
    {
        if (rank < it->second)
        {
            return it->first;
        }
        rank -= it->second;
    }
    return (hi - 1)->first; // not reached for a valid rank
}

} // namespace

double
Percentile(std::vector<double> values, double p)
{
    NS_LOG_FUNCTION(values.size() << p);
    CheckPercent(p);
    if (values.empty())
    {
        throw MoseError("Percentile: the sample is empty");
    }
    // selection instead of a full sort: O(n) on average
    const double h = Rank(values.size(), p);
    const auto k = static_cast<std::size_t>(std::floor(h));
    std::nth_element(values.begin(), values.begin() + k, values.end());
    const double lower = values[k];
    const double upper =
        k + 1 < values.size() ? *std::min_element(values.begin() + k + 1, values.end()) : lower;
    return Interpolate(lower, upper, h, static_cast<double>(k));
}

double
WeightedPercentile(std::vector<std::pair<double, uint64_t>> values, double p)
{
    NS_LOG_FUNCTION(values.size() << p);
    return WeightedPercentileInPlace(values, p);
}

double
WeightedPercentileInPlace(std::vector<std::pair<double, uint64_t>>& values, double p)
{
    NS_LOG_FUNCTION(values.size() << p);
    CheckPercent(p);
    values.erase(std::remove_if(values.begin(),
                                values.end(),
                                [](const std::pair<double, uint64_t>& e) { return e.second == 0; }),
                 values.end());
    uint64_t total = 0;
    for (const auto& e : values)
    {
        total += e.second;
    }
    if (total == 0)
    {
        throw MoseError("WeightedPercentile: the sample is empty");
    }
    const double h = Rank(total, p);
    const auto k = static_cast<uint64_t>(std::floor(h));
    const uint64_t k1 = std::min<uint64_t>(k + 1, total - 1);
    const double lower = SelectRank(values, k);
    // rank k + 1 holds the same value while the values <= lower outnumber it, else the
    // smallest larger value: one pass instead of a second selection
    double upper = lower;
    if (k1 != k)
    {
        uint64_t notAbove = 0;
        double above = std::numeric_limits<double>::infinity();
        for (const auto& [value, count] : values)
        {
            if (value <= lower)
            {
                notAbove += count;
            }
            else if (value < above)
            {
                above = value;
            }
        }
        upper = notAbove > k1 ? lower : above;
    }
    return Interpolate(lower, upper, h, static_cast<double>(k));
}

} // namespace mose
} // namespace ns3
