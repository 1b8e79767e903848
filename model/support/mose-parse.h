/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PARSE_H
#define MOSE_PARSE_H

#include "mose-error.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

/**
 * \file
 * \ingroup mose-support
 * The one way mose reads numbers and enum names given as text (command-line options, file
 * fields), and writes enum names.
 *
 * Numbers: ns-3's CommandLine reads numbers with operator>>, which accepts "1024abc" as 1024 and
 * wraps "-5" into a huge unsigned value. The mose examples therefore take numeric options as text
 * and parse them here, and the file readers (mose-file-io.h) use the same functions: the whole
 * text must be the number (no sign for unsigned values, no leading '+' or space), within range,
 * read with std::from_chars, so the result never depends on the C locale.
 *
 * Enums: every mose enum has one table, EnumTable<E>, of {value, canonical name, aliases}.
 * ToString(E) writes the canonical name (the one in every output file and table); ParseEnum<E>()
 * accepts the canonical name or an alias in any letter case and otherwise throws a mose::Error
 * that names the parameter, the text and every allowed name. MakeEnumTableChecker()
 * (mose-enum-attribute.h) builds ns-3's EnumChecker from the same table.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \param parameter the parameter's name as the user types it (e.g. "--nodes"), for the message
 * \param text the text
 * \return the value, 0 <= value <= UINT32_MAX
 */
uint32_t ParseUnsigned32(const std::string& parameter, std::string_view text);

/**
 * \ingroup mose-support
 * \param parameter the parameter's name as the user types it, for the message
 * \param text the text
 * \return the value, 0 <= value <= UINT64_MAX
 */
uint64_t ParseUnsigned64(const std::string& parameter, std::string_view text);

/**
 * \ingroup mose-support
 * \brief Reads a finite real number, locale-independently; the parser under ParseReal() and the
 *        file readers.
 * \param text the text: decimal or scientific notation ("0.7", "1e-3", "-2"); no leading '+',
 *        no spaces, no "inf"/"nan", no hexadecimal
 * \param[out] value the number, if the text is one
 * \return empty if the text is a finite number, else what is wrong with it, as a phrase that
 *         follows the text in a message (e.g. "is not a number")
 */
std::string TryParseReal(std::string_view text, double& value);

/**
 * \ingroup mose-support
 * \param parameter the parameter's name as the user types it, for the message
 * \param text the text (see TryParseReal())
 * \return the value, finite
 */
double ParseReal(const std::string& parameter, std::string_view text);

/**
 * \ingroup mose-support
 * \brief Reads a duration, the one syntax of every duration option and schedule period: a
 *        number >= 0 (as TryParseReal() reads it) with an optional unit ns, us, ms, s, min or
 *        h directly after it ("0.025", "25ms", "1.5h"). No unit means seconds, as ns-3's Time
 *        reads "3600".
 * \param parameter the parameter's name as the user types it, for the message
 * \param text the text
 * \return the duration in seconds, finite and >= 0
 */
double ParseDuration(const std::string& parameter, std::string_view text);

/**
 * \ingroup mose-support
 * \return what ParseDuration() reads, for messages: "a duration >= 0: a number with an
 *         optional unit ns, us, ms, s, min or h (no unit: seconds), e.g. 0.025, 25ms or 1h"
 */
std::string DurationSyntax();

/**
 * \ingroup mose-support
 * \brief Reads a duration as an ns-3 Time (every time option and schedule time of the
 *        packet level): a duration as ParseDuration() reads it
 *        ("25ms", "0.5"), within ns-3's time range (whole nanoseconds in 64 bits: a larger
 *        value would wrap, a smaller nonzero one become 0, either reported as another value).
 * \param parameter the option, for the message ("--stopTime")
 * \param text the text as typed
 * \return the time; a mose::Error "invalid --stopTime = "1e308": a duration from 1ns to
 *         9223372036 s (ns-3's time range)" otherwise
 */
Time ParseTimeOption(const std::string& parameter, const std::string& text);

