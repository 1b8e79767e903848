/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The confidence interval of a mean (Student's t, the one rule of every half-width of the module:
 * Summarize() and ComputeMeanInterval()) and the verdict a margin's interval gives against the
 * tie band, on hand-made samples whose intervals are computed here by hand with the tabulated
 * quantiles t_{0.975} = 12.706 (1 degree of freedom), 4.303 (2), 2.776 (4) and 2.093 (19).
 */

#include "mose-study-statistics.h"
#include "mose-test-util.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

TEST(ConfidenceInterval, StudentQuantilesAreTheTabulatedOnes)
{
    EXPECT_NEAR(StudentTQuantile(0.975, 1), 12.706, 5e-4);
    EXPECT_NEAR(StudentTQuantile(0.975, 2), 4.303, 5e-4);
    EXPECT_NEAR(StudentTQuantile(0.975, 4), 2.776, 5e-4);
    EXPECT_NEAR(StudentTQuantile(0.975, 19), 2.093, 5e-4);
    EXPECT_NEAR(StudentTQuantile(0.95, 4), 2.132, 5e-4);
    // many degrees of freedom: the normal quantile
    EXPECT_NEAR(StudentTQuantile(0.975, 100000), 1.960, 5e-4);
    EXPECT_CONTAINS(ErrorOf([] { StudentTQuantile(1.0, 3); }), "probability");
    EXPECT_CONTAINS(ErrorOf([] { StudentTQuantile(0.975, 0); }), "degrees of freedom");
}

TEST(ConfidenceInterval, HandMadeSamples)
{
    // n = 2, {m - d, m + d}: s = d sqrt(2), half-width 12.706 s / sqrt(2) = 12.706 d
    const MeanInterval two = ComputeMeanInterval({-0.051, -0.049});
    EXPECT_EQ(two.n, 2u);
    EXPECT_NEAR(two.mean, -0.05, 1e-15);
    EXPECT_NEAR(two.stdDev, 0.001 * std::sqrt(2.0), 1e-15);
    ASSERT_TRUE(two.halfWidth.has_value());
    EXPECT_NEAR(*two.halfWidth, 12.706 * 0.001, 1e-6);
    EXPECT_NEAR(*two.GetLow(), -0.05 - 0.012706, 1e-6);
    EXPECT_NEAR(*two.GetHigh(), -0.05 + 0.012706, 1e-6);

    // n = 3, {m - d, m, m + d}: s = d, half-width 4.303 d / sqrt(3) = 2.4843 d
    const MeanInterval three = ComputeMeanInterval({0.08, 0.10, 0.12});
    EXPECT_NEAR(three.mean, 0.10, 1e-15);
    EXPECT_NEAR(three.stdDev, 0.02, 1e-15);
    EXPECT_NEAR(*three.halfWidth, 4.303 * 0.02 / std::sqrt(3.0), 1e-5);

    // n = 5, {m - 2d, .., m + 2d}: s = d sqrt(10 / 4), half-width 2.776 s / sqrt(5) = 1.9630 d
    const MeanInterval five = ComputeMeanInterval({-0.01, -0.005, 0, 0.005, 0.01});
    EXPECT_NEAR(five.mean, 0, 1e-15);
    EXPECT_NEAR(five.stdDev, 0.005 * std::sqrt(2.5), 1e-15);
    EXPECT_NEAR(*five.halfWidth, 2.776 * 0.005 * std::sqrt(2.5) / std::sqrt(5.0), 1e-5);

    // another level: 90% with n = 5 uses t_{0.95, 4} = 2.132
    const MeanInterval ninety = ComputeMeanInterval({-0.01, -0.005, 0, 0.005, 0.01}, 0.9);
    EXPECT_NEAR(*ninety.halfWidth, 2.132 * 0.005 * std::sqrt(2.5) / std::sqrt(5.0), 1e-5);
    EXPECT_EQ(ninety.level, 0.9);

    // one value: its mean, no interval; none: nothing
    const MeanInterval one = ComputeMeanInterval({-0.5});
    EXPECT_EQ(one.n, 1u);
    EXPECT_EQ(one.mean, -0.5);
    EXPECT_FALSE(one.halfWidth.has_value());
    EXPECT_FALSE(one.GetLow().has_value());
    EXPECT_FALSE(one.GetHigh().has_value());
    const MeanInterval none = ComputeMeanInterval({});
    EXPECT_EQ(none.n, 0u);
    EXPECT_FALSE(none.halfWidth.has_value());

    // equal values: an interval of width 0
    const MeanInterval flat = ComputeMeanInterval({0.03, 0.03, 0.03});
    ASSERT_TRUE(flat.halfWidth.has_value());
    EXPECT_EQ(*flat.halfWidth, 0);

    // bad input: a value that is not a number, a level outside (0, 1)
    EXPECT_CONTAINS(ErrorOf([] { ComputeMeanInterval({0.1, std::nan("")}); }), "sample value 1");
    EXPECT_CONTAINS(ErrorOf([] { ComputeMeanInterval({0.1, 0.2}, 1.0); }), "confidence level");
    EXPECT_CONTAINS(ErrorOf([] { ComputeMeanInterval({0.1, 0.2}, 0.0); }), "confidence level");
}

