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
 *        several workers): Prepare() makes it and builds it (its Build()), Execute() runs it
 *        (its Run()), Finish() keeps what the study needs and frees it. mose-packet's and
 *        mose-mode-switch's policy runs.
 * \tparam E the experiment, with a Build() and a Run()
 */
template <typename E>
class ExperimentTask : public RunTask
{
  public:
    /// \param make makes the experiment \param finish keeps what it gave
    ExperimentTask(std::function<std::unique_ptr<E>()> make,
                   std::function<void(const E&, RunRecord&)> finish)
        : m_make(std::move(make)),
          m_finish(std::move(finish))
    {
    }

    void Prepare() override
    {
        m_experiment = m_make();
        m_experiment->Build();
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
    std::function<std::unique_ptr<E>()> m_make;         //!< makes it
    std::function<void(const E&, RunRecord&)> m_finish; //!< keeps its output
    std::unique_ptr<E> m_experiment;                    //!< the experiment
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_EXPERIMENT_TASK_H */
