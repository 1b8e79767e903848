/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_EXPERIMENT_TASK_H
#define MOSE_EXPERIMENT_TASK_H

#include "mose-experiment.h"
#include "mose-run-pool.h"

#include <functional>
#include <memory>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief A run of a list that is one experiment (a packet-level run: a process per run with
 *        several workers): Prepare() makes it (with its preset's workload, e.g.
 *        InstallSwitchWorkload()) and builds it (Experiment::Build()), Execute() runs it
 *        (Experiment::Run()), Finish() keeps what the study needs and frees it. mose-packet's
 *        and mose-mode-switch's policy runs; the workload's result is what make and finish
 *        share (captured by both).
 */
class ExperimentTask : public RunTask
{
  public:
    /// \param make makes the experiment, its workload installed \param finish keeps what it
    ///        gave
    ExperimentTask(std::function<std::unique_ptr<Experiment>()> make,
                   std::function<void(const Experiment&, RunRecord&)> finish);

    void Prepare() override;
    void Execute() override;
    void Finish(RunRecord& record) override;

  private:
    std::function<std::unique_ptr<Experiment>()> m_make;         //!< makes it
    std::function<void(const Experiment&, RunRecord&)> m_finish; //!< keeps its output
    std::unique_ptr<Experiment> m_experiment;                    //!< the experiment
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_EXPERIMENT_TASK_H */
