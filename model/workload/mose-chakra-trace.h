/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_CHAKRA_TRACE_H
#define MOSE_CHAKRA_TRACE_H

#include "mose-training-plan.h"

#include <map>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief MLCommons Chakra execution traces as training plans: the reader and the module's own
 *        writer (model/workload/mose-chakra-et.proto, Chakra's schema at the commit it names).
 *
 * A trace is one file per rank, PREFIX.R.et for R = 0, 1, ..., each protobuf's delimited
 * stream: a GlobalMetadata message, then one Node message per node, each preceded by its
 * length (the format of Chakra's encode_message() and ASTRA-sim's feeder). Optionally a
 * comm_group.json beside them (ASTRA-sim's --comm-group-configuration: {"name": [ranks], ...})
 * gives the ranks of each process group a node names in its attribute pg_name.
 *
 * What a node becomes:
 * - COMP_NODE: a compute node of duration_micros;
 * - COMM_COLL_NODE: a collective; attribute comm_type (CollectiveCommType: ALL_REDUCE,
 *   ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, BROADCAST; REDUCE_SCATTER_BLOCK as REDUCE_SCATTER),
 *   comm_size (bytes), pg_name (its group; absent: every rank);
 * - COMM_SEND_NODE, COMM_RECV_NODE: a message; comm_dst or comm_src, comm_size, comm_tag;
 * - any other type (memory, metadata): a compute node of its duration_micros;
 * data_deps and ctrl_deps are kept as they are. Integer attributes are read from any of the
 * schema's integer fields (the converters use int64_val, uint64_val or uint32_val).
 *
 * A protobuf-less build (Debian's libprotobuf-dev missing) reads and writes no trace: the
 * functions throw a mose::Error saying the module was built without protobuf.
 */

namespace ns3
{
namespace mose
{

/// \ingroup mose-workload
/// \return whether the module was built with protobuf (Chakra traces can be read)
bool HasChakraSupport();

/**
 * \ingroup mose-workload
 * \brief Reads a Chakra trace.
 * \param path a folder holding exactly one trace's PREFIX.R.et files (and maybe
 *        comm_group.json), or the PREFIX itself
 * \return the plan (validated: TrainingPlan::Validate()); a mose::Error naming the file and
 *         node id of the first problem (an unknown collective, a missing attribute, a node
 *         protobuf cannot parse, a missing rank file, a bad comm_group.json)
 */
TrainingPlan ReadChakraTrace(const std::string& path);

/**
 * \ingroup mose-workload
 * \brief Reads ASTRA-sim's comm_group.json: one object of names, each an array of ranks.
 * \param path the file (for messages)
 * \param text its contents
 * \return per group name its ranks
 */
std::map<std::string, std::vector<uint32_t>> ParseCommGroups(const std::string& path,
                                                             const std::string& text);

/**
 * \ingroup mose-workload
 * \brief Writes a plan as a Chakra trace: FOLDER/PREFIX.R.et per rank and, if a node names a
 *        group, FOLDER/comm_group.json (groups named "1", "2", ... in order of appearance).
 *        Compute times must be whole microseconds (Chakra's duration_micros).
 * \param plan the plan (validated first)
 * \param folder an existing folder
 * \param prefix the files' prefix
 */
void WriteChakraTrace(const TrainingPlan& plan,
                      const std::string& folder,
                      const std::string& prefix);

} // namespace mose
} // namespace ns3

#endif /* MOSE_CHAKRA_TRACE_H */
