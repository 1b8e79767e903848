/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRAINING_PLAN_H
#define MOSE_TRAINING_PLAN_H

#include "mose-workload-fabric.h"

#include "ns3/mose-nccl.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief A training iteration as a DAG of compute, collective and send/receive nodes over ranks
 *        (what Chakra execution traces and AICB workloads describe), its mapping of ranks to
 *        groups and rails, and its run on any WorkloadFabric.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-workload
 * \brief What a node of a training plan does.
 */
enum class PlanNodeKind : uint8_t
{
    COMPUTE,    //!< a GPU busy for durationNs
    COLLECTIVE, //!< one rank's part of a collective over its group of ranks
    SEND,       //!< bytes to the peer rank
    RECV,       //!< bytes from the peer rank
};

/// \ingroup mose-workload
/// Names of PlanNodeKind: "compute", "collective", "send", "recv"
template <>
struct EnumTable<PlanNodeKind>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<PlanNodeKind>>& Get();
};

/**
 * \ingroup mose-workload
 * \brief One node of one rank's graph (a Chakra node, or a phase of an AICB layer).
 */
struct PlanNode
{
    uint64_t id{0};                                        //!< unique within its rank
    std::string name;                                      //!< as the trace names it
    std::string origin;                                    //!< "file node 17" / "file line 5"
    PlanNodeKind kind{PlanNodeKind::COMPUTE};              //!< what it does
    int64_t durationNs{0};                                 //!< COMPUTE: its time
    NcclCollective collective{NcclCollective::ALL_REDUCE}; //!< COLLECTIVE: which
    uint64_t bytes{0}; //!< COLLECTIVE: S (the buffer); SEND, RECV: the message
    /// COLLECTIVE: its ranks in ring order (this rank among them); empty: every rank
    std::vector<uint32_t> group;
    uint32_t peer{0};               //!< SEND: destination rank; RECV: source rank
    uint64_t tag{0};                //!< SEND, RECV: matched with the peer's by tag and order
    std::vector<uint64_t> dataDeps; //!< ids of this rank's nodes whose outputs it reads
    std::vector<uint64_t> ctrlDeps; //!< ids of this rank's nodes it runs after
};

/**
 * \ingroup mose-workload
 * \brief The rule from ranks (GPUs) to groups and rails.
 *
 * Default: rank r is on training member r / G (members are the training groups in ascending id
 * order) and on rail r mod G, with G ranks per group. A mapping file (ReadRankMapping()) gives
 * each rank its member and rail instead.
 */
struct RankMapping
{
    uint32_t ranksPerGroup{1};    //!< G (>= 1), without a file
    std::vector<uint32_t> member; //!< from a file: per rank its member (empty: the rule)
    std::vector<uint32_t> rail;   //!< from a file: per rank its rail
    std::string source;           //!< the file it was read from (empty: the rule)

    /// \param rank a rank \return its member
    uint32_t GetMember(uint32_t rank) const;
    /// \param rank a rank \return its rail
    uint32_t GetRail(uint32_t rank) const;
};

/**
 * \ingroup mose-workload
 * \brief Reads a rank mapping: one line "rank member rail" per rank 0..R-1 in order; '#'
 *        starts a comment. mose::Error naming the file and line otherwise.
 * \param path the file
 * \return the mapping
 */
RankMapping ReadRankMapping(const std::string& path);

/**
 * \ingroup mose-workload
 * \brief A training iteration: per rank its nodes. A collective node of rank r on group g is
 *        matched with the nodes of the other ranks of g by order (the k-th collective on g of
 *        each rank is one collective), a send with the receive of its peer by (tag, order), as
 *        ASTRA-sim matches them.
 */
struct TrainingPlan
{
    std::string source;                       //!< the trace, for messages
    std::vector<std::vector<PlanNode>> ranks; //!< per rank its nodes

    /**
     * \brief Throws a mose::Error naming the origin of the first bad node: a dependency on an
     *        id the rank does not have, a cycle, a collective or message of 0 bytes, a group or
     *        peer rank outside the plan, collectives of a group that do not match (kind, size,
     *        count), a send without its receive, and a deadlock across ranks: nodes of several
     *        ranks that wait for each other in a cycle through their dependencies and matched
     *        collectives and send/receive pairs (each starts when every rank of it reached it),
     *        named node by node with their origins and ranks. A plan that passes completes on
     *        a PlanRunner.
     */
    void Validate() const;

