/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ENUM_ATTRIBUTE_H
#define MOSE_ENUM_ATTRIBUTE_H

#include "mose-ns3-compat.h"
#include "mose-parse.h"

#include "ns3/enum.h"

/**
 * \file
 * \ingroup mose-support
 * ns-3 attributes of a mose enum type, from the enum's EnumTable.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief ns-3's EnumChecker for a mose enum, built from its EnumTable: every value under its
 *        canonical name (the names ToString() writes), the given value as the default.
 *
 * Use with MOSE_ENUM_ACCESSOR and MOSE_ENUM_VALUE in a TypeId:
 * \code
 *   .AddAttribute("Routing", "routing rule",
 *                 MOSE_ENUM_VALUE(RoutingRule)(MOSE_ENUM_CHECKER_VALUE(RoutingRule, r)),
 *                 MOSE_ENUM_ACCESSOR(RoutingRule, &X::m_routing),
 *                 MakeEnumTableChecker(r))
 * \endcode
 * ns-3 matches attribute text exactly, so only canonical names are registered (an alias of
 * the same value would also change which name ns-3 prints for it on some releases).
 * \param defaultValue the attribute's default
 * \return the checker
 */
template <typename E>
Ptr<const AttributeChecker>
MakeEnumTableChecker(E defaultValue)
{
    Ptr<MOSE_ENUM_CHECKER(E)> checker = Create<MOSE_ENUM_CHECKER(E)>();
    for (const EnumEntry<E>& e : EnumTable<E>::Get())
    {
        if (e.value == defaultValue)
        {
            checker->AddDefault(MOSE_ENUM_CHECKER_VALUE(E, e.value), e.name);
        }
    }
    for (const EnumEntry<E>& e : EnumTable<E>::Get())
    {
        if (e.value != defaultValue)
        {
            checker->Add(MOSE_ENUM_CHECKER_VALUE(E, e.value), e.name);
        }
    }
    return checker;
}

} // namespace mose
} // namespace ns3

#endif /* MOSE_ENUM_ATTRIBUTE_H */
