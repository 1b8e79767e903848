/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_AICB_WORKLOAD_H
#define MOSE_AICB_WORKLOAD_H

#include "mose-training-plan.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief SimAI/AICB workload files (the text form AICB's generator writes and SimAI reads) as
 *        training plans: the reader, the module's own writer, and a small MoE sample.
 *
 * The format, as aliyun/SimAI reads it (astra-sim-alibabacloud/astra-sim/workload/Workload.cc,
 * Workload::initialize_workload() at commit 0253299) and aliyun/aicb writes it
 * (workload_generator/SimAI_training_workload_generator.py at commit 151243e):
 * - line 1, the header: the parallelism policy (HYBRID_TRANSFORMER_FWD_IN_BCKWD or
 *   HYBRID_TRANSFORMER), then "key: value" pairs: model_parallel_NPU_group (TP), ep, pp, vpp,
 *   ga, all_gpus (the ranks), checkpoints and checkpoint_initiates (a count, then that many
 *   layers), pp_comm;
 * - line 2: the number of layer lines;
 * - one line per layer, 12 fields separated by blanks (AICB writes tabs): name, a reserved
 *   field (AICB writes -1), forward compute time, forward collective and its size, input-
 *   gradient compute time, collective and size, weight-gradient compute time, collective and
 *   size, weight-update time. Times are SimAI ticks, nanoseconds (SimAI's Common.hh: CLOCK_PERIOD
 *   1, FREQ 1000 ticks per microsecond); sizes are bytes.
 *
 * A collective is NONE, or ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL with an optional
 * suffix _EP or _DP_EP, or BROADCAST. Without suffix it runs over the phase's group: the
 * tensor-parallel group for the forward and input-gradient collectives, the data-parallel group
 * for the weight-gradient one; _EP over the expert-parallel group, _DP_EP over the data-parallel
 * ranks that hold the same experts. The groups are SimAI's (astra-sim/system/MockNcclGroup.cc
 * at commit 0575ab6): TP groups are blocks of TP consecutive ranks; the DP group of rank r is the
 * ranks with the same r mod TP; an EP group is EP consecutive TP groups' ranks at the same TP
 * position; a DP_EP group takes every EP-th TP group.
 *
 * The iteration, as SimAI's iterate_hybrid_parallel_Transformer_fwd_in_bckwd() runs it with one
 * pipeline stage: the forward pass in layer order (compute, then its collective, which the next
 * layer waits for); the backward pass in reverse layer order (input-gradient compute and its
 * collective, then weight-gradient compute; the weight-gradient collective does not hold the
 * backward pass up, and the weight update follows it). The iteration ends when every node
 * completed.
 *
 * Not read (a mose::Error naming the file and line says so): pipeline parallelism (pp > 1),
 * activation checkpoints (checkpoints > 0), SimAI's ALLREDUCEALLTOALL, other policies (DATA,
 * MICRO, HYBRID_DLRM, ...). ga is informational: AICB already repeats the layer lines ga times.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-workload
 * \brief The group an AICB collective runs over.
 */
enum class AicbGroup : uint8_t
{
    PHASE, //!< no suffix: TP (forward, input gradient) or DP (weight gradient)
    EP,    //!< _EP: the expert-parallel group
    DP_EP, //!< _DP_EP: the data-parallel ranks that hold the same experts
};

/**
 * \ingroup mose-workload
 * \brief One phase's collective of an AICB layer line.
 */
struct AicbComm
{
    bool present{false};                                   //!< false: NONE
    NcclCollective collective{NcclCollective::ALL_REDUCE}; //!< which, if present
    AicbGroup group{AicbGroup::PHASE};                     //!< over which group
    uint64_t bytes{0};                                     //!< its size (NONE: as the file has it)

    /// \return the field as AICB writes it: "NONE", "ALLTOALL_EP", ...
    std::string GetName() const;
};

/**
 * \ingroup mose-workload
 * \brief One layer line of an AICB workload.
 */
