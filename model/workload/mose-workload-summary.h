/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_WORKLOAD_SUMMARY_H
#define MOSE_WORKLOAD_SUMMARY_H

#include "mose-inference-server.h"
#include "mose-training-job.h"

#include "ns3/mose-percentile.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief The workloads' own summaries of their records, the same at every level: what the
 *        reports print of a run or of a window of it.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-workload
 * \brief The inference server's summary of the requests that arrived in a window.
 */
struct InferenceSummary
{
    uint32_t requests{0};  //!< requests arriving in the window
    uint32_t served{0};    //!< of them, those whose KV transfer completed (noticed)
    SampleStatistics kv;   //!< KV transfer time of the served ones, in seconds
    SampleStatistics ttft; //!< TTFT of the served ones, in seconds
};

/**
 * \ingroup mose-workload
 * \brief The training job's summary of the iterations that started in a window.
 */
struct TrainingSummary
{
    uint32_t iterations{0};      //!< iterations started in the window whose collective completed
    SampleStatistics iteration;  //!< their iteration times, in seconds
    SampleStatistics collective; //!< their collective times, in seconds
};

/**
 * \ingroup mose-workload
 * \brief Summarises the requests arriving in [from, to).
 * \param records the inference server's records (InferenceServer::GetRecords())
 * \param from the window's start
 * \param to the window's end (Time::Max(): to the end of the run)
 * \return the summary
 * \throws mose::Error when from is not before to
 */
InferenceSummary SummarizeRequests(const std::vector<RequestRecord>& records, Time from, Time to);

/**
 * \ingroup mose-workload
 * \brief Summarises the completed iterations that started in [from, to).
 * \param records the training job's records (TrainingJob::GetRecords())
 * \param from the window's start
 * \param to the window's end (Time::Max(): to the end of the run)
 * \return the summary
 * \throws mose::Error when from is not before to
 */
TrainingSummary SummarizeIterations(const std::vector<IterationRecord>& records,
                                    Time from,
                                    Time to);

} // namespace mose
} // namespace ns3

#endif /* MOSE_WORKLOAD_SUMMARY_H */
