/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FORMAT_H
#define MOSE_FORMAT_H

#include "ns3/nstime.h"

#include <string>

/**
 * \file
 * \ingroup mose-support
 * \brief How the reports write durations and percentages: one formatter each, with the few
 *        styles the tables and report lines use (FormatNumber() in mose-error.h writes numbers
 *        for error messages).
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief The styles of FormatDuration().
 */
enum class DurationStyle
{
    /// milliseconds with 3 decimals and no unit, for a table whose header names the unit:
    /// "0.041", "1758.000"
    MS_DECIMALS,
    /// milliseconds with 3 decimals and the unit: "0.041 ms"
    MS,
    /// `digits` significant digits, in ms below one second (but 0) and in s from one second:
    /// "25 ms", "0.5 ms", "1.6 s", "0 s"
    SIGNIFICANT,
    /// a wall-clock time: seconds with one decimal below a minute ("12.3 s"), whole minutes and
    /// seconds from a minute ("2m 5s")
    WALL,
};

/**
 * \ingroup mose-support
 * \brief Writes a duration.
 * \param seconds the duration in seconds (negative values keep their sign; WALL needs >= 0)
 * \param style the style
 * \param digits the significant digits of SIGNIFICANT (ignored by the other styles)
 * \return the text
 */
std::string FormatDuration(double seconds, DurationStyle style, int digits = 3);

/**
 * \ingroup mose-support
 * \brief Writes an ns-3 duration: FormatDuration() of its seconds.
 * \param t the duration (may be negative)
 * \param style the style
 * \param digits the significant digits of SIGNIFICANT
 * \return the text
 */
std::string FormatDuration(Time t, DurationStyle style, int digits = 3);

/**
 * \ingroup mose-support
 * \brief Writes a share as a signed percentage with one decimal: 0.032 -> "+3.2%",
 *        -0.1 -> "-10.0%", 0 -> "+0.0%".
 * \param fraction the share (1 is 100%)
 * \return the text
 */
std::string FormatPercent(double fraction);

/**
 * \ingroup mose-support
 * \brief Writes the relative change of a value against a reference with FormatPercent():
 *        (value - reference) / reference, or "n/a" when the reference is 0.
 * \param value the value
 * \param reference the reference
 * \return the text
 */
std::string FormatChange(double value, double reference);

/**
 * \ingroup mose-support
 * \brief Writes an amount of memory for a message, in decimal units with one decimal:
 *        "96 B", "1.4 kB", "3.2 MB", "23.4 GB", "5.6 TB" (each unit up to 1,000 of it).
 * \param bytes the bytes
 * \return the text
 */
std::string FormatBytes(double bytes);

} // namespace mose
} // namespace ns3

#endif /* MOSE_FORMAT_H */
