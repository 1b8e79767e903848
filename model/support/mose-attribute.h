/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ATTRIBUTE_H
#define MOSE_ATTRIBUTE_H

#include "ns3/attribute.h"
#include "ns3/object-base.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-support
 * Attribute values as text: whether the user configured an attribute, its default and a value
 * as the attribute's checker writes them, and the names an enum attribute accepts. The helpers
 * use them to let a user's setting win or fail loudly; the programs use them to check
 * --ns3::Type::Name=value before ns-3 parses it.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief Whether the default of an attribute was set by Config::SetDefault() or on the command
 *        line (--ns3::Type::Name=value), even to the value it was registered with.
 *
 * ns-3 has no "was set" flag, but a TypeId keeps each attribute's registered initial value next
 * to its configured one (TypeId::AttributeInformation::originalInitialValue and initialValue,
 * the same object until Config::SetDefault() replaces the latter; Config::Reset() restores it).
 * An Error names the attribute if the type has none of that name.
 * \param tid the type
 * \param name the attribute
 * \return true if the default was configured
 */
bool IsAttributeDefaultSet(TypeId tid, const std::string& name);

/**
 * \ingroup mose-support
 * \param tid the type \param name its attribute
 * \return the attribute's current default (what Config::SetDefault() left), as text
 */
std::string GetAttributeDefaultText(TypeId tid, const std::string& name);

/**
 * \ingroup mose-support
 * \param tid the type \param name its attribute \param value a value for it (any type the
 *        attribute's checker accepts, e.g. a StringValue)
 * \return the value as the attribute's checker writes it (e.g. "ecmp", "+2s"), so that two
 *         values compare as text
 */
std::string GetAttributeValueText(TypeId tid, const std::string& name, const AttributeValue& value);

/**
 * \ingroup mose-support
 * \param tid the type \param name its attribute \param text a value as GetAttributeValueText()
 *        writes it
 * \return the value for a message: times in their own unit (+2s, not +2e+09ns), others as given
 */
std::string FormatAttributeText(TypeId tid, const std::string& name, const std::string& text);

/**
 * \ingroup mose-support
 * \param object an object \param name one of its attributes
 * \return the object's value, as text
 */
std::string GetAttributeText(const ObjectBase& object, const std::string& name);

/**
 * \ingroup mose-support
 * \brief Whether the user chose an object's attribute: its default was configured
 *        (IsAttributeDefaultSet()), or the object holds another value than the default (set
 *        with SetAttribute()). A value set with SetAttribute() to the default itself cannot be
 *        told from no setting.
 * \param object the object \param name the attribute \return true if the user chose it
 */
bool IsAttributeUserSet(const ObjectBase& object, const std::string& name);

/**
 * \ingroup mose-support
 * \brief The names an enum attribute accepts, in the checker's order (default first).
 *
 * ns-3 gives them only as EnumChecker::GetUnderlyingTypeInformation()'s "a|b|c" (3.37 to
 * 3.48), and its EnumValue::DeserializeFromString() of any other name is an NS_ASSERT in a
 * debug build and undefined in a release build, so text must be checked against this list first.
 * \param checker an attribute's checker
 * \return the names, or an empty list if the checker is not an EnumChecker
 */
std::vector<std::string> GetEnumNames(const AttributeChecker& checker);

/**
 * \ingroup mose-support
 * \param names a list of names
 * \return them for a message: "a, b or c"
 */
std::string JoinAlternatives(const std::vector<std::string>& names);

} // namespace mose
} // namespace ns3

#endif /* MOSE_ATTRIBUTE_H */
