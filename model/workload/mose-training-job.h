/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRAINING_JOB_H
#define MOSE_TRAINING_JOB_H

#include "mose-training-plan.h"
#include "mose-workload-fabric.h"

#include "ns3/mose-collective.h"
#include "ns3/mose-roles.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief The training job (compute, collective, iterations) on any WorkloadFabric, and its
 *        record of an iteration.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-workload
 * \brief What the training job records of one iteration, at every level.
 */
struct IterationRecord
{
    uint32_t index{0};                                //!< iteration number (0, 1, ...)
    WorkloadMode mode{WorkloadMode::INFERENCE_HEAVY}; //!< roles of its members
    uint32_t members{0};                              //!< n, the training groups it spans
    uint64_t bytesPerMember{0}; //!< the model's S (collective size per member, before scaling)
    uint64_t wireSize{0};       //!< S / scale, rounded, at least n: the S of the plan sent
    uint64_t wireBytes{0};      //!< bytes all members send in the collective (plan total)
    uint64_t transfers{0};      //!< transfers of the collective
    Time start;                 //!< the iteration started (compute starts)
    Time collectiveStart;       //!< compute done, the collective started
    Time collectiveEnd;         //!< the last transfer of the collective completed
    bool done{false};           //!< the collective completed

    /// \return the iteration time: collective end - start
    Time GetIterationTime() const
    {
        return collectiveEnd - start;
    }

    /// \return the collective time
    Time GetCollectiveTime() const
    {
        return collectiveEnd - collectiveStart;
    }
};

/**
 * \ingroup mose-workload
 * \brief The training job's parameters.
 */
struct TrainingSettings
{
    CollectiveKind collective{CollectiveKind::ALL_TO_ALL}; //!< the collective of an iteration
    uint64_t collectiveBytes{268435456};                   //!< S per member
    int64_t computeNs{20000000};                           //!< compute per iteration
    uint64_t scale{1};                                     //!< divides every byte count
    uint32_t maxIterations{0};                             //!< 0: until Stop()
    /// send every iteration's transfers between a pair over one kept connection, closed when
    /// the member set changes (TransferSpec::keepConnection)
    bool keepConnections{false};
    /// a collective whose transfers all start together (the all-to-all) as one aggregate
    /// (WorkloadFabric::StartAggregate()), an approximation that makes an iteration over n
    /// members cost O(links) instead of O(n^2) flows; a ring's transfers run one by one all the
    /// same. Needs a fabric that can aggregate
    bool aggregate{false};
    /// a training plan (a Chakra trace, ...): each iteration runs its DAG (PlanRunner) instead
    /// of computeNs and one collective; collective, collectiveBytes, computeNs and aggregate
    /// are then unused. Null: the synthetic iteration
    std::shared_ptr<const TrainingPlan> plan;
    /// the plan's ranks on the training members and rails (null: one rank per member, rail 0);
    /// shared as the plan is, since the settings are copied into each level's job (the packet
    /// level's, the fluid level's FluidLlmConfig)
    std::shared_ptr<const RankMapping> rankMapping;
    NcclSettings nccl; //!< how the plan's collectives are decomposed

    /// \brief Throws a mose::Error naming the first invalid parameter for a job of the given
    ///        number of members (whether the fabric can aggregate is checked at Start())
    /// \param members the training groups the collective runs over
    void Validate(std::size_t members) const;
};

/**
 * \ingroup mose-workload
 * \brief A training job that waits on its collectives, written once for every level: each
 *        iteration is the compute time, then one collective (PlanCollective()) over the
 *        current training groups; the next iteration starts when the collective completes.
 *        With a training plan (TrainingSettings::plan) an iteration is the plan's DAG
 *        instead, run by a PlanRunner over the same members.
 *
 * Members are the training groups of the roles in ascending id order (member i + 1 is member
 * i's ring successor). An all-to-all starts all its n(n-1) transfers at once; a ring
 * all-reduce starts step 0 and every later transfer when the transfer it depends on has
 * completed. SetMode() at a mode boundary changes the training groups for the NEXT iteration:
 * the iteration in flight completes on the old set. Byte counts are divided by the scale (every
 * chunk at least 1 byte). Each transfer goes on CollectivePlan::GetRail(): an all-to-all part
 * from member i to member j on rail (j - i) mod n, ring chunk c on rail c.
 */
class TrainingJob
{
  public:
    /// an iteration's record, at its start, its collective's start and its end
    using IterationObserver = std::function<void(const IterationRecord& record)>;
    /// an error caught inside an event: the iteration and what went wrong
    using ErrorObserver = std::function<void(uint32_t iteration, const std::string& what)>;

    /// What the job tells its owner (each optional)
    struct Observers
    {
        IterationObserver started;           //!< an iteration started (its compute)
        IterationObserver collectiveStarted; //!< its collective started
        IterationObserver done;              //!< its collective completed
        ErrorObserver error;                 //!< an error inside an event (counted)
    };

