/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_OPTION_SCOPE_H
#define MOSE_OPTION_SCOPE_H

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief Where an option acts: the levels of an LLM run and the modes of a program, as bits
 *        (OptionScope's levels and modes, CheckOptionScopes()'s run).
 */
enum OptionPlace : uint32_t
{
    AT_PACKET = 1,                                       //!< the packet level (ns-3 packets)
    AT_FLUID = 2,                                        //!< the fluid level
    AT_AGGREGATE = 4,                                    //!< the aggregate level
    AT_ALL_LEVELS = AT_PACKET | AT_FLUID | AT_AGGREGATE, //!< every level
    IN_MAP = 8,                                          //!< mose-llm's regime map (--map=true)
    IN_ONE = 16,                 //!< mose-llm's one experiment (--map=false), any schedule
    IN_THRESHOLD = 32,           //!< one experiment with --schedule=threshold only
    IN_MERGE_FILES = 64,         //!< mose-regime-figure --maps: regime maps merged into a figure
    IN_COMPARE_FILES = 128,      //!< mose-regime-figure --compare: two maps' files compared
    IN_SUITE_FILES = 256,        //!< mose-regime-figure --suite: the level validation suite
    IN_TCP = 512,                //!< the transport: --transport=tcp
    IN_RDMA = 1024,              //!< the transport: --transport=rdma
    IN_COMPARISON = 2048,        //!< several policies in --policies (a comparison)
    IN_ONE_POLICY = 4096,        //!< one policy in --policies
    IN_ALTERNATING = 8192,       //!< mose-break-even's default schedule (no --schedule)
    IN_SCHEDULE = 16384,         //!< mose-break-even's --schedule
    IN_TORUS_2D = 32768,         //!< mose-baselines: torus-2d in --baselines
    IN_TORUS_3D = 65536,         //!< mose-baselines: torus-3d in --baselines
    IN_FULL_MESH_3D = 131072,    //!< mose-baselines: full-mesh-3d in --baselines
    IN_ROLE_COUNTS = 262144,     //!< mose-sweep: role counts given (of the point N = --nodes)
    IN_PAPER_ROLES = 524288,     //!< mose-sweep: no role count given (the paper's shares)
    IN_RANDOM_ROUTING = 1048576, //!< --routing=random-shortest-path (the seed acts)
    IN_FIXED_ROUTING = 2097152,  //!< --routing=shortest-path or ecmp (no seed)
};

/**
 * \ingroup mose-study
 * \brief The groups of OptionPlace's mode bits. A row acts in a run when, in every group where
 *        both the row and the run have bits, they share one; a row without bits in a group acts
 *        whatever the run's bits there (CheckOptionScopes()).
 */
const std::vector<uint32_t>& GetOptionPlaceGroups();

/**
 * \ingroup mose-study
 * \brief One row of the table of where each option acts (GetOptionScopes()).
 */
struct OptionScope
{
    const char* program; //!< the program ("mose-llm")
    const char* option;  //!< the option as typed, with its dashes ("--reuseConnections")
    uint32_t levels;     //!< the levels it acts at (OptionPlace AT_ bits; 0: no levels)
    uint32_t modes;      //!< the modes it acts in (OptionPlace IN_ bits; 0: every mode)
};

/**
 * \ingroup mose-study
 * \brief The table of where each option of the programs acts, for every option that does not
 *        act in every run: the levels (packet, fluid, aggregate) and the modes (mose-llm's
 *        regime map, one experiment, one with the threshold schedule; mose-regime-figure's
 *        merge or comparison of map files; the transport; one policy or a comparison; ...).
 *        The programs consult it (CheckOptionScopes()); doc/mose.rst's table "Where each option
 *        acts" is checked against it (cmake/mose-check-option-scope.py, ctest
 *        mose-option-scope-doc). The scenario options every program shares (--nodes,
 *        --degree, the roles, ...) act at every level and in every mode and are not listed;
 *        their own rules refuse one that a file replaces (ScenarioOptions::GetConfig()).
 * \return the rows, by program, then in the order of the programs' --PrintHelp
 */
const std::vector<OptionScope>& GetOptionScopes();

/**
 * \ingroup mose-study
 * \brief The programs of examples/ in which every option acts in every run: none has a row in
 *        GetOptionScopes() (doc/mose.rst names them under the table; the doc check
 *        cmake/mose-check-option-scope.py checks that every program is in one or the other).
 * \return the programs' names ("mose-paper")
 */
const std::vector<std::string>& GetProgramsWhereEveryOptionActs();

/**
 * \ingroup mose-study
 * \param rdma whether the run's transport is rdma
 * \return IN_RDMA or IN_TCP
 */
uint32_t GetTransportPlace(bool rdma);

/**
 * \ingroup mose-study
 * \brief The options given on a command line, as ns-3's CommandLine reads them ("--name=value",
 *        "-name=value", "--name" for a flag): name with two dashes and the text after '='.
 *        Written by hand: ns-3's CommandLine does not say which options were given.
 * \param argc the argument count \param argv the arguments (argv[0] the program)
 * \return (name, text) pairs in the order given; "--ns3::..." attributes included
 */
std::vector<std::pair<std::string, std::string>> GivenOptions(int argc, char** argv);

/**
 * \ingroup mose-study
 * \brief Refuses every given option of the table that does not act where the program runs:
 *        a mose::Error "invalid --OPTION = "TEXT": the option would not be used
 *        <where>: it acts <where it acts> (doc/mose.rst, Where each option acts)".
 * \param program the program ("mose-llm")
 * \param given the options given (GivenOptions())
 * \param levels the levels the run runs (AT_ bits; 0 for a program without levels): an option
 *        acts if it acts at one of them
 * \param modes the run's modes (IN_ bits, one or more in each group the program has, e.g.
 *        IN_MAP | IN_RDMA; IN_ONE, with IN_THRESHOLD for the threshold schedule;
 *        IN_MERGE_FILES or IN_COMPARE_FILES; the baselines given)
 */
void CheckOptionScopes(const std::string& program,
                       const std::vector<std::pair<std::string, std::string>>& given,
                       uint32_t levels,
                       uint32_t modes);

/**
 * \ingroup mose-study
 * \brief At levels without packets (no packet level in `levels`): a module attribute of the
 *        packet level's transport, queues or workloads that the user set is a mose::Error
 *        (RejectModuleAttribute()); one of ns-3's own (TCP, queue discs, point-to-point
 *        devices and their drop-tail queues; ns-3's attribute system sets it globally) a
 *        warning naming it on `warn`. The attributes the fluid
 *        level reads (MoseFluidFabricHelper: rates, delays, segment and payload sizes, the
 *        notice delay, the switcher's) are not touched.
 * \param levels the levels the run runs (AT_ bits) \param warn where warnings go
 * \return the warnings written
 */
uint32_t CheckPacketOnlyAttributes(uint32_t levels, std::ostream& warn);

/**
 * \ingroup mose-study
 * \param levels AT_ bits \param modes IN_ bits
 * \return the words of the doc's table: "packet, fluid", "all"; "map, one", "threshold",
 *         "map, one; rdma" (a group's words, then the next group's), "all" (no mode bits)
 */
std::string DescribeOptionPlaces(uint32_t levels, uint32_t modes);

} // namespace mose
} // namespace ns3

#endif /* MOSE_OPTION_SCOPE_H */
