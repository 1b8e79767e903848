/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FILE_IO_H
#define MOSE_FILE_IO_H

#include "mose-circuit-graph.h"
#include "mose-pd-assignment.h"
#include "mose-roles.h"
#include "mose-traffic.h"

#include "ns3/mose-text-io.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-flow
 * \brief Reading and writing circuit graphs, roles, flows and P-D assignments as CSV files, and
 *        circuit graphs as Graphviz DOT.
 *
 * \section mose-file-io-common Rules shared by every CSV format
 *
 * - Lines end with LF or CRLF (one trailing CR is removed; a CR anywhere else is an ordinary,
 *   and therefore invalid, character).
 * - Blank lines (empty or only spaces and tabs) and comment lines (whose first non-blank
 *   character is `#`) are ignored everywhere, also before the header. Comments are whole lines
 *   only: `0,1 # note` is an error.
 * - The first other line is the header. It must list exactly the format's column names, in
 *   order, in lower case; spaces and tabs around each name are ignored.
 * - Every following line is one record with exactly as many comma-separated fields as the
 *   header. Spaces and tabs around a field are ignored; there is no quoting, and an empty field
 *   is an error. At least one record is required.
 * - Node ids are decimal integers made of digits only (no sign, no decimal point, no exponent)
 *   from 0 to 4294967294, so that the node count (largest id + 1) fits 32 bits.
 * - Positive reals (demands, weights) are written in C's decimal or scientific notation
 *   (`1`, `0.5`, `2.5e-3`; no leading `+`, no hexadecimal), parsed independently of the locale,
 *   and must be finite and > 0 (`0`, `-1`, `nan`, `inf`, `1e999` are errors).
 *
 * Readers never repair input: the first problem in file order throws a mose::Error whose message
 * is `FILE:LINE: problem`, where LINE is the 1-based physical line number (blank and comment
 * lines count) and the problem quotes the offending text. Problems that only show at the end of
 * the file (a missing node, a node with too few circuits, a disconnected graph) are reported at
 * the last line of the file and say "at end of file". A file that cannot be opened or read
 * throws `cannot open FILE: <reason>`. Each reader comes in two forms: one opens a path, the
 * other reads a std::istream and uses a given name in its messages.
 *
 * Writers write what they are given, header first, LF line ends, no comments; for data that
 * satisfies the checks above (as everything a reader returns does) a write/read round trip is
 * exact: reals are written in the shortest form that reads back to the same double. A writer throws
 * `cannot write FILE: <reason>` if the file cannot be created or written (a stream writer names the
 * stream "output stream").
 *
 * \section mose-file-io-edges Circuit graph (edge list): header `u,v`
 *
 * \code
 * # a 4-cycle
 * u,v
 * 0,1
 * 1,2
 * 2,3
 * 3,0
 * \endcode
 *
 * One circuit per line, endpoints in either order. Checks, in file order: each id is below the
 * node count N (when the caller gives N); no self-loop (`3,3`); no circuit repeats an earlier
 * one in either orientation (`1,0` after `0,1`; the message names both lines); when the caller
 * gives a degree d, no node gets more than d circuits (reported at the line of its (d+1)-th
 * circuit). At the end of the file: when N is inferred (largest id + 1), every node from 0 to
 * N-1 must have at least one circuit (pass N explicitly for isolated groups); when d is given,
 * every node has exactly d circuits (the message names the node and its degree) and the graph is
 * connected (the message gives the number of components). Without d, irregular and disconnected
 * graphs are accepted; the fabric invariants of CircuitGraph::FindProblem() are what d enables.
 * The writer lists the circuits in CircuitGraph::GetCircuits() order (u < v, sorted).
 *
 * \section mose-file-io-roles Roles: header `node,role`
 *
 * \code
 * node,role
 * 0,P
 * 1,decode
 * 2,training
 * \endcode
 *
 * One line per node, in any order; roles are those ParseGroupRole() accepts: `P`/`prefill`,
 * `D`/`decode`, `T`/`training` (any case). Every node 0..N-1 appears exactly once: a repeated
 * node is reported at its second line (naming the first); a missing node is named at the end of
 * the file. N is given by the caller or inferred as largest id + 1. The writer writes one line
 * per node in id order with the long role names.
 *
 * \section mose-file-io-flows Flows: header `src,dst,class,demand`
 *
 * \code
 * src,dst,class,demand
 * 0,5,kv,1
 * 7,3,training,0.25
 * \endcode
 *
 * One flow per line, in order. `class` is `kv` or `training` (ParseTrafficClass()); `demand` is
 * a positive finite real; src != dst; with a node count N given, ids are below N. The reader
 * does not check roles: flows from a file may follow any traffic matrix.
 *
 * \section mose-file-io-pd P-D assignment: header `prefill,decode,weight`
 *
 * \code
 * prefill,decode,weight
 * 0,2,1
 * 1,3,2.5
 * \endcode
 *
 * One prefill->decode pair per line; `weight` is the pair's relative share of KV flows, a
 * positive finite real. A pair may appear once (the message names both lines) and a node cannot
 * be a prefill in one pair and a decode in another (so `prefill` == `decode` is an error too).
 * With a RoleAssignment given, ids are below its N, `prefill` must be a prefill group and
 * `decode` a decode group.
 *
 * \section mose-file-io-dot Graphviz DOT (output only)
 *
 * \code
 * graph mose {
 *   // 4 groups, 4 circuits
 *   node [shape=circle, style=filled, fillcolor=white];
 *   0 [label="0\nP", fillcolor=lightskyblue];
 *   ...
 *   0 -- 1;
 *   ...
 * }
 * \endcode
 *
 * An undirected graph named `mose`: one statement per node (so isolated nodes show), then one
 * `u -- v;` line per circuit in GetCircuits() order. With roles, nodes are labelled with id and
 * role letter and filled by role: prefill `lightskyblue`, decode `lightsalmon`, training
 * `palegreen`. Render with e.g. `neato -Tsvg file.dot > file.svg`.
 */

