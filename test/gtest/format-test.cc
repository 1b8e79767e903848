/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The reports' one duration and one percent formatter (model/support/mose-format.h), with
// values written out by hand.

#include "ns3/mose-format.h"
#include "ns3/nstime.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;

TEST(Format, MillisecondsWithDecimals)
{
    EXPECT_EQ(FormatDuration(0.0000412, DurationStyle::MS_DECIMALS), "0.041");
    EXPECT_EQ(FormatDuration(1.758, DurationStyle::MS_DECIMALS), "1758.000");
    EXPECT_EQ(FormatDuration(0.0125, DurationStyle::MS), "12.500 ms");
    EXPECT_EQ(FormatDuration(0.0, DurationStyle::MS), "0.000 ms");
}

TEST(Format, NegativeTimesKeepTheirSign)
{
    EXPECT_EQ(FormatDuration(MilliSeconds(-3), DurationStyle::MS), "-3.000 ms");
    EXPECT_EQ(FormatDuration(MicroSeconds(2500), DurationStyle::MS), "2.500 ms");
}

TEST(Format, SignificantDigitsInMillisecondsBelowOneSecond)
{
    EXPECT_EQ(FormatDuration(0.025, DurationStyle::SIGNIFICANT), "25 ms");
    EXPECT_EQ(FormatDuration(0.0001, DurationStyle::SIGNIFICANT), "0.1 ms");
    EXPECT_EQ(FormatDuration(1.6, DurationStyle::SIGNIFICANT), "1.6 s");
    EXPECT_EQ(FormatDuration(0.0, DurationStyle::SIGNIFICANT), "0 s");
    EXPECT_EQ(FormatDuration(0.03609, DurationStyle::SIGNIFICANT, 4), "36.09 ms");
    EXPECT_EQ(FormatDuration(3600, DurationStyle::SIGNIFICANT, 4), "3600 s");
    EXPECT_EQ(FormatDuration(10.19, DurationStyle::SIGNIFICANT, 4), "10.19 s");
}

TEST(Format, WallClockTimes)
{
    EXPECT_EQ(FormatDuration(12.34, DurationStyle::WALL), "12.3 s");
    EXPECT_EQ(FormatDuration(83.9, DurationStyle::WALL), "1m 23s");
    EXPECT_EQ(FormatDuration(60, DurationStyle::WALL), "1m 0s");
}

TEST(Format, Percentages)
{
    EXPECT_EQ(FormatPercent(0.032), "+3.2%");
    EXPECT_EQ(FormatPercent(-0.1), "-10.0%");
    EXPECT_EQ(FormatPercent(0), "+0.0%");
    EXPECT_EQ(FormatChange(1.1, 1.0), "+10.0%");
    EXPECT_EQ(FormatChange(3.0, 4.0), "-25.0%");
    EXPECT_EQ(FormatChange(1.0, 0.0), "n/a");
}
