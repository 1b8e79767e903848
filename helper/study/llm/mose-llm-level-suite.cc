/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-level-suite.h"

#include "mose-csv-table.h"
#include "mose-run-list.h"

#include "ns3/mose-collective.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-placement.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <map>
#include <sstream>
#include <tuple>

namespace ns3
{
namespace mose
{

namespace
{

using Figure = LlmLevelValidation::Figure;
using CellKey = std::tuple<double, double, double>;

/// The figures' names in the tables
constexpr std::array<const char*, 4> FIGURE_TITLES = {"KV", "TTFT", "P99 TTFT", "iteration"};

/// level_validation.csv's rows of one cell and policy, summed over the seeds
struct Sums
{
    uint32_t seeds{0};                 //!< rows
    std::array<double, 4> reference{}; //!< sums of the reference level's figures
    std::array<double, 4> compared{};  //!< sums of the compared level's
    std::array<uint32_t, 4> used{};    //!< rows with the figure at both levels
    std::array<double, 4> worst{};     //!< the largest |difference| (signed)
    uint64_t requests{0};              //!< the runs' requests
    std::array<uint64_t, 2> served{};  //!< served at each level
    bool overloaded{false};            //!< a run served fewer than its requests at a level
};

/// \return a time in ms with 3 decimals
std::string
Ms(double seconds)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << seconds * 1000;
    return os.str();
}

/// \return a count
std::string
Count(uint64_t v)
{
    return std::to_string(v);
}

/// \return the bound of a figure
double
Bound(Figure f)
{
    return f == LlmLevelValidation::TTFT_P99 ? LlmLevelValidation::GetP99Bound()
                                             : LlmLevelValidation::GetMeanBound();
}

/// \return "load 800/s, T 100 ms, D 10 ms"
std::string
CellText(double load, double interval, double dark)
{
    return "load " + FormatNumber(load) + "/s, T " + FormatNumber(interval * 1000) + " ms, D " +
           FormatNumber(dark * 1000) + " ms";
}

} // namespace

std::string
LlmLevelSuite::GetSetName(const std::string& folder)
{
    std::string f = folder;
    while (f.size() > 1 && f.back() == '/')
    {
        f.pop_back();
    }
    const auto base = [](const std::string& path) {
        const std::size_t slash = path.rfind('/');
        return slash == std::string::npos ? path : path.substr(slash + 1);
    };
    const std::string name = base(f);
    if (name == "map" && f.rfind('/') != std::string::npos)
    {
        return base(f.substr(0, f.rfind('/')));
    }
    return name;
}

void
LlmLevelSuite::CheckSetNames(const std::vector<std::string>& folders, const std::string& option)
{
    for (std::size_t i = 0; i < folders.size(); ++i)
    {
        for (std::size_t j = 0; j < i; ++j)
        {
            if (GetSetName(folders[i]) == GetSetName(folders[j]))
            {
                ThrowBadParameter(option,
                                  QuoteText(folders[i]),
                                  "the cell set \"" + GetSetName(folders[i]) + "\" of " +
                                      QuoteText(folders[j]) +
                                      " is given twice: each folder once, with names of their own");
            }
        }
    }
}

bool
LlmSuiteRegime::IsKnown() const
{
    return nodes > 0 && degree > 0 && hostsPerGroup > 0 && !transport.empty() &&
           !collective.empty() && !placement.empty();
}

std::string
LlmSuiteRegime::GetText() const
{
    if (!IsKnown())
    {
        return "unknown";
    }
    return "N " + std::to_string(nodes) + ", d " + std::to_string(degree) + ", " + transport +
           ", " + collective + ", " + placement + ", G " + std::to_string(hostsPerGroup);
}

LlmSuiteRegime
LlmSuiteRegime::Read(const std::string& folder)
{
    LlmSuiteRegime regime;
    std::string record;
    for (const std::string& runs : {folder + "/runs", folder + "/../work/runs"})
    {
        std::error_code error;
        if (!std::filesystem::is_directory(runs, error))
        {
            continue;
        }
        // the first record by name: every record of a map holds the same options
        for (const auto& entry : std::filesystem::directory_iterator(runs, error))
        {
            const std::string name = entry.path().filename().string();
            if (name.rfind("run-", 0) == 0 && name.size() > 8 &&
                name.compare(name.size() - 4, 4, ".txt") == 0 &&
                (record.empty() || entry.path().string() < record))
            {
                record = entry.path().string();
            }
        }
        if (!record.empty())
        {
            break;
        }
    }
    if (record.empty())
    {
        return regime;
    }
    // the record's options: "--a=1" "--b=x y", each option quoted (RunRecord)
    std::string text;
    try
    {
        text = RunRecord::ReadFile(record).options;
    }
    catch (const Error&)
    {
        return regime; // a record that does not read: the regime is not known
    }
    std::istringstream options(text);
    std::map<std::string, std::string> given;
    std::string option;
    while (options >> std::quoted(option))
    {
        const std::size_t eq = option.find('=');
        if (option.rfind("--", 0) == 0 && eq != std::string::npos)
        {
            given[option.substr(2, eq - 2)] = option.substr(eq + 1);
        }
    }
    const auto number = [&given](const std::string& key) -> uint32_t {
        const auto it = given.find(key);
        if (it == given.end())
        {
            return 0;
        }
        try
        {
            const uint64_t v = ParseUnsigned64("--" + key, it->second);
            return v <= 1000000 ? static_cast<uint32_t>(v) : 0;
        }
        catch (const Error&)
        {
            return 0; // the record's option is not a count: the regime is not known
        }
    };
    regime.nodes = number("nodes");
    regime.degree = number("degree");
    regime.hostsPerGroup = number("hostsPerGroup");
    if (given.count("transport") != 0)
    {
        regime.transport = given["transport"];
    }
    if (given.count("collective") != 0)
    {
        const auto kind = TryParseEnum<CollectiveKind>(given["collective"]);
        regime.collective = kind ? mose::ToString(*kind) : "";
    }
    if (given.count("placement") != 0)
    {
        const auto rule = TryParseEnum<PlacementRule>(given["placement"]);
        regime.placement = rule ? mose::ToString(*rule) : "";
    }
    return regime;
}

std::string
LlmLevelSuite::GetFigureTitle(Figure f)
{
    return FIGURE_TITLES[f];
}

double
LlmLevelSuite::Row::GetError(Figure f) const
{
    return used[f] ? (compared[f] - reference[f]) / reference[f] : 0.0;
}

uint32_t
LlmLevelSuite::AddSet(const std::string& folder)
{
    const std::string name = GetSetName(folder);
    if (std::find(m_sets.begin(), m_sets.end(), name) != m_sets.end())
    {
        ThrowBadParameter("--suite",
                          QuoteText(folder),
                          "a cell set named \"" + name +
                              "\" is given twice: each folder once, with names of their own");
    }
    const std::string path = folder + "/level_validation.csv";
    CsvTable in(
        path,
        "a level_validation.csv",
        "mose-llm --level=A,B writes load, interval_s, dark_s, seed, policy, then per level "
        "A_kv_mean_s ... and diff_kv_mean ...");
    const std::size_t cLoad = in.RequireColumn("load");
    const std::size_t cInterval = in.RequireColumn("interval_s");
    const std::size_t cDark = in.RequireColumn("dark_s");
    const std::size_t cPolicy = in.RequireColumn("policy");
    if (in.FindColumn("seeds") && !in.FindColumn("seed"))
    {
        ThrowFileError(path,
                       1,
                       "a comparison of two files' means (mose-regime-figure --compare): the suite "
                       "needs one map run at both levels, run by run (mose-llm --level=A,B)");
    }
    const std::size_t cSeed = in.RequireColumn("seed");
    const std::size_t cRequests = in.RequireColumn("requests");
    // the levels: the two prefixes of the *_kv_mean_s columns, in order
    std::vector<std::string> levels;
    for (std::size_t c = 0; c < in.GetColumnCount(); ++c)
    {
        const std::string& col = in.GetColumnName(c);
        const std::string tail = "_kv_mean_s";
        if (col.size() > tail.size() &&
            col.compare(col.size() - tail.size(), tail.size(), tail) == 0)
        {
            levels.push_back(col.substr(0, col.size() - tail.size()));
        }
    }
    if (levels.size() != 2)
    {
        ThrowFileError(path,
                       1,
                       "two levels' LEVEL_kv_mean_s columns, not " + std::to_string(levels.size()));
    }
    if (m_sets.empty())
    {
        m_reference = levels[0];
        m_compared = levels[1];
    }
    else if (levels[0] != m_reference || levels[1] != m_compared)
    {
        ThrowFileError(path,
                       1,
                       "levels " + levels[0] + " and " + levels[1] + ", the sets before " +
                           m_reference + " and " + m_compared + ": one pair of levels per suite");
    }
    std::array<std::array<std::size_t, 4>, 2> columns{};
    std::array<std::size_t, 2> cServed{};
    for (std::size_t l = 0; l < 2; ++l)
    {
        cServed[l] = in.RequireColumn(levels[l] + "_served");
        for (std::size_t x = 0; x < 4; ++x)
        {
            columns[l][x] = in.RequireColumn(
                levels[l] + "_" + LlmLevelValidation::GetName(static_cast<Figure>(x)) + "_s");
        }
    }
    std::vector<std::pair<CellKey, Policy>> order;
    std::map<std::pair<CellKey, Policy>, Sums> sums;
    while (in.NextRow())
    {
        const CellKey key{in.GetNumber(cLoad), in.GetNumber(cInterval), in.GetNumber(cDark)};
        const Policy policy = ParseEnum<Policy>(in.GetText(cPolicy), path + " column policy");
        in.GetNumber(cSeed);
        auto [it, fresh] = sums.try_emplace({key, policy});
        if (fresh)
        {
            order.emplace_back(key, policy);
        }
        Sums& s = it->second;
        ++s.seeds;
        const auto count = [&in](std::size_t column) {
            const double v = in.GetNumber(column);
            if (v < 0 || v != std::floor(v))
            {
                in.FailField(column, "a count: a whole number >= 0");
            }
            return static_cast<uint64_t>(v);
        };
        const uint64_t requests = count(cRequests);
        s.requests += requests;
        for (std::size_t l = 0; l < 2; ++l)
        {
            const uint64_t served = count(cServed[l]);
            if (served > requests)
            {
                in.FailField(cServed[l], "more served than the run's requests");
            }
            s.served[l] += served;
            s.overloaded = s.overloaded || served < requests;
        }
        for (std::size_t x = 0; x < 4; ++x)
        {
            const double a = in.GetNumber(columns[0][x]);
            const double b = in.GetNumber(columns[1][x]);
            if (a < 0 || b < 0)
            {
                in.FailField(columns[a < 0 ? 0 : 1][x], "a time >= 0 s");
            }
            if (a > 0 && b > 0)
            {
                s.reference[x] += a;
                s.compared[x] += b;
                ++s.used[x];
                const double d = (b - a) / a;
                if (std::abs(d) > std::abs(s.worst[x]))
                {
                    s.worst[x] = d;
                }
            }
        }
    }
    if (order.empty())
    {
        ThrowFileError(path, in.GetLine(), "no runs, only a header");
    }
    const LlmSuiteRegime regime = LlmSuiteRegime::Read(folder);
    const RegimeMapFile ref = ReadRegimeMapFile(folder + "/" + m_reference + "/regime_map.csv");
    const RegimeMapFile cmp = ReadRegimeMapFile(folder + "/" + m_compared + "/regime_map.csv");
    uint32_t cells = 0;
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        const auto& [key, policy] = order[i];
        const auto a = ref.cells.find(key);
        const auto b = cmp.cells.find(key);
        if (a == ref.cells.end() || b == cmp.cells.end())
        {
            ThrowFileError(
                path,
                1,
                "the cell " + CellText(std::get<0>(key), std::get<1>(key), std::get<2>(key)) +
                    " is not in " + folder + "/" +
                    (a == ref.cells.end() ? m_reference : m_compared) + "/regime_map.csv");
        }
        if (i == 0 || std::get<0>(order[i - 1]) != key)
        {
            Cell c;
            c.set = name;
            std::tie(c.load, c.interval, c.darkTime) = key;
            c.referenceVerdict = a->second.verdict;
            c.comparedVerdict = b->second.verdict;
            c.referenceCi = a->second.ciVerdict;
            c.comparedCi = b->second.ciVerdict;
            m_cells.push_back(c);
            ++cells;
        }
        const Sums& s = sums.at(order[i]);
        if (s.seeds != ref.seeds)
        {
            ThrowFileError(
                path,
                1,
                std::to_string(s.seeds) + " seeds of " + mose::ToString(policy) + " in the cell " +
                    CellText(std::get<0>(key), std::get<1>(key), std::get<2>(key)) +
                    ", its regime_map.csv's means are over " + std::to_string(ref.seeds));
        }
        Row r;
        r.set = name;
        r.regime = regime;
        std::tie(r.load, r.interval, r.darkTime) = key;
        r.policy = policy;
        r.seeds = s.seeds;
        for (std::size_t x = 0; x < 4; ++x)
        {
            r.used[x] = s.used[x] == s.seeds;
            if (r.used[x])
            {
                r.reference[x] = s.reference[x] / s.seeds;
                r.compared[x] = s.compared[x] / s.seeds;
                r.worst[x] = s.worst[x];
            }
        }
        r.requests = s.requests;
        r.referenceServed = s.served[0];
        r.comparedServed = s.served[1];
        // the map's lost packets are the total over its seeds
        const auto lost = a->second.lost.find(policy);
        r.referenceLost = lost == a->second.lost.end() ? 0 : static_cast<uint64_t>(lost->second);
        r.overloaded = s.overloaded;
        const std::string p = mose::ToString(policy);
        r.decides = IsSwitching(policy) || p == a->second.bestStatic || p == b->second.bestStatic;
        m_rows.push_back(r);
    }
    // each cell's bounds, over its deciding policies that are not overloaded
    for (std::size_t c = m_cells.size() - cells; c < m_cells.size(); ++c)
    {
        Cell& cell = m_cells[c];
        for (const Row& r : m_rows)
        {
            if (r.set != name || r.load != cell.load || r.interval != cell.interval ||
                r.darkTime != cell.darkTime || !r.decides || r.overloaded)
            {
                continue;
            }
            cell.judged = true;
            for (std::size_t x = 0; x < 4; ++x)
            {
                const auto f = static_cast<Figure>(x);
                if (r.used[x] && std::abs(r.GetError(f)) > Bound(f))
                {
                    cell.outOfBounds.push_back(mose::ToString(r.policy) + " " + FIGURE_TITLES[x] +
                                               " " + FormatPercent(r.GetError(f)));
                }
            }
        }
    }
    m_sets.push_back(name);
    return cells;
}

