/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-parse.h"

#include "mose-error.h"

#include "ns3/log.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseParse");

namespace
{

/// "text" in quotes, for messages
std::string
Quote(const std::string& text)
{
    return "\"" + text + "\"";
}

} // namespace

uint64_t
ParseUnsigned64(const std::string& parameter, const std::string& text)
{
    bool digits = !text.empty();
    for (char c : text)
    {
        digits = digits && c >= '0' && c <= '9';
    }
    if (!digits)
    {
        ThrowBadParameter(parameter, Quote(text), "expected an unsigned decimal integer");
    }
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (errno == ERANGE || *end != '\0')
    {
        ThrowBadParameter(parameter, Quote(text), "the value does not fit 64 bits");
    }
    return v;
}

uint32_t
ParseUnsigned32(const std::string& parameter, const std::string& text)
{
    uint64_t v = ParseUnsigned64(parameter, text);
    if (v > std::numeric_limits<uint32_t>::max())
    {
        ThrowBadParameter(parameter, Quote(text), "the value must be at most 4294967295");
    }
    return static_cast<uint32_t>(v);
}

double
ParseReal(const std::string& parameter, const std::string& text)
{
    errno = 0;
    char* end = nullptr;
    double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(text[0])))
    {
        ThrowBadParameter(parameter, Quote(text), "expected a number");
    }
    if (errno == ERANGE || !std::isfinite(v))
    {
        ThrowBadParameter(parameter, Quote(text), "expected a finite number");
    }
    return v;
}

std::string
ToLowerAscii(const std::string& text)
{
    std::string lower = text;
    for (char& c : lower)
    {
        if (c >= 'A' && c <= 'Z')
        {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return lower;
}

} // namespace mose
} // namespace ns3