namespace ns3
{
namespace mose
{

// ---------------------------------------------------------------------------------------------
// Circuit graph (edge list)

/**
 * \ingroup mose-flow
 * \brief Reads a circuit graph from an edge list CSV file (header `u,v`).
 * \param path the file
 * \param nodes the number of groups N; 0 infers it as the largest id + 1
 * \param degree if given, the file must describe a fabric: d-regular and connected
 * \return the graph; throws a mose::Error naming the file and line of the first problem
 */
CircuitGraph ReadCircuitGraphCsv(const std::string& path,
                                 uint32_t nodes = 0,
                                 std::optional<uint32_t> degree = std::nullopt);

/**
 * \ingroup mose-flow
 * \brief Reads a circuit graph from an edge list CSV stream (header `u,v`).
 * \param in the stream
 * \param name the name used for the stream in error messages
 * \param nodes the number of groups N; 0 infers it as the largest id + 1
 * \param degree if given, the file must describe a fabric: d-regular and connected
 * \return the graph; throws a mose::Error naming the file and line of the first problem
 */
CircuitGraph ReadCircuitGraphCsv(std::istream& in,
                                 const std::string& name,
                                 uint32_t nodes = 0,
                                 std::optional<uint32_t> degree = std::nullopt);

/**
 * \ingroup mose-flow
 * \brief Writes a circuit graph as an edge list CSV file.
 * \param graph the graph
 * \param path the file, created or overwritten
 */
void WriteCircuitGraphCsv(const CircuitGraph& graph, const std::string& path);

/**
 * \ingroup mose-flow
 * \brief Writes a circuit graph as an edge list CSV to a stream.
 * \param graph the graph
 * \param out the stream
 */
void WriteCircuitGraphCsv(const CircuitGraph& graph, std::ostream& out);

// ---------------------------------------------------------------------------------------------
// Roles

/**
 * \ingroup mose-flow
 * \brief Reads the roles of one workload mode from a CSV file (header `node,role`).
 * \param path the file
 * \param nodes the number of groups N; 0 infers it as the largest id + 1
 * \return the roles; throws a mose::Error naming the file and line of the first problem
 */
RoleAssignment ReadRolesCsv(const std::string& path, uint32_t nodes = 0);

/**
 * \ingroup mose-flow
 * \brief Reads the roles of one workload mode from a CSV stream (header `node,role`).
 * \param in the stream
 * \param name the name used for the stream in error messages
 * \param nodes the number of groups N; 0 infers it as the largest id + 1
 * \return the roles; throws a mose::Error naming the file and line of the first problem
 */
RoleAssignment ReadRolesCsv(std::istream& in, const std::string& name, uint32_t nodes = 0);

/**
 * \ingroup mose-flow
 * \brief Writes roles as a CSV file, one line per node with the long role names.
 * \param roles the roles
 * \param path the file, created or overwritten
 */
void WriteRolesCsv(const RoleAssignment& roles, const std::string& path);

/**
 * \ingroup mose-flow
 * \brief Writes roles as CSV to a stream.
 * \param roles the roles
 * \param out the stream
 */
void WriteRolesCsv(const RoleAssignment& roles, std::ostream& out);

// ---------------------------------------------------------------------------------------------
// Flows

/**
 * \ingroup mose-flow
 * \brief Reads flows from a CSV file (header `src,dst,class,demand`).
 * \param path the file
 * \param nodes if not 0, the number of groups N that every id must be below
 * \return the flows in file order; throws a mose::Error naming the file and line of the first
 *         problem
 */
std::vector<Flow> ReadFlowsCsv(const std::string& path, uint32_t nodes = 0);

/**
 * \ingroup mose-flow
 * \brief Reads flows from a CSV stream (header `src,dst,class,demand`).
 * \param in the stream
 * \param name the name used for the stream in error messages
 * \param nodes if not 0, the number of groups N that every id must be below
 * \return the flows in file order; throws a mose::Error naming the file and line of the first
 *         problem
 */
std::vector<Flow> ReadFlowsCsv(std::istream& in, const std::string& name, uint32_t nodes = 0);

/**
 * \ingroup mose-flow
 * \brief Writes flows as a CSV file.
 * \param flows the flows
 * \param path the file, created or overwritten
 */
void WriteFlowsCsv(const std::vector<Flow>& flows, const std::string& path);

/**
 * \ingroup mose-flow
 * \brief Writes flows as CSV to a stream.
 * \param flows the flows
 * \param out the stream
 */
void WriteFlowsCsv(const std::vector<Flow>& flows, std::ostream& out);

// ---------------------------------------------------------------------------------------------
// P-D assignment

/**
 * \ingroup mose-flow
 * \brief Reads a P-D assignment from a CSV file (header `prefill,decode,weight`).
 * \param path the file
 * \param roles if not null, the roles every pair must respect (prefill -> decode)
 * \return the assignment; throws a mose::Error naming the file and line of the first problem
 */
PdAssignment ReadPdAssignmentCsv(const std::string& path, const RoleAssignment* roles = nullptr);

/**
 * \ingroup mose-flow
 * \brief Reads a P-D assignment from a CSV stream (header `prefill,decode,weight`).
 * \param in the stream
 * \param name the name used for the stream in error messages
 * \param roles if not null, the roles every pair must respect (prefill -> decode)
 * \return the assignment; throws a mose::Error naming the file and line of the first problem
 */
PdAssignment ReadPdAssignmentCsv(std::istream& in,
                                 const std::string& name,
                                 const RoleAssignment* roles = nullptr);

/**
 * \ingroup mose-flow
 * \brief Writes a P-D assignment as a CSV file.
 * \param assignment the assignment
 * \param path the file, created or overwritten
 */
void WritePdAssignmentCsv(const PdAssignment& assignment, const std::string& path);

/**
 * \ingroup mose-flow
 * \brief Writes a P-D assignment as CSV to a stream.
 * \param assignment the assignment
 * \param out the stream
 */
void WritePdAssignmentCsv(const PdAssignment& assignment, std::ostream& out);

// ---------------------------------------------------------------------------------------------
// Graphviz DOT

/**
 * \ingroup mose-flow
 * \brief Writes a circuit graph as a Graphviz DOT file.
 * \param graph the graph
 * \param path the file, created or overwritten
 * \param roles if not null, nodes are labelled and coloured by role; its N must equal the
 *        graph's (a mose::Error otherwise)
 */
void WriteCircuitGraphDot(const CircuitGraph& graph,
                          const std::string& path,
                          const RoleAssignment* roles = nullptr);

/**
 * \ingroup mose-flow
 * \brief Writes a circuit graph as Graphviz DOT to a stream.
 * \param graph the graph
 * \param out the stream
 * \param roles if not null, nodes are labelled and coloured by role; its N must equal the
 *        graph's (a mose::Error otherwise)
 */
void WriteCircuitGraphDot(const CircuitGraph& graph,
                          std::ostream& out,
                          const RoleAssignment* roles = nullptr);

} // namespace mose
} // namespace ns3

#endif /* MOSE_FILE_IO_H */
