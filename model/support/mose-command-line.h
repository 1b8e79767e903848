/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_COMMAND_LINE_H
#define MOSE_COMMAND_LINE_H

#include "ns3/command-line.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

/**
 * \file
 * \ingroup mose-support
 * A script's command line with clear errors: every bad option, attribute or global value ends
 * in one message that names it, the text and what is allowed, and exit status 1.
 *
 * ns-3's CommandLine answers a bad value with "Invalid command-line argument" and its help, or
 * aborts ("--RngRun=abc", "--ns3::MoseOcs::Delay=abc"), or silently wraps ("--RngRun=-1"), or
 * crashes later ("--SchedulerType=ns3::Node"). A script registers its options on an ns-3
 * CommandLine as usual, parses it with ParseCommandLine() (which checks the arguments against
 * the registered options, ns-3's global values and the attributes first) and runs its body
 * through RunProgram(), which turns every exception into "<program>: error: <message>" and exit
 * status 1:
 *
 * \code
 *   int main(int argc, char* argv[])
 *   {
 *       return RunProgram("my-script", argc, argv, [&]() {
 *           bool pcap = true;
 *           std::string output = "results";
 *           CommandLine cmd(__FILE__);
 *           AddBoolOption(cmd, "pcap", "write pcap traces", pcap);     // --pcap=maybe: an error
 *           AddTextOption(cmd, "output", "output folder", output);     // keeps "my results"
 *           ParseCommandLine(cmd, argc, argv);
 *           ...
 *       });
 *   }
 * \endcode
 *
 * examples/mose-fabric.cc is such a script; the study programs of examples/ use the same
 * functions through their scaffold (helper/study, not installed).
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief Runs a program's body and turns every exception into a message and exit status 1.
 *
 * An Error prints "<program>: error: <message>"; an std::bad_alloc says that memory ran out,
 * how much the process had used and which options size the run (OutOfMemoryMessage()); any
 * other std::exception is reported with its what(). Standard output is flushed and checked, so
 * a full disk or a closed pipe is an error, not a silent truncation.
 *
 * \param program the program's name for messages (e.g. "mose-paper")
 * \param argc argument count
 * \param argv arguments
 * \param body the program: registers its options, calls ParseCommandLine() and does the work
 * \return the exit status: 0 on success, 1 on any error
 */
int RunProgram(const std::string& program,
               int argc,
               char* argv[],
               const std::function<void()>& body);

/**
 * \ingroup mose-support
 * \brief Checks the arguments, then parses them with ns-3's CommandLine::Parse().
 *
 * The checks read the options registered on \p cmd, ns-3's global values and the attributes,
 * in this order: CheckRngArguments(), CheckGlobalValues(), CheckEmptyValues() (an empty
 * "--name=" of a registered option, a global value or an attribute; any other name is "there
 * is no option"), CheckModuleAttributes(). The options added with AddBoolOption() check their
 * own values while they are parsed. Throws a mose::Error naming the option.
 * \param cmd the command line, its options added
 * \param argc argument count
 * \param argv arguments
 */
void ParseCommandLine(CommandLine& cmd, int argc, char* argv[]);

/**
 * \ingroup mose-support
 * \brief Adds a boolean option whose value is read strictly: "--name=maybe" is a mose::Error
 *        ("invalid --name = "maybe": allowed values are true, false, t, f, 1 and 0 (any
 *        letter case)"), where ns-3's own bool option ends in "Invalid command-line argument".
 *
 * "--name" alone toggles the value, as for an ns-3 bool option; --PrintHelp shows the default
 * as ns-3 does ("[true]").
 * \param cmd the command line
 * \param name the option's name, without dashes
 * \param help its help text
 * \param value the variable: its current value is the default (must outlive cmd.Parse())
 */
void AddBoolOption(CommandLine& cmd, const std::string& name, const std::string& help, bool& value);

/**
 * \ingroup mose-support
 * \brief AddBoolOption() that also records whether the option was given (for an option that
 *        some settings do not use, so that giving it there is refused).
 * \param cmd the command line
 * \param name the option's name, without dashes
 * \param help its help text
 * \param value the variable (see AddBoolOption())
 * \param given set to true when Parse() meets the option (must outlive cmd.Parse())
 */
void AddBoolOption(CommandLine& cmd,
                   const std::string& name,
                   const std::string& help,
                   bool& value,
                   bool& given);

/**
 * \ingroup mose-support
 * \brief Adds a text option that keeps the whole text after '=' (a file or folder name, a
 *        schedule, a number parsed later).
 *
 * ns-3's CommandLine reads a std::string option with operator>>, which stops at the first white
 * space: "--outputDir=my results" would silently become "my" and "--darkTime=25 ms" "25". The
 * option here is a callback that stores the text as given. --PrintHelp shows the value the
 * variable holds when the option is added as the default.
 * \param cmd the command line
 * \param name the option's name, without dashes
 * \param help its help text
 * \param value the variable: its current value is the default; Parse() overwrites it with the
 *        text given (the variable must outlive cmd.Parse())
 */
