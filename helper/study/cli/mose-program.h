/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PROGRAM_H
#define MOSE_PROGRAM_H

#include "mose-flow-experiment-helper.h"
#include "mose-seed-pool.h"

#include "ns3/command-line.h"
#include "ns3/mose-command-line.h"
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
 * \ingroup mose-study
 * \brief Creates a program's output folder and writes and removes a probe file in it, so that
 *        an output that cannot be written fails before the run, not after it.
 * \param option the option that names the folder, for the message ("--outputDir")
 * \param folder the folder
 */
void CheckOutputFolder(const std::string& option, const std::string& folder);

/**
 * \ingroup mose-study
 * \brief A file a program reads or writes, with the option that names it as the user typed it.
 */
struct FileOption
{
    std::string option; //!< the option as typed: "--trace", or "--outputDir (requests.csv)"
    std::string path;   //!< the path as given (or as the program makes it from a folder)
};

/**
 * \ingroup mose-study
 * \brief Refuses, before any work, an output that would replace one of the program's input
 *        files or another of its outputs.
 *
 * Paths are compared after resolving links and "..", with std::filesystem::weakly_canonical()
 * (a path that does not exist yet is resolved as far as it exists), so a symbolic link to an
 * input, or the input reached through another folder, counts as the input. The message names
 * both options as typed, both paths and the file they resolve to.
 *
 * \param inputs the files the program reads
 * \param outputs the files it writes
 */
void CheckOutputsAreNotInputs(const std::vector<FileOption>& inputs,
                              const std::vector<FileOption>& outputs);

/**
 * \ingroup mose-study
 * \brief Throws a mose::Error before any allocation if a run cannot fit in memory.
 * \param what the options that size the run, as the user typed them (e.g. "--flows=1e11")
 * \param bytes a lower bound of the memory the run needs
 */
void CheckMemory(const std::string& what, uint64_t bytes);

/**
 * \ingroup mose-study
 * \brief Refuses a count that sizes memory (seeds, cycles, requests) above what this process
 *        can hold, before anything is allocated: count x bytesEach against the memory available
 *        to it (AvailableMemoryBytes()). The limit comes from the machine, not from a constant.
 *        Throws Error("SUBJECT: N NOUN keep at least B (E each: WHAT); at most L NOUN fit in
 *        the M available to this process").
 * \param subject what gives the count, as the message starts ("invalid --seeds = \"4\"")
 * \param count the count (a double: a product of options may pass 2^64)
 * \param counted the count as the message writes it (empty: a count below 10^18 whole and
 *        rounded up, a larger one as FormatNumber() writes it)
 * \param bytesEach a lower bound of the bytes one of them keeps (above 0)
 * \param noun what is counted ("seeds")
 * \param what what each one keeps, for the message ("the figures of 2 modes x 4 policies")
 * \param available the memory available (AvailableMemoryBytes(); a test gives its own)
 */
void CheckCountFitsMemory(const std::string& subject,
                          double count,
                          const std::string& counted,
                          uint64_t bytesEach,
                          const std::string& noun,
                          const std::string& what,
                          uint64_t available = AvailableMemoryBytes());

/**
 * \ingroup mose-study
 * \brief CheckCountFitsMemory() of a count given by one option: "invalid --seeds =
 *        "4000000000": 4000000000 seeds keep at least 12.0 TB (3.0 kB each: WHAT); at most
 *        7816666 seeds fit in the 23.4 GB available to this process".
 * \param option the option as typed ("--seeds")
 * \param value its text as given (QuoteText())
 * \param count the count
 * \param bytesEach a lower bound of the bytes one of them keeps (above 0)
 * \param noun what is counted ("seeds")
 * \param what what each one keeps, for the message
 * \param available the memory available (AvailableMemoryBytes(); a test gives its own)
 */
void CheckCountMemory(const std::string& option,
                      const std::string& value,
                      uint64_t count,
                      uint64_t bytesEach,
                      const std::string& noun,
                      const std::string& what,
                      uint64_t available = AvailableMemoryBytes());

