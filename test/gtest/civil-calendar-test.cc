/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The proleptic Gregorian calendar (mose-civil-calendar.h): known day counts, leap years, month
// lengths, and the round trip against a day-by-day walk that knows only the month lengths.

#include "mose-test-util.h"

#include "ns3/mose-civil-calendar.h"
#include "ns3/mose-error.h"

#include <cstdint>
#include <gtest/gtest.h>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// \return true if the date is y-m-d
bool
Is(const CivilDate& date, int64_t y, unsigned m, unsigned d)
{
    return date.year == y && date.month == m && date.day == d;
}

TEST(CivilCalendar, KnownDayCounts)
{
    // Unix time / 86400 of each date at 00:00 UTC
    EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
    EXPECT_EQ(DaysFromCivil(1970, 1, 2), 1);
    EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
    EXPECT_EQ(DaysFromCivil(2000, 1, 1), 10957);            // 946684800 s
    EXPECT_EQ(DaysFromCivil(2000, 2, 29), 10957 + 31 + 28); // 2000 is a leap year
    EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
    EXPECT_EQ(DaysFromCivil(2024, 1, 1), 19723);     // 1704067200 s
    EXPECT_EQ(DaysFromCivil(1, 1, 1), -719162);      // -62135596800 s
    EXPECT_EQ(DaysFromCivil(9999, 12, 31), 2932896); // 253402214400 s
    EXPECT_EQ(DaysFromCivil(10000, 1, 1), 2932897);  // 253402300800 s
    // 1900 is not a leap year: 1 March follows 28 February
    EXPECT_EQ(DaysFromCivil(1900, 3, 1) - DaysFromCivil(1900, 2, 28), 1);
    EXPECT_EQ(DaysFromCivil(1900, 1, 1), -25567); // -2208988800 s
    // year 0 (1 BC) is a leap year of 366 days, before 0001-01-01
    EXPECT_EQ(DaysFromCivil(1, 1, 1) - DaysFromCivil(0, 1, 1), 366);
    EXPECT_EQ(DaysFromCivil(0, 12, 31), -719163);

    EXPECT_TRUE(Is(CivilFromDays(0), 1970, 1, 1));
    EXPECT_TRUE(Is(CivilFromDays(-1), 1969, 12, 31));
    EXPECT_TRUE(Is(CivilFromDays(11016), 2000, 2, 29));
    EXPECT_TRUE(Is(CivilFromDays(-719162), 1, 1, 1));
    EXPECT_TRUE(Is(CivilFromDays(-719163), 0, 12, 31));
    EXPECT_TRUE(Is(CivilFromDays(2932896), 9999, 12, 31));
}

