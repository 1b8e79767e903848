/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PROGRAM_H
#define MOSE_PROGRAM_H

#include "mose-flow-experiment-helper.h"

#include "ns3/command-line.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose
 * \brief Checks ns-3's own --RngRun and --RngSeed options (and the same names in the
 *        NS_GLOBAL_VALUE environment variable) before CommandLine::Parse() sees them.
 *
 * ns-3 parses these as global values with operator>>: "--RngRun=abc" ends in NS_FATAL_ERROR
 * (an abort that no caller can catch) and "--RngRun=-1" silently wraps to 2^64 - 1. They
 * abort cannot be intercepted. Registering RngRun as a mose option instead would fix the
 * command line but not NS_GLOBAL_VALUE, and would hide it from ns-3's --PrintGlobals; checking
 * the text first keeps ns-3's handling of both and uses the same strict parser as every mose
 * number: RngRun a decimal integer 0..2^64-1, RngSeed
 * 1..2^32-1 (MRG32k3a needs a nonzero seed). ns-3 accepts "-name=value" and "--name=value";
 * both are checked. Throws a mose::Error naming the option.
 *
 * \param argc argument count, as main() got it
 * \param argv arguments, as main() got them
 */
void CheckRngArguments(int argc, char* argv[]);

/**
 * \ingroup mose
 * \brief Checks the ns-3 global values given on the command line ("--SchedulerType=...", also
 *        "-name=value") and in the NS_GLOBAL_VALUE environment variable, before the Simulator
 *        reads them.
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
 * \ingroup mose
 * \brief Checks what ns-3's CommandLine would reject with only "Invalid command-line argument"
 *        (or, for a bool, silently toggle): an empty value ("--RngRun=") of an ns-3 global
 *        value or attribute, and a value of a boolean option that ParseBool() does not accept
 *        ("--plot=maybe"). An empty value of any other name is left to CheckEmptyValues(),
 *        which knows the program's options.
 * \param argc argument count
 * \param argv arguments
 * \param boolOptions the program's boolean options, without dashes
 */
void CheckArguments(int argc, char* argv[], const std::vector<std::string>& boolOptions);

/**
 * \ingroup mose
 * \brief Checks every "--name=" with an empty value against a program's CommandLine before
 *        its Parse(): an option of the program (or an ns-3 global value or attribute) is "the
 *        value is empty (write --name=VALUE; see --PrintHelp)", any other name "there is no
 *        option --name". Program::Parse() calls it.
 * \param cmd the program's command line, with its options added
 * \param argc argument count
 * \param argv arguments
 */
void CheckEmptyValues(const CommandLine& cmd, int argc, char* argv[]);

/**
 * \ingroup mose
 * \return what a data rate (an option or a DataRate attribute) allows, for a message: above 0
 *         and at most the largest rate ns-3's DataRate reads, a number without an exponent and
 *         a unit; \p example is the example given ("1600Gbps")
 * \param example an example rate
 */
std::string DataRateAllowed(const std::string& example);

/**
 * \ingroup mose
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
 * \ingroup mose
 * \brief Whether the user set a module attribute's default: on the command line
 *        ("--ns3::Type::Name=value") or with Config::SetDefault() (IsAttributeDefaultSet()).
 * \param path the attribute's path, "ns3::Type::Name"
 * \return true if it was set
 */
bool IsModuleAttributeSet(const std::string& path);

/**
 * \ingroup mose
 * \brief The value of a module attribute the user set, as typed: the text given on the command
 *        line (CheckModuleAttributes() records it), or, for a default set with
 *        Config::SetDefault(), the default as its checker writes it (a time as whole
 *        nanoseconds, "150000000ns", which ParseDuration() reads).
 * \param path the attribute's path, "ns3::Type::Name"
 * \return the text, or empty if the attribute was not set (IsModuleAttributeSet())
 */
std::string GetModuleAttributeText(const std::string& path);