/**
 * \ingroup mose-support
 * \brief Reads a boolean option: true/false, t/f, 1/0, in any letter case (exactly what ns-3's
 *        CommandLine accepts for a bool, so a value checked here is read the same way there).
 * \param parameter the parameter's name as the user types it, for the message
 * \param text the text
 * \return the value
 */
bool ParseBool(const std::string& parameter, std::string_view text);

/**
 * \ingroup mose-support
 * \param text any text
 * \return the text with ASCII letters in lower case (names of roles, classes, policies are
 *         matched case-insensitively)
 */
std::string ToLowerAscii(std::string_view text);

/**
 * \ingroup mose-support
 * \param text any text
 * \return the text in double quotes, for messages
 */
std::string QuoteText(std::string_view text);

/**
 * \ingroup mose-support
 * \brief Quotes text read from a file for an error message: printable ASCII as is, quote and
 *        backslash escaped, every other byte as \\xNN, and text longer than 80 characters cut
 *        with "..." (the readers of mose-file-io and mose-llm-request share it).
 * \param text the text
 * \return the quoted text
 */
std::string QuoteFileText(std::string_view text);

/**
 * \ingroup mose-support
 * \brief Throws the Error of ParseEnum() for a name that is not in the table.
 * \param parameter the parameter's name
 * \param text the text given
 * \param allowed the allowed names (AllowedEnumNames())
 */
[[noreturn]] void ThrowUnknownName(const std::string& parameter,
                                   std::string_view text,
                                   const std::string& allowed);

/**
 * \ingroup mose-support
 * \brief One value of an enum and its names.
 */
template <typename E>
struct EnumEntry
{
    E value;                          //!< the value
    std::string name;                 //!< canonical name: ToString() and every output
    std::vector<std::string> aliases; //!< other names ParseEnum() accepts
};

/**
 * \ingroup mose-support
 * \brief The names of an enum. Specialise it next to each enum with
 *        `static const std::vector<EnumEntry<E>>& Get();` listing every value once, in
 *        declaration order (the first is the default shown in messages only by position).
 *
 * The primary template is empty, so ToString() and ParseEnum() take part in overload resolution
 * only for enums that have a table.
 */
template <typename E>
struct EnumTable
{
};

/// \cond internal
namespace detail
{
/// true when EnumTable<E> is specialised
template <typename E, typename = void>
struct HasEnumTable : std::false_type
{
};

/// true when EnumTable<E> is specialised
template <typename E>
struct HasEnumTable<E, std::void_t<decltype(EnumTable<E>::Get())>> : std::true_type
{
};

/// \return index of the entry whose canonical name or alias matches text, case-insensitively
std::optional<std::size_t> FindName(const std::vector<std::vector<std::string>>& names,
                                    std::string_view text);

/// \return "a, b and c (any letter case; also x, y)" for a message
std::string AllowedNames(const std::vector<std::vector<std::string>>& names);

/// \return every entry's names, canonical first
template <typename E>
std::vector<std::vector<std::string>>
NameLists()
{
    std::vector<std::vector<std::string>> lists;
    for (const EnumEntry<E>& e : EnumTable<E>::Get())
    {
        std::vector<std::string> names{e.name};
        names.insert(names.end(), e.aliases.begin(), e.aliases.end());
        lists.push_back(std::move(names));
    }
    return lists;
}
} // namespace detail

/// \endcond

/**
 * \ingroup mose-support
 * \param value a value of an enum with an EnumTable
 * \return its canonical name ("unknown" for a value outside the table)
 */
template <typename E>
std::enable_if_t<detail::HasEnumTable<E>::value, std::string>
ToString(E value)
{
    for (const EnumEntry<E>& e : EnumTable<E>::Get())
    {
        if (e.value == value)
        {
            return e.name;
        }
    }
    return "unknown";
}

/**
 * \ingroup mose-support
 * \param text a canonical name or alias, in any letter case
 * \return the value, or empty if the text names none
 */