TEST(CivilCalendar, LeapYearsAndMonthLengths)
{
    EXPECT_TRUE(IsLeapYear(2024));
    EXPECT_FALSE(IsLeapYear(2023));
    EXPECT_TRUE(IsLeapYear(2000));  // divisible by 400
    EXPECT_FALSE(IsLeapYear(1900)); // by 100, not by 400
    EXPECT_FALSE(IsLeapYear(2100));
    EXPECT_TRUE(IsLeapYear(0));
    EXPECT_TRUE(IsLeapYear(-4));
    EXPECT_FALSE(IsLeapYear(-1));
    EXPECT_FALSE(IsLeapYear(-100));
    EXPECT_TRUE(IsLeapYear(-400));

    const unsigned common[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    for (unsigned m = 1; m <= 12; ++m)
    {
        EXPECT_EQ(DaysInMonth(2023, m), common[m - 1]) << m;
        EXPECT_EQ(DaysInMonth(2024, m), m == 2 ? 29U : common[m - 1]) << m;
    }
    EXPECT_EQ(DaysInMonth(1900, 2), 28U);
    EXPECT_EQ(DaysInMonth(2000, 2), 29U);
}

TEST(CivilCalendar, RoundTripAgainstADayByDayWalk)
{
    // walk from -0801-01-01 to 2800-12-31 (more than 9 eras of 400 years, across year 0 and
    // the era boundaries) one day at a time, using only the month lengths; every day's count
    // must be the previous one's + 1, and must read back as the date
    int64_t y = -801;
    unsigned m = 1;
    unsigned d = 1;
    int64_t days = DaysFromCivil(y, m, d);
    uint64_t walked = 0;
    while (y <= 2800)
    {
        ASSERT_EQ(DaysFromCivil(y, m, d), days) << y << "-" << m << "-" << d;
        ASSERT_TRUE(Is(CivilFromDays(days), y, m, d)) << days;
        ++days;
        ++walked;
        if (++d > DaysInMonth(y, m))
        {
            d = 1;
            if (++m > 12)
            {
                m = 1;
                ++y;
            }
        }
    }
    // the walk covered every day of the 3602 years
    uint64_t expected = 0;
    for (int64_t year = -801; year <= 2800; ++year)
    {
        expected += IsLeapYear(year) ? 366 : 365;
    }
    EXPECT_EQ(walked, expected);
    // 9 whole eras of 146097 days: -800-01-01 to 2800-01-01
    EXPECT_EQ(DaysFromCivil(2800, 1, 1) - DaysFromCivil(-800, 1, 1), 9 * 146097);
}

TEST(CivilCalendar, TheEndsOfTheRange)
{
    const int64_t first = DaysFromCivil(-MAX_CIVIL_YEAR, 1, 1);
    const int64_t last = DaysFromCivil(MAX_CIVIL_YEAR, 12, 31);
    EXPECT_TRUE(Is(CivilFromDays(first), -MAX_CIVIL_YEAR, 1, 1));
    EXPECT_TRUE(Is(CivilFromDays(last), MAX_CIVIL_YEAR, 12, 31));
    // 2 * 10^9 + 1 years of 365.2425 days on average (10^9 is a multiple of 400)
    EXPECT_EQ(last - first + 1, 2 * (MAX_CIVIL_YEAR / 400) * 146097 + 366);
    EXPECT_TRUE(Is(CivilFromDays(DaysFromCivil(MAX_CIVIL_YEAR, 2, 29)), MAX_CIVIL_YEAR, 2, 29));
}

TEST(CivilCalendar, DatesThatDoNotExistAreRefused)
{
    EXPECT_EQ(ErrorOf([] { DaysInMonth(2024, 0); }), "invalid month = 0: a month from 1 to 12");
    ExpectErrorContaining([] { DaysInMonth(2024, 13); }, "month = 13");
    ExpectErrorContaining([] { DaysFromCivil(2023, 2, 29); }, "day = 29");
    EXPECT_EQ(ErrorOf([] { DaysFromCivil(1900, 2, 29); }),
              "invalid day = 29: a day from 1 to 28, the days of month 2 of 1900");
    ExpectErrorContaining([] { DaysFromCivil(2024, 4, 31); }, "day = 31");
    ExpectErrorContaining([] { DaysFromCivil(2024, 1, 0); }, "day = 0");
    ExpectErrorContaining([] { DaysFromCivil(2024, 13, 1); }, "month = 13");
    ExpectErrorContaining([] { DaysFromCivil(MAX_CIVIL_YEAR + 1, 1, 1); }, "year = 1000000001");
    ExpectErrorContaining([] { DaysFromCivil(-MAX_CIVIL_YEAR - 1, 12, 31); }, "year = -1000000001");
    const int64_t last = DaysFromCivil(MAX_CIVIL_YEAR, 12, 31);
    ExpectErrorContaining([last] { CivilFromDays(last + 1); },
                          "days = " + std::to_string(last + 1));
    const int64_t first = DaysFromCivil(-MAX_CIVIL_YEAR, 1, 1);
    ExpectErrorContaining([first] { CivilFromDays(first - 1); }, "days = ");
    ExpectErrorContaining([] { CivilFromDays(INT64_MIN); }, "days = ");
}

} // namespace