/**
 * \ingroup mose
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
 * \ingroup mose
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
 * \ingroup mose
 * \brief Throws a mose::Error if the user set a module attribute that the program sets itself
 *        (its value would be silently replaced).
 * \param path the attribute's path, "ns3::Type::Name"
 * \param reason what sets it instead, for the message
 */
void RejectModuleAttribute(const std::string& path, const std::string& reason);

/**
 * \ingroup mose
 * \brief Throws a mose::Error if the user set any attribute of the module's types (group "Mose"):
 *        for programs that create no ns-3 object of the module (the flow-level studies), where
 *        every such attribute would be silently ignored.
 * \param program the program's name, for the message
 */
void RejectModuleAttributes(const std::string& program);

/**
 * \ingroup mose
 * \brief Calls CheckModuleAttribute() for every "--ns3::TYPE::ATTR=value" (or "-ns3::...") in
 *        argv: the module's attributes and ns-3's own (whose parsers abort on a bad value,
 *        "--ns3::TcpSocketBase::MinRto=abc").
 * \param argc argument count
 * \param argv arguments
 */
void CheckModuleAttributes(int argc, char* argv[]);

/**
 * \ingroup mose
 * \brief Creates a program's output folder and writes and removes a probe file in it, so that
 *        an output that cannot be written fails before the run, not after it.
 * \param option the option that names the folder, for the message ("--outputDir")
 * \param folder the folder
 */
void CheckOutputFolder(const std::string& option, const std::string& folder);

/**
 * \ingroup mose
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
 * \ingroup mose
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
 * \ingroup mose
 * \brief A AttributeOption::read for time options: the time ParseTimeOption() reads, as
 *        canonical text (whole nanoseconds, "150000000ns"), so "150ms" and "0.15" agree.
 * \param parameter the option or attribute, for the message
 * \param text the text
 * \return the canonical text
 */
std::string ReadTimeOption(const std::string& parameter, const std::string& text);

/**
 * \ingroup mose
 * \brief Runs a program's body and turns every exception into a message and exit status 1.
 *
 * First calls CheckRngArguments(), CheckGlobalValues(), CheckArguments() and
 * CheckModuleAttributes(). An Error prints
 * "<program>: error: <message>"; an std::bad_alloc says that memory ran out, how much the process
 * had used and which options size the run (OutOfMemoryMessage()); any other std::exception is
 * reported with its what(). Standard output is flushed and checked, so a full disk or a closed pipe
 * is an error, not a silent truncation.
 *
 * \param program the program's name for messages (e.g. "mose-paper")
 * \param argc argument count
 * \param argv arguments
 * \param boolOptions the program's boolean options, without dashes (see CheckArguments())
 * \param body the program: parses its CommandLine and does the work
 * \return the exit status: 0 on success, 1 on any error
 */
int RunProgram(const std::string& program,
               int argc,
               char* argv[],
               const std::vector<std::string>& boolOptions,
               const std::function<void()>& body);

/**
 * \ingroup mose
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
 * \ingroup mose
 * \return the memory this process may use, in bytes: the least of the physical memory, the
 *         address-space and data-segment limits (ulimit -v, -d) and the cgroup's memory.max
 */
uint64_t AvailableMemoryBytes();

/**
 * \ingroup mose
 * \brief Throws a mose::Error before any allocation if a run cannot fit in memory.
 * \param what the options that size the run, as the user typed them (e.g. "--flows=1e11")
 * \param bytes a lower bound of the memory the run needs
 */
void CheckMemory(const std::string& what, uint64_t bytes);

/**
 * \ingroup mose
 * \brief Rejects a study (mose-paper, mose-templates) that cannot fit in memory.
 *
 * A lower bound of one seed's memory: the flows of both modes (2 F sizeof(Flow)), the three
 * templates' circuit lists and adjacency (3 N d / 2 circuits, each stored three times as
 * 8 bytes), and the routing tables of one destination batch (64 bytes per group). Each worker
 * thread holds one seed. A run above the bound fails early with a message naming --nodes,
 * --degree, --flows and --threads; one under it can still run out, which RunProgram()
 * reports.
 *
 * \param config the study's configuration
 * \param workers the number of seeds held at once
 */