void AddTextOption(CommandLine& cmd,
                   const std::string& name,
                   const std::string& help,
                   std::string& value);

/**
 * \ingroup mose-support
 * \brief AddTextOption() that also records whether the option was given (for an option whose
 *        value a module attribute may give instead, ResolveAttributeOption()).
 * \param cmd the command line
 * \param name the option's name, without dashes
 * \param help its help text
 * \param value the variable (see AddTextOption())
 * \param given set to true when Parse() meets the option (must outlive cmd.Parse())
 */
void AddTextOption(CommandLine& cmd,
                   const std::string& name,
                   const std::string& help,
                   std::string& value,
                   bool& given);

/**
 * \ingroup mose-support
 * \brief A program option and the module attribute whose value the option replaces (--nodes
 *        and --ns3::MoseTopologyHelper::Groups): the program sets the attribute from the option,
 *        so a user's attribute alone would be silently overwritten.
 */
struct AttributeOption
{
    std::string option;    //!< the option, without dashes ("nodes")
    std::string attribute; //!< the attribute's path ("ns3::MoseTopologyHelper::Groups")
    /// reads a value as the option reads it (the parameter names the option or the attribute
    /// in the message) and returns it as canonical text, so that "064" and "64" agree
    std::function<std::string(const std::string& parameter, const std::string& text)> read;
};

/**
 * \ingroup mose-support
 * \brief One rule for an option whose value a module attribute also gives: the option wins if
 *        it is given alone, the attribute wins if it is set alone, and both given with different
 *        values is a mose::Error naming both ("--nodes = "64" and
 *        --ns3::MoseTopologyHelper::Groups = "32" disagree: give one").
 * \param o the option and its attribute
 * \param given the option's text, if the user gave it
 * \return the text to read the option from: the option's if given, else the attribute's if it
 *         was set, else none (the option's default)
 */
std::optional<std::string> ResolveAttributeOption(const AttributeOption& o,
                                                  const std::optional<std::string>& given);

/**
 * \ingroup mose-support
 * \brief A AttributeOption::read for time options: the time ParseTimeOption() reads, as
 *        canonical text (whole nanoseconds, "150000000ns"), so "150ms" and "0.15" agree.
 * \param parameter the option or attribute, for the message
 * \param text the text
 * \return the canonical text
 */
std::string ReadTimeOption(const std::string& parameter, const std::string& text);

/**
 * \ingroup mose-support
 * \brief Whether the user set a module attribute's default: on the command line
 *        ("--ns3::Type::Name=value") or with Config::SetDefault() (IsAttributeDefaultSet()).
 * \param path the attribute's path, "ns3::Type::Name"
 * \return true if it was set
 */
bool IsModuleAttributeSet(const std::string& path);

/**
 * \ingroup mose-support
 * \brief The value of a module attribute the user set, as typed: the text given on the command
 *        line (CheckModuleAttributes() records it), or, for a default set with
 *        Config::SetDefault(), the default as its checker writes it (a time as whole
 *        nanoseconds, "150000000ns", which ParseDuration() reads).
 * \param path the attribute's path, "ns3::Type::Name"
 * \return the text, or empty if the attribute was not set (IsModuleAttributeSet())
 */
std::string GetModuleAttributeText(const std::string& path);

/**
 * \ingroup mose-support
 * \brief Throws a mose::Error if the user set a module attribute that the program sets itself
 *        (its value would be silently replaced).
 * \param path the attribute's path, "ns3::Type::Name"
 * \param reason what sets it instead, for the message
 */
void RejectModuleAttribute(const std::string& path, const std::string& reason);

/**
 * \ingroup mose-support
 * \brief Throws a mose::Error if the user set any attribute of the module's types (group "Mose"):
 *        for programs that create no ns-3 object of the module (the flow-level studies), where
 *        every such attribute would be silently ignored.
 * \param program the program's name, for the message
 */
void RejectModuleAttributes(const std::string& program);

/**
 * \ingroup mose-support
 * \brief Checks ns-3's own --RngRun and --RngSeed options (and the same names in the
 *        NS_GLOBAL_VALUE environment variable) before CommandLine::Parse() sees them
 *        (ParseCommandLine() calls it).
 *
 * ns-3 parses these as global values with operator>>: "--RngRun=abc" ends in NS_FATAL_ERROR
 * (an abort that no caller can catch) and "--RngRun=-1" silently wraps to 2^64 - 1.
 * Registering RngRun as a mose option instead would fix the command line but not
 * NS_GLOBAL_VALUE, and would hide it from ns-3's --PrintGlobals; checking the text first keeps
 * ns-3's handling of both and uses the same strict parser as every mose number: RngRun a
 * decimal integer 0..2^64-1, RngSeed 1..2^32-1 (MRG32k3a needs a nonzero seed). ns-3 accepts
 * "-name=value" and "--name=value"; both are checked. Throws a mose::Error naming the option.
 *
 * \param argc argument count, as main() got it
 * \param argv arguments, as main() got them
 */
