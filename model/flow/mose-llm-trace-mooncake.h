/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRACE_MOONCAKE_H
#define MOSE_LLM_TRACE_MOONCAKE_H

#include "mose-llm-request.h"

#include <iosfwd>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief The Mooncake trace (JSON lines): its reader and writer. ReadLlmTrace() and
 *        WriteLlmTrace() (mose-llm-trace.h) read and write it among the other forms.
 *
 * \section mose-llm-mooncake Mooncake trace (JSON lines)
 *
 * \code
 * {"timestamp": 0, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47, 48]}
 * {"timestamp": 3052, "input_length": 1024, "output_length": 20}
 * \endcode
 *
 * The form of the Mooncake (Kimi) traces: one flat JSON object per line with `timestamp` in
 * milliseconds from the start of the trace, `input_length` and `output_length`. The arrival is
 * the timestamp as given (not shifted to the first row). The timestamp is a non-negative JSON
 * number with at most 6 fractional digits (nanoseconds) and no exponent; lengths are
 * non-negative JSON integers (no fraction, no exponent), input_length at least 1. Other keys
 * (`hash_ids`, the KV block hashes, and any other) may be present and are ignored, whatever
 * valid JSON value they hold; a key may appear only once. Keys are compared as written (a key
 * spelt with escape sequences does not match). Blank lines and a CR before the LF are
 * accepted; anything else must be a JSON object alone on its line (JsonLineParser,
 * mose-json-line.h). The checks of every reader (mose-llm-trace.h) apply.
 *
 * The writer checks the requests (ValidateLlmRequests()) and writes
 * `{"timestamp": T, "input_length": I, "output_length": O}` per request (the spacing of
 * Python's json.dumps), LF line ends, with T in ms, as an integer when whole and otherwise with
 * the fractional digits it needs (at most 6); it writes no hash_ids (no prefix sharing is
 * modelled). It round-trips exactly.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-llm
 * \brief Reads requests from a Mooncake trace (JSON lines) file.
 * \param path the file
 * \return the requests, arrivals as given; throws a mose::Error `FILE:LINE: problem`
 */
std::vector<LlmRequest> ReadMooncakeTraceJsonl(const std::string& path);

/**
 * \ingroup mose-llm
 * \brief Reads requests from a Mooncake trace (JSON lines) stream.
 * \param in the stream
 * \param name the name used for the stream in error messages
 * \return the requests, arrivals as given; throws a mose::Error `NAME:LINE: problem`
 */
std::vector<LlmRequest> ReadMooncakeTraceJsonl(std::istream& in, const std::string& name);

/**
 * \ingroup mose-llm
 * \brief Writes requests as a Mooncake trace (JSON lines) file.
 * \param requests the requests (ValidateLlmRequests())
 * \param path the file, created or overwritten
 */
void WriteMooncakeTraceJsonl(const std::vector<LlmRequest>& requests, const std::string& path);

/**
 * \ingroup mose-llm
 * \brief Writes requests as a Mooncake trace (JSON lines) to a stream.
 * \param requests the requests (ValidateLlmRequests())
 * \param out the stream
 */
void WriteMooncakeTraceJsonl(const std::vector<LlmRequest>& requests, std::ostream& out);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TRACE_MOONCAKE_H */
