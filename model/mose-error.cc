/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-error.h"

namespace ns3
{

MoseError::MoseError(const std::string& message)
    : std::invalid_argument(message)
{
}

void
ThrowBadParameter(const std::string& parameter,
                  const std::string& value,
                  const std::string& allowed)
{
    throw MoseError("invalid " + parameter + " = " + value + ": " + allowed);
}

void
ThrowFileError(const std::string& file, uint64_t line, const std::string& problem)
{
    throw MoseError(file + ":" + std::to_string(line) + ": " + problem);
}

} // namespace ns3
