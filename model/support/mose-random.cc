/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-random.h"

#include "mose-error.h"

#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"

#include <mutex>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseRandom");

namespace
{

/// Serialises Create(): it sets ns-3's global run for a moment (constant-initialised, so it
/// exists before any static initialiser could call Create())
std::mutex g_streamMutex;

} // namespace

Random::Random(Ptr<UniformRandomVariable> stream)
    : m_rng(stream)
{
    NS_LOG_FUNCTION(this << stream);
    if (!m_rng)
    {
        throw Error("Random needs a UniformRandomVariable, got a null pointer");
    }
}

Random
Random::Create(uint64_t run, int64_t stream)
{
    NS_LOG_FUNCTION(run << stream);
    // RandomVariableStream::SetStream() reads the global run; set it for this call only, under
    // the lock, so that streams created on several threads each see their own run. Drawing from
    // the stream afterwards touches only the stream's own state: it needs no lock.
    std::lock_guard<std::mutex> lock(g_streamMutex);
    uint64_t globalRun = RngSeedManager::GetRun();
    RngSeedManager::SetRun(run);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(stream);
    RngSeedManager::SetRun(globalRun);
    return Random(rng);
}

uint32_t
Random::Index(uint32_t n)
{
    if (n == 0)
    {
        throw Error("Random::Index needs at least one outcome, got n = 0");
    }
    // RandU01 lies in (0, 1); the guard keeps rounding from ever yielding n.
    auto i = static_cast<uint32_t>(m_rng->GetValue(0.0, static_cast<double>(n)));
    return i < n ? i : n - 1;
}

double
Random::Uniform01()
{
    return m_rng->GetValue(0.0, 1.0);
}

uint64_t
Random::Bits64()
{
    uint64_t hi = m_rng->GetInteger(0, 0xffffffffU);
    uint64_t lo = m_rng->GetInteger(0, 0xffffffffU);
    return (hi << 32) | lo;
}

Ptr<UniformRandomVariable>
Random::GetStream() const
{
    return m_rng;
}

} // namespace mose
} // namespace ns3
