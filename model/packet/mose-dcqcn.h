/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_DCQCN_H
#define MOSE_DCQCN_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The parameters of a DCQCN reaction point (MoseDcqcn); MoseRdmaTransport's attributes
 *        of the same names set them (doc/mose.rst, "RoCEv2 transport", gives their sources).
 */
struct MoseDcqcnConfig
{
    double lineRate{100e9};            //!< the NIC's rate and the highest rate, bit/s
    double minRate{100e6};             //!< the lowest rate a cut leaves, bit/s
    double g{1.0 / 256};               //!< alpha's gain
    double initialAlpha{1.0};          //!< alpha before the first CNP
    Time alphaTimer{MicroSeconds(55)}; //!< K: alpha decays once per K without a CNP
    Time rateTimer{MicroSeconds(55)};  //!< T: a rate increase event per T after a cut
    uint64_t byteCounter{10000000};    //!< B: a rate increase event per B bytes sent after a cut
    uint32_t fastRecovery{5};          //!< F: increase events of fast recovery
    double additiveRate{40e6};         //!< R_AI, bit/s
    double hyperRate{400e6};           //!< R_HAI, bit/s
};

/**
 * \brief One queue pair's DCQCN reaction point (Zhu et al., "Congestion Control for Large-Scale
 *        RDMA Deployments", SIGCOMM 2015, section 3.1 and Algorithm 1), with explicit times: no
 *        Simulator, so that a test drives it by hand.
 *
 * State: the current rate Rc, the target rate Rt, alpha, the timer and byte-counter stages T
 * and BC. A flow starts at line rate with Rc = Rt = line rate and its timers idle.
 *
 * - CNP (ReceiveCnp()): Rt = Rc, Rc = max(MinRate, Rc (1 - alpha / 2)), then
 *   alpha = (1 - g) alpha + g; T = BC = 0, the byte counter empties, and both timers restart
 *   from now.
 * - Alpha timer: every K after the last CNP without another, alpha = (1 - g) alpha.
 * - Rate increase: an event every T after the last cut (T = T + 1) and every B bytes sent
 *   (BC = BC + 1). Each event: while max(T, BC) < F, fast recovery; when min(T, BC) > F, hyper
 *   increase Rt = Rt + i R_HAI with i = min(T, BC) - F; otherwise additive increase
 *   Rt = Rt + R_AI. Then Rt is capped at line rate and Rc = (Rt + Rc) / 2. Once Rc and Rt
 *   both reach line rate the rate timer stops (further events change nothing).
 *
 * The timers are kept as the times they fire next; Advance() applies, in time order, every
 * firing up to now (the owner calls it before it reads the rate), so the owner schedules no
 * event per timer.
 */
class MoseDcqcn
{
  public:
    /// \param config the parameters (Rc = Rt = lineRate); kept by reference (one copy per
    ///        transport, not per queue pair): it must outlive this object
    explicit MoseDcqcn(const MoseDcqcnConfig& config);

    /**
     * \brief A CNP arrived now: the rate cut (after applying the timers due by now).
     * \param now the time
     */
    void ReceiveCnp(Time now);

    /**
     * \brief Applies the alpha and rate-increase timers that fired up to now.
     * \param now the time (not earlier than the last call's)
     */
    void Advance(Time now);

    /**
     * \brief The queue pair sent bytes now (after Advance(now)): byte-counter events.
     * \param bytes the bytes on the wire
     * \param now the time
     */
    void BytesSent(uint64_t bytes, Time now);

    /// \return the current rate Rc in bit/s
    double GetRate() const;
    /// \return the target rate Rt in bit/s
    double GetTargetRate() const;
    /// \return alpha
    double GetAlpha() const;
    /// \return the timer stage T since the last cut
    uint32_t GetTimerStage() const;
    /// \return the byte-counter stage BC since the last cut
    uint32_t GetByteStage() const;
    /// \return the CNPs that cut the rate
    uint64_t GetNCuts() const;
    /// \return whether the rate is below line rate (the rate timer runs)
    bool IsLimited() const;

  private:
    /// \brief One rate increase event
    void Increase();

    const MoseDcqcnConfig* m_config; //!< the parameters (not owned)
    double m_rate;                   //!< Rc
    double m_target;                 //!< Rt
    double m_alpha;                  //!< alpha
    uint32_t m_timerStage{0};        //!< T
    uint32_t m_byteStage{0};         //!< BC
    uint64_t m_bytes{0};             //!< bytes since the last byte-counter event
    bool m_alphaRunning{false};      //!< the alpha timer runs (a CNP came)
    bool m_rateRunning{false};       //!< the rate timer runs (Rc or Rt below line rate)
    Time m_alphaNext;                //!< when the alpha timer fires next
    Time m_rateNext;                 //!< when the rate timer fires next
    uint64_t m_cuts{0};              //!< CNPs that cut
};

} // namespace ns3

#endif /* MOSE_DCQCN_H */
