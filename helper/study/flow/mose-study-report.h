/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_STUDY_REPORT_H
#define MOSE_STUDY_REPORT_H

#include "mose-flow-experiment-helper.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief What RunGnuplot() did.
 */
enum class GnuplotResult : uint8_t
{
    RENDERED,      //!< gnuplot ran and exited with status 0
    NOT_INSTALLED, //!< no executable gnuplot on the PATH
    FAILED,        //!< gnuplot could not start in the folder, or exited with another status
};

/**
 * \ingroup mose-study
 * \brief Runs "gnuplot SCRIPT" with the folder as its working directory, without a shell: the
 *        executable is found on the PATH, the child process changes into the folder and
 *        executes it with the script's name as its only argument (fork and execv), its standard
 *        output and error go to /dev/null, and the call waits for it. Neither the folder's nor
 *        the script's name is ever parsed by a shell, whatever characters they hold.
 * \param dir the folder (the script's relative "set output" names resolve there)
 * \param script the script's file name inside the folder
 * \return what happened
 */
GnuplotResult RunGnuplot(const std::string& dir, const std::string& script);

/**
 * \ingroup mose-study
 * \brief Makes a text from the command line (a title, a label, a file name) safe inside a
 *        double-quoted gnuplot string, the form ns-3's Gnuplot writes.
 *
 * gnuplot reads a backslash escape in a double-quoted string and substitutes a command in
 * backquotes anywhere but inside single quotes, so a quote could end the string and run what
 * follows (system("...")). Each backslash becomes \\, each double quote \", each backquote
 * its octal escape \140 and each @ (a macro) \100: the figure shows the text as typed. A line
 * break or another control character is refused (gnuplot ends a command at a line break).
 *
 * \param option the option that gave the text, as typed ("--title"), for the message
 * \param text the text
 * \return the text to put between double quotes
 */
std::string EscapeGnuplotText(const std::string& option, const std::string& text);

/**
 * \ingroup mose-study
 * \brief The report of a flow-level study run by FlowExperimentHelper: tables, CSV files
 *        and the gnuplot scripts of Figure 5 (ns-3's Gnuplot classes).
 */
class StudyReport
{
  public:
    /// \param study the study, after Run(); must outlive this object
    explicit StudyReport(const FlowExperimentHelper& study);

    /**
     * \brief Prints Table I (means with 95% CI) and the cost table (Table II).
     * \param os the stream
     */
    void PrintTables(std::ostream& os) const;

    /**
     * \brief Writes summary.csv (mode, policy, metric, mean, ci95, n), per_seed.csv,
     *        switches.csv (circuits kept, added, removed per switch into a mode, per seed),
     *        loads_<mode>_<policy>.csv (seed 0, per circuit) and hops_<mode>.csv (hop
     *        histograms per policy, seed 0) into a folder (created if missing).
     * \param dir the folder
     */
    void WriteCsv(const std::string& dir) const;

    /**
     * \return the files WriteCsv() writes, from the policies and modes (not from a result), so
     *         that a program declares them before its study runs (Program::AddOutputFiles())
     */
    static std::vector<std::string> GetCsvFileNames();

    /**
     * \return the scripts WritePlots() writes (fig5_*.plt, hops_<mode>.plt), for
     *         Program::AddPlotFiles()
     */
    static std::vector<std::string> GetPlotFileNames();

    /**
     * \brief Writes Figure 5's panels as gnuplot scripts with inline data (fig5_*.plt, PNG
     *        terminal) and the hop-count distributions (hops_<mode>.plt) into a folder.
     * \param dir the folder
     * \return the .plt files written
     */
    std::vector<std::string> WritePlots(const std::string& dir) const;

    /**
     * \brief Runs gnuplot on scripts written by WritePlots(), inside their folder (RunGnuplot():
     *        no shell, so no folder or file name is interpreted).
     * \param dir the folder
     * \param scripts the .plt files (paths whose last component is the script's name in dir)
     * \return the number rendered; 0 if gnuplot is not installed (a message on standard error
     *         says so). A script gnuplot fails on (an exit status other than 0), or one whose
     *         "set output" file is missing or empty afterwards, is a mose::Error naming the
     *         scripts, after every script was tried: a figure that did not render is no
     *         success.
     */
    static uint32_t RenderPlots(const std::string& dir, const std::vector<std::string>& scripts);

    /**
     * \brief Writes a text file of the report with 10 significant digits (WriteTextFile():
     *        any failure is reported).
     * \param path the file
     * \param put writes the contents
     */
    static void WriteOutput(const std::string& path, const std::function<void(std::ostream&)>& put);

  private:
    /**
     * \brief Writes the KV hop-count distributions of the first seed, hops_<mode>.plt, one per
     *        mode (none before Run()).
     * \param dir the folder (created)
     * \param written the paths written, appended to
     */
    void WriteHopPlots(const std::string& dir, std::vector<std::string>& written) const;

    const FlowExperimentHelper& m_study; //!< the study
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_STUDY_REPORT_H */