void CheckRngArguments(int argc, char* argv[]);

/**
 * \ingroup mose-support
 * \brief Checks the ns-3 global values given on the command line ("--SchedulerType=...", also
 *        "-name=value") and in the NS_GLOBAL_VALUE environment variable, before the Simulator
 *        reads them (ParseCommandLine() calls it).
 *
 * A global value that names a type (SimulatorImplementationType, SchedulerType) is read when
 * the Simulator is first touched: a type that does not exist, or is no simulator
 * implementation or scheduler, ends in a segmentation fault without a message. Such a value
 * must name an existing type, for these two one derived from ns3::SimulatorImpl or
 * ns3::Scheduler that can be created; every other global value (but RngRun and RngSeed, see
 * CheckRngArguments()) is read by its checker's kind as CheckModuleAttribute() reads an
 * attribute. Throws a mose::Error naming the option, the value and the allowed values.
 * \param argc argument count
 * \param argv arguments
 */
void CheckGlobalValues(int argc, char* argv[]);

/**
 * \ingroup mose-support
 * \brief Checks every "--name=" with an empty value against a CommandLine before its Parse()
 *        (ns-3 would reject it with only "Invalid command-line argument", or toggle a bool):
 *        an option registered on \p cmd, an ns-3 global value or an attribute is "the value is
 *        empty (write --name=VALUE; see --PrintHelp)", any other name "there is no option
 *        --name". ParseCommandLine() calls it.
 * \param cmd the command line, with its options added
 * \param argc argument count
 * \param argv arguments
 */
void CheckEmptyValues(const CommandLine& cmd, int argc, char* argv[]);

/**
 * \ingroup mose-support
 * \brief Checks one value of an attribute (the module's or ns-3's), as given on the command
 *        line, before ns-3's CommandLine parses it.
 *
 * ns-3 parses "--ns3::MoseOcs::Delay=abc" with its Time parser, which aborts; a value outside
 * the checker's range ends in the generic "Invalid command-line argument"; "BytesPerUnit=-1"
 * silently wraps; an IPv4 address "abc" becomes 0.0.0.75; an enum name that is not registered
 * is undefined behaviour in a release build. Here the type and the attribute are looked up
 * (unknown names are an error listing what exists), the text is parsed strictly by the
 * attribute's kind (integer, real, boolean, time, data rate, IPv4 address, TypeId, enum) and
 * then checked with the attribute's checker. A zero data rate is rejected (a link at 0 bps
 * divides by zero when it transmits). Throws a mose::Error "invalid --ns3::TYPE::ATTR = "TEXT":
 * what is allowed", with the text as typed.
 * \param name the attribute's path as typed, without dashes ("ns3::MoseOcs::Delay")
 * \param value the text after '='
 */
void CheckModuleAttribute(const std::string& name, const std::string& value);

/**
 * \ingroup mose-support
 * \brief Calls CheckModuleAttribute() for every "--ns3::TYPE::ATTR=value" (or "-ns3::...") in
 *        argv: the module's attributes and ns-3's own (whose parsers abort on a bad value,
 *        "--ns3::TcpSocketBase::MinRto=abc"). ParseCommandLine() calls it.
 * \param argc argument count
 * \param argv arguments
 */
void CheckModuleAttributes(int argc, char* argv[]);

/**
 * \ingroup mose-support
 * \return what a data rate (an option or a DataRate attribute) allows, for a message: above 0
 *         and at most the largest rate ns-3's DataRate reads, a number without an exponent and
 *         a unit; \p example is the example given ("1600Gbps")
 * \param example an example rate
 */
std::string DataRateAllowed(const std::string& example);

/**
 * \ingroup mose-support
 * \brief The message of RunProgram() when memory runs out (std::bad_alloc): the peak resident
 *        memory the process had used, the memory available to it (AvailableMemoryBytes()) and
 *        the options given, which size the run.
 * \param argc argument count
 * \param argv arguments
 * \return "out of memory: an allocation failed after the process had used 3.2 GB (its peak
 *         resident memory) of the 8.0 GB available to it; the run of --nodes=4096 ... is too
 *         large for this machine: reduce the options that size it (--PrintHelp lists them)"
 */
std::string OutOfMemoryMessage(int argc, char* argv[]);

/**
 * \ingroup mose-support
 * \return the memory this process may use, in bytes: the least of the physical memory, the
 *         address-space and data-segment limits (ulimit -v, -d) and the cgroup's memory.max
 */
uint64_t AvailableMemoryBytes();

} // namespace mose
} // namespace ns3

#endif /* MOSE_COMMAND_LINE_H */
