/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-metrics-output.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <cmath>
#include <cstdio>
#include <iomanip>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseMetricsOutput");

namespace
{

/// One class's metrics as a JSON object
void
WriteClass(const ClassMetrics& c, std::ostream& os)
{
    os << "{\"flows\": " << c.flows << ", \"demand\": " << c.demand
       << ", \"max_load\": " << c.maxLoad << ", \"p95_load\": " << c.p95Load
       << ", \"avg_hop\": " << c.avgHop << ", \"avg_cost\": " << c.avgCost
       << ", \"p95_cost\": " << c.p95Cost << "}";
}

/// A histogram as a JSON array
void
WriteArray(const std::vector<uint64_t>& values, std::ostream& os)
{
    os << "[";
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        os << (i ? ", " : "") << values[i];
    }
    os << "]";
}

/// Throws a mose::Error if a metric is inf or nan: JSON has no such numbers, and a finite
/// input that overflows double arithmetic must not pass for a result.
void
CheckFinite(const FlowMetrics& metrics)
{
    std::vector<std::pair<std::string, double>> values = {{"direct_kv", metrics.directKv},
                                                          {"kv_3plus", metrics.kvThreePlus}};
    for (auto [name, c] : {std::make_pair("all", &metrics.all),
                           std::make_pair("kv", &metrics.kv),
                           std::make_pair("training", &metrics.training)})
    {
        std::string n(name);
        values.insert(values.end(),
                      {{n + ".demand", c->demand},
                       {n + ".max_load", c->maxLoad},
                       {n + ".p95_load", c->p95Load},
                       {n + ".avg_hop", c->avgHop},
                       {n + ".avg_cost", c->avgCost},
                       {n + ".p95_cost", c->p95Cost}});
    }
    for (const auto& [name, value] : values)
    {
        if (!std::isfinite(value))
        {
            throw Error("the metric " + name + " came out as " + FormatNumber(value) +
                        ": the demands are too large for double arithmetic (total demand " +
                        FormatNumber(metrics.all.demand) +
                        "); scale them down so that loads times path lengths stay below "
                        "about 1.8e308");
        }
    }
}

} // namespace

void
WriteFlowMetricsJson(const FlowMetrics& metrics, std::ostream& os, const std::string& extra)
{
    NS_LOG_FUNCTION(&metrics << &os << extra);
    CheckFinite(metrics);
    std::ios::fmtflags flags = os.flags();
    std::streamsize precision = os.precision();
    os << std::setprecision(17);
    os << "{\n";
    if (!extra.empty())
    {
        os << "  " << extra << ",\n";
    }
    os << "  \"all\": ";
    WriteClass(metrics.all, os);
    os << ",\n  \"kv\": ";
    WriteClass(metrics.kv, os);
    os << ",\n  \"training\": ";
    WriteClass(metrics.training, os);
    os << ",\n  \"direct_kv\": " << metrics.directKv;
    os << ",\n  \"kv_3plus\": " << metrics.kvThreePlus;
    os << ",\n  \"hop_histogram_kv\": ";
    WriteArray(metrics.hopHistogramKv, os);
    os << ",\n  \"hop_histogram_training\": ";
    WriteArray(metrics.hopHistogramTraining, os);
    os << "\n}\n";
    os.flags(flags);
    os.precision(precision);
}

void
WriteCircuitLoadsCsv(const CircuitGraph& graph, const FlowMetrics& metrics, std::ostream& os)
{
    NS_LOG_FUNCTION(graph.GetNCircuits() << metrics.load.size() << &os);
    if (metrics.load.size() != graph.GetNCircuits())
    {
        throw Error("the metrics hold loads for " + std::to_string(metrics.load.size()) +
                    " circuits, the graph has " + std::to_string(graph.GetNCircuits()));
    }
    std::ios::fmtflags flags = os.flags();
    std::streamsize precision = os.precision();
    os << std::setprecision(17);
    os << "circuit,u,v,load,load_kv,load_training\n";
    const auto& circuits = graph.GetCircuits();
    for (std::size_t e = 0; e < circuits.size(); ++e)
    {
        os << e << "," << circuits[e].u << "," << circuits[e].v << "," << metrics.load[e] << ","
           << metrics.loadKv[e] << "," << metrics.loadTraining[e] << "\n";
    }
    os.flags(flags);
    os.precision(precision);
}

} // namespace mose
} // namespace ns3
