/*
 * Copyright (c) 2026 The mose authors
 *
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
 * The macros expand to ns-3 names only where they are used: include the ns-3 header that
 * declares them (ns3/enum.h, ns3/event-id.h, ns3/test.h) as usual.
 *
 * Known drift (DESIGN.md section 6), checked by building in-tree against 3.37 and 3.48:
 *  - 3.41: MakeEnumAccessor takes the enum type as template argument: use MOSE_ENUM_ACCESSOR;
 *          EnumValue and EnumChecker become templates on the enum type: MOSE_ENUM_VALUE,
 *          MOSE_ENUM_CHECKER, MOSE_ENUM_CHECKER_VALUE (MakeMoseEnumChecker() uses them).
 *  - 3.42: EventId::IsRunning() becomes IsPending(): use MOSE_EVENT_IS_PENDING(ev), which is
 *          !ev.IsExpired(), valid in both.
 *  - 3.42: TestCase::TestDuration (TestCase::QUICK) becomes the enum class TestCase::Duration;
 *          3.46 removes the old one. Prefer AddTestCase(new X) with its default duration (QUICK);
 *          where a duration must be named, use MOSE_TEST_QUICK / MOSE_TEST_EXTENSIVE /
 *          MOSE_TEST_TAKES_FOREVER. TestSuite::Type::UNIT (or the default of TestSuite("mose"))
 *          is valid from 3.37 to 3.48; the bare TestSuite::UNIT is not.
 *  - 3.41 C++20, 3.46 C++23: in-tree the standard comes from ns-3; standalone,
 *          cmake/mose-standalone.cmake follows the installed release.
 *  - 3.43: module targets lose their lib prefix (ns3::core): handled by the build, never name
 *          a target in code.
 *  - 3.39: Ipv4RoutingProtocol::RouteInput takes its four callbacks by const reference (by
 *          value up to 3.38): declare overrides with MOSE_ROUTE_INPUT_CB(UnicastForwardCallback)
 *          etc. RouteOutput and PrintRoutingTable(Ptr<OutputStreamWrapper>, Time::Unit) are
 *          unchanged from 3.37 to 3.48.
 *  - 3.47: the header ns3/ipv4-global-routing.h is removed: include
 *          ns3/ipv4-global-routing-helper.h only, behind MOSE_NS3_HAS_IPV4_GLOBAL_ROUTING_H.
 */

#ifndef MOSE_NS3_VERSION_MINOR
#error "MOSE_NS3_VERSION_MINOR must be defined by the build (see cmake/mose-extras.cmake)"
#endif

#if MOSE_NS3_VERSION_MINOR < 37
#error "mose needs ns-3.37 or later"
#endif

/// true while the event is scheduled and neither ran nor was cancelled (IsRunning/IsPending)
#define MOSE_EVENT_IS_PENDING(ev) (!(ev).IsExpired())

#if MOSE_NS3_VERSION_MINOR >= 42
/// TestCase duration for AddTestCase(), valid before and after the 3.42 enum class
#define MOSE_TEST_QUICK ns3::TestCase::Duration::QUICK
/// TestCase duration for AddTestCase(), valid before and after the 3.42 enum class
#define MOSE_TEST_EXTENSIVE ns3::TestCase::Duration::EXTENSIVE
/// TestCase duration for AddTestCase(), valid before and after the 3.42 enum class
#define MOSE_TEST_TAKES_FOREVER ns3::TestCase::Duration::TAKES_FOREVER
#else
/// TestCase duration for AddTestCase(), valid before and after the 3.42 enum class
#define MOSE_TEST_QUICK ns3::TestCase::QUICK
/// TestCase duration for AddTestCase(), valid before and after the 3.42 enum class
#define MOSE_TEST_EXTENSIVE ns3::TestCase::EXTENSIVE
/// TestCase duration for AddTestCase(), valid before and after the 3.42 enum class
#define MOSE_TEST_TAKES_FOREVER ns3::TestCase::TAKES_FOREVER
#endif

#if MOSE_NS3_VERSION_MINOR >= 41
/// MakeEnumAccessor for an attribute of enum type T bound to a member or accessor
#define MOSE_ENUM_ACCESSOR(T, accessor) ns3::MakeEnumAccessor<T>(accessor)
#else
/// MakeEnumAccessor for an attribute of enum type T bound to a member or accessor
#define MOSE_ENUM_ACCESSOR(T, accessor) ns3::MakeEnumAccessor(accessor)
#endif

#if MOSE_NS3_VERSION_MINOR >= 41
/// ns-3's EnumChecker for enum type T (a template from 3.41)
#define MOSE_ENUM_CHECKER(T) ns3::EnumChecker<T>
/// a value of enum type T as EnumChecker::Add/AddDefault and EnumValue take it
#define MOSE_ENUM_CHECKER_VALUE(T, v) (v)
/// ns-3's EnumValue for enum type T (a template from 3.41)
#define MOSE_ENUM_VALUE(T) ns3::EnumValue<T>
#else
/// ns-3's EnumChecker for enum type T (a template from 3.41)
#define MOSE_ENUM_CHECKER(T) ns3::EnumChecker
/// a value of enum type T as EnumChecker::Add/AddDefault and EnumValue take it
#define MOSE_ENUM_CHECKER_VALUE(T, v) static_cast<int>(v)
/// ns-3's EnumValue for enum type T (a template from 3.41)
#define MOSE_ENUM_VALUE(T) ns3::EnumValue
#endif

#if MOSE_NS3_VERSION_MINOR >= 39
/// the parameter type of one of Ipv4RoutingProtocol::RouteInput's callbacks (const T& from 3.39)
#define MOSE_ROUTE_INPUT_CB(T) const T&
#else
/// the parameter type of one of Ipv4RoutingProtocol::RouteInput's callbacks (T up to 3.38)
#define MOSE_ROUTE_INPUT_CB(T) T
#endif

#if MOSE_NS3_VERSION_MINOR < 47
/// 1 while ns3/ipv4-global-routing.h exists
#define MOSE_NS3_HAS_IPV4_GLOBAL_ROUTING_H 1
#else
/// 1 while ns3/ipv4-global-routing.h exists
#define MOSE_NS3_HAS_IPV4_GLOBAL_ROUTING_H 0
#endif

#endif /* MOSE_NS3_COMPAT_H */
