/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-scale.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseScale");

namespace
{

/// The global value; CommandLine and NS_GLOBAL_VALUE set it by name
GlobalValue g_moseScale("MoseScale",
                        "Divides every link rate MoseTopologyHelper installs and every byte "
                        "count of the mose workloads (1: not scaled)",
                        UintegerValue(1),
                        MakeUintegerChecker<uint64_t>(1));

} // namespace

uint64_t
MoseScale::Get()
{
    UintegerValue v;
    g_moseScale.GetValue(v);
    return v.Get();
}

void
MoseScale::Set(uint64_t scale)
{
    NS_LOG_FUNCTION(scale);
    if (scale == 0)
    {
        mose::ThrowBadParameter("MoseScale", "0", "an integer >= 1");
    }
    g_moseScale.SetValue(UintegerValue(scale));
}

DataRate
MoseScale::ScaleRate(DataRate rate, const std::string& name)
{
    const uint64_t scale = Get();
    const DataRate scaled(rate.GetBitRate() / scale);
    if (scaled.GetBitRate() == 0)
    {
        mose::ThrowBadParameter(name,
                                std::to_string(rate.GetBitRate()) + "bps",
                                "a rate of at least MoseScale = " + std::to_string(scale) +
                                    " bit/s (it is divided by MoseScale)");
    }
    return scaled;
}

uint64_t
MoseScale::ResolveByteScale(uint64_t byteScale, const std::string& attribute)
{
    const uint64_t scale = Get();
    if (byteScale == 0)
    {
        return scale;
    }
    if (scale != 1 && byteScale != scale)
    {
        throw mose::Error(attribute + " = " + std::to_string(byteScale) +
                          " conflicts with MoseScale = " + std::to_string(scale) +
                          ": one run has one scale; set MoseScale alone (" + attribute +
                          " 0 follows it), or the two to the same value");
    }
    return byteScale;
}

} // namespace ns3
