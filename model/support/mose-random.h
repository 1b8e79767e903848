/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_RANDOM_H
#define MOSE_RANDOM_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief Fixed ns-3 RNG stream numbers of the flow-level core and the packet level.
 *
 * Every stochastic step draws from its own stream so that changing one input (say, the number
 * of flows) leaves the others (say, the topology) unchanged for the same run. The numbers sit
 * above the range ns-3 models take through AssignStreams() in typical scripts.
 */
namespace Stream
{
constexpr int64_t ROLES = 7100;               //!< role transition between workload modes
constexpr int64_t ASSIGNMENT = 7101;          //!< P-D assignment, inference-heavy mode
constexpr int64_t ASSIGNMENT_TRAINING = 7102; //!< P-D assignment, training-heavy mode
constexpr int64_t UNIFORM = 7110;             //!< uniform template H^U
constexpr int64_t PD_BIASED = 7111;           //!< P-D-biased template H^PD
constexpr int64_t COMPROMISE = 7112;          //!< compromise template H^C
constexpr int64_t REWIRING = 7113;            //!< rewiring-aware templates at MoSE's switches
constexpr int64_t TRAFFIC = 7120;             //!< flows of the inference-heavy mode
constexpr int64_t TRAFFIC_TRAINING = 7121;    //!< flows of the training-heavy mode
constexpr int64_t ROUTING = 7130;             //!< random tie-break among shortest paths
constexpr int64_t LLM_REQUESTS = 7135;        //!< generated LLM inference requests
/// which generated requests a training-heavy interval of a regime map keeps
constexpr int64_t LLM_MIX = 7136;
/// packet level: the first stream of the transfers' sampling and start times. A
/// MoseTrafficHelper takes two (TRANSFERS, TRANSFERS + 1: InstallPacketWorkload()); a switching
/// run gives mode interval i the two from TRANSFERS + 2 i (InstallSwitchWorkload() through
/// MoseModeSwitcherHelper::InstallModeTraffic()), so keep the numbers above it free
constexpr int64_t TRANSFERS = 7140;
/// packet level: the marking draws of the fabric's RED queue discs (ECN for RoCEv2), disc k
/// (in node and device order) on ECN_MARKS + k; far above TRANSFERS' streams
constexpr int64_t ECN_MARKS = 1000000;
} // namespace Stream

/**
 * \ingroup mose-support
 * \brief A thin wrapper over an ns-3 UniformRandomVariable with the integer draws the core needs.
 *
 * Draws come from ns-3's MRG32k3a streams, so the seed (--RngSeed), the run (--RngRun) and the
 * stream number fully determine them, identically on every machine. Shuffle() is written here
 * rather than taken from std::shuffle because the standard leaves std::shuffle's and
 * std::uniform_int_distribution's algorithms to each library, which would break bit-identical
 * results across compilers.
 */
class Random
{
  public:
    /**
     * \brief Wraps an existing stream (e.g. one a helper configured through AssignStreams()).
     * \param stream the stream to draw from; must not be null
     */
    explicit Random(Ptr<UniformRandomVariable> stream);

    /**
     * \brief Creates a stream for a given run and stream number, independent of the global run.
     *
     * The ns-3 seed is the global one (RngSeedManager::GetSeed()); the run is given explicitly,
     * so one process can evaluate runs k, k+1, ... one after the other. It sets ns-3's global
     * run for the moment it creates the stream, under a process-wide lock, so calls on several
     * threads (e.g. the workers of a study) are safe with each other; drawing from the stream
     * afterwards needs no lock. (Code that reads ns-3's global run itself, outside Create(), is
     * not serialised with it.)
     * \param run the ns-3 run number (what --RngRun selects)
     * \param stream the stream number, one of Stream
     * \return the generator
     */
    static Random Create(uint64_t run, int64_t stream);

    /**
     * \param n the number of outcomes, at least 1
     * \return an integer drawn uniformly from [0, n)
     */
    uint32_t Index(uint32_t n);

    /// \return a real drawn uniformly from [0, 1)
    double Uniform01();

    /// \return 64 random bits (for seeding a stateless hash)
    uint64_t Bits64();

    /**
     * \brief Fisher-Yates shuffle of a vector, in place.
     * \param values the values to permute
     */
    template <class T>
    void Shuffle(std::vector<T>& values)
    {
        for (std::size_t i = values.size(); i > 1; --i)
        {
            std::size_t j = Index(static_cast<uint32_t>(i));
            std::swap(values[i - 1], values[j]);
        }
    }

    /// \return the wrapped ns-3 stream
    Ptr<UniformRandomVariable> GetStream() const;

  private:
    Ptr<UniformRandomVariable> m_rng; //!< the ns-3 stream
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_RANDOM_H */