const std::vector<LlmLevelSuite::Row>&
LlmLevelSuite::GetRows() const
{
    return m_rows;
}

const std::vector<LlmLevelSuite::Cell>&
LlmLevelSuite::GetCells() const
{
    return m_cells;
}

const std::string&
LlmLevelSuite::GetReferenceLevel() const
{
    return m_reference;
}

const std::string&
LlmLevelSuite::GetComparedLevel() const
{
    return m_compared;
}

uint32_t
LlmLevelSuite::CountSameVerdicts() const
{
    return static_cast<uint32_t>(std::count_if(m_cells.begin(), m_cells.end(), [](const Cell& c) {
        return c.referenceVerdict == c.comparedVerdict;
    }));
}

uint32_t
LlmLevelSuite::CountJudged() const
{
    return static_cast<uint32_t>(
        std::count_if(m_cells.begin(), m_cells.end(), [](const Cell& c) { return c.judged; }));
}

uint32_t
LlmLevelSuite::CountWithinBounds() const
{
    return static_cast<uint32_t>(std::count_if(m_cells.begin(), m_cells.end(), [](const Cell& c) {
        return c.judged && c.outOfBounds.empty();
    }));
}

const LlmLevelSuite::Row*
LlmLevelSuite::GetWorst(Figure f, bool decidingOnly) const
{
    const Row* worst = nullptr;
    for (const Row& r : m_rows)
    {
        if (!r.used[f] || (decidingOnly && (!r.decides || r.overloaded)))
        {
            continue;
        }
        if (worst == nullptr || std::abs(r.GetError(f)) > std::abs(worst->GetError(f)))
        {
            worst = &r;
        }
    }
    return worst;
}

