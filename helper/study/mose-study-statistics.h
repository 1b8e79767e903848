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
    double ci95{0}; //!< half-width of the 95% confidence interval (normal approximation,
                    //!< 1.96 s / sqrt(n), as ns-3's Average::Error95)
    uint32_t n{0};  //!< number of seeds
};

/**
 * \ingroup mose-study
 * \brief The summary of values collected in an ns-3 Average: the mean (0 without values) and
 *        the 95% half-width (0 with fewer than two values).
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

} // namespace mose
} // namespace ns3

#endif /* MOSE_STUDY_STATISTICS_H */
