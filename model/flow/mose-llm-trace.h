/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRACE_H
#define MOSE_LLM_TRACE_H

#include "mose-llm-request.h"
#include "mose-llm-trace-azure.h"
#include "mose-llm-trace-mooncake.h"

#include "ns3/mose-parse.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief LLM request traces (mose-llm-request.h has the request itself): read in the public
 *        Azure and Mooncake forms and in the forms of the serving simulators Vidur,
 *        SplitwiseSim and LLMServingSim and of BurstGPT, and written in every form.
 *
 * The Azure form (mose-llm-trace-azure.h) and the Mooncake form (mose-llm-trace-mooncake.h) have
 * readers and writers of their own; the other forms are read and written only through
 * ReadLlmTrace() and WriteLlmTrace(). Each form's code is in its own file,
 * mose-llm-trace-FORM.cc, and mose-llm-trace-records.h holds what the forms share; this file
 * has the forms' names, the options, the detection and the dispatch.
 *
 * \section mose-llm-sim-forms The serving simulators' forms and BurstGPT
 *
 * Read by ReadLlmTrace() (detected, or forced with LlmTraceReadOptions::format) and written by
 * WriteLlmTrace(). The CSV forms follow the CSV rules of mose-llm-trace-azure.h (header exactly as
 * shown, case included; no quoting; no empty field). Times in seconds are non-negative decimal
 * numbers (`12`, `0.25`, `.5`, and, as pandas writes small floats, `1e-05`; no sign, no `nan` or
 * `inf`), converted exactly and rounded to the nearest ns (halves up): the module's clock has
 * 1 ns resolution, and pandas writes up to 17 significant digits. Arrivals are the times as
 * given (not shifted to the first request, unlike Azure). Token counts are integers written
 * with digits only (`12.0` is refused), prompts at least 1.
 *
 * Per form: the header (or keys), the arrival, the request id, the filters, the source.
 *
 * - Vidur, header `arrived_at,num_prefill_tokens,num_decode_tokens`: arrived_at in s; id the
 *   line; no filter; microsoft/vidur (its Request(arrived_at, num_prefill_tokens,
 *   num_decode_tokens)).
 * - Vidur replay, header `Date,Time,PromptTokenCount,CompletionTokenCount`: Time in s; id the
 *   line; filter Date; microsoft/vidur (vidur/request_generator/trace_replay_request_generator.py).
 * - SplitwiseSim, header
 *   `request_id,request_type,application_id,arrival_timestamp,batch_size,prompt_size,token_size`:
 *   arrival_timestamp in s; id request_id; filter request_type; Mutinifni/splitwise-sim (its
 *   traces).
 * - LLMServingSim, keys `input_toks`, `output_toks`, `arrival_time_ns`: arrival_time_ns in ns;
 *   id the line; no filter; casys-kaist/LLMServingSim.
 * - BurstGPT, header `Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type`:
 *   Timestamp in s from the trace's start; id the line; filters Model, Log Type and the failed
 *   requests; HPMLL/BurstGPT.
 *
 * Their columns:
 *
 * - Vidur: num_prefill_tokens is the prompt, num_decode_tokens the output.
 * - Vidur replay: Date is any text (Vidur keeps the rows of one configured date); Time the
 *   arrival in s, PromptTokenCount the prompt, CompletionTokenCount the output. With
 *   LlmTraceReadOptions::date only that Date's rows are kept; without it every row must have
 *   the first row's Date (a second Date is an error that says to choose one). The kept rows
 *   must be sorted by Time.
 * - SplitwiseSim: request_id is the request's id (1 to 256 characters, none a comma, `"`, space
 *   or control character; unique in the file, a repeat names both lines; carried as
 *   LlmRequest::traceId); request_type an integer, rows of another type than
 *   LlmTraceReadOptions::requestType (default 2, LLM inference) are left out and counted;
 *   application_id an integer, not used; batch_size must be 1 (a batch of sequences per row is
 *   not modelled and refused); prompt_size the prompt, token_size the output.
 * - LLMServingSim: one JSON object per line as Mooncake's (same JSON rules); input_toks the
 *   prompt, output_toks the output, arrival_time_ns a JSON integer in ns; other keys (the
 *   optional token ids, any other) are ignored. The agentic form, whose objects carry
 *   `sub_requests` (a request that spawns further requests), is not modelled and refused.
 * - BurstGPT: Model is ChatGPT or GPT-4, Log Type "Conversation log" or "API log" (other
 *   values are errors); Total tokens must equal Request tokens + Response tokens. A failed
 *   request (Response tokens 0; BurstGPT logs failures so) is left out and counted in
 *   LlmTrace::failed by default, since it gives no KV transfer to time; keepFailed keeps it as
 *   a request without output (its prompt was still prefilled). The Model and Log Type filters
 *   leave out and count the other rows.
 *
 * Every row is checked, also the rows a filter leaves out; the sort order is checked over every
 * row (Vidur replay: over the kept rows). The request id of a form without one is the physical
 * line (LlmRequest::traceLine, always set): for a file without comment or blank lines, pandas'
 * row index is line - 2 for the CSV forms and line - 1 for the JSON lines forms.
 *
 * \section mose-llm-checks Checks of every reader
 *
 * The first problem in file order throws a mose::Error `FILE:LINE: problem` (physical 1-based
 * lines; JSON problems also give the 1-based column): a bad header, a missing column or key,
 * a field that is not a number of the required kind, a negative timestamp, a timestamp earlier
 * than the previous request's (traces must be sorted; equal times are allowed), token counts
 * above MAX_REQUEST_TOKENS, arrivals more than MAX_ARRIVAL_NS after the start, malformed JSON,
 * and a file without any request (reported at its last line, "at end of file"); for the forms
 * above also a repeated request id, a value outside a column's set, an inconsistent total, a
 * refused form (batch_size above 1, sub_requests), and a file whose every request a filter
 * left out.
 *
 * \section mose-llm-writers Writers
 *
 * Writers check the requests (ValidateLlmRequests()) and write the header (the CSV forms) and
 * one line per request, LF line ends. The Azure and Mooncake writers are described in their
 * files (mose-llm-trace-azure.h, mose-llm-trace-mooncake.h); every form round-trips
 * (WriteLlmTrace()).
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-llm
 * \brief The request trace forms the module reads and writes (see the file's documentation).
 */
enum class LlmTraceFormat : uint8_t
{
    AUTO,          //!< detected from the header or first line (DetectLlmTraceFormat())
    AZURE,         //!< Azure LLM inference trace 2023/2024 (CSV)
    MOONCAKE,      //!< Mooncake (JSON lines)
    VIDUR,         //!< Vidur's request trace (CSV, arrived_at in s)
    VIDUR_REPLAY,  //!< Vidur's Azure-style replay trace (CSV, Date and Time)
    SPLITWISE,     //!< SplitwiseSim's request trace (CSV)
    LLMSERVINGSIM, //!< LLMServingSim's request trace (JSON lines, ns)
    BURSTGPT,      //!< BurstGPT (CSV, s from the trace start)
};

/// \ingroup mose-llm
/// Names of LlmTraceFormat: "auto", "azure", "mooncake", "vidur", "vidur-replay", "splitwise",
/// "llmservingsim", "burstgpt"; also splitwisesim
template <>
struct EnumTable<LlmTraceFormat>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<LlmTraceFormat>>& Get();
};

