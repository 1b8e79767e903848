/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-random.h"

#include "mose-error.h"

#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseRandom");

MoseRandom::MoseRandom(Ptr<UniformRandomVariable> stream)
    : m_rng(stream)
{
    NS_LOG_FUNCTION(this << stream);
    if (!m_rng)
    {
        throw MoseError("MoseRandom needs a UniformRandomVariable, got a null pointer");
    }
}

MoseRandom
MoseRandom::Create(uint64_t run, int64_t stream)
{
    NS_LOG_FUNCTION(run << stream);
    // RandomVariableStream::SetStream() reads the global run; set it for this call only.
    uint64_t globalRun = RngSeedManager::GetRun();
    RngSeedManager::SetRun(run);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    RngSeedManager::SetRun(globalRun);
    return MoseRandom(rng);
}

uint32_t
MoseRandom::Index(uint32_t n)
{
    if (n == 0)
    {
        throw MoseError("MoseRandom::Index needs at least one outcome, got n = 0");
    }
    // RandU01 lies in (0, 1); the guard keeps rounding from ever yielding n.
    auto i = static_cast<uint32_t>(m_rng->GetValue(0.0, static_cast<double>(n)));
    return i < n ? i : n - 1;
}

double
MoseRandom::Uniform01()
{
    return m_rng->GetValue(0.0, 1.0);
}

uint64_t
MoseRandom::Bits64()
{
    uint64_t hi = m_rng->GetInteger(0, 0xffffffffU);
    uint64_t lo = m_rng->GetInteger(0, 0xffffffffU);
    return (hi << 32) | lo;
}

Ptr<UniformRandomVariable>
MoseRandom::GetStream() const
{
    return m_rng;
}

} // namespace mose
} // namespace ns3
