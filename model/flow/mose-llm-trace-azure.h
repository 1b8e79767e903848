/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRACE_AZURE_H
#define MOSE_LLM_TRACE_AZURE_H

#include "mose-llm-request.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief The Azure LLM inference trace (CSV): its reader and writer and its wall-clock times.
 *        ReadLlmTrace() and WriteLlmTrace() (mose-llm-trace.h) read and write it among the
 *        other forms.
 *
 * \section mose-llm-azure Azure LLM inference trace (CSV): header
 * `TIMESTAMP,ContextTokens,GeneratedTokens`
 *
 * \code
 * TIMESTAMP,ContextTokens,GeneratedTokens
 * 2023-11-16 18:15:46.6805900,4808,10
 * 2023-11-16 18:15:50.9951690,3180,8
 * \endcode
 *
 * The form of the Azure LLM inference traces (2023 and 2024). TIMESTAMP is an absolute
 * wall-clock time `YYYY-MM-DD HH:MM:SS`, optionally followed by `.` and 1 to 7 fractional
 * digits (100 ns ticks; the traces write 7) and optionally by the UTC offset `+00:00` (no other
 * offset). Dates are proleptic Gregorian (mose-civil-calendar.h) from year 0001 to 9999 with
 * real month lengths and leap years; hours 00-23, minutes and seconds 00-59 (no leap second). A
 * request's arrival is its TIMESTAMP minus the first row's, so the first request arrives at 0.
 * ContextTokens is the prompt (input) length, at least 1; GeneratedTokens the output length, at
 * least 0. The module's CSV rules apply (mose-file-io.h): LF or CRLF, blank and `#` comment
 * lines ignored, the header exactly as above (case included), exactly 3 fields per line, spaces
 * and tabs around a field ignored, no quoting, no empty field. The checks of every reader
 * (mose-llm-trace.h) apply.
 *
 * The writer checks the requests (ValidateLlmRequests()) and writes the header and one line per
 * request, LF line ends: start + arrival with 7 fractional digits (every arrival must be a
 * whole number of 100 ns ticks); read back, arrivals come out minus the first one, so a list
 * whose first arrival is 0 (every generated list) round-trips exactly.
 */

namespace ns3
{
namespace mose
{

/// \ingroup mose-llm
/// The wall-clock time WriteAzureTraceCsv() writes arrival 0 at by default
constexpr const char* DEFAULT_AZURE_START = "2024-01-01 00:00:00.0000000";

/**
 * \ingroup mose-llm
 * \brief Reads an Azure wall-clock time.
 * \param parameter the option's name, for the message
 * \param text `YYYY-MM-DD HH:MM:SS[.fffffff][+00:00]` (see the file's documentation)
 * \return 100 ns ticks since 0001-01-01 00:00:00; throws a mose::Error naming the option, the text
 *         and the form
 */
uint64_t ParseAzureTimestamp(const std::string& parameter, std::string_view text);

/**
 * \ingroup mose-llm
 * \param ticks 100 ns ticks since 0001-01-01 00:00:00, before year 10000
 * \return `YYYY-MM-DD HH:MM:SS.fffffff`; throws a mose::Error for a time after 9999-12-31
 */
std::string FormatAzureTimestamp(uint64_t ticks);

/**
 * \ingroup mose-llm
 * \brief Reads requests from an Azure LLM inference trace CSV file.
 * \param path the file
 * \return the requests, the first arriving at 0; throws a mose::Error `FILE:LINE: problem`
 */
std::vector<LlmRequest> ReadAzureTraceCsv(const std::string& path);

/**
 * \ingroup mose-llm
 * \brief Reads requests from an Azure LLM inference trace CSV stream.
 * \param in the stream
 * \param name the name used for the stream in error messages
 * \return the requests, the first arriving at 0; throws a mose::Error `NAME:LINE: problem`
 */
std::vector<LlmRequest> ReadAzureTraceCsv(std::istream& in, const std::string& name);

/**
 * \ingroup mose-llm
 * \brief Writes requests as an Azure LLM inference trace CSV file.
 * \param requests the requests (ValidateLlmRequests(); arrivals whole 100 ns ticks)
 * \param path the file, created or overwritten
 * \param start the wall-clock time of arrival 0 (ParseAzureTimestamp())
 */
void WriteAzureTraceCsv(const std::vector<LlmRequest>& requests,
                        const std::string& path,
                        const std::string& start = DEFAULT_AZURE_START);

/**
 * \ingroup mose-llm
 * \brief Writes requests as an Azure LLM inference trace CSV to a stream.
 * \param requests the requests (ValidateLlmRequests(); arrivals whole 100 ns ticks)
 * \param out the stream
 * \param start the wall-clock time of arrival 0 (ParseAzureTimestamp())
 */
void WriteAzureTraceCsv(const std::vector<LlmRequest>& requests,
                        std::ostream& out,
                        const std::string& start = DEFAULT_AZURE_START);

/// \cond internal
namespace detail
{
/// The Azure columns, for the form's detection (DetectLlmTraceFormat())
extern const std::vector<std::string> AZURE_COLUMNS;
} // namespace detail

/// \endcond

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TRACE_AZURE_H */