void CheckStudyMemory(const FlowExperimentConfig& config, uint32_t workers);

/**
 * \ingroup mose
 * \brief The scaffold of a mose program: what every example does around its study, so that an
 *        example parses its options, calls the library and reports.
 *
 * It runs the body through RunProgram() (every error a message and exit status 1), offers
 * the options --outputDir, --plot and --progress, rejects the module's attributes in a program
 * that creates no ns-3 object of the module (FLOW_LEVEL), checks that a study fits in memory on
 * its worker threads and that the output folder can be written before the run, keeps the wall
 * clock, shows progress on standard error, and writes, renders and reports gnuplot scripts
 * (rendering is the explicit step StudyReport::RenderPlots(): a figure is a .plt script
 * first, a PNG only where gnuplot is installed).
 *
 * \code
 *   Program program("mose-paper", "results/mose-paper", Program::FLOW_LEVEL);
 *   return program.Run(argc, argv, {"biregular"}, [&]() {
 *       ScenarioOptions options;
 *       CommandLine cmd(__FILE__);
 *       options.AddOptions(cmd);
 *       program.AddOutputOptions(cmd, "folder for CSV files and figures", "write ...", "show ...");
 *       program.Parse(cmd, argc, argv);
 *       FlowExperimentConfig config = options.GetConfig();
 *       program.CheckStudy(config);
 *       FlowExperimentHelper helper(config);
 *       helper.Run(program.SeedProgress());
 *       ...
 *   });
 * \endcode
 */
class Program
{
  public:
    /// What a program is and offers: flags for the constructor, combined with |
    enum Flags : uint32_t
    {
        PACKET_LEVEL = 0, //!< creates the module's ns-3 objects: its attributes apply
        FLOW_LEVEL = 1,   //!< creates none: Parse() rejects every attribute of the module
        PLOT = 2,         //!< offers --plot (true by default)
        PROGRESS = 4,     //!< offers --progress (true by default)
        /// offers --distributed (false by default): the run on ns-3's distributed simulator,
        /// under mpirun, with rank 0 printing and writing the merged outputs (MoseDistributed)
        DISTRIBUTED = 8,
    };

    /**
     * \param name the program's name, for messages and progress ("mose-paper")
     * \param outputDir the default of --outputDir (empty: no output folder unless given)
     * \param flags Flags: FLOW_LEVEL or PACKET_LEVEL, and PLOT, PROGRESS
     */
    Program(std::string name, std::string outputDir, uint32_t flags);

    /**
     * \brief Runs the program's body with RunProgram(), which checks the arguments first:
     *        "plot" and "progress" (when offered) are boolean options besides those given.
     * \param argc argument count
     * \param argv arguments
     * \param boolOptions the program's other boolean options, without dashes
     * \param body the program
     * \return the exit status
     */
    int Run(int argc,
            char* argv[],
            std::vector<std::string> boolOptions,
            const std::function<void()>& body) const;

    /**
     * \brief Offers --outputDir (a text option: the whole text after '='), and --plot and
     *        --progress if the flags say so.
     * \param cmd the command line
     * \param outputDirHelp the help of --outputDir
     * \param plotHelp the help of --plot (with PLOT)
     * \param progressHelp the help of --progress (with PROGRESS)
     */
    void AddOutputOptions(CommandLine& cmd,
                          const std::string& outputDirHelp,
                          const std::string& plotHelp = "",
                          const std::string& progressHelp = "");

    /**
     * \brief Parses the command line; a FLOW_LEVEL program then rejects every attribute of the
     *        module the user set (RejectModuleAttributes()).
     * \param cmd the command line
     * \param argc argument count
     * \param argv arguments
     */
    void Parse(CommandLine& cmd, int argc, char* argv[]) const;

