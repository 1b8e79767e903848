/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_STUDY_STATISTICS_H
#define MOSE_STUDY_STATISTICS_H

#include "ns3/average.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-parse.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/// The metrics Table I and Figure 5 report, in table order (Metric, mose-metrics.h)
constexpr std::array<Metric, 11> ALL_METRICS = {Metric::MAX_LOAD,
                                                Metric::P95_LOAD,
                                                Metric::AVG_HOP,
                                                Metric::DIRECT_KV,
                                                Metric::KV_THREE_PLUS,
                                                Metric::KV_MAX_LOAD,
                                                Metric::TR_MAX_LOAD,
                                                Metric::KV_AVG_COST,
                                                Metric::KV_P95_COST,
                                                Metric::TR_AVG_COST,
                                                Metric::TR_P95_COST};

/**
 * \ingroup mose-study
 * \brief Mean and 95% confidence half-width over seeds.
 */
struct Summary
{
    double mean{0}; //!< mean over seeds
    double ci95{0}; //!< half-width of the 95% confidence interval: Student's t with n - 1
                    //!< degrees of freedom (StudentTHalfWidth()); 0 for n < 2
    uint32_t n{0};  //!< number of seeds
};

/**
 * \ingroup mose-study
 * \brief The summary of values collected in an ns-3 Average: the mean (0 without values) and
 *        the 95% Student's t half-width of StudentTHalfWidth() with the sample standard
 *        deviation Average::Stddev() (divisor n - 1; 0 with fewer than two values).
 *
 * ns-3's Average::Error95() uses the normal quantile 1.96, which understates the interval of
 * the few seeds a study runs (t = 2.093 for 20 seeds, 4.303 for 3); hence this rule.
 * \param avg the values
 * \return the summary
 */
Summary Summarize(const Average<double>& avg);

/**
 * \ingroup mose-study
 * \brief A summary as the printed tables show it.
 * \param s the summary
 * \param precision digits after the point
 * \return "mean +-ci95" in fixed notation
 */
std::string FormatSummary(const Summary& s, int precision);

/**
 * \ingroup mose-study
 * \brief One column of a printed table of summaries (StudyReport,
 *        BaselineComparison).
 */
struct TableColumn
{
    const char* header; //!< its title
    Metric metric;      //!< the metric it shows
    int width;          //!< its width, cells left-aligned (0: no padding)
    int precision;      //!< digits after the point (FormatSummary())
};

/**
 * \ingroup mose-study
 * \brief Prints the titles of the columns, each left-aligned to its width.
 * \param os the stream
 * \param columns the columns
 */
void PrintColumnHeaders(std::ostream& os, const std::vector<TableColumn>& columns);

/**
 * \ingroup mose-study
 * \brief Prints one row's cells: each column's summary (FormatSummary()), left-aligned to
 *        its width.
 * \param os the stream
 * \param columns the columns
 * \param summarize the row's summary of a metric
 */
void PrintColumnCells(std::ostream& os,
                      const std::vector<TableColumn>& columns,
                      const std::function<Summary(Metric)>& summarize);

/**
 * \ingroup mose-study
 * \brief The mean of a sample with its two-sided Student's t confidence interval: mean +-
 *        t_{(1 + level) / 2, n - 1} s / sqrt(n), s the sample standard deviation (divisor
 *        n - 1). It assumes independent samples of a roughly normal quantity.
 *
 * A sample of one value (or none) has no interval: `halfWidth` is empty, and so are GetLow()
 * and GetHigh().
 */
struct MeanInterval
{
    uint32_t n{0};                   //!< sample size
    double mean{0};                  //!< sample mean (0 for an empty sample)
    double stdDev{0};                //!< sample standard deviation, divisor n - 1 (0 for n < 2)
    double level{0.95};              //!< the confidence level
    std::optional<double> halfWidth; //!< t quantile x stdDev / sqrt(n); empty for n < 2

    /// \return mean - halfWidth, empty without an interval
    std::optional<double> GetLow() const;
    /// \return mean + halfWidth, empty without an interval
    std::optional<double> GetHigh() const;
};

/**
 * \ingroup mose-study
 * \brief The quantile of Student's t distribution (Boost.Math).
 * \param probability p, in (0, 1) (mose::Error otherwise)
 * \param degreesOfFreedom at least 1 (mose::Error otherwise)
 * \return t with P(T <= t) = p, e.g. 12.706 for p = 0.975 and 1 degree of freedom
 */
double StudentTQuantile(double probability, uint32_t degreesOfFreedom);

/**
 * \ingroup mose-study
 * \brief The half-width of the two-sided Student's t confidence interval of a mean, the one
 *        rule of every confidence interval of the module (Summarize(), ComputeMeanInterval()):
 *        t_{(1 + level) / 2, n - 1} s / sqrt(n).
 * \param stdDev s, the sample standard deviation (divisor n - 1)
 * \param n the sample size, at least 2 (mose::Error otherwise)
 * \param level the confidence level, in (0, 1) (mose::Error otherwise); 0.95 by default
 * \return the half-width, e.g. 12.706 s / sqrt(2) for n = 2 at 95%
 */
double StudentTHalfWidth(double stdDev, uint32_t n, double level = 0.95);

/**
 * \ingroup mose-study
 * \brief The mean of a sample and its Student's t confidence interval (MeanInterval).
 * \param sample the values (finite; mose::Error naming the first that is not)
 * \param level the confidence level, in (0, 1) (mose::Error otherwise); 0.95 by default
 * \return the mean and, with two values or more, the interval
 */
MeanInterval ComputeMeanInterval(const std::vector<double>& sample, double level = 0.95);

/**
 * \ingroup mose-study
 * \brief What the confidence interval of a relative margin says against a tie band
 *        [-tolerance, +tolerance] (DecideMargin()). A margin is (MoSE - best static) / best
 *        static: negative when switching is better.
 */
enum class MarginVerdict : uint8_t
{
    PAYS,         //!< the whole interval lies below -tolerance
    TIE,          //!< the whole interval lies inside [-tolerance, +tolerance]
    DOES_NOT_PAY, //!< the whole interval lies above +tolerance
    UNDECIDED,    //!< the interval straddles a band edge, or there is none (one sample)
    NONE,         //!< no sample at all: nothing to decide on
};

/**
 * \ingroup mose-study
 * \param v a verdict
 * \return "pays", "tie", "does-not-pay", "undecided" or "none"
 */
std::string ToString(MarginVerdict v);

/**
 * \ingroup mose-study
 * \brief The verdict of a margin's confidence interval: PAYS when its upper end is below
 *        -tolerance, DOES_NOT_PAY when its lower end is above +tolerance, TIE when both ends
 *        are within [-tolerance, +tolerance], UNDECIDED otherwise. One sample has no interval
 *        and is UNDECIDED whatever its value (one run is no confident verdict); no sample is
 *        NONE. A sample of equal values has an interval of width 0 and is decided on it.
 * \param margin the margin's mean and interval (ComputeMeanInterval())
 * \param tolerance the tie band's half-width, finite and >= 0 (mose::Error otherwise)
 * \return the verdict
 */
MarginVerdict DecideMargin(const MeanInterval& margin, double tolerance);

} // namespace mose
} // namespace ns3

#endif /* MOSE_STUDY_STATISTICS_H */
