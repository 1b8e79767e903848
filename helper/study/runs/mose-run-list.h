/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_RUN_LIST_H
#define MOSE_RUN_LIST_H

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief Which runs of a study's run list a process carries out: all of them, the runs an
 *        option lists (--runs=0,3-5), or one part of K (--part=I/K: the runs whose index
 *        modulo K is I - 1, so that every part gets runs from the whole list).
 */
class RunSelection
{
  public:
    /// \return a selection of every run
    static RunSelection All();
    /**
     * \brief Reads --runs: indices and ranges A-B separated by commas, each once.
     * \param option the option as the user spells it ("--runs")
     * \param text its value
     * \return the selection (checked against the list's size by Check())
     */
    static RunSelection ParseRuns(const std::string& option, const std::string& text);
    /**
     * \brief Reads --part=I/K with 1 <= I <= K.
     * \param option the option as the user spells it ("--part") \param text its value
     * \return the selection
     */
    static RunSelection ParsePart(const std::string& option, const std::string& text);

    /// \brief Throws a mose::Error naming the option if a listed index is not below `total`
    /// \param total the runs in the list
    void Check(uint32_t total) const;
    /// \param index a run's index \return whether the selection holds it
    bool Holds(uint32_t index) const;
    /// \param total the runs in the list \return the indices it holds, ascending
    std::vector<uint32_t> Indices(uint32_t total) const;
    /// \return whether every run is selected (no --runs, no --part)
    bool IsAll() const;
    /// \return "all runs", "runs 0,3-5" or "part 2/4", as given
    std::string Describe() const;

  private:
    std::string m_option;            //!< the option as given ("" for all)
    std::string m_text;              //!< its value as given
    std::vector<uint32_t> m_indices; //!< --runs: ascending
    uint32_t m_part{0};              //!< --part: I (1-based), 0 for none
    uint32_t m_parts{0};             //!< --part: K
};

/**
 * \ingroup mose-study
 * \brief What one run cost: the record of a run carries it, and a cluster job's limits are set
 *        from a pilot run's (utils/mose-slurm.sh).
 */
struct RunResources
{
    double wallSeconds{0}; //!< wall time of the run
    double cpuSeconds{0};  //!< processor time of the run (its process, or its worker thread)
    /// the peak resident memory of the process that ran it, kB (a worker thread's run: the
    /// whole process's peak, shared by its threads)
    uint64_t maxRssKb{0};
};

/**
 * \ingroup mose-study
 * \brief A finished run as a text file: what made it (the module's build, the study's
 *        options), which run it is, what it cost, and its figures as name=value lines.
 *
 * The file: a first line "mose-run-record 1", then "build=", "options=", "index=", "run=",
 * "wall_s=", "cpu_s=", "max_rss_kb=" and one line per figure. Numbers are written so that they
 * read back as the same double (FormatNumber(): the shortest such text), so that a map merged from
 * records is the map its runs gave in one process.
 */
struct RunRecord
{
    std::string build;      //!< GetModuleBuildId() of the program that ran it
    std::string options;    //!< the study's options (RunRecordStore::GetOptions())
    uint32_t index{0};      //!< the run's index in its list
    std::string run;        //!< what the run is, in words (level, cell, policy, seed)
    RunResources resources; //!< what it cost
    std::map<std::string, std::string> figures; //!< its figures, by name

    /// \return the file's text
    std::string ToText() const;
    /**
     * \brief Reads a record's text; a mose::Error naming the file and line for anything else.
     * \param path the file's path (for messages) \param text its text
     * \return the record
     */
    static RunRecord FromText(const std::string& path, const std::string& text);
    /**
     * \brief Reads a record file (OpenForReading(), FromText()); a mose::Error naming the file
     *        if it cannot be read or is no record.
     * \param path the file \return the record
     */
    static RunRecord ReadFile(const std::string& path);

    /// \param name a figure \param value its value (FormatNumber(): it reads back exactly)
    void Set(const std::string& name, double value);
    /// \param name a figure \param value its value
    void Set(const std::string& name, uint64_t value);
    /// \param name a figure \param value its value
    void Set(const std::string& name, int64_t value);
    /// \param name a figure \return its value; a mose::Error naming the record if missing
    double GetReal(const std::string& name) const;
    /// \param name a figure \return its value; a mose::Error naming the record if missing
    uint64_t GetUnsigned(const std::string& name) const;
    /// \param name a figure \return its value; a mose::Error naming the record if missing
    int64_t GetSigned(const std::string& name) const;

    /// the file the record was read from (for messages; empty when made in memory)
    std::string path;
    /// the texts of the files this process's run wrote (RunRecordStore::WriteRunFile()), by
    /// name: ReadRunFile() takes them from here (a distributed run's ranks other than 0 write
    /// no file); not part of the record's text
    std::map<std::string, std::string> fileTexts;
};

/**
 * \ingroup mose-study
 * \return the module's build: its version and a digest of its sources (model/ and helper/),
 *         computed when it was built ("0.1.0+3f2a91c0d4e5"); records made by another build are
 *         not taken as this build's
 */
std::string GetModuleBuildId();

/**
 * \ingroup mose-study
 * \brief The folder of a study's run records, DIR/runs/run-NNNNNN.txt, one per finished run.
 *
 * A record is written to a temporary name and renamed, so a run killed while writing leaves
 * no record that a merge would take as whole. A record found there that was made with other
 * options or by another build is not this study's: a merge refuses it, naming the file, and a
 * study run into the folder runs that run again and replaces it.
 */
