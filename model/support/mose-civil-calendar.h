/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_CIVIL_CALENDAR_H
#define MOSE_CIVIL_CALENDAR_H

#include <cstdint>

/**
 * \file
 * \ingroup mose-support
 * \brief The proleptic Gregorian calendar: days from a civil date and back, leap years, month
 *        lengths (the Azure trace's wall-clock times, mose-llm-trace-azure.h).
 *
 * Written by hand because C++17's <chrono> has no calendar (C++20's year_month_day is what
 * these functions do) and ns-3 has none; the algorithms are H. Hinnant's days_from_civil and
 * civil_from_days ("chrono-Compatible Low-Level Date Algorithms"), exact over the whole range.
 *
 * Days are counted from 1970-01-01 (day 0), negative before it. Years are astronomical: year 0
 * is 1 BC, a leap year, and -1 is 2 BC. Years run from -MAX_CIVIL_YEAR to MAX_CIVIL_YEAR; a
 * date outside, a month outside 1-12 or a day the month does not have throws a mose::Error.
 */

namespace ns3
{
namespace mose
{

/// \ingroup mose-support
/// The largest year (and the negative of the smallest) the calendar functions take
constexpr int64_t MAX_CIVIL_YEAR = 1000000000;

/**
 * \ingroup mose-support
 * \brief A date of the proleptic Gregorian calendar.
 */
struct CivilDate
{
    int64_t year{1970}; //!< the astronomical year (0 is 1 BC)
    unsigned month{1};  //!< 1 to 12
    unsigned day{1};    //!< 1 to DaysInMonth(year, month)
};

/**
 * \ingroup mose-support
 * \param year any year
 * \return true in a Gregorian leap year: divisible by 4, and not by 100 unless by 400
 */
bool IsLeapYear(int64_t year);

/**
 * \ingroup mose-support
 * \param year any year
 * \param month 1 to 12
 * \return the number of days of the month (28 to 31); throws a mose::Error for another month
 */
unsigned DaysInMonth(int64_t year, unsigned month);

/**
 * \ingroup mose-support
 * \param year -MAX_CIVIL_YEAR to MAX_CIVIL_YEAR
 * \param month 1 to 12
 * \param day 1 to DaysInMonth(year, month)
 * \return the days from 1970-01-01 to the date (negative before it); throws a mose::Error
 *         naming the field for a date that does not exist or is out of range
 */
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

/**
 * \ingroup mose-support
 * \param days days from 1970-01-01, from DaysFromCivil(-MAX_CIVIL_YEAR, 1, 1) to
 *        DaysFromCivil(MAX_CIVIL_YEAR, 12, 31)
 * \return the date; throws a mose::Error for days out of range
 */
CivilDate CivilFromDays(int64_t days);

} // namespace mose
} // namespace ns3

#endif /* MOSE_CIVIL_CALENDAR_H */
