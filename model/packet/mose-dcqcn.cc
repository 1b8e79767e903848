/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-dcqcn.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseDcqcn");

MoseDcqcn::MoseDcqcn(const MoseDcqcnConfig& config)
    : m_config(&config),
      m_rate(config.lineRate),
      m_target(config.lineRate),
      m_alpha(config.initialAlpha)
{
}

void
MoseDcqcn::ReceiveCnp(Time now)
{
    Advance(now);
    m_target = m_rate;
    m_rate = std::max(m_config->minRate, m_rate * (1 - m_alpha / 2));
    m_alpha = (1 - m_config->g) * m_alpha + m_config->g;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytes = 0;
    m_alphaRunning = true;
    m_alphaNext = now + m_config->alphaTimer;
    m_rateRunning = true;
    m_rateNext = now + m_config->rateTimer;
    ++m_cuts;
    NS_LOG_LOGIC("CNP at " << now.As(Time::US) << ": rate " << m_rate << " target " << m_target
                           << " alpha " << m_alpha);
}

void
MoseDcqcn::Advance(Time now)
{
    // the two timers' firings in time order (at a tie the alpha timer first: it does not
    // change the rate, so the order does not matter)
    while ((m_alphaRunning && m_alphaNext <= now) || (m_rateRunning && m_rateNext <= now))
    {
        if (m_alphaRunning && (!m_rateRunning || m_alphaNext <= m_rateNext))
        {
            m_alpha = (1 - m_config->g) * m_alpha;
            m_alphaNext += m_config->alphaTimer;
            if (m_alpha < 1e-12)
            {
                m_alpha = 0;
                m_alphaRunning = false; // nothing left to decay
            }
            continue;
        }
        ++m_timerStage;
        m_rateNext += m_config->rateTimer;
        Increase();
    }
}

void
MoseDcqcn::BytesSent(uint64_t bytes, Time now)
{
    Advance(now);
    if (!m_rateRunning)
    {
        return;
    }
    m_bytes += bytes;
    while (m_rateRunning && m_bytes >= m_config->byteCounter)
    {
        m_bytes -= m_config->byteCounter;
        ++m_byteStage;
        Increase();
    }
}

void
MoseDcqcn::Increase()
{
    const uint32_t f = m_config->fastRecovery;
    const uint32_t hi = std::max(m_timerStage, m_byteStage);
    const uint32_t lo = std::min(m_timerStage, m_byteStage);
    if (hi < f)
    {
        // fast recovery: towards the rate before the cut
    }
    else if (lo > f)
    {
        m_target += (lo - f) * m_config->hyperRate;
    }
    else
    {
        m_target += m_config->additiveRate;
    }
    m_target = std::min(m_target, m_config->lineRate);
    m_rate = (m_target + m_rate) / 2;
    if (m_rate >= m_config->lineRate * (1 - 1e-9))
    {
        m_rate = m_config->lineRate;
        m_target = m_config->lineRate;
        m_rateRunning = false;
    }
}

double
MoseDcqcn::GetRate() const
{
    return m_rate;
}

double
MoseDcqcn::GetTargetRate() const
{
    return m_target;
}

double
MoseDcqcn::GetAlpha() const
{
    return m_alpha;
}

uint32_t
MoseDcqcn::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
MoseDcqcn::GetByteStage() const
{
    return m_byteStage;
}

uint64_t
MoseDcqcn::GetNCuts() const
{
    return m_cuts;
}

bool
MoseDcqcn::IsLimited() const
{
    return m_rateRunning;
}

} // namespace ns3