void
LlmLevelSuite::Print(std::ostream& os) const
{
    os << "The " << m_compared << " level against the " << m_reference
       << " level over the suite: per cell and policy the means over the seeds (" << m_reference
       << " / " << m_compared << ", ms), err = (" << m_compared << " - " << m_reference << ") / "
       << m_reference
       << " of the means, worst = the seed with the largest |err|; served of the requests; "
          "* = decides the verdict (MoSE, the best static), ! = overloaded (served fewer than "
          "the requests)\n";
    os << std::left << std::setw(14) << "set" << std::setw(32) << "cell" << std::setw(10)
       << "policy" << std::setw(16) << "served";
    for (const char* t : FIGURE_TITLES)
    {
        os << " | " << std::setw(36)
           << (std::string(t) + " " + m_reference + "/" + m_compared + " err (worst)");
    }
    os << std::right << "\n";
    for (const Row& r : m_rows)
    {
        os << std::left << std::setw(14) << r.set << std::setw(32)
           << CellText(r.load, r.interval, r.darkTime) << std::setw(10)
           << (mose::ToString(r.policy) + (r.decides ? "*" : "") + (r.overloaded ? "!" : ""))
           << std::setw(16)
           << (Count(r.referenceServed) + "/" + Count(r.comparedServed) + " of " +
               Count(r.requests));
        for (std::size_t x = 0; x < 4; ++x)
        {
            const auto f = static_cast<Figure>(x);
            os << " | " << std::setw(36)
               << (r.used[x]
                       ? Ms(r.reference[x]) + " / " + Ms(r.compared[x]) + " " +
                             FormatPercent(r.GetError(f)) + " (" + FormatPercent(r.worst[x]) + ")"
                       : std::string("-"));
        }
        os << std::right << "\n";
    }
    os << "\nverdicts per cell (" << m_reference << " / " << m_compared << ", on the mean; 95% "
       << "interval's in brackets):\n";
    for (const Cell& c : m_cells)
    {
        os << "  " << std::left << std::setw(14) << c.set << std::setw(32)
           << CellText(c.load, c.interval, c.darkTime) << std::right << c.referenceVerdict << " / "
           << c.comparedVerdict;
        if (!c.referenceCi.empty())
        {
            os << " [" << c.referenceCi << " / " << c.comparedCi << "]";
        }
        if (c.referenceVerdict != c.comparedVerdict)
        {
            os << "  <- differs";
        }
        os << "\n";
    }
    os << "\nsummary over " << m_sets.size() << " cell sets, " << m_cells.size() << " cells, "
       << m_rows.size() << " cell policies:\n";
    os << "  verdict (on the mean) the same at both levels in " << CountSameVerdicts() << " of "
       << m_cells.size() << " cells\n";
    for (std::size_t x = 0; x < 4; ++x)
    {
        const auto f = static_cast<Figure>(x);
        const Row* all = GetWorst(f, false);
        const Row* deciding = GetWorst(f, true);
        os << "  " << std::left << std::setw(10) << FIGURE_TITLES[x] << std::right
           << " worst error of the means: ";
        os << (deciding ? FormatPercent(deciding->GetError(f)) + " (" +
                              mose::ToString(deciding->policy) + ", " + deciding->set + ", " +
                              CellText(deciding->load, deciding->interval, deciding->darkTime) + ")"
                        : std::string("-"))
           << " of the deciding policies not overloaded; "
           << (all ? FormatPercent(all->GetError(f)) + " (" + mose::ToString(all->policy) + ", " +
                         all->set + ")"
                   : std::string("-"))
           << " of all\n";
    }
    os << "  bounds (the deciding policies not overloaded: means within "
       << LlmLevelValidation::GetMeanBound() * 100 << "%, P99 TTFT within "
       << LlmLevelValidation::GetP99Bound() * 100 << "%): held in " << CountWithinBounds() << " of "
       << CountJudged() << " judged cells";
    if (CountJudged() < m_cells.size())
    {
        os << " (" << m_cells.size() - CountJudged()
           << " not judged: every deciding policy overloaded)";
    }
    os << "\n";
    for (const Cell& c : m_cells)
    {
        if (c.judged && !c.outOfBounds.empty())
        {
            os << "    out: " << c.set << ", " << CellText(c.load, c.interval, c.darkTime) << ":";
            for (std::size_t i = 0; i < c.outOfBounds.size(); ++i)
            {
                os << (i == 0 ? " " : ", ") << c.outOfBounds[i];
            }
            os << "\n";
        }
    }
}