/// \ingroup mose-llm
/// The values of BurstGPT's Model column: "ChatGPT", "GPT-4"
extern const std::vector<std::string> BURSTGPT_MODELS;
/// \ingroup mose-llm
/// The values of BurstGPT's Log Type column: "Conversation log", "API log"
extern const std::vector<std::string> BURSTGPT_LOG_TYPES;
/// \ingroup mose-llm
/// SplitwiseSim's request_type of an LLM inference request (the default filter)
constexpr uint64_t SPLITWISE_LLM_REQUEST_TYPE = 2;
/// \ingroup mose-llm
/// The Date WriteLlmTrace() writes in the Vidur replay form
constexpr const char* DEFAULT_VIDUR_DATE = "2024-01-01";

/**
 * \ingroup mose-llm
 * \brief How ReadLlmTrace() reads: the form and the filters of the forms that have them. A
 *        filter left at its default keeps every request.
 */
struct LlmTraceReadOptions
{
    LlmTraceFormat format{LlmTraceFormat::AUTO}; //!< the form, or AUTO to detect it
    /// BurstGPT: keep only this Model (one of BURSTGPT_MODELS); empty: every model
    std::string model;
    /// BurstGPT: keep only this Log Type (one of BURSTGPT_LOG_TYPES); empty: every log type
    std::string logType;
    /// BurstGPT: keep the failed requests (Response tokens 0) as requests with no output
    /// (true) or leave them out and count them in LlmTrace::failed (false, the default)
    bool keepFailed{false};
    /// SplitwiseSim: keep only the requests of this request_type (2: LLM inference)
    uint64_t requestType{SPLITWISE_LLM_REQUEST_TYPE};
    /// Vidur replay: keep only the rows of this Date; empty: the file must hold one Date
    std::string date;
};

