/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRACE_SPLITWISE_H
#define MOSE_LLM_TRACE_SPLITWISE_H

#include "mose-llm-request.h"
#include "mose-llm-trace.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief SplitwiseSim's request trace form (internal, in ns3::mose::detail: ReadLlmTrace()
 *        and WriteLlmTrace() of mose-llm-trace.h read and write it, and the form's rules are
 *        there).
 */

namespace ns3
{
namespace mose
{
namespace detail
{

/// SplitwiseSim's columns
extern const std::vector<std::string> SPLITWISE_COLUMNS;

/**
 * \param in the stream
 * \param name its name in messages
 * \param requestType the request_type whose rows are kept
 * \return the requests of a SplitwiseSim trace of one request_type; throws a mose::Error
 *         `NAME:LINE: problem`
 */
LlmTrace ReadSplitwise(std::istream& in, const std::string& name, uint64_t requestType);

/**
 * \brief Checks the requests' ids for the SplitwiseSim writer: ids for every request or for
 *        none, each of 1 to 256 characters, none a comma, `"`, space or control character,
 *        unique; throws a mose::Error naming the request.
 * \param requests the requests
 */
void CheckSplitwiseIds(const std::vector<LlmRequest>& requests);

/**
 * \brief Writes requests as a SplitwiseSim trace: request_id the traceId or the 0-based index,
 *        request_type 2, application_id 0, batch_size 1.
 * \param requests the requests, checked (ValidateLlmRequests(), CheckSplitwiseIds())
 * \param out the stream
 */
void PutSplitwise(const std::vector<LlmRequest>& requests, std::ostream& out);

} // namespace detail
} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TRACE_SPLITWISE_H */