template <typename E>
std::enable_if_t<detail::HasEnumTable<E>::value, std::optional<E>>
TryParseEnum(std::string_view text)
{
    std::optional<std::size_t> i = detail::FindName(detail::NameLists<E>(), text);
    if (!i)
    {
        return std::nullopt;
    }
    return EnumTable<E>::Get()[*i].value;
}

/**
 * \ingroup mose-support
 * \return the allowed names for a message: "a, b and c (any letter case; also x, y)"
 */
template <typename E>
std::enable_if_t<detail::HasEnumTable<E>::value, std::string>
AllowedEnumNames()
{
    return detail::AllowedNames(detail::NameLists<E>());
}

/**
 * \ingroup mose-support
 * \param text a canonical name or alias, in any letter case
 * \param parameter the parameter's name as the user types it (e.g. "--routing")
 * \return the value; throws a mose::Error naming the parameter, the text and the allowed names
 */
template <typename E>
std::enable_if_t<detail::HasEnumTable<E>::value, E>
ParseEnum(std::string_view text, const std::string& parameter)
{
    std::optional<E> v = TryParseEnum<E>(text);
    if (!v)
    {
        ThrowUnknownName(parameter, text, AllowedEnumNames<E>());
    }
    return *v;
}

/**
 * \ingroup mose-support
 * \brief The items between the commas of a text, empty ones included ("a,,b" is three items,
 *        "" one): the module's one comma splitter, under SplitList(), mose::ParseSchedule() and
 *        the CSV and trace readers, which check the items each with its own message.
 * \param text the text
 * \param[out] items the items, as views into the text (cleared first, so that a reader can
 *        reuse one vector for every line)
 */
void SplitAtCommas(std::string_view text, std::vector<std::string_view>& items);

/**
 * \ingroup mose-support
 * \param text the text
 * \return SplitAtCommas()'s items
 */
std::vector<std::string_view> SplitAtCommas(std::string_view text);

/**
 * \ingroup mose-support
 * \brief Splits a comma-separated list, the one list syntax of every list option
 *        (ParseEnumList(), mose-sweep's axes): the text not empty, no item empty ("a,,b",
 *        "a,").
 * \param text the list as typed
 * \param parameter the parameter's name as the user types it (e.g. "--policies")
 * \param items what the items may be, for the message of an empty list ("a number")
 * \return the items in the order given; a mose::Error naming the parameter and the text
 */
std::vector<std::string> SplitList(const std::string& text,
                                   const std::string& parameter,
                                   const std::string& items);

/**
 * \ingroup mose-support
 * \brief Throws the Error of a list that names a value twice (a value listed twice would
 *        run twice, the second run overwriting the first's files): "invalid --policies =
 *        "MoSE,MoSE": MoSE is named twice".
 * \param text the list as typed
 * \param parameter the parameter's name
 * \param value the repeated value, as text
 */
[[noreturn]] void ThrowRepeatedItem(const std::string& text,
                                    const std::string& parameter,
                                    const std::string& value);

/**
 * \ingroup mose-support
 * \brief Reads a comma-separated list of names of a mose enum ("MoSE,S-Inf"): every item a
 *        name ParseEnum() accepts, none empty ("a,,b", "a,"), none named twice (a value listed
 *        twice would run twice, the second run overwriting the first's files).
 * \param text the list as typed
 * \param parameter the parameter's name as the user types it (e.g. "--policies")
 * \return the values in the order given; throws a mose::Error naming the parameter and the text
 */
template <typename E>
std::enable_if_t<detail::HasEnumTable<E>::value, std::vector<E>>
ParseEnumList(const std::string& text, const std::string& parameter)
{
    std::vector<E> list;
    for (const std::string& item : SplitList(text, parameter, AllowedEnumNames<E>()))
    {
        const E value = ParseEnum<E>(item, parameter);
        for (E seen : list)
        {
            if (seen == value)
            {
                ThrowRepeatedItem(text, parameter, ToString(value));
            }
        }
        list.push_back(value);
    }
    return list;
}

} // namespace mose
} // namespace ns3

#endif /* MOSE_PARSE_H */
