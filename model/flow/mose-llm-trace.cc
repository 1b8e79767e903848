/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-trace.h"

#include "mose-llm-trace-burstgpt.h"
#include "mose-llm-trace-llmservingsim.h"
#include "mose-llm-trace-records.h"
#include "mose-llm-trace-splitwise.h"
#include "mose-llm-trace-vidur.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-json-line.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <fstream>
#include <istream>
#include <ostream>
#include <utility>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLlmTrace");

namespace
{

using detail::Join;

/// \return the CSV forms with their columns, in the order detection tries them
const std::vector<std::pair<LlmTraceFormat, const std::vector<std::string>*>>&
CsvForms()
{
    static const std::vector<std::pair<LlmTraceFormat, const std::vector<std::string>*>> forms = {
        {LlmTraceFormat::AZURE, &detail::AZURE_COLUMNS},
        {LlmTraceFormat::VIDUR, &detail::VIDUR_COLUMNS},
        {LlmTraceFormat::VIDUR_REPLAY, &detail::VIDUR_REPLAY_COLUMNS},
        {LlmTraceFormat::SPLITWISE, &detail::SPLITWISE_COLUMNS},
        {LlmTraceFormat::BURSTGPT, &detail::BURSTGPT_COLUMNS}};
    return forms;
}

/// \brief Checks the filters' values and that each given one belongs to the form read
void
CheckTraceOptions(const LlmTraceReadOptions& options, LlmTraceFormat format)
{
    auto checkValue = [](const std::string& name,
                         const std::string& value,
                         const std::vector<std::string>& allowed) {
        if (!value.empty() && std::find(allowed.begin(), allowed.end(), value) == allowed.end())
        {
            ThrowBadParameter(name, QuoteText(value), "one of " + Join(allowed, ", "));
        }
    };
    checkValue("model", options.model, BURSTGPT_MODELS);
    checkValue("logType", options.logType, BURSTGPT_LOG_TYPES);
    if (format == LlmTraceFormat::AUTO)
    {
        return;
    }
    auto only = [format](const std::string& name, const std::string& value, LlmTraceFormat form) {
        if (format != form)
        {
            ThrowBadParameter(name,
                              value,
                              "only for the " + ToString(form) + " form; the trace is read as " +
                                  ToString(format) + ", which has no such filter");
        }
    };
    if (!options.model.empty())
    {
        only("model", QuoteText(options.model), LlmTraceFormat::BURSTGPT);
    }
    if (!options.logType.empty())
    {
        only("logType", QuoteText(options.logType), LlmTraceFormat::BURSTGPT);
    }
    if (options.keepFailed)
    {
        only("keepFailed", "true", LlmTraceFormat::BURSTGPT);
    }
    if (options.requestType != SPLITWISE_LLM_REQUEST_TYPE)
    {
        only("requestType", std::to_string(options.requestType), LlmTraceFormat::SPLITWISE);
    }
    if (!options.date.empty())
    {
        only("date", QuoteText(options.date), LlmTraceFormat::VIDUR_REPLAY);
    }
}

/// \brief Writes requests in a form that has no public writer of its own
void
PutLlmTrace(const std::vector<LlmRequest>& requests, LlmTraceFormat format, std::ostream& out)
{
    switch (format)
    {
    case LlmTraceFormat::VIDUR:
        detail::PutVidur(requests, out);
        break;
    case LlmTraceFormat::VIDUR_REPLAY:
        detail::PutVidurReplay(requests, out);
        break;
    case LlmTraceFormat::SPLITWISE:
        detail::PutSplitwise(requests, out);
        break;
    case LlmTraceFormat::LLMSERVINGSIM:
        detail::PutLlmServingSim(requests, out);
        break;
    case LlmTraceFormat::BURSTGPT:
        detail::PutBurstGpt(requests, out);
        break;
    default:
        throw Error("PutLlmTrace: " + ToString(format) + " is not a form of this section");
    }
}

/// \brief Checks requests for WriteLlmTrace() in a form that has no public writer of its own
void
PrepareLlmTrace(const std::vector<LlmRequest>& requests, LlmTraceFormat format)
{
    ValidateLlmRequests(requests, "requests");
    if (format == LlmTraceFormat::SPLITWISE)
    {
        detail::CheckSplitwiseIds(requests);
    }
}

} // namespace

const std::vector<EnumEntry<LlmTraceFormat>>&
EnumTable<LlmTraceFormat>::Get()
{
    static const std::vector<EnumEntry<LlmTraceFormat>> names = {
        {LlmTraceFormat::AUTO, "auto", {}},
        {LlmTraceFormat::AZURE, "azure", {}},
        {LlmTraceFormat::MOONCAKE, "mooncake", {}},
        {LlmTraceFormat::VIDUR, "vidur", {}},
        {LlmTraceFormat::VIDUR_REPLAY, "vidur-replay", {}},
        {LlmTraceFormat::SPLITWISE, "splitwise", {"splitwisesim"}},
        {LlmTraceFormat::LLMSERVINGSIM, "llmservingsim", {}},
        {LlmTraceFormat::BURSTGPT, "burstgpt", {}},
    };
    return names;
}

