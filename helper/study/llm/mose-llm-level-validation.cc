/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-level-validation.h"

#include "mose-csv-table.h"
#include "mose-level.h"

#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <tuple>

namespace ns3
{
namespace mose
{

namespace
{

/// \return a run's figures in Figure order
std::array<double, 4>
Figures(const LlmSummary& s)
{
    return {s.inference.kv.mean,
            s.inference.ttft.mean,
            s.inference.ttft.p99,
            s.training.iteration.mean};
}

/**
 * \brief Narrows the tie bands a map's cell allows: its ci_verdict must follow from its 95%
 *        interval [low, high] with the band the map was run with (DecideMargin()).
 * \param map the map
 * \param verdict the ci_verdict
 * \param low the interval's lower end
 * \param high its upper end
 * \param line the cell's line
 */
void
NarrowBand(RegimeMapFile& map, std::string_view verdict, double low, double high, uint64_t line)
{
    // pays: high < -band; does-not-pay: low > band; tie: -band <= low and high <= band
    if (verdict == "tie" && std::max(-low, high) > map.bandLow)
    {
        map.bandLow = std::max(-low, high);
        map.bandLowLine = line;
    }
    const double below = verdict == "pays"           ? -high
                         : verdict == "does-not-pay" ? low
                                                     : std::numeric_limits<double>::infinity();
    if (below < map.bandHigh)
    {
        map.bandHigh = below;
        map.bandHighLine = line;
    }
}

/// \return a share as a percentage with 6 significant digits ("3" for 0.03)
std::string
PercentText(double share)
{
    std::ostringstream os;
    os << std::setprecision(6) << share * 100;
    return os.str();
}

/// \return "[1%, 3%)" for a map's tie bands
std::string
BandText(const RegimeMapFile& map)
{
    return "[" + PercentText(map.bandLow) + "%, " +
           (std::isfinite(map.bandHigh) ? PercentText(map.bandHigh) + "%" : "inf") + ")";
}

/**
 * \brief Reads a cell's request count and each policy's served and lost counts (means over
 *        the map's seeds) from the columns the file has; a negative count is an error naming
 *        file, line and column.
 * \param in the file at the cell's row
 * \param columns per policy its served and lost columns, if any
 * \param cRequests the requests column, if any
 * \param cell the cell
 */
void
ReadCounts(
    const CsvTable& in,
    const std::vector<std::tuple<Policy, std::optional<std::size_t>, std::optional<std::size_t>>>&
        columns,
    std::optional<std::size_t> cRequests,
    RegimeMapFileCell& cell)
{
    const auto count = [&in](std::size_t column) {
        const double v = in.GetNumber(column);
        if (v < 0)
        {
            in.FailField(column, "a count >= 0");
        }
        return v;
    };
    if (cRequests)
    {
        cell.requests = count(*cRequests);
    }
    for (const auto& [policy, served, lost] : columns)
    {
        if (served && !in.IsEmpty(*served))
        {
            cell.served[policy] = count(*served);
        }
        if (lost && !in.IsEmpty(*lost))
        {
            cell.lost[policy] = count(*lost);
        }
    }
}

/// The columns of a regime_map.csv, found in its header (FindRegimeMapColumns())
struct RegimeMapColumns
{
    std::size_t load{0};                   //!< load_per_s
    std::size_t interval{0};               //!< interval_s
    std::size_t dark{0};                   //!< dark_s
    std::size_t verdict{0};                //!< verdict
    std::optional<std::size_t> level;      //!< level, if the file has it
    std::vector<std::string> levelNames;   //!< the level column's words (LevelNames())
    std::optional<std::size_t> seeds;      //!< seeds, if the file has it
    std::optional<std::size_t> low;        //!< margin_ci_low, if the file has it
    std::optional<std::size_t> high;       //!< margin_ci_high, if the file has it
    std::optional<std::size_t> ciVerdict;  //!< ci_verdict, if the file has it
    std::optional<std::size_t> requests;   //!< requests, if the file has it
    std::optional<std::size_t> bestStatic; //!< best_static, if the file has it
    /// per policy with columns, the columns of its figures in Figure order
    std::vector<std::pair<Policy, std::array<std::size_t, 4>>> policies;
    /// per policy with columns, its served and lost columns, if the file has them
    std::vector<std::tuple<Policy, std::optional<std::size_t>, std::optional<std::size_t>>> counts;
};

/**
 * \param in the file, at its header
 * \param[out] map its policies (those with columns), switching first
 * \return its columns; the file's error when a required one is missing
 */
RegimeMapColumns
FindRegimeMapColumns(CsvTable& in, RegimeMapFile& map)
{
    RegimeMapColumns c;
    c.load = in.RequireColumn("load_per_s");
    c.interval = in.RequireColumn("interval_s");
    c.dark = in.RequireColumn("dark_s");
    c.verdict = in.RequireColumn("verdict");
    c.level = in.FindColumn("level");
    c.levelNames = LevelNames();
    c.seeds = in.FindColumn("seeds");
    c.low = in.FindColumn("margin_ci_low");
    c.high = in.FindColumn("margin_ci_high");
    c.ciVerdict = in.FindColumn("ci_verdict");
    c.requests = in.FindColumn("requests");
    c.bestStatic = in.FindColumn("best_static");
    for (Policy p : SwitchingPoliciesFirst())
    {
        const std::string name = mose::ToString(p);
        if (!in.FindColumn(name + "_kv_mean_s"))
        {
            continue;
        }
        c.policies.emplace_back(
            p,
            std::array<std::size_t, 4>{in.RequireColumn(name + "_kv_mean_s"),
                                       in.RequireColumn(name + "_ttft_mean_s"),
                                       in.RequireColumn(name + "_ttft_p99_s"),
                                       in.RequireColumn(name + "_iter_mean_s")});
        c.counts.emplace_back(p, in.FindColumn(name + "_served"), in.FindColumn(name + "_lost"));
        map.policies.push_back(p);
    }
    return c;
}

/**
 * \brief Reads the file's current row into the map: its level, its cell, its seeds and the tie
 *        band its interval allows.
 * \param in the file, at a row \param c its columns \param first whether it is the first row
 * \param[in,out] map the map read so far
 */
void
ReadRegimeMapRow(CsvTable& in, const RegimeMapColumns& c, bool first, RegimeMapFile& map)
{
    if (c.level)
    {
        const std::string level(in.GetWord(*c.level, c.levelNames));
        map.levelColumn = true;
        if (!first && level != map.level)
        {
            in.Fail("level " + level + " after " + map.level +
                    ": one level per file (mose-llm --level=A,B writes one file per level)");
        }
        map.level = level;
    }
    const auto key =
        std::make_tuple(in.GetNumber(c.load), in.GetNumber(c.interval), in.GetNumber(c.dark));
    RegimeMapFileCell cell;
    cell.line = in.GetLine();
    cell.verdict = std::string(in.GetWord(c.verdict, {"pays", "tie", "does-not-pay", "none"}));
    for (const auto& [policy, columns] : c.policies)
    {
        std::array<double, 4> figures{};
        for (std::size_t x = 0; x < 4; ++x)
        {
            // an empty figure (no served request, no finished iteration) is not compared
            figures[x] = in.GetOptionalNumber(columns[x]).value_or(0.0);
            if (figures[x] < 0)
            {
                in.FailField(columns[x], "a mean or P99 time >= 0 s");
            }
        }
        cell.figures[policy] = figures;
    }
    ReadCounts(in, c.counts, c.requests, cell);
    if (c.bestStatic)
    {
        // "-" or empty: no static policy ran
        cell.bestStatic = std::string(in.GetText(*c.bestStatic));
    }
    // the seeds each figure is the mean over: one number for the whole file
    const double seeds = c.seeds ? in.GetNumber(*c.seeds) : 1.0;
    if (!(seeds >= 1 && seeds <= 4294967295.0 && seeds == std::floor(seeds)) ||
        (!map.cells.empty() && static_cast<uint32_t>(seeds) != map.seeds))
    {
        in.FailField(*c.seeds,
                     "a count of seeds >= 1, the same in every row (" + std::to_string(map.seeds) +
                         " before)");
    }
    map.seeds = static_cast<uint32_t>(seeds);
    // the ci_verdict and its interval: the tie bands the map allows
    if (c.low && c.high && c.ciVerdict)
    {
        const std::string_view ci =
            in.GetWord(*c.ciVerdict, {"pays", "tie", "does-not-pay", "undecided", "none"});
        cell.ciVerdict = std::string(ci);
        const std::optional<double> low = in.GetOptionalNumber(*c.low);
        const std::optional<double> high = in.GetOptionalNumber(*c.high);
        if (low && high)
        {
            if (*low > *high)
            {
                in.FailField(*c.low, "above margin_ci_high = " + FormatNumber(*high));
            }
            NarrowBand(map, ci, *low, *high, in.GetLine());
        }
    }
    if (!map.cells.emplace(key, std::move(cell)).second)
    {
        in.Fail("the cell load " + FormatNumber(std::get<0>(key)) + "/s, T " +
                FormatNumber(std::get<1>(key)) + " s, D " + FormatNumber(std::get<2>(key)) +
                " s a second time");
    }
    map.order.push_back(key);
}

} // namespace

RegimeMapFile
ReadRegimeMapFile(const std::string& path)
{
    CsvTable in(path,
                "a regime_map.csv",
                "a regime_map.csv has load_per_s, interval_s, dark_s, verdict and per policy P "
                "the columns P_kv_mean_s, P_ttft_mean_s, P_ttft_p99_s and P_iter_mean_s");
    RegimeMapFile map;
    const RegimeMapColumns columns = FindRegimeMapColumns(in, map);
    bool first = true;
    while (in.NextRow())
    {
        ReadRegimeMapRow(in, columns, first, map);
        first = false;
    }
    if (map.cells.empty())
    {
        ThrowFileError(path,
                       in.GetLine(),
                       "no cells, only a header: a regime_map.csv has a row per cell");
    }
    // the file's 10 significant digits: an end on the band's edge may round either way
    if (map.bandLow > map.bandHigh * (1 + 1e-8) + 1e-12)
    {
        ThrowFileError(path,
                       map.bandHighLine,
                       "its ci_verdict needs a tie band below " + PercentText(map.bandHigh) +
                           "%, and line " + std::to_string(map.bandLowLine) +
                           "'s one of at least " + PercentText(map.bandLow) +
                           "%: the cells come from maps run with different --tolerance");
    }
    return map;
}

double
LlmLevelValidation::Row::GetDifference(Figure f) const
{
    return used[f] ? (compared[f] - reference[f]) / reference[f] : 0.0;
}

double
LlmLevelValidation::GetMeanBound()
{
    return 0.05;
}

double
LlmLevelValidation::GetP99Bound()
{
    return 0.15;
}

std::string
LlmLevelValidation::GetName(Figure f)
{
    switch (f)
    {
    case KV_MEAN:
        return "kv_mean";
    case TTFT_MEAN:
        return "ttft_mean";
    case TTFT_P99:
        return "ttft_p99";
    case ITER_MEAN:
        return "iter_mean";
    }
    return "?";
}

LlmLevelValidation::LlmLevelValidation(const LlmRegimeMap& reference, const LlmRegimeMap& compared)
    : m_reference(ToString(reference.GetConfig().base.level)),
      m_compared(ToString(compared.GetConfig().base.level))
{
    const auto& pc = reference.GetCells();
    const auto& fc = compared.GetCells();
    if (pc.size() != fc.size() || reference.GetConfig().policies != compared.GetConfig().policies)
    {
        throw Error("LlmLevelValidation: the two maps differ in their cells or policies");
    }
    for (std::size_t c = 0; c < pc.size(); ++c)
    {
        const LlmRegimeCell& p = pc[c];
        const LlmRegimeCell& f = fc[c];
        if (p.load != f.load || p.interval != f.interval || p.darkTime != f.darkTime ||
            p.seedRuns.size() != f.seedRuns.size())
        {
            throw Error("LlmLevelValidation: cell " + std::to_string(c) +
                        " differs between the two maps");
        }
        for (std::size_t k = 0; k < p.seedRuns.size(); ++k)
        {
            for (std::size_t i = 0; i < p.seedRuns[k].size(); ++i)
            {
                Row row;
                row.load = p.load;
                row.interval = p.interval.GetSeconds();
                row.darkTime = p.darkTime.GetSeconds();
                row.seed = static_cast<uint32_t>(k);
                row.policy = p.seedRuns[k][i].policy;
                row.reference = Figures(p.seedRuns[k][i]);
                row.compared = Figures(f.seedRuns[k][i]);
                row.requests = p.seedRuns[k][i].inference.requests;
                row.served = {p.seedRuns[k][i].inference.served, f.seedRuns[k][i].inference.served};
                for (std::size_t x = 0; x < 4; ++x)
                {
                    row.used[x] = row.reference[x] > 0 && row.compared[x] > 0;
                }
                m_rows.push_back(row);
            }
        }
        const bool tied =
            p.verdict.kind == LlmCellVerdict::TIE || f.verdict.kind == LlmCellVerdict::TIE;
        if (!tied)
        {
            ++m_outsideTie;
            m_agreeing += p.verdict.kind == f.verdict.kind ? 1 : 0;
        }
        m_cellVerdicts.push_back(p.verdict.KindText() + " / " + f.verdict.KindText());
    }
    m_referenceWall = reference.GetWallSeconds();
    m_comparedWall = compared.GetWallSeconds();
}

LlmLevelValidation
LlmLevelValidation::FromCsv(const std::string& reference, const std::string& compared)
{
    const RegimeMapFile ref = ReadRegimeMapFile(reference);
    const RegimeMapFile cmp = ReadRegimeMapFile(compared);
    // one file compared with itself agrees in every cell: a comparison that says nothing
    std::error_code ec;
    if (std::filesystem::equivalent(reference, compared, ec))
    {
        throw Error(reference + " and " + compared +
                    " are the same file: a comparison needs two maps' files, the reference "
                    "and another run of the same cells (e.g. the packet and the fluid level)");
    }
    std::vector<Policy> policies;
    for (Policy p : ref.policies)
    {
        if (std::find(cmp.policies.begin(), cmp.policies.end(), p) != cmp.policies.end())
        {
            policies.push_back(p);
        }
    }
    if (policies.empty())
    {
        throw Error(reference + " and " + compared + ": no policy has columns in both files");
    }
    // one tie band: the bands each file's verdicts allow must meet (with the files' rounding)
    const double low = std::max(ref.bandLow, cmp.bandLow);
    const double high = std::min(ref.bandHigh, cmp.bandHigh);
    if (low > high * (1 + 1e-8) + 1e-12)
    {
        throw Error(reference + " and " + compared +
                    " were run with different tie bands (mose-llm --tolerance): the verdicts "
                    "of the first allow a band in " +
                    BandText(ref) + ", those of the second one in " + BandText(cmp) +
                    "; compare maps run with the same --tolerance");
    }
    if (ref.cells.size() != cmp.cells.size())
    {
        throw Error(reference + " has " + std::to_string(ref.cells.size()) + " cells, " + compared +
                    " " + std::to_string(cmp.cells.size()) +
                    ": compare maps of the same loads, intervals and dark times");
    }
    LlmLevelValidation v;
    // the levels as the files name them ("packet" without a level column, as the packet
    // level writes its map); two maps of one level are told apart by their role
    v.m_reference = ref.level;
    v.m_compared = cmp.level;
    if (ref.level == cmp.level)
    {
        v.m_reference = ref.level + "_reference";
        v.m_compared = cmp.level + "_other";
    }
    v.m_referenceSeeds = ref.seeds;
    v.m_comparedSeeds = cmp.seeds;
    for (const auto& key : ref.order)
    {
        const RegimeMapFileCell& a = ref.cells.at(key);
        const auto b = cmp.cells.find(key);
        if (b == cmp.cells.end())
        {
            throw Error(reference + ":" + std::to_string(a.line) + ": the cell load " +
                        FormatNumber(std::get<0>(key)) + "/s, T " + FormatNumber(std::get<1>(key)) +
                        " s, D " + FormatNumber(std::get<2>(key)) + " s is not in " + compared);
        }
        for (Policy p : policies)
        {
            Row row;
            row.load = std::get<0>(key);
            row.interval = std::get<1>(key);
            row.darkTime = std::get<2>(key);
            row.policy = p;
            row.reference = a.figures.at(p);
            row.compared = b->second.figures.at(p);
            for (std::size_t x = 0; x < 4; ++x)
            {
                row.used[x] = row.reference[x] > 0 && row.compared[x] > 0;
            }
            v.m_rows.push_back(row);
        }
        if (a.verdict != "tie" && b->second.verdict != "tie")
        {
            ++v.m_outsideTie;
            v.m_agreeing += a.verdict == b->second.verdict ? 1 : 0;
        }
        v.m_cellVerdicts.push_back(a.verdict + " / " + b->second.verdict);
    }
    return v;
}

const std::vector<LlmLevelValidation::Row>&
LlmLevelValidation::GetRows() const
{
    return m_rows;
}

double
LlmLevelValidation::GetWorst(Figure f) const
{
    double worst = 0;
    for (const Row& r : m_rows)
    {
        worst = std::max(worst, std::abs(r.GetDifference(f)));
    }
    return worst;
}

uint32_t
LlmLevelValidation::CountWithinBound(Figure f) const
{
    const double bound = f == TTFT_P99 ? GetP99Bound() : GetMeanBound();
    uint32_t n = 0;
    for (const Row& r : m_rows)
    {
        n += r.used[f] && std::abs(r.GetDifference(f)) <= bound ? 1 : 0;
    }
    return n;
}

uint32_t
LlmLevelValidation::CountUsed(Figure f) const
{
    uint32_t n = 0;
    for (const Row& r : m_rows)
    {
        n += r.used[f] ? 1 : 0;
    }
    return n;
}

uint32_t
LlmLevelValidation::GetCellsOutsideTie() const
{
    return m_outsideTie;
}

uint32_t
LlmLevelValidation::GetCellsAgreeing() const
{
    return m_agreeing;
}

double
LlmLevelValidation::GetSpeedUp() const
{
    return m_comparedWall > 0 ? m_referenceWall / m_comparedWall : 0;
}

void
LlmLevelValidation::Print(std::ostream& os) const
{
    os << m_compared << " vs " << m_reference << ", " << GetUnitText() << " ((" << m_compared
       << " - " << m_reference << ") / " << m_reference << "):\n"
       << std::right << std::setw(7) << "load" << std::setw(9) << "T" << std::setw(9) << "D"
       << std::setw(5) << (IsFromFiles() ? "mean" : "seed") << "  " << std::left << std::setw(8)
       << "policy" << std::right;
    for (std::size_t x = 0; x < 4; ++x)
    {
        os << std::setw(11) << GetName(static_cast<Figure>(x));
    }
    os << "\n";
    for (const Row& r : m_rows)
    {
        os << std::setw(7) << FormatNumber(r.load) << std::setw(9)
           << FormatDuration(r.interval, DurationStyle::SIGNIFICANT) << std::setw(9)
           << FormatDuration(r.darkTime, DurationStyle::SIGNIFICANT) << std::setw(5)
           << (IsFromFiles() ? std::string("-") : std::to_string(r.seed)) << "  " << std::left
           << std::setw(8) << mose::ToString(r.policy) << std::right;
        for (std::size_t x = 0; x < 4; ++x)
        {
            os << std::setw(11)
               << (r.used[x] ? FormatPercent(r.GetDifference(static_cast<Figure>(x))) : "-");
        }
        os << "\n";
    }
    os << "\nverdicts per cell (" << m_reference << " / " << m_compared << "):";
    for (std::size_t c = 0; c < m_cellVerdicts.size(); ++c)
    {
        os << (c == 0 ? " " : ", ") << m_cellVerdicts[c];
    }
    os << "\nsummary over " << m_rows.size()
       << (IsFromFiles() ? " cell means (cells x policies):" : " runs:");
    for (std::size_t x = 0; x < 4; ++x)
    {
        const auto f = static_cast<Figure>(x);
        // the worst difference is a size (either sign): no sign, which would read as a direction
        std::ostringstream size;
        size << std::fixed << std::setprecision(1) << GetWorst(f) * 100 << "%, within "
             << (f == TTFT_P99 ? GetP99Bound() : GetMeanBound()) * 100 << "%";
        os << "\n  " << std::left << std::setw(10) << GetName(f) << std::right
           << " worst |difference| " << size.str() << " in " << CountWithinBound(f) << " of "
           << CountUsed(f);
    }
    os << "\n  verdict: the same in " << m_agreeing << " of " << m_outsideTie
       << " cells outside the tie band at both levels\n";
    if (m_comparedWall > 0)
    {
        os << "  speed: " << m_reference << " " << std::fixed << std::setprecision(1)
           << m_referenceWall << " s, " << m_compared << " " << std::setprecision(2)
           << m_comparedWall << " s of simulation wall time: " << std::setprecision(0)
           << GetSpeedUp() << "x" << std::defaultfloat << std::setprecision(6) << "\n";
    }
}

bool
LlmLevelValidation::IsFromFiles() const
{
    return m_referenceSeeds > 0;
}

std::string
LlmLevelValidation::GetUnitText() const
{
    if (!IsFromFiles())
    {
        return "run by run (cell, seed, policy)";
    }
    return "cell by cell, each figure the mean over " +
           (m_referenceSeeds == m_comparedSeeds
                ? std::to_string(m_referenceSeeds) + (m_referenceSeeds == 1 ? " seed" : " seeds")
                : std::to_string(m_referenceSeeds) + " seeds (" + m_reference + ") and " +
                      std::to_string(m_comparedSeeds) + " seeds (" + m_compared + ")");
}

void
LlmLevelValidation::WriteCsv(std::ostream& os) const
{
    // from files, a row is the cell's mean over its seeds: "seeds" holds how many (REF/OTHER
    // when they differ), in place of a seed
    os << "load,interval_s,dark_s," << (IsFromFiles() ? "seeds" : "seed") << ",policy";
    for (const std::string& level : {m_reference + "_", m_compared + "_", std::string("diff_")})
    {
        for (std::size_t x = 0; x < 4; ++x)
        {
            os << ',' << level << GetName(static_cast<Figure>(x)) << (level == "diff_" ? "" : "_s");
        }
    }
    // run by run, the run's requests and each level's served ones (from files, empty: a
    // map's counts are over its seeds)
    os << ",requests," << m_reference << "_served," << m_compared << "_served\n";
    for (const Row& r : m_rows)
    {
        os << r.load << ',' << r.interval << ',' << r.darkTime << ',';
        if (!IsFromFiles())
        {
            os << r.seed;
        }
        else if (m_referenceSeeds == m_comparedSeeds)
        {
            os << m_referenceSeeds;
        }
        else
        {
            os << m_referenceSeeds << '/' << m_comparedSeeds;
        }
        os << ',' << mose::ToString(r.policy);
        for (double v : r.reference)
        {
            os << ',' << v;
        }
        for (double v : r.compared)
        {
            os << ',' << v;
        }
        for (std::size_t x = 0; x < 4; ++x)
        {
            os << ',';
            if (r.used[x])
            {
                os << r.GetDifference(static_cast<Figure>(x));
            }
        }
        if (IsFromFiles())
        {
            os << ",,,\n";
        }
        else
        {
            os << ',' << r.requests << ',' << r.served[0] << ',' << r.served[1] << "\n";
        }
    }
}

void
WriteLlmMapLevels(const std::vector<std::unique_ptr<LlmRegimeMap>>& maps,
                  const std::string& outputDir,
                  bool render,
                  std::ostream& os)
{
    for (const auto& map : maps)
    {
        const LlmLevel level = map->GetConfig().base.level;
        const std::string dir = maps.size() > 1 ? outputDir + "/" + ToString(level) : outputDir;
        os << (maps.size() > 1 ? "\n== " + ToString(level) + " level ==\n" : "\n");
        map->PrintTable(os);
        os << "\n" << map->GetVerdict();
        if (maps.size() > 1)
        {
            MakeOutputDirectory(dir);
        }
        map->WriteOutputs(dir, render, os);
        map->PrintTiming(os);
    }
    if (maps.size() == 2)
    {
        const LlmLevelValidation validation(*maps[0], *maps[1]);
        os << "\n";
        validation.Print(os);
        WriteTextFile(outputDir + "/level_validation.csv",
                      [&validation](std::ostream& out) { validation.WriteCsv(out); });
        os << "wrote " << outputDir << "/level_validation.csv\n";
    }
}

} // namespace mose
} // namespace ns3