    /**
     * \param config a study's configuration
     * \return its worker threads: --threads, or the hardware's threads for 0 (at least 1)
     */
    static uint32_t GetThreads(const FlowExperimentConfig& config);

    /**
     * \param config a study's configuration
     * \return the seeds the study holds at once: its --threads (0: the hardware's threads), at
     *         most its seeds, at least 1
     */
    static uint32_t GetStudyWorkers(const FlowExperimentConfig& config);

    /**
     * \brief Before a study runs: CheckStudyMemory() for its workers, then CheckOutput().
     * \param config the study's configuration (the largest one a program evaluates)
     * \param workers the seeds held at once (GetStudyWorkers() if 0)
     */
    void CheckStudy(const FlowExperimentConfig& config, uint32_t workers = 0);

    /**
     * \brief Creates and probes the output folder (CheckOutputFolder(), if --outputDir is not
     *        empty) and starts the clock of GetElapsed().
     */
    void CheckOutput();

    /// \return the seconds since CheckOutput() (or since construction)
    double GetElapsed() const;

    /// \return the output folder, --outputDir
    const std::string& GetOutputDir() const;

    /// \return whether --plot is set
    bool IsPlotting() const;

    /// \return whether --distributed is set (MPI enabled by Parse())
    bool IsDistributed() const;

    /**
     * \brief With --distributed, more than one simulation is a mose::Error before any runs
     *        (MoseDistributed::BeginSimulation() says why): "--distributed runs one simulation
     *        per process (...); <what>: give <instead>".
     * \param several whether the options ask for more than one simulation
     * \param what what asks for them ("--policies = MoSE,S-Comp runs 2 policies")
     * \param instead what to give instead ("one policy, --policies=MoSE")
     */
    void CheckOneSimulation(bool several,
                            const std::string& what,
                            const std::string& instead) const;

    /// \return whether --progress is set
    bool IsShowingProgress() const;

    /**
     * \brief Shows one progress line on standard error, "\r[NAME] TEXT", if --progress is set.
     * \param text the line
     * \param last whether it is the last one (it ends the line)
     */
    void ShowProgress(const std::string& text, bool last) const;

    /// \return a progress callback of a seeded study: "seed DONE/TOTAL done, T s"
    std::function<void(uint32_t, uint32_t)> SeedProgress() const;

    /**
     * \brief If --plot is set: writes a report's gnuplot scripts into the output folder, renders
     *        them (StudyReport::RenderPlots()) and prints "K gnuplot scripts written, R
     *        rendered to PNG in DIR/".
     * \param write writes the scripts into a folder and returns their files (a report's
     *        WritePlots())
     * \param noun what is written, as the line names it ("gnuplot scripts")
     * \param os the stream of the line
     */
    void WritePlots(const std::function<std::vector<std::string>(const std::string&)>& write,
                    const std::string& noun,
                    std::ostream& os) const;

    /**
     * \brief If --plot is set: writes one gnuplot script DIR/BASE.plt, renders it and prints
     *        "wrote FILE" and, if rendered, " and RENDERED".
     * \param base the script's name without ".plt"
     * \param generate writes the script (Gnuplot::GenerateOutput())
     * \param rendered what rendering made, for the line ("goodput_MoSE.png")
     * \param os the stream of the line
     */
    void WritePlot(const std::string& base,
                   const std::function<void(std::ostream&)>& generate,
                   const std::string& rendered,
                   std::ostream& os) const;

  private:
    std::string m_name;                            //!< the program's name
    std::string m_outputDir;                       //!< --outputDir
    uint32_t m_flags;                              //!< Flags
    bool m_plot{true};                             //!< --plot
    bool m_progress{true};                         //!< --progress
    bool m_distributed{false};                     //!< --distributed
    std::chrono::steady_clock::time_point m_start; //!< the clock's start
};

/// The largest number of groups: node ids are 32-bit and one value is kept for "none"
constexpr uint32_t MAX_GROUPS = UINT32_MAX - 1;

} // namespace mose
} // namespace ns3

#endif /* MOSE_PROGRAM_H */
