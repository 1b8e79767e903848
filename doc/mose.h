/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_H
#define MOSE_H

/**
 * \defgroup mose MoSE: Mode-Switching Expander
 *
 * Reconfigurable optical fabrics for mixed LLM training and inference: N groups with d optical
 * ports each, paired by an optical circuit switch into a circuit graph that changes with the
 * workload mode. The flow-level core (templates, traffic, routing, metrics) is plain C++ over
 * Boost.Graph in the nested namespace ns3::mose and needs no Simulator; the packet-level
 * simulation objects and helpers build on it.
 *
 * A script includes the module's umbrella header "ns3/mose-module.h" (or single headers) and
 * links the module: examples/mose-fabric.cc is the smallest complete one. The user
 * documentation is doc/mose.rst; the module's version is in ns3/mose-config.h.
 *
 * This file holds documentation only (as ns-3's src/<module>/doc/<module>.h do); it is not
 * installed.
 */

/**
 * \ingroup mose
 * \defgroup mose-tests mose module tests
 */

#endif /* MOSE_H */
