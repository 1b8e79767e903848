/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-study-statistics.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
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
    s.ci95 = s.n > 1 ? StudentTHalfWidth(avg.Stddev(), s.n) : 0.0;
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

std::optional<double>
MeanInterval::GetLow() const
{
    return halfWidth ? std::optional<double>(mean - *halfWidth) : std::nullopt;
}

std::optional<double>
MeanInterval::GetHigh() const
{
    return halfWidth ? std::optional<double>(mean + *halfWidth) : std::nullopt;
}

double
StudentTQuantile(double probability, uint32_t degreesOfFreedom)
{
    if (!(probability > 0 && probability < 1))
    {
        ThrowBadParameter("probability", FormatNumber(probability), "a probability in (0, 1)");
    }
    if (degreesOfFreedom == 0)
    {
        ThrowBadParameter("degrees of freedom", "0", "at least 1");
    }
    const boost::math::students_t t(static_cast<double>(degreesOfFreedom));
    return boost::math::quantile(t, probability);
}

namespace
{

/// Throws a mose::Error unless a confidence level lies in (0, 1) \param level the level
void
CheckLevel(double level)
{
    if (!(level > 0 && level < 1))
    {
        ThrowBadParameter("confidence level", FormatNumber(level), "a level in (0, 1), e.g. 0.95");
    }
}

} // namespace

double
StudentTHalfWidth(double stdDev, uint32_t n, double level)
{
    CheckLevel(level);
    if (n < 2)
    {
        ThrowBadParameter("sample size",
                          std::to_string(n),
                          "at least 2 (one value has no confidence interval)");
    }
    return StudentTQuantile((1 + level) / 2, n - 1) * stdDev / std::sqrt(n);
}

MeanInterval
ComputeMeanInterval(const std::vector<double>& sample, double level)
{
    CheckLevel(level);
    MeanInterval m;
    m.level = level;
    m.n = static_cast<uint32_t>(sample.size());
    double sum = 0;
    for (std::size_t i = 0; i < sample.size(); ++i)
    {
        if (!std::isfinite(sample[i]))
        {
            ThrowBadParameter("sample value " + std::to_string(i),
                              FormatNumber(sample[i]),
                              "a finite number");
        }
        sum += sample[i];
    }
    if (m.n == 0)
    {
        return m;
    }
    m.mean = sum / m.n;
    if (m.n < 2)
    {
        return m;
    }
    double squares = 0;
    for (double v : sample)
    {
        squares += (v - m.mean) * (v - m.mean);
    }
    m.stdDev = std::sqrt(squares / (m.n - 1));
    m.halfWidth = StudentTHalfWidth(m.stdDev, m.n, level);
    return m;
}

std::string
ToString(MarginVerdict v)
{
    switch (v)
    {
    case MarginVerdict::PAYS:
        return "pays";
    case MarginVerdict::TIE:
        return "tie";
    case MarginVerdict::DOES_NOT_PAY:
        return "does-not-pay";
    case MarginVerdict::UNDECIDED:
        return "undecided";
    case MarginVerdict::NONE:
        return "none";
    }
    return "?";
}

MarginVerdict
DecideMargin(const MeanInterval& margin, double tolerance)
{
    if (!(std::isfinite(tolerance) && tolerance >= 0))
    {
        ThrowBadParameter("tolerance", FormatNumber(tolerance), "a finite number >= 0");
    }
    if (margin.n == 0)
    {
        return MarginVerdict::NONE;
    }
    if (!margin.halfWidth)
    {
        return MarginVerdict::UNDECIDED;
    }
    const double low = *margin.GetLow();
    const double high = *margin.GetHigh();
    if (high < -tolerance)
    {
        return MarginVerdict::PAYS;
    }
    if (low > tolerance)
    {
        return MarginVerdict::DOES_NOT_PAY;
    }
    if (low >= -tolerance && high <= tolerance)
    {
        return MarginVerdict::TIE;
    }
    return MarginVerdict::UNDECIDED;
}

} // namespace mose
} // namespace ns3