void
LlmLevelSuite::WriteCsv(std::ostream& os) const
{
    os << "set,nodes,degree,transport,collective,placement,hosts_per_group,load,interval_s,"
          "dark_s,policy,seeds,requests,"
       << m_reference << "_served," << m_compared << "_served," << m_reference
       << "_lost,overloaded,decides";
    for (std::size_t x = 0; x < 4; ++x)
    {
        const std::string n = LlmLevelValidation::GetName(static_cast<Figure>(x));
        os << ',' << m_reference << '_' << n << "_s," << m_compared << '_' << n << "_s,err_" << n
           << ",worst_" << n;
    }
    os << ',' << m_reference << "_verdict," << m_compared << "_verdict,within_bounds\n";
    for (const Row& r : m_rows)
    {
        const auto cell = std::find_if(m_cells.begin(), m_cells.end(), [&r](const Cell& c) {
            return c.set == r.set && c.load == r.load && c.interval == r.interval &&
                   c.darkTime == r.darkTime;
        });
        os << r.set << ',';
        if (r.regime.IsKnown())
        {
            os << r.regime.nodes << ',' << r.regime.degree << ',' << r.regime.transport << ','
               << r.regime.collective << ',' << r.regime.placement << ',' << r.regime.hostsPerGroup
               << ',';
        }
        else
        {
            os << ",,,,,,";
        }
        os << FormatNumber(r.load) << ',' << FormatNumber(r.interval) << ','
           << FormatNumber(r.darkTime) << ',' << mose::ToString(r.policy) << ',' << r.seeds << ','
           << r.requests << ',' << r.referenceServed << ',' << r.comparedServed << ','
           << r.referenceLost << ',' << (r.overloaded ? 1 : 0) << ',' << (r.decides ? 1 : 0);
        for (std::size_t x = 0; x < 4; ++x)
        {
            if (r.used[x])
            {
                os << ',' << FormatNumber(r.reference[x]) << ',' << FormatNumber(r.compared[x])
                   << ',' << FormatNumber(r.GetError(static_cast<Figure>(x))) << ','
                   << FormatNumber(r.worst[x]);
            }
            else
            {
                os << ",,,,";
            }
        }
        os << ',' << cell->referenceVerdict << ',' << cell->comparedVerdict << ','
           << (!cell->judged               ? ""
               : cell->outOfBounds.empty() ? "1"
                                           : "0")
           << "\n";
    }
}