TEST(ConfidenceInterval, OneRuleForEveryHalfWidth)
{
    // StudentTHalfWidth: t_{0.975, n - 1} s / sqrt(n); n = 2: 12.706 s / sqrt(2) (the
    // tolerances are those of the quantiles' three decimals, times s / sqrt(n))
    EXPECT_NEAR(StudentTHalfWidth(1.0, 2), 12.706 / std::sqrt(2.0), 5e-4);
    EXPECT_NEAR(StudentTHalfWidth(2.0, 5, 0.9), 2.132 * 2.0 / std::sqrt(5.0), 5e-4);
    EXPECT_CONTAINS(ErrorOf([] { StudentTHalfWidth(1.0, 1); }), "sample size");
    EXPECT_CONTAINS(ErrorOf([] { StudentTHalfWidth(1.0, 3, 1.5); }), "confidence level");

    // Summarize() of an ns-3 Average uses the same rule, not Average::Error95's 1.96:
    // {1, 2, 3}: mean 2, s = 1, half-width 4.303 / sqrt(3) = 2.4843 (1.96 would give 1.1316)
    Average<double> three;
    for (double v : {1.0, 2.0, 3.0})
    {
        three.Update(v);
    }
    const Summary s3 = Summarize(three);
    EXPECT_EQ(s3.n, 3u);
    EXPECT_DOUBLE_EQ(s3.mean, 2.0);
    EXPECT_NEAR(s3.ci95, 4.303 / std::sqrt(3.0), 5e-4);
    // 1, 2, ..., 20 (20 seeds): mean 10.5, s^2 = n (n + 1) / 12 = 35, half-width
    // 2.093 sqrt(35 / 20) = 2.7688 (1.96 would give 2.5928)
    Average<double> twenty;
    std::vector<double> sample;
    for (int v = 1; v <= 20; ++v)
    {
        twenty.Update(v);
        sample.push_back(v);
    }
    const Summary s20 = Summarize(twenty);
    EXPECT_DOUBLE_EQ(s20.mean, 10.5);
    EXPECT_NEAR(s20.ci95, 2.093 * std::sqrt(35.0 / 20.0), 1e-4);
    // ... which is the interval of ComputeMeanInterval() on the same values
    EXPECT_NEAR(s20.ci95, *ComputeMeanInterval(sample).halfWidth, 1e-12);
    EXPECT_EQ(FormatSummary(s20, 2), "10.50 +-2.77");
    // one value: its mean and no half-width; none: zeros
    Average<double> one;
    one.Update(7.0);
    EXPECT_EQ(Summarize(one).mean, 7.0);
    EXPECT_EQ(Summarize(one).ci95, 0.0);
    EXPECT_EQ(Summarize(Average<double>()).n, 0u);
    EXPECT_EQ(Summarize(Average<double>()).ci95, 0.0);
}

TEST(ConfidenceInterval, VerdictFromTheIntervalAndTheTieBand)
{
    const double tol = 0.02;
    // n = 2: -0.05 +- 0.0127, all of it below -0.02
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.051, -0.049}), tol), MarginVerdict::PAYS);
    // the same mean with a wider spread: -0.05 +- 12.706 x 0.01 = [-0.177, +0.077]
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.06, -0.04}), tol), MarginVerdict::UNDECIDED);
    // n = 3: 0.10 +- 0.0497 = [0.050, 0.150], all of it above +0.02
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({0.08, 0.10, 0.12}), tol),
              MarginVerdict::DOES_NOT_PAY);
    // ... but not above a band of 6%
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({0.08, 0.10, 0.12}), 0.06),
              MarginVerdict::UNDECIDED);
    // n = 5: 0 +- 0.0098, inside [-0.02, 0.02]: a tie
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.01, -0.005, 0, 0.005, 0.01}), tol),
              MarginVerdict::TIE);
    // n = 5 with d = 0.02: 0 +- 0.0393 crosses both edges
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.04, -0.02, 0, 0.02, 0.04}), tol),
              MarginVerdict::UNDECIDED);
    // a mean beyond the band whose interval reaches into it is undecided (the old rule on the
    // mean alone said "pays")
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.045, -0.025, -0.035}), tol),
              MarginVerdict::UNDECIDED); // -0.035 +- 0.0248
    // one sample, however far from the band: undecided; none: none
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.5}), tol), MarginVerdict::UNDECIDED);
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({}), tol), MarginVerdict::NONE);
    // width 0 on the band's edge: inside the closed band; just beyond it: decided
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.02, -0.02}), tol), MarginVerdict::TIE);
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({0.02, 0.02}), tol), MarginVerdict::TIE);
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.03, -0.03}), tol), MarginVerdict::PAYS);
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({0.03, 0.03}), tol), MarginVerdict::DOES_NOT_PAY);
    // no band: only the sign of the whole interval decides, and a tie needs width 0 at 0
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({0, 0}), 0), MarginVerdict::TIE);
    EXPECT_EQ(DecideMargin(ComputeMeanInterval({-0.051, -0.049}), 0), MarginVerdict::PAYS);
    // the words
    EXPECT_EQ(ToString(MarginVerdict::PAYS), "pays");
    EXPECT_EQ(ToString(MarginVerdict::TIE), "tie");
    EXPECT_EQ(ToString(MarginVerdict::DOES_NOT_PAY), "does-not-pay");
    EXPECT_EQ(ToString(MarginVerdict::UNDECIDED), "undecided");
    EXPECT_EQ(ToString(MarginVerdict::NONE), "none");
    // a bad band
    EXPECT_CONTAINS(ErrorOf([] {
                        DecideMargin(ComputeMeanInterval({0.1, 0.2}), -0.01);
                    }),
                    "tolerance");
    EXPECT_CONTAINS(ErrorOf([] {
                        DecideMargin(ComputeMeanInterval({0.1, 0.2}), std::nan(""));
                    }),
                    "tolerance");
}
