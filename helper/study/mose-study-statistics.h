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

/**
 * \ingroup mose
 * \brief The quantities Table I and Figure 5 report, one per (mode, policy) and seed.
 */
enum class MoseMetric : uint8_t
{
    MAX_LOAD,      //!< MaxLoad, all traffic
    P95_LOAD,      //!< P95 link load, all traffic
    AVG_HOP,       //!< average hop count, all flows
    DIRECT_KV,     //!< share of KV flows with 1 hop
    KV_THREE_PLUS, //!< share of KV flows with >= 3 hops
    KV_MAX_LOAD,   //!< MaxLoad of KV-only loads
    TR_MAX_LOAD,   //!< MaxLoad of training-only loads
    KV_AVG_COST,   //!< average load-aware cost of KV flows
    KV_P95_COST,   //!< P95 load-aware cost of KV flows
    TR_AVG_COST,   //!< average load-aware cost of training flows
    TR_P95_COST,   //!< P95 load-aware cost of training flows
};

/// All metrics in table order
constexpr std::array<MoseMetric, 11> ALL_METRICS = {MoseMetric::MAX_LOAD,
                                                    MoseMetric::P95_LOAD,
                                                    MoseMetric::AVG_HOP,
                                                    MoseMetric::DIRECT_KV,
                                                    MoseMetric::KV_THREE_PLUS,
                                                    MoseMetric::KV_MAX_LOAD,
                                                    MoseMetric::TR_MAX_LOAD,
                                                    MoseMetric::KV_AVG_COST,
                                                    MoseMetric::KV_P95_COST,
                                                    MoseMetric::TR_AVG_COST,
                                                    MoseMetric::TR_P95_COST};

/// \ingroup mose
/// Names of MoseMetric: the column names, e.g. "max_load", "kv_3plus"
template <>
struct EnumTable<MoseMetric>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<MoseMetric>>& Get();
};

/// \param m the metrics of one evaluation \param metric which one \return its value
double GetMetric(const FlowMetrics& m, MoseMetric metric);

/**
 * \ingroup mose
 * \brief Mean and 95% confidence half-width over seeds.
 */
struct MoseSummary
{
    double mean{0}; //!< mean over seeds
    double ci95{0}; //!< half-width of the 95% confidence interval (normal approximation,
                    //!< 1.96 s / sqrt(n), as ns-3's Average::Error95)
    uint32_t n{0};  //!< number of seeds
};

/**
 * \ingroup mose
 * \brief The summary of values collected in an ns-3 Average: the mean (0 without values) and
 *        the 95% half-width (0 with fewer than two values).
 * \param avg the values
 * \return the summary
 */
MoseSummary Summarize(const Average<double>& avg);

/**
 * \ingroup mose
 * \brief A summary as the printed tables show it.
 * \param s the summary
 * \param precision digits after the point
 * \return "mean +-ci95" in fixed notation
 */
std::string FormatSummary(const MoseSummary& s, int precision);

/**
 * \ingroup mose
 * \brief One column of a printed table of summaries (MoseStudyReport,
 *        MoseBaselineComparison).
 */
struct MoseTableColumn
{
    const char* header; //!< its title
    MoseMetric metric;  //!< the metric it shows
    int width;          //!< its width, cells left-aligned (0: no padding)
    int precision;      //!< digits after the point (FormatSummary())
};

/**
 * \ingroup mose
 * \brief Prints the titles of the columns, each left-aligned to its width.
 * \param os the stream
 * \param columns the columns
 */
void PrintColumnHeaders(std::ostream& os, const std::vector<MoseTableColumn>& columns);

/**
 * \ingroup mose
 * \brief Prints one row's cells: each column's summary (FormatSummary()), left-aligned to
 *        its width.
 * \param os the stream
 * \param columns the columns
 * \param summarize the row's summary of a metric
 */
void PrintColumnCells(std::ostream& os,
                      const std::vector<MoseTableColumn>& columns,
                      const std::function<MoseSummary(MoseMetric)>& summarize);

} // namespace mose
} // namespace ns3

#endif /* MOSE_STUDY_STATISTICS_H */