LlmTraceFormat
DetectLlmTraceFormat(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(name);
    LineReader source(in, name);
    std::string_view line;
    while (source.Next(line))
    {
        const std::string_view text = TrimBlanks(line);
        if (text.empty() || text.front() == '#' || text == "\r")
        {
            continue;
        }
        if (text.front() == '{')
        {
            JsonLineParser parser(line, source);
            std::vector<JsonLineParser::Wanted> none;
            const std::vector<std::string_view> keys = parser.Parse(none);
            auto has = [&keys](std::string_view key) {
                return std::find(keys.begin(), keys.end(), key) != keys.end();
            };
            if (has("input_length"))
            {
                return LlmTraceFormat::MOONCAKE;
            }
            if (has("input_toks") || has("sub_requests"))
            {
                return LlmTraceFormat::LLMSERVINGSIM;
            }
            source.Fail("a JSON object with neither \"input_length\" (Mooncake) nor "
                        "\"input_toks\" (LLMServingSim): the form cannot be told from it");
        }
        std::vector<std::string_view> fields = SplitAtCommas(text);
        for (std::string_view& field : fields)
        {
            field = TrimBlanks(field);
        }
        std::string known;
        for (const auto& [format, columns] : CsvForms())
        {
            if (fields.size() == columns->size() &&
                std::equal(fields.begin(), fields.end(), columns->begin()))
            {
                return format;
            }
            known += ToString(format) + " " + QuoteText(Join(*columns, ",")) + "; ";
        }
        source.Fail("the first line " + QuoteFileText(text) +
                    " is the header of no known trace form: " + known +
                    "or a JSON object per line (mooncake, llmservingsim)");
    }
    source.Fail("at end of file: no header or JSON line (an empty file is no trace)");
}

LlmTraceFormat
DetectLlmTraceFormat(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    std::ifstream file;
    OpenForReading(path, file);
    return DetectLlmTraceFormat(file, path);
}

LlmTrace
ReadLlmTrace(std::istream& in, const std::string& name, const LlmTraceReadOptions& options)
{
    NS_LOG_FUNCTION(name << ToString(options.format));
    CheckTraceOptions(options, LlmTraceFormat::AUTO);
    LlmTraceFormat format = options.format;
    if (format == LlmTraceFormat::AUTO)
    {
        const std::istream::pos_type start = in.tellg();
        if (start == std::istream::pos_type(-1))
        {
            throw Error(name + ": the form of a stream that cannot be rewound cannot be "
                               "detected; give the form");
        }
        format = DetectLlmTraceFormat(in, name);
        in.clear();
        in.seekg(start);
        if (!in)
        {
            throw Error(name + ": cannot rewind the stream after detecting its form");
        }
    }
    CheckTraceOptions(options, format);
    LlmTrace trace;
    switch (format)
    {
    case LlmTraceFormat::AZURE:
        trace.requests = ReadAzureTraceCsv(in, name);
        trace.records = trace.requests.size();
        break;
    case LlmTraceFormat::MOONCAKE:
        trace.requests = ReadMooncakeTraceJsonl(in, name);
        trace.records = trace.requests.size();
        break;
    case LlmTraceFormat::VIDUR:
        trace = detail::ReadVidur(in, name);
        break;
    case LlmTraceFormat::VIDUR_REPLAY:
        trace = detail::ReadVidurReplay(in, name, options.date);
        break;
    case LlmTraceFormat::SPLITWISE:
        trace = detail::ReadSplitwise(in, name, options.requestType);
        break;
    case LlmTraceFormat::LLMSERVINGSIM:
        trace = detail::ReadLlmServingSim(in, name);
        break;
    case LlmTraceFormat::BURSTGPT:
        trace = detail::ReadBurstGpt(in, name, options);
        break;
    default:
        throw Error("ReadLlmTrace: no form");
    }
    trace.format = format;
    NS_LOG_INFO("read " << name << " (" << ToString(format) << "): " << trace.requests.size()
                        << " of " << trace.records << " requests, " << trace.filtered
                        << " filtered, " << trace.failed << " failed");
    return trace;
}

LlmTrace
ReadLlmTrace(const std::string& path, const LlmTraceReadOptions& options)
{
    NS_LOG_FUNCTION(path);
    std::ifstream file;
    OpenForReading(path, file);
    return ReadLlmTrace(file, path, options);
}

void
WriteLlmTrace(const std::vector<LlmRequest>& requests, LlmTraceFormat format, std::ostream& out)
{
    NS_LOG_FUNCTION(requests.size() << ToString(format));
    switch (format)
    {
    case LlmTraceFormat::AUTO:
        ThrowBadParameter("format",
                          "auto",
                          "a form to write (" + AllowedEnumNames<LlmTraceFormat>() + ")");
    case LlmTraceFormat::AZURE:
        WriteAzureTraceCsv(requests, out);
        return;
    case LlmTraceFormat::MOONCAKE:
        WriteMooncakeTraceJsonl(requests, out);
        return;
    default:
        PrepareLlmTrace(requests, format);
        PutLlmTrace(requests, format, out);
        CheckWritten(out, "output stream");
    }
}

void
WriteLlmTrace(const std::vector<LlmRequest>& requests,
              LlmTraceFormat format,
              const std::string& path)
{
    NS_LOG_FUNCTION(requests.size() << ToString(format) << path);
    switch (format)
    {
    case LlmTraceFormat::AUTO:
        ThrowBadParameter("format",
                          "auto",
                          "a form to write (" + AllowedEnumNames<LlmTraceFormat>() + ")");
    case LlmTraceFormat::AZURE:
        WriteAzureTraceCsv(requests, path);
        return;
    case LlmTraceFormat::MOONCAKE:
        WriteMooncakeTraceJsonl(requests, path);
        return;
    default:
        PrepareLlmTrace(requests, format);
        WriteTextFile(path, [&](std::ostream& out) { PutLlmTrace(requests, format, out); });
    }
}

} // namespace mose
} // namespace ns3
