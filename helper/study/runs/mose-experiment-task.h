/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_EXPERIMENT_TASK_H
#define MOSE_EXPERIMENT_TASK_H

#include "mose-run-pool.h"

#include <functional>
#include <memory>
#include <utility>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief A run of a list that is one experiment (a packet-level run: a process per run with
 *        several workers): Prepare() builds it, Execute() runs it (its Run()), Finish() keeps
 *        what the study needs and frees it. mose-packet's and mose-mode-switch's policy runs.
 * \tparam E the experiment, with a Run()
 */
template <typename E>
class ExperimentTask : public RunTask
{
  public:
    /// \param build builds the experiment \param finish keeps what it gave
    ExperimentTask(std::function<std::unique_ptr<E>()> build,
                   std::function<void(const E&, RunRecord&)> finish)
        : m_build(std::move(build)),
          m_finish(std::move(finish))
    {
    }

    void Prepare() override
    {
        m_experiment = m_build();
    }

    void Execute() override
    {
        m_experiment->Run();
    }

    void Finish(RunRecord& record) override
    {
        m_finish(*m_experiment, record);
        m_experiment.reset();
    }

  private:
    std::function<std::unique_ptr<E>()> m_build;        //!< builds it
    std::function<void(const E&, RunRecord&)> m_finish; //!< keeps its output
    std::unique_ptr<E> m_experiment;                    //!< the experiment
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_EXPERIMENT_TASK_H */
