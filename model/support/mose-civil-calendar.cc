/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-civil-calendar.h"

#include "mose-error.h"

#include <string>

namespace ns3
{
namespace mose
{

namespace
{

/// Days in 400 years: the calendar repeats every era
constexpr int64_t DAYS_PER_ERA = 146097;
/// Days from 0000-03-01, the start of era 0 in the algorithms, to 1970-01-01
constexpr int64_t ERA_0_TO_EPOCH = 719468;

/// \return DaysFromCivil() of a checked date
constexpr int64_t
CountDays(int64_t y, unsigned m, unsigned d)
{
    // the year starts on 1 March, so that the leap day is the year's last day
    y -= m <= 2 ? 1 : 0;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);                // [0, 399]
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1; // [0, 365]
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;           // [0, 146096]
    return era * DAYS_PER_ERA + static_cast<int64_t>(doe) - ERA_0_TO_EPOCH;
}

/// The first day the calendar functions take: -MAX_CIVIL_YEAR-01-01
constexpr int64_t FIRST_DAY = CountDays(-MAX_CIVIL_YEAR, 1, 1);
/// The last day the calendar functions take: MAX_CIVIL_YEAR-12-31
constexpr int64_t LAST_DAY = CountDays(MAX_CIVIL_YEAR, 12, 31);

} // namespace

bool
IsLeapYear(int64_t year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

unsigned
DaysInMonth(int64_t year, unsigned month)
{
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12)
    {
        ThrowBadParameter("month", std::to_string(month), "a month from 1 to 12");
    }
    return month == 2 && IsLeapYear(year) ? 29 : days[month - 1];
}

int64_t
DaysFromCivil(int64_t year, unsigned month, unsigned day)
{
    if (year < -MAX_CIVIL_YEAR || year > MAX_CIVIL_YEAR)
    {
        ThrowBadParameter("year",
                          std::to_string(year),
                          "a year from -" + std::to_string(MAX_CIVIL_YEAR) + " to " +
                              std::to_string(MAX_CIVIL_YEAR));
    }
    const unsigned last = DaysInMonth(year, month);
    if (day < 1 || day > last)
    {
        ThrowBadParameter("day",
                          std::to_string(day),
                          "a day from 1 to " + std::to_string(last) + ", the days of month " +
                              std::to_string(month) + " of " + std::to_string(year));
    }
    return CountDays(year, month, day);
}

CivilDate
CivilFromDays(int64_t days)
{
    if (days < FIRST_DAY || days > LAST_DAY)
    {
        ThrowBadParameter("days",
                          std::to_string(days),
                          "a day count from " + std::to_string(FIRST_DAY) + " to " +
                              std::to_string(LAST_DAY) + " (years -" +
                              std::to_string(MAX_CIVIL_YEAR) + " to " +
                              std::to_string(MAX_CIVIL_YEAR) + ")");
    }
    const int64_t z = days + ERA_0_TO_EPOCH;
    const int64_t era = (z >= 0 ? z : z - (DAYS_PER_ERA - 1)) / DAYS_PER_ERA;
    const auto doe = static_cast<unsigned>(z - era * DAYS_PER_ERA);             // [0, 146096]
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; // [0, 399]
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);               // [0, 365]
    const unsigned mp = (5 * doy + 2) / 153;                                    // [0, 11]
    CivilDate date;
    date.day = doy - (153 * mp + 2) / 5 + 1;
    date.month = mp < 10 ? mp + 3 : mp - 9;
    date.year = static_cast<int64_t>(yoe) + era * 400 + (date.month <= 2 ? 1 : 0);
    return date;
}

} // namespace mose
} // namespace ns3
