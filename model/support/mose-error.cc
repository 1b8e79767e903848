/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-error.h"

#include "ns3/log.h"

#include <charconv>
#include <sstream>
#include <system_error>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseError");

Error::Error(const std::string& message)
    : std::invalid_argument(message)
{
    NS_LOG_FUNCTION(this << message);
}

void
ThrowBadParameter(const std::string& parameter,
                  const std::string& value,
                  const std::string& allowed)
{
    NS_LOG_FUNCTION(parameter << value << allowed);
    throw Error("invalid " + parameter + " = " + value + ": " + allowed);
}

std::string
FormatNumber(double value)
{
    char buf[64];
    // std::to_chars without a precision gives the shortest round-trip form, in the C locale
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
    if (ec != std::errc())
    {
        std::ostringstream os;
        os.precision(17);
        os << value;
        return os.str();
    }
    return std::string(buf, ptr);
}

void
ThrowFileError(const std::string& file, uint64_t line, const std::string& problem)
{
    NS_LOG_FUNCTION(file << line << problem);
    throw Error(file + ":" + std::to_string(line) + ": " + problem);
}

} // namespace mose
} // namespace ns3
