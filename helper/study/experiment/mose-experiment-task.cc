/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-experiment-task.h"

#include <utility>

namespace ns3
{
namespace mose
{

ExperimentTask::ExperimentTask(std::function<std::unique_ptr<Experiment>()> make,
                               std::function<void(const Experiment&, RunRecord&)> finish)
    : m_make(std::move(make)),
      m_finish(std::move(finish))
{
}

void
ExperimentTask::Prepare()
{
    m_experiment = m_make();
    m_experiment->Build();
}

void
ExperimentTask::Execute()
{
    m_experiment->Run();
}

void
ExperimentTask::Finish(RunRecord& record)
{
    m_finish(*m_experiment, record);
    m_experiment.reset();
}

} // namespace mose
} // namespace ns3