/**
 * \ingroup mose-study
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
 * \ingroup mose-study
 * \brief The scaffold of a mose program: what every example does around its study, so that an
 *        example parses its options, calls the library and reports.
 *
 * It owns the program's ns-3 CommandLine (GetCommandLine(): the options classes register
 * their options on it), runs the body through RunProgram() (every error a message and exit
 * status 1), parses with ParseCommandLine() (the checks read the registered options: no option
 * name is listed twice), offers the options --outputDir, --plot, --progress and --distributed,
 * rejects the module's attributes in a program that creates no ns-3 object of the module
 * (FLOW_LEVEL), checks that a study fits in memory on its worker threads and that the output
 * folder can be written before the run, keeps the wall clock, shows progress on standard
 * error, and writes, renders and reports gnuplot scripts (rendering is the explicit step
 * StudyReport::RenderPlots(): a figure is a .plt script first, a PNG only where gnuplot is
 * installed).
 *
 * \code
 *   Program program("mose-paper", "results/mose-paper", Program::FLOW_LEVEL);
 *   return program.Run(argc, argv, [&]() {
 *       ScenarioOptions options;
 *       RunOptions runs;
 *       options.AddOptions(program.GetCommandLine());
 *       program.AddOutputOptions("folder for CSV files and figures", "write ...", "show ...");
 *       runs.AddOptionsForSeeds(program.GetCommandLine());
 *       program.Parse(argc, argv);
 *       FlowExperimentConfig config = options.GetConfig();
 *       SeedPlan plan = options.GetSeedPlan();
 *       auto how = runs.ReadForSeeds("mose-paper", options, config, plan, program, argc, argv);
 *       FlowExperimentHelper helper(config, plan);
 *       if (how && helper.Run(*how, "mose-paper", std::cout)) { ... }
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
        /// offers --progress, false by default (a simulation's progress lines, which would
        /// interleave with its report)
        PROGRESS_OFF = 16,
    };

    /**
     * \param name the program's name, for messages, progress and --PrintHelp ("mose-paper")
     * \param outputDir the default of --outputDir (empty: no output folder unless given)
     * \param flags Flags: FLOW_LEVEL or PACKET_LEVEL, and PLOT, PROGRESS or PROGRESS_OFF,
     *        DISTRIBUTED
     */
    Program(std::string name, std::string outputDir, uint32_t flags);
    /// Gives up the protection of its inputs that CheckOutput() set (SetProtectedInputs()):
    /// it lasts as long as the program, not for the rest of the process
    ~Program();
    Program(const Program&) = delete;            //!< one program owns the protection
    Program& operator=(const Program&) = delete; //!< one program owns the protection

    /// \return the program's command line, to add its options to before Parse()
    CommandLine& GetCommandLine();

    /**
     * \brief Runs the program's body with RunProgram(); after it, ends a distributed run (on an
     *        error, on every rank) and gives standard output back.
     * \param argc argument count
     * \param argv arguments
     * \param body the program: adds its options, calls Parse() and does the work
     * \return the exit status
     */
    int Run(int argc, char* argv[], const std::function<void()>& body) const;

    /**
     * \brief Adds --outputDir (a text option: the whole text after '='), and --plot, --progress
     *        and --distributed if the flags say so, to the command line.
     * \param outputDirHelp the help of --outputDir
     * \param plotHelp the help of --plot (with PLOT)
     * \param progressHelp the help of --progress (with PROGRESS or PROGRESS_OFF)
     */
    void AddOutputOptions(const std::string& outputDirHelp,
                          const std::string& plotHelp = "",
                          const std::string& progressHelp = "");

    /**
     * \brief Parses the command line with ParseCommandLine(); a FLOW_LEVEL program then rejects
     *        every attribute of the module the user set (RejectModuleAttributes()); with
     *        --distributed, enables MPI (only rank 0 then prints and writes).
     * \param argc argument count
     * \param argv arguments
     */
    void Parse(int argc, char* argv[]);

    /**
     * \param plan a study's seeds and threads
     * \return its worker threads: --threads, or the hardware's threads for 0 (at least 1)
     */
    static uint32_t GetThreads(const SeedPlan& plan);

    /**
     * \param plan a study's seeds and threads
     * \return the seeds the study holds at once: its --threads (0: the hardware's threads), at
     *         most its seeds, at least 1
     */
    static uint32_t GetStudyWorkers(const SeedPlan& plan);

    /**
     * \brief Before a study runs: CheckStudyMemory() for its workers (GetStudyWorkers()), then
     *        CheckOutput().
     * \param config the study's scenario (the largest one a program evaluates)
     * \param plan its seeds and threads
     */
    void CheckStudy(const FlowExperimentConfig& config, const SeedPlan& plan);

    /**
     * \brief Before a study runs: CheckStudyMemory() for the seeds it holds at once, then
     *        CheckOutput().
     * \param config the study's scenario (the largest one a program evaluates)
     * \param workers the seeds held at once
     */
    void CheckStudy(const FlowExperimentConfig& config, uint32_t workers);

    /**
     * \brief Declares a file the program reads, for CheckOutput().
     * \param option the option that names it, as typed ("--trace")
     * \param path the file
     */
    void AddInput(const std::string& option, const std::string& path);

    /**
     * \brief Declares the files a scenario reads (--inferenceRolesFile, --trainingRolesFile,
     *        the assignment and flows files; those not given are left out), for CheckOutput().
     *        CheckStudy() declares them itself.
     * \param config the scenario
     */
    void AddScenarioInputs(const FlowExperimentConfig& config);

    /**
     * \brief Declares a file the program writes, for CheckOutput().
     * \param option the option that names it, as typed ("--kvExport")
     * \param path the file
     */
    void AddOutput(const std::string& option, const std::string& path);

    /**
     * \brief Declares files the program writes into its output folder, for CheckOutput(); each
     *        is named "--outputDir (NAME)" in messages. Nothing is declared without --outputDir.
     * \param names the files' names (or paths) inside the output folder ("requests.csv")
     */
    void AddOutputFiles(const std::vector<std::string>& names);

    /**
     * \brief Declares the gnuplot scripts the program writes into its output folder with
     *        WritePlots() or WritePlot(), and the PNG each renders to (NAME.plt renders to
     *        NAME.png: gnuplot writes it, past WriteTextFile()'s protection), for CheckOutput();
     *        as AddOutputFiles(). Nothing is declared with --plot=false or without PLOT.
     * \param scripts the scripts' names inside the output folder ("fig5_kv_max_load.plt")
     */
    void AddPlotFiles(const std::vector<std::string>& scripts);

    /**
     * \brief Refuses an output that replaces an input or another output
     *        (CheckOutputsAreNotInputs() on the files declared with AddInput(), AddOutput() and
     *        AddOutputFiles()) and protects the inputs from every later write
     *        (SetProtectedInputs(): an output declared nowhere), creates and probes the output
     * folder (CheckOutputFolder(), if
     *        --outputDir is not empty) and starts the clock of GetElapsed().
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
    std::string m_name;           //!< the program's name
    CommandLine m_cmd;            //!< the program's options
    std::string m_outputDir;      //!< --outputDir
    bool m_protectsInputs{false}; //!< CheckOutput() set SetProtectedInputs() from m_inputs
    uint32_t m_flags;             //!< Flags
    bool m_plot{true};            //!< --plot
    bool m_progress{true};        //!< --progress
    bool m_distributed{false};    //!< --distributed
    std::chrono::steady_clock::time_point m_start; //!< the clock's start
    std::vector<FileOption> m_inputs;              //!< the files read (AddInput())
    std::vector<FileOption> m_outputs;             //!< the files written (AddOutput())
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_PROGRAM_H */
