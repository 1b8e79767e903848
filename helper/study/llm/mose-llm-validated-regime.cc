/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-validated-regime.h"

#include "mose-csv-table.h"
#include "mose-level-suite-data.h"
#include "mose-llm-regime-map.h"

#include "ns3/mose-collective.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-placement.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

namespace ns3
{
namespace mose
{

namespace
{

/// \return a rate with 3 significant digits ("93.6")
std::string
Rate(double v)
{
    std::ostringstream os;
    os << std::setprecision(3) << v;
    return os.str();
}

/// \return "64-256", or "64" for one value (3 significant digits)
std::string
Range(double lo, double hi)
{
    return lo == hi ? Rate(lo) : Rate(lo) + "-" + Rate(hi);
}

/// \return |log2(a / b)|, the distance of two positive settings
double
LogDistance(double a, double b)
{
    return std::abs(std::log2(a / b));
}

/// \return the settings of a regime that are not numbers, as "rdma, all-to-all, ..."
std::tuple<std::string, std::string, std::string, uint32_t>
Kind(const LlmSuiteRegime& r)
{
    return {r.transport, r.collective, r.placement, r.hostsPerGroup};
}

} // namespace

LlmValidatedRegimes
LlmValidatedRegimes::FromCsv(std::istream& in, const std::string& name)
{
    CsvTable table(in,
                   name,
                   "a level_suite.csv",
                   "mose-regime-figure --suite writes set, nodes, degree, transport, collective, "
                   "placement, hosts_per_group, load, ..., overloaded, decides, err_kv_mean, ...");
    const std::size_t cSet = table.RequireColumn("set");
    const std::size_t cNodes = table.RequireColumn("nodes");
    const std::size_t cDegree = table.RequireColumn("degree");
    const std::size_t cTransport = table.RequireColumn("transport");
    const std::size_t cCollective = table.RequireColumn("collective");
    const std::size_t cPlacement = table.RequireColumn("placement");
    const std::size_t cHosts = table.RequireColumn("hosts_per_group");
    const std::size_t cLoad = table.RequireColumn("load");
    const std::size_t cInterval = table.RequireColumn("interval_s");
    const std::size_t cDark = table.RequireColumn("dark_s");
    const std::size_t cSeeds = table.RequireColumn("seeds");
    const std::size_t cOverloaded = table.RequireColumn("overloaded");
    const std::size_t cDecides = table.RequireColumn("decides");
    const std::size_t cBounds = table.RequireColumn("within_bounds");
    std::array<std::size_t, 4> cErr{};
    for (std::size_t x = 0; x < 4; ++x)
    {
        cErr[x] = table.RequireColumn(
            "err_" + LlmLevelValidation::GetName(static_cast<LlmLevelValidation::Figure>(x)));
    }
    // the two levels' verdict columns: LEVEL_verdict, reference first
    std::vector<std::size_t> cVerdicts;
    for (std::size_t c = 0; c < table.GetColumnCount(); ++c)
    {
        const std::string& col = table.GetColumnName(c);
        if (col.size() > 8 && col.compare(col.size() - 8, 8, "_verdict") == 0)
        {
            cVerdicts.push_back(c);
        }
    }
    if (cVerdicts.size() != 2)
    {
        ThrowFileError(name,
                       1,
                       "two LEVEL_verdict columns, not " + std::to_string(cVerdicts.size()));
    }
    LlmValidatedRegimes regimes;
    const std::string a = table.GetColumnName(cVerdicts[0]);
    const std::string b = table.GetColumnName(cVerdicts[1]);
    const std::array<std::string, 2> levels{a.substr(0, a.size() - 8), b.substr(0, b.size() - 8)};
    regimes.m_levels = levels[1] + " vs " + levels[0];
    const std::size_t cPolicy = table.RequireColumn("policy");
    // per level (reference, compared) the figures the map's verdict reads: served, mean and
    // P99 TTFT, mean iteration time (empty: no iteration finished)
    std::array<std::array<std::size_t, 4>, 2> cMeans{};
    for (std::size_t l = 0; l < 2; ++l)
    {
        cMeans[l] = {table.RequireColumn(levels[l] + "_served"),
                     table.RequireColumn(levels[l] + "_ttft_mean_s"),
                     table.RequireColumn(levels[l] + "_ttft_p99_s"),
                     table.RequireColumn(levels[l] + "_iter_mean_s")};
    }
    using Key = std::tuple<std::string, double, double, double>;
    std::map<Key, std::size_t> index;
    // per cell and level its policies' means, as the map's verdict takes them
    std::vector<std::array<std::vector<LlmSummary>, 2>> runs;
    while (table.NextRow())
    {
        if (table.IsEmpty(cNodes))
        {
            continue; // a set whose records were not found: no regime to match
        }
        const auto count = [&table](std::size_t column) {
            const double v = table.GetNumber(column);
            if (!(v >= 1 && v <= 1e6 && v == std::floor(v)))
            {
                table.FailField(column, "a whole number from 1 to 1000000");
            }
            return static_cast<uint32_t>(v);
        };
        Cell cell;
        cell.set = std::string(table.GetText(cSet));
        cell.regime.nodes = count(cNodes);
        cell.regime.degree = count(cDegree);
        cell.regime.hostsPerGroup = count(cHosts);
        cell.regime.transport = std::string(table.GetText(cTransport));
        cell.regime.collective = std::string(table.GetText(cCollective));
        cell.regime.placement = std::string(table.GetText(cPlacement));
        cell.load = table.GetNumber(cLoad);
        if (!(cell.load > 0))
        {
            table.FailField(cLoad, "a load above 0 requests per second");
        }
        cell.interval = table.GetNumber(cInterval);
        cell.darkTime = table.GetNumber(cDark);
        cell.seeds = count(cSeeds);
        const std::string_view overloaded = table.GetWord(cOverloaded, {"0", "1"});
        const std::string_view decides = table.GetWord(cDecides, {"0", "1"});
        const std::string_view bounds = table.GetWord(cBounds, {"0", "1", ""});
        if (bounds.empty())
        {
            continue; // a cell not judged: every deciding policy overloaded
        }
        cell.withinBounds = bounds == "1";
        cell.sameVerdict = table.GetText(cVerdicts[0]) == table.GetText(cVerdicts[1]);
        const Key key{cell.set, cell.load, cell.interval, cell.darkTime};
        auto [at, fresh] = index.try_emplace(key, regimes.m_cells.size());
        if (fresh)
        {
            regimes.m_cells.push_back(cell);
            runs.emplace_back();
        }
        Cell& c = regimes.m_cells[at->second];
        const Policy policy = ParseEnum<Policy>(table.GetText(cPolicy), name + " column policy");
        for (std::size_t l = 0; l < 2; ++l)
        {
            LlmSummary s;
            s.policy = policy;
            const double served = table.GetNumber(cMeans[l][0]);
            if (!(served >= 0 && served == std::floor(served) && served <= 1e9))
            {
                table.FailField(cMeans[l][0], "a count of requests (a whole number >= 0)");
            }
            s.inference.served = static_cast<uint32_t>(served);
            s.inference.ttft.mean = table.GetOptionalNumber(cMeans[l][1]).value_or(0);
            s.inference.ttft.p99 = table.GetOptionalNumber(cMeans[l][2]).value_or(0);
            const std::optional<double> iter = table.GetOptionalNumber(cMeans[l][3]);
            s.training.iterations = iter ? 1 : 0; // the verdict asks only whether one finished
            s.training.iteration.mean = iter.value_or(0);
            runs[at->second][l].push_back(s);
        }
        if (decides != "1" || overloaded != "0")
        {
            continue;
        }
        for (std::size_t x = 0; x < 4; ++x)
        {
            const std::optional<double> e = table.GetOptionalNumber(cErr[x]);
            if (e && std::abs(*e) > std::abs(c.worst[x]))
            {
                c.worst[x] = *e;
            }
        }
    }
    for (std::size_t i = 0; i < regimes.m_cells.size(); ++i)
    {
        // the overall margin does not depend on the tie band (it only names the verdict)
        LlmCellVerdict v[2];
        for (std::size_t l = 0; l < 2; ++l)
        {
            try
            {
                v[l] = LlmCellVerdict::Compute(runs[i][l], 0);
            }
            catch (const Error& e)
            {
                ThrowFileError(name, 1, "the cell " + regimes.m_cells[i].set + ": " + e.what());
            }
        }
        if (v[0].bestStatic && v[1].bestStatic)
        {
            regimes.m_cells[i].marginError = v[1].overallMargin - v[0].overallMargin;
        }
    }
    return regimes;
}

const LlmValidatedRegimes&
LlmValidatedRegimes::GetBuiltIn()
{
    static const LlmValidatedRegimes builtIn = []() {
        const std::string text = MOSE_LEVEL_SUITE_CSV;
        if (text.empty())
        {
            return LlmValidatedRegimes();
        }
        std::istringstream in(text);
        return FromCsv(in, "the built-in doc/figures/level-suite.csv");
    }();
    return builtIn;
}

const std::vector<LlmValidatedRegimes::Cell>&
LlmValidatedRegimes::GetCells() const
{
    return m_cells;
}

LlmValidatedRegimes::Match
LlmValidatedRegimes::Find(const Query& query) const
{
    Match match;
    const LlmSuiteRegime& q = query.regime;
    const double perGroup = query.load / std::max<uint32_t>(q.nodes, 1);
    double best = std::numeric_limits<double>::infinity();
    for (const Cell& c : m_cells)
    {
        const LlmSuiteRegime& r = c.regime;
        const uint32_t differ = (r.transport != q.transport) + (r.collective != q.collective) +
                                (r.placement != q.placement) + (r.hostsPerGroup != q.hostsPerGroup);
        const double score = 100.0 * differ + LogDistance(r.nodes, q.nodes) +
                             LogDistance(r.degree, q.degree) +
                             LogDistance(c.load / r.nodes, perGroup);
        if (score < best)
        {
            best = score;
            match.cell = &c;
        }
    }
    if (match.cell == nullptr)
    {
        return match;
    }
    if (query.tracedTraining)
    {
        match.outside.emplace_back("a training job from a trace where the suite ran the "
                                   "synthetic job");
    }
    if (query.fluidQueues)
    {
        match.outside.emplace_back("fluid queues (--fluidQueues) where the suite ran without");
    }
    // the cells of the same kind span the validated ranges
    std::vector<const Cell*> same;
    for (const Cell& c : m_cells)
    {
        if (Kind(c.regime) == Kind(q))
        {
            same.push_back(&c);
        }
    }
    if (same.empty())
    {
        const LlmSuiteRegime& r = match.cell->regime;
        const std::vector<std::tuple<std::string, std::string, std::string>> settings = {
            {"transport", q.transport, r.transport},
            {"collective", q.collective, r.collective},
            {"placement", q.placement, r.placement},
            {"hosts per group", std::to_string(q.hostsPerGroup), std::to_string(r.hostsPerGroup)}};
        for (const auto& [what, mine, theirs] : settings)
        {
            if (mine != theirs)
            {
                match.outside.push_back("no cell with " + what + " " + mine);
            }
        }
        return match;
    }
    const auto range = [&same](auto get) {
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (const Cell* c : same)
        {
            lo = std::min(lo, get(*c));
            hi = std::max(hi, get(*c));
        }
        return std::make_pair(lo, hi);
    };
    const auto [nLo, nHi] = range([](const Cell& c) { return double(c.regime.nodes); });
    if (q.nodes < nLo || q.nodes > nHi)
    {
        match.outside.push_back("N " + std::to_string(q.nodes) + " where the suite has " +
                                Range(nLo, nHi));
    }
    const bool degreeKnown = std::any_of(same.begin(), same.end(), [&q](const Cell* c) {
        return c->regime.degree == q.degree;
    });
    if (!degreeKnown)
    {
        match.outside.push_back("d " + std::to_string(q.degree) + " where no suite cell has it");
    }
    const auto [lLo, lHi] = range([](const Cell& c) { return c.load / c.regime.nodes; });
    // the loads the table writes round to 10 digits: a run at a suite cell's own load is in
    if (perGroup < lLo * (1 - 1e-9) || perGroup > lHi * (1 + 1e-9))
    {
        match.outside.push_back("load " + Rate(perGroup) +
                                " requests/s per group where the suite has " + Range(lLo, lHi));
    }
    return match;
}

std::string
LlmValidatedRegimes::Describe(const Query& query, const std::string& level) const
{
    if (m_cells.empty())
    {
        return "not validated: the module was built without the validation suite "
               "(doc/figures/level-suite.csv; utils/fluid-suite.sh makes it)";
    }
    const Match match = Find(query);
    const Cell& c = *match.cell;
    std::string out;
    if (match.outside.empty())
    {
        out = "in the validated regimes; ";
    }
    else
    {
        out = "outside every validated regime (";
        for (std::size_t i = 0; i < match.outside.size(); ++i)
        {
            out += (i == 0 ? "" : "; ") + match.outside[i];
        }
        out += "): the errors are those of the nearest, not bounds; ";
    }
    out += "the nearest suite cell is " + c.set + " at " + FormatNumber(c.load) + "/s (" +
           c.regime.GetText() + ", T " + FormatNumber(c.interval * 1000) + " ms, D " +
           FormatNumber(c.darkTime * 1000) + " ms, " + std::to_string(c.seeds) +
           " seeds): " + m_levels + ", the deciding policies' worst error of the means";
    for (std::size_t x = 0; x < 4; ++x)
    {
        out += std::string(x == 0 ? " " : ", ") +
               LlmLevelSuite::GetFigureTitle(static_cast<LlmLevelValidation::Figure>(x)) + " " +
               FormatPercent(c.worst[x]);
    }
    out += c.withinBounds ? " (within the bounds" : " (outside the bounds";
    out += c.sameVerdict ? ", the same verdict)" : ", another verdict)";
    if (level == "aggregate")
    {
        out += "; the aggregate level adds its own error against the fluid level "
               "(mose-llm --level=fluid,aggregate)";
    }
    return out;
}

LlmRegimeValidation
LlmValidatedRegimes::Validate(const LlmSuiteRegime& regime, double load) const
{
    Query query;
    query.regime = regime;
    query.load = load;
    const Match match = Find(query);
    LlmRegimeValidation v;
    if (match.cell == nullptr)
    {
        return v;
    }
    v.suiteCell = match.cell->set + "/" + FormatNumber(match.cell->load);
    v.inside = match.outside.empty();
    v.marginError = match.cell->marginError;
    return v;
}

LlmSuiteRegime
ParseSuiteRegime(const std::string& option, const std::string& text)
{
    const std::string syntax = "nodes=N,degree=D,transport=tcp|rdma and optionally collective=C, "
                               "placement=P, hostsPerGroup=G (mose-llm's options)";
    std::map<std::string, std::string> given;
    for (const std::string& item : SplitList(text, option, syntax))
    {
        const std::size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        static const std::vector<std::string> keys =
            {"nodes", "degree", "transport", "collective", "placement", "hostsPerGroup"};
        if (eq == std::string::npos || std::find(keys.begin(), keys.end(), key) == keys.end())
        {
            ThrowBadParameter(option,
                              QuoteText(text),
                              QuoteText(item) + " is not KEY=VALUE: " + syntax);
        }
        if (!given.emplace(key, item.substr(eq + 1)).second)
        {
            ThrowBadParameter(option, QuoteText(text), key + " is given twice");
        }
    }
    for (const char* key : {"nodes", "degree", "transport"})
    {
        if (given.count(key) == 0)
        {
            ThrowBadParameter(option, QuoteText(text), std::string("no ") + key + ": " + syntax);
        }
    }
    const auto count = [&](const std::string& key, uint32_t least) {
        const uint32_t v = ParseUnsigned32(option + " " + key, given[key]);
        if (v < least || v > 1000000)
        {
            ThrowBadParameter(option + " " + key,
                              QuoteText(given[key]),
                              "a whole number from " + std::to_string(least) + " to 1000000");
        }
        return v;
    };
    // what mose-llm runs when the option is not given: the program's defaults are the config's
    const ExperimentConfig defaults;
    LlmSuiteRegime r;
    r.nodes = count("nodes", 2);
    r.degree = count("degree", 1);
    r.hostsPerGroup =
        given.count("hostsPerGroup") != 0 ? count("hostsPerGroup", 1) : defaults.hostsPerGroup;
    r.transport = given["transport"];
    if (r.transport != "tcp" && r.transport != "rdma")
    {
        ThrowBadParameter(option + " transport", QuoteText(r.transport), "tcp or rdma");
    }
    r.collective =
        mose::ToString(given.count("collective") != 0
                           ? ParseEnum<CollectiveKind>(given["collective"], option + " collective")
                           : defaults.llm.collective);
    r.placement =
        mose::ToString(given.count("placement") != 0
                           ? ParseEnum<PlacementRule>(given["placement"], option + " placement")
                           : defaults.llm.placement);
    return r;
}

double
MeanRequestRate(const std::vector<mose::LlmRequest>& requests)
{
    if (requests.size() < 2)
    {
        return 0;
    }
    const auto [first, last] =
        std::minmax_element(requests.begin(),
                            requests.end(),
                            [](const mose::LlmRequest& a, const mose::LlmRequest& b) {
                                return a.arrivalNs < b.arrivalNs;
                            });
    const double span = (last->arrivalNs - first->arrivalNs) * 1e-9;
    return span > 0 ? (requests.size() - 1) / span : 0;
}

void
PrintValidatedRegimes(std::ostream& os,
                      const ExperimentConfig& config,
                      const std::vector<double>& loads,
                      const std::vector<LlmLevel>& levels)
{
    LlmValidatedRegimes::Query query;
    query.regime.nodes = config.scenario.nodes;
    query.regime.degree = config.scenario.degree;
    query.regime.hostsPerGroup = config.hostsPerGroup;
    query.regime.transport = config.IsRdma() ? "rdma" : "tcp";
    query.regime.collective = mose::ToString(config.llm.collective);
    query.regime.placement = mose::ToString(config.llm.placement);
    query.tracedTraining = config.llm.trainingPlan != nullptr;
    query.fluidQueues = config.llm.fluidQueues;
    for (const LlmLevel level : levels)
    {
        if (level == LlmLevel::PACKET)
        {
            continue;
        }
        for (const double load : loads)
        {
            query.load = load;
            os << "validated (" << ToString(level) << ", " << Rate(load)
               << "/s): " << LlmValidatedRegimes::GetBuiltIn().Describe(query, ToString(level))
               << "\n";
        }
    }
}

} // namespace mose
} // namespace ns3
