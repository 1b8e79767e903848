/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRACE_BURSTGPT_H
#define MOSE_LLM_TRACE_BURSTGPT_H

#include "mose-llm-request.h"
#include "mose-llm-trace.h"

#include <iosfwd>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief BurstGPT's trace form (internal, in ns3::mose::detail: ReadLlmTrace() and
 *        WriteLlmTrace() of mose-llm-trace.h read and write it, and the form's rules are there;
 *        BURSTGPT_MODELS and BURSTGPT_LOG_TYPES, declared there, are defined with it).
 */

namespace ns3
{
namespace mose
{
namespace detail
{

/// BurstGPT's columns
extern const std::vector<std::string> BURSTGPT_COLUMNS;

/**
 * \param in the stream
 * \param name its name in messages
 * \param options the filters: model, logType, keepFailed
 * \return the requests of a BurstGPT trace, filtered; throws a mose::Error
 *         `NAME:LINE: problem`
 */
LlmTrace ReadBurstGpt(std::istream& in,
                      const std::string& name,
                      const LlmTraceReadOptions& options);

/**
 * \brief Writes requests as a BurstGPT trace, with Model ChatGPT and Log Type Conversation log.
 * \param requests the requests, checked (ValidateLlmRequests())
 * \param out the stream
 */
void PutBurstGpt(const std::vector<LlmRequest>& requests, std::ostream& out);

} // namespace detail
} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TRACE_BURSTGPT_H */
