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
    IN_ONE = 16,            //!< mose-llm's one experiment (--map=false), any schedule
    IN_THRESHOLD = 32,      //!< one experiment with --schedule=threshold only
    IN_MERGE_FILES = 64,    //!< mose-regime-figure --maps: regime maps merged into a figure
    IN_COMPARE_FILES = 128, //!< mose-regime-figure --compare: two maps' files compared
    IN_SUITE_FILES = 256,   //!< mose-regime-figure --suite: the level validation suite
};

/**
 * \ingroup mose-study
 * \brief One row of the table of where each option acts (GetOptionScopes()).
 */
struct OptionScope
{
    const char* program; //!< the program ("mose-llm")
    const char* option;  //!< the option as typed, with its dashes ("--reuseConnections")
    uint32_t levels;     //!< the levels it acts at (OptionPlace AT_ bits; 0: no levels)
    uint32_t modes;      //!< the modes it acts in (OptionPlace IN_ bits)
};

/**
 * \ingroup mose-study
 * \brief The table of where each option of mose-llm and mose-regime-figure acts: the levels
 *        (packet, fluid, aggregate) and the modes (the regime map, one experiment, one with the
 *        threshold schedule; a merge or a comparison of map files). The programs consult it
 *        (CheckOptionScopes()); doc/mose.rst's table "Where each option acts" is checked
 *        against it (cmake/mose-check-option-scope.py, ctest mose-option-scope-doc). The
 *        scenario options every program shares (--nodes, --degree, the roles, ...) act at
 *        every level and in every mode and are not listed.
 * \return the rows, by program, then in the order of the programs' --PrintHelp
 */
const std::vector<OptionScope>& GetOptionScopes();

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
 * \param modes the run's mode (IN_ bits: IN_MAP; IN_ONE, with IN_THRESHOLD for the threshold
 *        schedule; IN_MERGE_FILES or IN_COMPARE_FILES)
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
 * \return the words of the doc's table: "packet, fluid", "all"; "map, one", "threshold"
 */
std::string DescribeOptionPlaces(uint32_t levels, uint32_t modes);

} // namespace mose
} // namespace ns3

#endif /* MOSE_OPTION_SCOPE_H */
