/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PERCENTILE_H
#define MOSE_PERCENTILE_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The p-th percentile of a sample, by linear interpolation between closest ranks.
 *
 * With the values sorted ascending as v[0..n-1], the result is v[k] + (h - k)(v[k+1] - v[k])
 * with h = (n - 1) p / 100 and k = floor(h) (Hyndman-Fan type 7, numpy's and R's default).
 * \param values the sample (taken by value; selection, O(n) on average); must not be empty
 * \param p the percentile, 0 <= p <= 100
 * \return the percentile
 */
double Percentile(std::vector<double> values, double p);

/**
 * \ingroup mose-flow
 * \brief The same percentile as Percentile() for a sample given as (value, multiplicity) pairs.
 *
 * The result equals Percentile() on the sample in which each value is repeated count times,
 * without building it: the values at ranks k and k + 1 are found by a quickselect on the pairs
 * that weighs each side of the pivot by its counts. O(m) on average for m pairs (at most
 * O(m log m)), whatever the total count.
 * \param values (value, count) pairs, in any order; pairs with count 0 are ignored. The total
 *        count must be at least 1.
 * \param p the percentile, 0 <= p <= 100
 * \return the percentile
 */
double WeightedPercentile(std::vector<std::pair<double, uint64_t>> values, double p);

/**
 * \ingroup mose-flow
 * \brief WeightedPercentile() on the caller's vector, without a copy: the pairs are reordered
 *        and those with count 0 removed.
 * \param values (value, count) pairs; the total count must be at least 1
 * \param p the percentile, 0 <= p <= 100
 * \return the percentile
 */
double WeightedPercentileInPlace(std::vector<std::pair<double, uint64_t>>& values, double p);

/**
 * \ingroup mose-flow
 * \brief The mean of a sample: its values summed in order, the first taken as it is (one value
 *        gives exactly itself), divided by their number; 0 for an empty sample.
 * \param values the sample
 * \return the mean
 */
double Mean(const std::vector<double>& values);

/**
 * \ingroup mose-flow
 * \brief What every report gives of a sample (FCTs, KV times, TTFTs, iteration times): its size,
 *        Mean(), the type-7 percentiles P50, P95 and P99 (Percentile()) and the largest value;
 *        all 0 for an empty sample.
 */
struct SampleStatistics
{
    uint64_t n{0};  //!< values
    double mean{0}; //!< Mean()
    double p50{0};  //!< Percentile(values, 50)
    double p95{0};  //!< Percentile(values, 95)
    double p99{0};  //!< Percentile(values, 99)
    double max{0};  //!< the largest value
};

/**
 * \ingroup mose-flow
 * \brief The one summary of a sample that the packet-level and LLM reports use.
 * \param values the sample (taken by value and sorted once)
 * \return its statistics, each percentile equal to Percentile() on the same values
 */
SampleStatistics DescribeSample(std::vector<double> values);

} // namespace mose
} // namespace ns3

#endif /* MOSE_PERCENTILE_H */