/**
 * \ingroup mose-llm
 * \brief What ReadLlmTrace() read.
 */
struct LlmTrace
{
    LlmTraceFormat format{LlmTraceFormat::AZURE}; //!< the form read (detected or forced)
    std::vector<LlmRequest> requests; //!< the requests kept, in file order (sorted by arrival)
    uint64_t records{0};              //!< requests in the file, kept or not
    uint64_t filtered{0};             //!< left out by a filter (model, log type, type, date)
    uint64_t failed{0};               //!< BurstGPT failed requests left out (keepFailed false)
};

/**
 * \ingroup mose-llm
 * \brief Tells a trace's form from its first line that is not blank (nor, for CSV, a `#`
 *        comment): a JSON object is Mooncake if it has the key input_length, LLMServingSim if it
 *        has input_toks or sub_requests; a CSV header is the form whose header it is, exactly
 *        (each form's header is in the file's documentation).
 * \param in the stream (read from where it is; not rewound)
 * \param name its name in messages
 * \return the form (never AUTO); throws a mose::Error `NAME:LINE: problem` for an empty file, a
 *         header of no known form (the message lists them) or a JSON object of neither form
 */
LlmTraceFormat DetectLlmTraceFormat(std::istream& in, const std::string& name);

/**
 * \ingroup mose-llm
 * \brief DetectLlmTraceFormat() on a file.
 * \param path the file
 * \return the form; throws a mose::Error as DetectLlmTraceFormat(std::istream&, ...) does
 */
LlmTraceFormat DetectLlmTraceFormat(const std::string& path);

/**
 * \ingroup mose-llm
 * \brief Reads a request trace of any form, detected or forced, with the form's filters.
 * \param in the stream; with format AUTO it must be seekable (a file or string stream): it is
 *        read once to detect the form and again from the same position
 * \param name its name in messages
 * \param options the form and the filters; a filter of another form than the one read is a
 *        mose::Error naming it (it would not be used), as is a filter value not allowed
 * \return what was read; throws a mose::Error `NAME:LINE: problem` at the first problem, and
 *         `NAME:LINE: at end of file: ...` when no request is kept
 */
LlmTrace ReadLlmTrace(std::istream& in,
                      const std::string& name,
                      const LlmTraceReadOptions& options = LlmTraceReadOptions());

/**
 * \ingroup mose-llm
 * \brief ReadLlmTrace() on a file.
 * \param path the file
 * \param options the form and the filters
 * \return what was read; throws a mose::Error `FILE:LINE: problem`
 */
LlmTrace ReadLlmTrace(const std::string& path,
                      const LlmTraceReadOptions& options = LlmTraceReadOptions());

/**
 * \ingroup mose-llm
 * \brief Writes requests in a trace form (not AUTO), LF line ends; read back with the same form
 *        they come out equal (Azure: arrivals minus the first one). Azure and Mooncake as
 *        WriteAzureTraceCsv() (start DEFAULT_AZURE_START) and WriteMooncakeTraceJsonl(); Vidur,
 *        SplitwiseSim and BurstGPT write seconds with the fractional digits needed (at most 9);
 *        the Vidur replay form writes Date DEFAULT_VIDUR_DATE; SplitwiseSim writes request_id =
 *        the request's traceId, or its 0-based index when it has none, request_type 2,
 *        application_id 0 and batch_size 1; BurstGPT writes Model ChatGPT and Log Type
 *        Conversation log (a request with no output tokens reads back as failed).
 * \param requests the requests (ValidateLlmRequests(); SplitwiseSim: ids unique, none empty and
 *        none holding a comma, space, tab, CR, LF or `"`, or all empty)
 * \param format the form
 * \param out the stream
 */
void WriteLlmTrace(const std::vector<LlmRequest>& requests,
                   LlmTraceFormat format,
                   std::ostream& out);

/**
 * \ingroup mose-llm
 * \brief WriteLlmTrace() to a file (created or overwritten, whole or not at all).
 * \param requests the requests
 * \param format the form
 * \param path the file
 */
void WriteLlmTrace(const std::vector<LlmRequest>& requests,
                   LlmTraceFormat format,
                   const std::string& path);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TRACE_H */