    TrainingJob();

    /**
     * \brief The mode's roles: the training groups of the next iteration.
     * \param mode the mode
     * \param roles its roles (at least two training groups)
     */
    void SetMode(WorkloadMode mode, const RoleAssignment& roles);
    /// \return whether SetMode() was called
    bool HasMode() const;
    /// \return the latest training groups
    const std::vector<uint32_t>& GetGroups() const;

    /// \param observers what to call at the job's steps
    void SetObservers(Observers observers);

    /**
     * \brief Starts iteration 0 at now + startNs. mose::Error if no mode, or a setting is
     *        invalid (named as the settings' fields).
     * \param fabric the fabric (kept until the run ends)
     * \param startNs the delay
     * \param settings the parameters
     */
    void Start(WorkloadFabric& fabric, int64_t startNs, const TrainingSettings& settings);

    /// \brief Starts no iteration after now; the one in flight (compute or collective)
    ///        completes
    void Stop();
    /// \brief Cancels the job's pending event (the owner's dispose)
    void CancelEvents();

    /// \return whether the job was stopped and no iteration is in flight
    bool IsDone() const;
    /// \return whether an iteration is in flight (its compute or its collective)
    bool IsBusy() const;
    /// \return one record per iteration started
    const std::vector<IterationRecord>& GetRecords() const;
    /// \return iterations whose collective completed
    uint32_t GetNDone() const;
    /// \return errors caught inside events
    uint64_t GetNErrors() const;
    /// \return with a plan (TrainingSettings::plan), one record per collective run (else none)
    const std::vector<CollectiveRecord>& GetCollectiveRecords() const;

  private:
    /// \brief Starts the next iteration (compute)
    void StartIteration();
    /// \brief Starts the plan's iteration (TrainingSettings::plan)
    void StartPlanIteration();
    /// \brief Compute done: starts the collective
    void StartCollective();
    /// \brief Starts the whole plan as one aggregate
    void StartAggregate(uint32_t iteration);
    /// \brief Starts transfer k of the current plan
    void StartTransfer(uint32_t iteration, uint64_t k);
    /// \brief Transfer k of the current plan completed
    void TransferDone(uint32_t iteration, uint64_t k, const TransferReport& report);
    /// \brief The collective's last byte arrived at endNs (noticed now): the iteration ends
    void CollectiveDone(int64_t endNs);
    /// \brief Counts an error and tells the observer
    void Fail(uint32_t iteration, const std::string& what);

    WorkloadFabric* m_fabric{nullptr};                  //!< from Start()
    TrainingSettings m_settings;                        //!< from Start()
    bool m_hasMode{false};                              //!< SetMode() was called
    WorkloadMode m_mode{WorkloadMode::INFERENCE_HEAVY}; //!< latest mode
    std::vector<uint32_t> m_groups;                     //!< latest training groups
    std::vector<uint32_t> m_members;                    //!< current iteration's
    CollectivePlan m_plan;                              //!< current collective
    bool m_planned{false};                              //!< m_plan was made
    uint64_t m_planBytes{0};                            //!< its total bytes
    bool m_planIndependent{false};                      //!< no transfer of m_plan waits for another
    std::vector<std::vector<uint64_t>> m_dependents;    //!< per transfer of the plan
    /// aggregate: the plan's transfers as parts (the same object while the members and the
    /// plan stay, so that the fabric reuses their routes)
    std::shared_ptr<const std::vector<TransferPart>> m_aggregate;
    std::vector<uint32_t> m_aggregateMembers; //!< the members m_aggregate was made for
    uint64_t m_pending{0};                    //!< transfers not complete
    bool m_inFlight{false};                   //!< an iteration runs (compute or collective)
    bool m_stopped{false};                    //!< Stop() was called
    WorkloadFabric::EventHandle m_event{0};   //!< next start or compute
    bool m_hasEvent{false};                   //!< m_event was scheduled
    std::vector<IterationRecord> m_records;   //!< per iteration
    uint32_t m_done{0};                       //!< iterations complete
    uint64_t m_errors{0};                     //!< errors inside events
    Observers m_observers;                    //!< the owner's
    PlanRunner m_runner;                      //!< runs TrainingSettings::plan
    std::vector<uint32_t> m_runnerMembers;    //!< the members m_runner was prepared for
};

/// \return the CSV header of WriteIterationsCsv() (no newline)
std::string GetIterationsCsvHeader();

/**
 * \brief One CSV row per iteration: index, mode, members, bytes_per_member, wire_size,
 *        wire_bytes, transfers, start_s, collective_start_s, collective_end_s, iteration_s,
 *        collective_s, done.
 * \param os the stream
 * \param records the records
 * \param prefix text written before every row
 */
void WriteIterationsCsv(std::ostream& os,
                        const std::vector<IterationRecord>& records,
                        const std::string& prefix);

} // namespace mose
} // namespace ns3

#endif /* MOSE_TRAINING_JOB_H */
