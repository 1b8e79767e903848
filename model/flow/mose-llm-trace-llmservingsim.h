/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRACE_LLMSERVINGSIM_H
#define MOSE_LLM_TRACE_LLMSERVINGSIM_H

#include "mose-llm-request.h"
#include "mose-llm-trace.h"

#include <iosfwd>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief LLMServingSim's request trace form (JSON lines; internal, in ns3::mose::detail:
 *        ReadLlmTrace() and WriteLlmTrace() of mose-llm-trace.h read and write it, and the
 *        form's rules are there).
 */

namespace ns3
{
namespace mose
{
namespace detail
{

/**
 * \param in the stream
 * \param name its name in messages
 * \return the requests of an LLMServingSim trace; throws a mose::Error
 *         `NAME:LINE: [column C: ]problem`
 */
LlmTrace ReadLlmServingSim(std::istream& in, const std::string& name);

/**
 * \brief Writes requests as an LLMServingSim trace, one JSON object a line.
 * \param requests the requests, checked (ValidateLlmRequests())
 * \param out the stream
 */
void PutLlmServingSim(const std::vector<LlmRequest>& requests, std::ostream& out);

} // namespace detail
} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TRACE_LLMSERVINGSIM_H */
