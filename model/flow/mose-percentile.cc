/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-percentile.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
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

/// RadixSelectRank()'s buckets per round (the histogram stays in L1: 16 KiB)
constexpr uint32_t RADIX_BUCKETS = 2048;

/// the bits of +infinity: larger bits are NaNs, and negative values (-0.0 included) set bit 63
constexpr uint64_t INFINITY_BITS = 0x7FF0000000000000;

/// \return the bits of a double
inline uint64_t
Bits(double x)
{
    uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

/**
 * \brief SelectRank() by the values' bits, for values that are all +0.0, positive or +inf:
 *        their bits then order as the values do, and equal values have equal bits.
 *
 * Each round spreads the bit range [lo, hi] of the candidates over RADIX_BUCKETS buckets
 * (bucket = (bits - lo) >> shift, monotone in the value), sums the counts per bucket, keeps
 * the bucket holding the rank (moved to the front) and narrows the range to it; one value
 * left (shift 0 or lo == hi) is the answer. O(m) per round and at most 6 rounds (64 bits,
 * 11 per round); in practice two passes over the pairs, with no data-dependent branch except
 * the rare move to the front, where quickselect's partitions mispredicted about every other
 * pair. The value is the one at the rank, as with SelectRank(). Reorders the pairs.
 * \param values the pairs, counts > 0
 * \param rank the rank, < the total count
 * \param value set to the value at the rank
 * \return false, with nothing changed, if some value is negative (-0.0 included) or NaN
 */
bool
RadixSelectRank(std::vector<std::pair<double, uint64_t>>& values, uint64_t rank, double& value)
{
    uint64_t lo = ~uint64_t{0};
    uint64_t hi = 0;
    for (const auto& e : values)
    {
        const uint64_t b = Bits(e.first);
        lo = std::min(lo, b);
        hi = std::max(hi, b);
    }
    if (hi > INFINITY_BITS)
    {
        return false;
    }
    std::size_t m = values.size(); // the candidates: values[0, m)
    uint64_t count[RADIX_BUCKETS];
    while (lo != hi)
    {
        uint32_t shift = 0;
        while (((hi - lo) >> shift) >= RADIX_BUCKETS)
        {
            ++shift;
        }
        std::fill(count, count + RADIX_BUCKETS, 0);
        for (std::size_t i = 0; i < m; ++i)
        {
            count[(Bits(values[i].first) - lo) >> shift] += values[i].second;
        }
        uint32_t bucket = 0;
        while (rank >= count[bucket])
        {
            rank -= count[bucket++];
        }
        std::size_t kept = 0;
        for (std::size_t i = 0; i < m; ++i)
        {
            if (((Bits(values[i].first) - lo) >> shift) == bucket)
            {
                std::swap(values[kept++], values[i]);
            }
        }
        m = kept;
        const uint64_t first = lo + (uint64_t{bucket} << shift);
        hi = std::min(hi, first + ((uint64_t{1} << shift) - 1));
        lo = first;
        if (shift == 0)
        {
            break;
        }
        // the bucket's actual range, so that the next round splits only what it holds
        lo = ~uint64_t{0};
        hi = 0;
        for (std::size_t i = 0; i < m; ++i)
        {
            const uint64_t b = Bits(values[i].first);
            lo = std::min(lo, b);
            hi = std::max(hi, b);
        }
    }
    value = values[0].first;
    return true;
}

} // namespace

double
Percentile(std::vector<double> values, double p)
{
    NS_LOG_FUNCTION(values.size() << p);
    CheckPercent(p);
    if (values.empty())
    {
        throw Error("Percentile: the sample is empty");
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
        throw Error("WeightedPercentile: the sample is empty");
    }
    const double h = Rank(total, p);
    const auto k = static_cast<uint64_t>(std::floor(h));
    const uint64_t k1 = std::min<uint64_t>(k + 1, total - 1);
    double lower = 0;
    if (!RadixSelectRank(values, k, lower))
    {
        lower = SelectRank(values, k);
    }
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

double
Mean(const std::vector<double>& values)
{
    if (values.empty())
    {
        return 0;
    }
    double sum = values.front();
    for (std::size_t i = 1; i < values.size(); ++i)
    {
        sum += values[i];
    }
    return sum / static_cast<double>(values.size());
}

SampleStatistics
DescribeSample(std::vector<double> values)
{
    NS_LOG_FUNCTION(values.size());
    SampleStatistics s;
    if (values.empty())
    {
        return s;
    }
    s.n = values.size();
    s.mean = Mean(values); // in the caller's order, as the reports always summed
    std::sort(values.begin(), values.end());
    // on sorted values, type 7 reads its two neighbours directly (Percentile() selects them)
    auto at = [&values](double p) {
        const double h = Rank(values.size(), p);
        const auto k = static_cast<std::size_t>(std::floor(h));
        const double lower = values[k];
        const double upper = k + 1 < values.size() ? values[k + 1] : lower;
        return Interpolate(lower, upper, h, static_cast<double>(k));
    };
    s.p50 = at(50);
    s.p95 = at(95);
    s.p99 = at(99);
    s.max = values.back();
    return s;
}

} // namespace mose
} // namespace ns3