class RunRecordStore
{
  public:
    /// What FindKept() found of a selection: the runs whose records it keeps, and the rest
    struct KeptRuns
    {
        std::vector<std::optional<RunRecord>> records; //!< per run index: its kept record
        std::vector<uint32_t> todo;                    //!< the selected runs to carry out
        std::size_t selected{0};                       //!< the selected runs
        uint32_t stale{0};      //!< records of another study (or run) that do not count
        std::string firstStale; //!< why the first of them does not count
    };

    /**
     * \param dir the study's output folder (records go to dir/runs)
     * \param options the study's options, as text: what every record must carry
     */
    RunRecordStore(const std::string& dir, const std::string& options);

    /// \return the folder of the records (dir/runs)
    std::string GetFolder() const;
    /// \return the study's options as records carry them
    const std::string& GetOptions() const;
    /// \param index a run's index \return its record's path
    std::string GetPath(uint32_t index) const;
    /**
     * \param index a run's index
     * \param stale if given, a record of another study or build is no error: the call returns
     *        none and says here why the record does not count (its run must run again)
     * \return its record if the folder has one made with these options by this build;
     *         mose::Error naming the file for a record of another study or build (unless
     *         `stale` is given), or one that does not read
     */
    std::optional<RunRecord> Find(uint32_t index, std::string* stale = nullptr) const;
    /**
     * \brief The records a resumed study keeps: for each selected run, its record (Find()) if
     *        resuming and the record counts, else the run is to be carried out.
     * \param selected the runs of this share \param total the runs of the list
     * \param resume whether finished runs are kept (--resume)
     * \param whyNot if given, why a found record does not count for its run ("" if it does)
     * \return the kept records and the runs to carry out
     */
    KeptRuns FindKept(
        const std::vector<uint32_t>& selected,
        uint32_t total,
        bool resume,
        const std::function<std::string(uint32_t, const RunRecord&)>& whyNot = nullptr) const;
    /**
     * \brief Prints how many records of another study are replaced, and how many runs are kept
     * \param os the stream \param kept what FindKept() found
     */
    void PrintKept(std::ostream& os, const KeptRuns& kept) const;
    /// \brief Writes a record (build and options set here), atomically \param record it
    void Write(RunRecord record) const;

    /**
     * \param index a run's index \param name one of its files ("requests.csv")
     * \return the file's path: dir/runs/run-NNNNNN.NAME, next to the record
     */
    std::string GetFilePath(uint32_t index, const std::string& name) const;
    /**
     * \brief Writes a file of a run's output next to its record (atomically), and lists it in
     *        the record as the figure "file.NAME" with the file's SHA-256: the record, written
     *        after its files, says which files its run wrote and what they hold.
     * \param record the run's record (its index set) \param name the file's name, letters,
     *        digits, '.', '_' and '-' only \param text its text
     */
    void WriteRunFile(RunRecord& record, const std::string& name, const std::string& text) const;
    /**
     * \brief Reads a file a record lists (WriteRunFile()), from the folder the record was read
     *        from (its path).
     * \param record a record Find() returned \param name the file's name
     * \return its text; a mose::Error naming the file if the record does not list it, or the
     *         file is missing or not the one the run wrote (its SHA-256 differs)
     */
    static std::string ReadRunFile(const RunRecord& record, const std::string& name);
    /**
     * \brief A run that writes its output files into a folder of its own (the program's
     *        writers take a folder): every file of `folder` becomes a file of the run, "out.NAME"
     *        (WriteRunFile()), in name order, and the folder is removed. Nothing on an MPI
     *        rank that writes no file (mose::IsWritingFiles()): the folder is rank 0's.
     * \param record the run's record (its index set) \param folder the run's folder
     *        (GetScratchFolder())
     */
    void KeepRunFolder(RunRecord& record, const std::string& folder) const;
    /// \param index a run \return an empty folder for its output files (KeepRunFolder());
    ///        on an MPI rank that writes no file, its name only: the folder is rank 0's, and
    ///        another rank must neither empty it nor remove it while rank 0 writes into it
    std::string GetScratchFolder(uint32_t index) const;
    /**
     * \brief Writes the output files a record lists (KeepRunFolder()) into a folder, under
     *        their own names; each read and checked (ReadRunFile()).
     * \param record a record Find() returned \param dir the folder
     * \return the names written, in name order
     */
    static std::vector<std::string> CopyRunFolder(const RunRecord& record, const std::string& dir);

  private:
    std::string m_dir;     //!< the study's output folder
    std::string m_options; //!< the study's options
};

/**
 * \ingroup mose-study
 * \param data any bytes
 * \return their SHA-256 (FIPS 180-4) as 64 lowercase hex digits: what a run record carries of
 *         each file its run wrote (RunRecordStore::WriteRunFile())
 */
std::string Sha256Hex(const std::string& data);

/**
 * \ingroup mose-study
 * \brief The options of a program's command line that decide its figures, as one line: every
 *        argument but the program's name and those named in `ignored` (how the runs are carried
 *        out and where they are written: --jobs, --part, --outputDir, ...), each quoted, in the
 *        order given.
 * \param argc as main()'s \param argv as main()'s
 * \param ignored options whose value is not part of the figures ("--jobs")
 * \return the line
 */
std::string StudyOptionsText(int argc, char** argv, const std::vector<std::string>& ignored);

} // namespace mose
} // namespace ns3

#endif /* MOSE_RUN_LIST_H */
