/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ERROR_H
#define MOSE_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief The error every mose component reports bad input with.
 *
 * The flow-level core throws it instead of calling NS_FATAL_ERROR so that callers (tests, helpers,
 * examples) can report it and exit non-zero, and so that validation keeps working in release
 * builds of ns-3 where NS_ASSERT compiles to nothing. The message always names the parameter (or
 * the file and line), the value that was given, and what is allowed.
 */
class Error : public std::invalid_argument
{
  public:
    /**
     * \param message the complete, human-readable message
     */
    explicit Error(const std::string& message);
};

/**
 * \ingroup mose-support
 * \brief Throws a mose::Error for a parameter that is out of its allowed range.
 * \param parameter the parameter's name as the user spells it (e.g. "degree")
 * \param value the value that was given
 * \param allowed what is allowed, as a phrase (e.g. "1 <= degree < nodes")
 */
[[noreturn]] void ThrowBadParameter(const std::string& parameter,
                                    const std::string& value,
                                    const std::string& allowed);

/**
 * \ingroup mose-support
 * \brief Formats a number for an error message: the shortest text that reads back as the same
 *        double (0.1 for 0.1, 0.30000000000000004 for 0.1 + 0.2), so two different doubles never
 *        look alike and a value the user typed reads as typed; inf, -inf and nan as such.
 * \param value the number
 * \return the text
 */
std::string FormatNumber(double value);

/**
 * \ingroup mose-support
 * \brief Throws a mose::Error for a problem at a given line of an input file.
 * \param file the file's name
 * \param line the 1-based line number
 * \param problem what is wrong there
 */
[[noreturn]] void ThrowFileError(const std::string& file,
                                 uint64_t line,
                                 const std::string& problem);

} // namespace mose
} // namespace ns3

#endif /* MOSE_ERROR_H */
