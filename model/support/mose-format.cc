/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-format.h"

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <sstream>

namespace ns3
{
namespace mose
{

std::string
FormatDuration(double seconds, DurationStyle style, int digits)
{
    std::ostringstream os;
    switch (style)
    {
    case DurationStyle::MS_DECIMALS:
        os << std::fixed << std::setprecision(3) << seconds * 1e3;
        break;
    case DurationStyle::MS:
        os << std::fixed << std::setprecision(3) << seconds * 1e3 << " ms";
        break;
    case DurationStyle::SIGNIFICANT:
        os << std::setprecision(digits);
        if (seconds != 0 && std::abs(seconds) < 1)
        {
            os << seconds * 1e3 << " ms";
        }
        else
        {
            os << seconds << " s";
        }
        break;
    case DurationStyle::WALL:
        if (seconds >= 60)
        {
            const auto whole = static_cast<uint64_t>(seconds);
            os << whole / 60 << "m " << whole % 60 << "s";
        }
        else
        {
            os << std::fixed << std::setprecision(1) << seconds << " s";
        }
        break;
    }
    return os.str();
}

std::string
FormatDuration(Time t, DurationStyle style, int digits)
{
    // the magnitude's seconds: GetSeconds() of a negative time shifts a negative value
    // (undefined before C++20) in ns-3's int64x64-128.h
    return FormatDuration(t.IsStrictlyNegative() ? -(Time(0) - t).GetSeconds() : t.GetSeconds(),
                          style,
                          digits);
}

std::string
FormatPercent(double fraction)
{
    std::ostringstream os;
    os << std::showpos << std::fixed << std::setprecision(1) << fraction * 100 << '%';
    return os.str();
}

std::string
FormatChange(double value, double reference)
{
    if (reference == 0)
    {
        return "n/a";
    }
    return FormatPercent((value - reference) / reference);
}

std::string
FormatBytes(double bytes)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(1);
    if (bytes >= 1e12)
    {
        os << bytes / 1e12 << " TB";
    }
    else if (bytes >= 1e9)
    {
        os << bytes / 1e9 << " GB";
    }
    else if (bytes >= 1e6)
    {
        os << bytes / 1e6 << " MB";
    }
    else if (bytes >= 1e3)
    {
        os << bytes / 1e3 << " kB";
    }
    else
    {
        os << std::setprecision(0) << bytes << " B";
    }
    return os.str();
}

} // namespace mose
} // namespace ns3
