/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRACE_VIDUR_H
#define MOSE_LLM_TRACE_VIDUR_H

#include "mose-llm-request.h"
#include "mose-llm-trace.h"

#include <iosfwd>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief Vidur's two request trace forms, its request trace and its Azure-style replay trace
 *        (internal, in ns3::mose::detail: ReadLlmTrace() and WriteLlmTrace() of
 *        mose-llm-trace.h read and write them, and their rules are there).
 */

namespace ns3
{
namespace mose
{
namespace detail
{

/// Vidur's columns
extern const std::vector<std::string> VIDUR_COLUMNS;
/// Vidur's replay columns
extern const std::vector<std::string> VIDUR_REPLAY_COLUMNS;

/**
 * \param in the stream
 * \param name its name in messages
 * \return the requests of a Vidur trace; throws a mose::Error `NAME:LINE: problem`
 */
LlmTrace ReadVidur(std::istream& in, const std::string& name);

/**
 * \param in the stream
 * \param name its name in messages
 * \param date the Date whose rows are kept; empty: the file must hold one Date
 * \return the requests of a Vidur replay trace, the rows of one Date; throws a mose::Error
 *         `NAME:LINE: problem`
 */
LlmTrace ReadVidurReplay(std::istream& in, const std::string& name, const std::string& date);

/**
 * \brief Writes requests as a Vidur trace.
 * \param requests the requests, checked (ValidateLlmRequests())
 * \param out the stream
 */
void PutVidur(const std::vector<LlmRequest>& requests, std::ostream& out);

/**
 * \brief Writes requests as a Vidur replay trace, with Date DEFAULT_VIDUR_DATE.
 * \param requests the requests, checked (ValidateLlmRequests())
 * \param out the stream
 */
void PutVidurReplay(const std::vector<LlmRequest>& requests, std::ostream& out);

} // namespace detail
} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TRACE_VIDUR_H */
