/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-study-statistics.h"

#include "ns3/log.h"

#include <iomanip>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseStudyStatistics");

Summary
Summarize(const Average<double>& avg)
{
    Summary s;
    s.n = avg.Count();
    s.mean = s.n > 0 ? avg.Mean() : 0.0;
    s.ci95 = s.n > 1 ? avg.Error95() : 0.0;
    return s;
}

std::string
FormatSummary(const Summary& s, int precision)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << s.mean << " +-" << s.ci95;
    return os.str();
}

void
PrintColumnHeaders(std::ostream& os, const std::vector<TableColumn>& columns)
{
    for (const TableColumn& c : columns)
    {
        os << std::left << std::setw(c.width) << c.header;
    }
}

void
PrintColumnCells(std::ostream& os,
                 const std::vector<TableColumn>& columns,
                 const std::function<Summary(Metric)>& summarize)
{
    for (const TableColumn& c : columns)
    {
        os << std::left << std::setw(c.width) << FormatSummary(summarize(c.metric), c.precision);
    }
}

} // namespace mose
} // namespace ns3