    /// \return the number of nodes over all ranks
    uint64_t GetNNodes() const;
};

/**
 * \ingroup mose-workload
 * \brief The synthetic job's iteration as a plan: per member a compute node, then a collective
 *        of every member after it.
 * \param members n
 * \param computeNs the compute time
 * \param collective the collective
 * \param bytes its S
 * \return the plan
 */
TrainingPlan MakeSyntheticPlan(uint32_t members,
                               int64_t computeNs,
                               NcclCollective collective,
                               uint64_t bytes);

/**
 * \ingroup mose-workload
 * \brief The shape of a small MoE training iteration (MakeMoePlan()).
 */
struct MoeShape
{
    uint32_t ranks{8};                //!< R, GPUs
    uint32_t expertParallel{4};       //!< E: ranks r with the same r / E form an EP group
    uint32_t layers{2};               //!< MoE layers
    int64_t attentionNs{200000};      //!< a layer's attention (and its backward: twice)
    int64_t expertNs{300000};         //!< a layer's experts (and their backward: twice)
    uint64_t tokenBytes{4194304};     //!< S of each all-to-all (dispatch, combine)
    uint64_t gradientBytes{67108864}; //!< S of the data-parallel gradient all-reduce
};

/**
 * \ingroup mose-workload
 * \brief A MoE iteration: per layer, attention, an all-to-all dispatch over the rank's EP
 *        group, the experts, an all-to-all combine; the backward pass in reverse (compute
 *        twice as long, the same all-to-alls); then one all-reduce of the gradients over the
 *        rank's data-parallel group (the ranks with the same r mod E). Each node depends on the
 *        one before it (data), node ids 0, 1, ... per rank.
 * \param shape the shape (R a multiple of E, E >= 1)
 * \return the plan, source "moe"
 */
TrainingPlan MakeMoePlan(const MoeShape& shape);

/**
 * \ingroup mose-workload
 * \brief What a plan run records of one collective (or send/receive pair).
 */
struct CollectiveRecord
{
    uint32_t iteration{0};   //!< the job's iteration
    uint64_t index{0};       //!< the collective's number in the plan
    std::string name;        //!< its first member's node name
    std::string kind;        //!< "all-reduce", ..., "send"
    uint32_t ranks{0};       //!< ranks in it
    uint64_t bytes{0};       //!< S as sent (after the scale)
    uint64_t wireBytes{0};   //!< bytes of its transfers between groups
    uint64_t transfers{0};   //!< its transfers between groups
    int64_t firstReadyNs{0}; //!< the first rank was ready
    int64_t startNs{0};      //!< the last rank was ready: it started
    int64_t endNs{0};        //!< its last byte arrived
    uint32_t slowestRank{0}; //!< the rank it waited for (the last ready)
    bool done{false};        //!< it completed
};

/// \return the CSV header of WriteCollectivesCsv() (no newline)
std::string GetCollectivesCsvHeader();

/**
 * \brief One CSV row per collective: iteration, index, name, kind, ranks, bytes, wire_bytes,
 *        transfers, first_ready_s, start_s, end_s, collective_s, slowest_rank, done.
 * \param os the stream
 * \param records the records
 * \param prefix text written before every row
 */
void WriteCollectivesCsv(std::ostream& os,
                         const std::vector<CollectiveRecord>& records,
                         const std::string& prefix);

/**
 * \ingroup mose-workload
 * \brief Runs one iteration of a TrainingPlan on a WorkloadFabric: a node starts when its data
 *        and control dependencies completed; a compute node takes its time; a collective
 *        starts when all its ranks reached it and moves its NCCL plan (PlanNccl()) between the
 *        ranks' groups; a send/receive pair moves when both reached it.
 *
 * A transfer between two ranks of one group (NVLink inside a server) takes no time: the fabric
 * carries only what crosses groups. A transfer from rank a goes on rail (rail of a + the NCCL
 * plan's rail). A node completes when its collective's last transfer is noticed; the iteration
 * ends when every node completed.
 */
class PlanRunner
{
  public:
    /// the iteration ended: its last byte or compute end (ns)
    using DoneCallback = std::function<void(int64_t endNs)>;

