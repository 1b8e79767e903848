/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_NS3_COMPAT_H
#define MOSE_NS3_COMPAT_H

/**
 * \file
 * \ingroup mose
 * Compatibility shims for the ns-3 API drift between 3.37 (Debian 12) and the newest release.
 *
 * MOSE_NS3_VERSION_MINOR is set by the build (cmake/mose-extras.cmake) from the ns-3 version:
 * 37 for ns-3.37, 48 for ns-3.48, 99 for an ns-3-dev tree.
 *
 * Known drift (DESIGN.md section 6):
 *  - 3.41: MakeEnumAccessor takes the enum type as template argument: use MOSE_ENUM_ACCESSOR.
 *  - 3.42: EventId::IsRunning() becomes IsPending(): use !event.IsExpired(), valid in both.
 *  - 3.46: TestSuite::UNIT and TestCase::QUICK enums are removed: construct suites and add cases
 *          with their default type and duration (TestSuite("mose"), AddTestCase(new X)).
 *  - 3.47: the header ns3/ipv4-global-routing.h is removed: include
 * ns3/ipv4-global-routing-helper.h only, behind MOSE_NS3_HAS_IPV4_GLOBAL_ROUTING_H.
 */

#ifndef MOSE_NS3_VERSION_MINOR
#error "MOSE_NS3_VERSION_MINOR must be defined by the build (see cmake/mose-extras.cmake)"
#endif

#if MOSE_NS3_VERSION_MINOR >= 41
/// MakeEnumAccessor for an attribute of enum type T bound to a member or accessor
#define MOSE_ENUM_ACCESSOR(T, accessor) ns3::MakeEnumAccessor<T>(accessor)
#else
/// MakeEnumAccessor for an attribute of enum type T bound to a member or accessor
#define MOSE_ENUM_ACCESSOR(T, accessor) ns3::MakeEnumAccessor(accessor)
#endif

#if MOSE_NS3_VERSION_MINOR < 47
/// 1 while ns3/ipv4-global-routing.h exists
#define MOSE_NS3_HAS_IPV4_GLOBAL_ROUTING_H 1
#else
/// 1 while ns3/ipv4-global-routing.h exists
#define MOSE_NS3_HAS_IPV4_GLOBAL_ROUTING_H 0
#endif

#endif /* MOSE_NS3_COMPAT_H */
