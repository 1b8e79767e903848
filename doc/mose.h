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
 * links the module: examples/mose-fabric.cc is the smallest complete one. The classes to start
 * with: ns3::MoseTopologyHelper (a fabric from a template), ns3::MoseModeSwitcher and
 * ns3::MoseModeSwitcherHelper (switching at mode boundaries), ns3::MoseWorkloadHelper and the
 * workloads (ns3::MoseFlowWorkload, ns3::MoseInferenceWorkload, ns3::MoseTrainingWorkload),
 * ns3::mose::ScenarioBuilder (the flow level: roles, assignments, templates and flows of a run)
 * and ns3::MoseDistributed (the same run over MPI ranks). The user documentation is
 * doc/mose.rst; the module's version is in ns3/mose-config.h.
 *
 * The subgroups follow the source folders (doc/mose.rst, "Model Description"): the flow level
 * (model/flow), the packet level (model/packet), the helpers (helper), and across them the LLM
 * workloads and the distributed (MPI) run; the support (model/support) serves them all. The
 * study library (helper/study) is the programs' and not installed.
 *
 * This file holds documentation only (as ns-3's src/<module>/doc/<module>.h do); it is not
 * installed.
 */

/**
 * \ingroup mose
 * \defgroup mose-flow Flow level
 *
 * model/flow, namespace ns3::mose, no Simulator: roles and P-D assignments, topology templates
 * and the circuit graph, traffic, routing, metrics, the break-even model and the scenario
 * (ns3::mose::ScenarioBuilder) that draws them for a run.
 */

/**
 * \ingroup mose
 * \defgroup mose-packet Packet level
 *
 * model/packet: the ns-3 Objects of a fabric: the optical circuit switch and its channels,
 * addressing, the route table and routing protocol, the mode switcher, the monitors, the
 * workload interface (ns3::MoseWorkload) and the flow-list workload.
 */

/**
 * \ingroup mose
 * \defgroup mose-helpers Helpers
 *
 * helper: what installs the packet level onto nodes, as ns-3's helpers do: the topology,
 * routing, traffic, workload and mode switcher helpers.
 */

/**
 * \ingroup mose
 * \defgroup mose-llm LLM workloads
 *
 * Inference requests and traces, model shapes, collectives, request placement and the mode
 * controller (model/flow), and the inference and training workloads that run them at the
 * packet level (model/packet).
 */

/**
 * \ingroup mose
 * \defgroup mose-mpi Distributed simulation (MPI)
 *
 * One packet-level run over ns-3's distributed simulator: the groups partitioned on the ranks
 * (model/flow), the notices between an object's replicas (model/packet), and
 * ns3::MoseDistributed, which enables MPI and merges what each rank counted (helper).
 */

/**
 * \ingroup mose
 * \defgroup mose-support Support
 *
 * model/support, namespace ns3::mose: errors, parsing, the command line with clear errors
 * (mose-command-line.h), random streams, hashing, attribute text and the ns-3 release
 * differences that every other part uses.
 */

/**
 * \ingroup mose
 * \defgroup mose-study Study library (not installed)
 *
 * helper/study, namespace ns3::mose: the programs' drivers, reports, options classes and their
 * scaffold (ns3::mose::Program), in sub-rooms by job, lowest first: flow/, experiment/, llm/,
 * report/, cli/. A static library that the programs of examples/, the tests and
 * the benchmarks link; not the module's API: its headers are not installed and not in
 * ns3/mose-module.h, and are included without "ns3/".
 */

/**
 * \ingroup mose
 * \defgroup mose-tests mose module tests
 */

#endif /* MOSE_H */
