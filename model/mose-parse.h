/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PARSE_H
#define MOSE_PARSE_H

#include <cstdint>
#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose
 * \brief Strict parsing of numbers given as text (command-line options, file fields).
 *
 * ns-3's CommandLine reads numbers with operator>>, which accepts "1024abc" as 1024 and wraps
 * "-5" into a huge unsigned value. The mose examples therefore take numeric options as text and
 * parse them here: the whole text must be the number, without sign for unsigned values, within
 * range; otherwise a MoseError names the parameter, the text and what is allowed.
 */

/**
 * \param parameter the parameter's name, for the message
 * \param text the text
 * \return the value, 0 <= value <= UINT32_MAX
 */
uint32_t ParseUnsigned32(const std::string& parameter, const std::string& text);

/**
 * \param parameter the parameter's name, for the message
 * \param text the text
 * \return the value, 0 <= value <= UINT64_MAX
 */
uint64_t ParseUnsigned64(const std::string& parameter, const std::string& text);

/**
 * \param parameter the parameter's name, for the message
 * \param text the text (decimal or scientific notation)
 * \return the value, finite
 */
double ParseReal(const std::string& parameter, const std::string& text);

/**
 * \param text any text
 * \return the text with ASCII letters in lower case (names of roles, classes, policies are
 *         matched case-insensitively)
 */
std::string ToLowerAscii(const std::string& text);

} // namespace mose
} // namespace ns3

#endif /* MOSE_PARSE_H */