void
LlmLevelSuite::WriteRst(std::ostream& os) const
{
    // a simple table: the cell, the policy, per figure "reference / compared" over
    // "err (worst)", the verdicts on the first row of a cell
    const std::vector<std::size_t> widths = {28, 10, 12, 22, 22, 22, 22, 30};
    const auto bar = [&]() {
        std::string line;
        for (std::size_t w : widths)
        {
            line += (line.empty() ? "" : "  ") + std::string(w, '=');
        }
        os << line << "\n";
    };
    const auto row = [&](const std::vector<std::string>& fields) {
        std::string line;
        for (std::size_t i = 0; i < fields.size(); ++i)
        {
            std::string f = fields[i];
            f.resize(std::max(f.size(), widths[i]), ' ');
            line += (i == 0 ? "" : "  ") + f;
        }
        while (!line.empty() && line.back() == ' ')
        {
            line.pop_back();
        }
        os << line << "\n";
    };
    bar();
    row({"cell",
         "policy",
         "served",
         "mean KV (ms)",
         "mean TTFT (ms)",
         "P99 TTFT (ms)",
         "mean iteration (ms)",
         "verdict " + m_reference + " / " + m_compared});
    bar();
    std::string previous;
    for (const Row& r : m_rows)
    {
        const std::string cell = r.set + " " + FormatNumber(r.load) + "/s " +
                                 FormatNumber(r.interval * 1000) + "/" +
                                 FormatNumber(r.darkTime * 1000) + " ms";
        std::vector<std::string> top = {cell == previous ? "" : cell,
                                        mose::ToString(r.policy) + (r.decides ? "*" : "") +
                                            (r.overloaded ? "!" : ""),
                                        Count(r.referenceServed) + "/" + Count(r.comparedServed)};
        std::vector<std::string> low = {"", "", "of " + Count(r.requests)};
        for (std::size_t x = 0; x < 4; ++x)
        {
            top.push_back(r.used[x] ? Ms(r.reference[x]) + " / " + Ms(r.compared[x]) : "-");
            low.push_back(r.used[x] ? FormatPercent(r.GetError(static_cast<Figure>(x))) + " (" +
                                          FormatPercent(r.worst[x]) + ")"
                                    : "");
        }
        if (cell != previous)
        {
            const auto c = std::find_if(m_cells.begin(), m_cells.end(), [&r](const Cell& x) {
                return x.set == r.set && x.load == r.load && x.interval == r.interval &&
                       x.darkTime == r.darkTime;
            });
            top.push_back(c->referenceVerdict + " / " + c->comparedVerdict);
        }
        else
        {
            top.emplace_back("");
        }
        low.emplace_back("");
        row(top);
        row(low);
        previous = cell;
    }
    bar();
}

} // namespace mose
} // namespace ns3