struct AicbLayer
{
    std::string name;        //!< the layer's name
    int64_t reserved{-1};    //!< the second field (AICB: -1, SimAI: "depen", unused)
    int64_t forwardNs{0};    //!< forward compute
    AicbComm forward;        //!< forward collective
    int64_t inputGradNs{0};  //!< input-gradient compute
    AicbComm inputGrad;      //!< input-gradient collective
    int64_t weightGradNs{0}; //!< weight-gradient compute
    AicbComm weightGrad;     //!< weight-gradient collective
    int64_t updateNs{0};     //!< weight update
    uint64_t line{0};        //!< its line in the file (0: not read from a file)
};

/**
 * \ingroup mose-workload
 * \brief An AICB workload: its parallelism and its layers.
 */
struct AicbWorkload
{
    std::string source;                                    //!< the file, for messages
    std::string policy{"HYBRID_TRANSFORMER_FWD_IN_BCKWD"}; //!< the header's first word
    uint32_t tensorParallel{1};                            //!< model_parallel_NPU_group
    uint32_t expertParallel{1};                            //!< ep
    uint32_t pipelineParallel{1};                          //!< pp (1: the only one read)
    uint32_t virtualPipeline{1};                           //!< vpp (unused with pp = 1)
    uint32_t gradientAccumulation{1};                      //!< ga (informational)
    uint32_t ranks{1};                                     //!< all_gpus
    std::vector<AicbLayer> layers;                         //!< in file order

    /// \return the data-parallel size: ranks / (TP x PP)
    uint32_t GetDataParallel() const;

    /**
     * \param rank a rank
     * \param group which group
     * \param weightGradient whether the collective is a weight-gradient one (PHASE: DP, not TP)
     * \return the group's ranks, ascending
     */
    std::vector<uint32_t> GetGroup(uint32_t rank, AicbGroup group, bool weightGradient) const;

    /**
     * \brief The iteration as a plan, per rank node ids 0, 1, ...: per layer in order its
     *        forward compute and collective; per layer in reverse its input-gradient compute and
     *        collective, weight-gradient compute and collective, weight update.
     * \return the plan (validated), source this->source
     */
    TrainingPlan ToPlan() const;
};

/**
 * \ingroup mose-workload
 * \brief Parses an AICB workload.
 * \param in the text
 * \param name the file's name, for messages
 * \return the workload; a mose::Error "NAME:LINE: problem" naming the field for a missing or
 *         unknown header, a short line, an unknown collective, a negative size or time, a
 *         collective of size 0, a group larger than the ranks, a layer count that does not
 *         match the lines
 */
AicbWorkload ParseAicbWorkload(std::istream& in, const std::string& name);

/**
 * \ingroup mose-workload
 * \brief Reads an AICB workload file.
 * \param path the file
 * \return the workload (ParseAicbWorkload())
 */
AicbWorkload ReadAicbWorkload(const std::string& path);

/**
 * \ingroup mose-workload
 * \brief Writes a workload as AICB does: the header (HYBRID_TRANSFORMER_FWD_IN_BCKWD ...
 *        checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0), the count, one tab-separated line
 *        per layer.
 * \param workload the workload (its plan must build: ToPlan())
 * \param path the file
 */
void WriteAicbWorkload(const AicbWorkload& workload, const std::string& path);

/**
 * \ingroup mose-workload
 * \brief A MoE iteration as AICB writes one, over shape.ranks ranks with TP 1 and EP
 *        shape.expertParallel: per MoE layer two lines. "layerL.attention": forward
 *        attentionNs and an ALLTOALL_EP of tokenBytes (the dispatch); input gradient
 *        attentionNs and an ALLTOALL_EP; weight gradient attentionNs and an ALLREDUCE (every
 *        rank: the dense weights) of gradientBytes / (8 layers). "layerL.experts": forward
 *        expertNs and an ALLTOALL_EP (the combine); input gradient expertNs and an ALLTOALL_EP;
 *        weight gradient expertNs and an ALLREDUCE_DP_EP of gradientBytes / (2 layers). Weight
 *        updates of 100 ns (AICB's default).
 * \param shape the shape (ranks a multiple of expertParallel)
 * \return the workload, source "moe-aicb"
 */
AicbWorkload MakeMoeAicbWorkload(const MoeShape& shape);

} // namespace mose
} // namespace ns3

#endif /* MOSE_AICB_WORKLOAD_H */