    /**
     * \brief Prepares a plan (validated) for the given members: mose::Error if a rank maps
     *        outside the members, naming the rank and the mapping.
     * \param plan the plan (outlives this)
     * \param mapping ranks to members and rails
     * \param groups the members' groups (member i is group groups[i])
     * \param nccl NCCL's settings
     * \param scale divides every byte count (>= 1)
     */
    void Prepare(const TrainingPlan& plan,
                 const RankMapping& mapping,
                 const std::vector<uint32_t>& groups,
                 const NcclSettings& nccl,
                 uint64_t scale);

    /**
     * \brief Runs one iteration now.
     * \param fabric the fabric
     * \param iteration its number, for the records
     * \param trafficClass what the transfers carry
     * \param done called when every node completed
     */
    void Run(WorkloadFabric& fabric,
             uint32_t iteration,
             TrafficClass trafficClass,
             DoneCallback done);

    /// \return the records of every collective run so far
    const std::vector<CollectiveRecord>& GetRecords() const;
    /// \return bytes between groups per iteration (the sum of the collectives' wireBytes)
    uint64_t GetWireBytes() const;
    /// \return transfers between groups per iteration
    uint64_t GetTransfers() const;
    /// \return the start of the iteration's first collective (ns), or -1 if none started yet
    int64_t GetFirstCollectiveStart() const;

  private:
    /// a collective or send/receive pair, with its members' nodes
    struct Instance
    {
        std::string name;                                 //!< its first node's name
        std::string kind;                                 //!< for the record
        std::vector<uint32_t> ranks;                      //!< in ring order
        std::vector<std::pair<uint32_t, uint64_t>> nodes; //!< (rank, node index) per rank
        NcclPlan plan;                                    //!< its transfers
        std::vector<std::vector<uint64_t>> dependents;    //!< per transfer
        uint64_t wireBytes{0};                            //!< bytes between groups
        uint64_t wireTransfers{0};                        //!< transfers between groups
        uint64_t bytes{0};                                //!< S as sent
    };

    /// \brief Node (rank, k) may start: its dependencies completed
    void StartNode(uint32_t rank, uint64_t k);
    /// \brief Node (rank, k) completed at endNs
    void NodeDone(uint32_t rank, uint64_t k, int64_t endNs);
    /// \brief Starts transfer t of instance i
    void StartTransfer(uint64_t i, uint64_t t);
    /// \brief Transfer t of instance i was noticed, its last byte at endNs
    void TransferDone(uint64_t i, uint64_t t, int64_t endNs);

    const TrainingPlan* m_plan{nullptr};                    //!< from Prepare()
    RankMapping m_mapping;                                  //!< from Prepare()
    std::vector<uint32_t> m_groups;                         //!< from Prepare()
    std::vector<Instance> m_instances;                      //!< collectives and pairs
    std::vector<std::vector<uint64_t>> m_instanceOf;        //!< per rank and node, or UINT64_MAX
    std::vector<std::vector<uint64_t>> m_index;             //!< per rank, node id -> index
    std::vector<std::vector<std::vector<uint64_t>>> m_next; //!< per rank and node, dependents
    std::vector<std::vector<uint32_t>> m_deps;              //!< per rank and node, dependency count
    uint64_t m_wireBytes{0};                                //!< per iteration
    uint64_t m_wireTransfers{0};                            //!< per iteration

    WorkloadFabric* m_fabric{nullptr};                 //!< from Run()
    uint32_t m_iteration{0};                           //!< from Run()
    TrafficClass m_class{TrafficClass::TRAINING};      //!< from Run()
    DoneCallback m_done;                               //!< from Run()
    std::vector<std::vector<uint32_t>> m_waiting;      //!< per rank and node, deps left
    std::vector<uint32_t> m_joined;                    //!< per instance, ranks ready
    std::vector<std::vector<uint32_t>> m_transferWait; //!< per instance and transfer
    std::vector<uint64_t> m_transfersLeft;             //!< per instance
    std::vector<int64_t> m_lastByte;                   //!< per instance
    std::vector<uint64_t> m_record;                    //!< per instance, its record
    uint64_t m_nodesLeft{0};                           //!< this iteration
    int64_t m_endNs{0};                                //!< latest completion
    int64_t m_firstCollective{-1};                     //!< this iteration
    std::vector<CollectiveRecord> m_records;           //!< every collective
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_TRAINING_PLAN_H */
