/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-level-checks.h"

#include "mose-level.h"

#include "ns3/log.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-command-line.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-parse.h"
#include "ns3/type-id.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFlowLevelChecks");

namespace
{

/// \param type a TypeId name \param name its attribute \return the attribute's default now
uint64_t
DefaultOf(const std::string& type, const std::string& name)
{
    return ParseUnsigned64(type + "::" + name,
                           GetAttributeDefaultText(TypeId::LookupByName(type), name));
}

/// \param error a relative error \return it in percent with its sign, one decimal
std::string
Percent(double error)
{
    std::ostringstream os;
    os.setf(std::ios::fixed);
    os.precision(1);
    double percent = std::round(error * 1000) / 10;
    percent = percent == 0 ? 0.0 : percent; // no "-0.0%"
    os << (percent >= 0 ? "+" : "") << percent << "%";
    return os.str();
}

/// \param c a checked run \return its settings in words
std::string
Describe(const FlowLevelCheck& c)
{
    return "N = " + std::to_string(c.nodes) + ", d = " + std::to_string(c.degree) + ", " +
           std::to_string(c.flows) + " flows, " + std::to_string(c.bytesPerUnit) + " B per unit, " +
           std::to_string(c.packetBytes) + " B packets";
}

} // namespace

const std::vector<FlowLevelCheck>&
GetFlowLevelChecks()
{
    // measured on 2026-12-06 with each program's --policies=MoSE at --level=packet and
    // --level=fluid (the doc's commands), means of each class's transfers.csv
    static const std::vector<FlowLevelCheck> checks{
        {"mose-packet", false, 16, 4, 40, 655360, 1448, -0.037, -0.072},
        {"mose-packet", false, 16, 4, 40, 65536, 536, -0.046, -0.031},
        {"mose-packet", false, 64, 4, 2000, 65536, 536, -0.037, -0.061},
        {"mose-packet", true, 16, 4, 40, 65536, 1024, 0.017, 0.014},
        {"mose-packet", true, 64, 4, 2000, 65536, 1024, 0.018, -0.056},
        {"mose-mode-switch", false, 64, 4, 1000, 65536, 536, -0.016, 0.001},
        {"mose-mode-switch", true, 64, 4, 1000, 65536, 1024, 0.001, 0.0},
    };
    return checks;
}

FlowLevelCheck
GetFlowLevelSettings(const std::string& program, const ExperimentConfig& config)
{
    FlowLevelCheck run;
    run.program = program;
    run.rdma = config.IsRdma();
    run.nodes = config.scenario.nodes;
    run.degree = config.scenario.degree;
    run.flows = config.scenario.flows;
    run.bytesPerUnit = DefaultOf("ns3::MoseTrafficHelper", "BytesPerUnit");
    run.packetBytes =
        static_cast<uint32_t>(run.rdma ? DefaultOf("ns3::MoseRdmaTransport", "PayloadSize")
                                       : DefaultOf("ns3::TcpSocket", "SegmentSize"));
    return run;
}

const FlowLevelCheck*
FindNearestFlowLevelCheck(const FlowLevelCheck& run,
                          const std::vector<FlowLevelCheck>& checks,
                          std::vector<std::string>& differences)
{
    const FlowLevelCheck* nearest = nullptr;
    std::vector<std::string> best;
    double bestDistance = 0;
    for (const FlowLevelCheck& c : checks)
    {
        if (c.program != run.program || c.rdma != run.rdma)
        {
            continue;
        }
        std::vector<std::string> d;
        const auto differ = [&d](const std::string& what, uint64_t here, uint64_t there) {
            if (here != there)
            {
                d.push_back(what + " " + std::to_string(here) + " where the nearest has " +
                            std::to_string(there));
            }
        };
        differ("N", run.nodes, c.nodes);
        differ("d", run.degree, c.degree);
        differ("flows", run.flows, c.flows);
        differ("bytes per unit", run.bytesPerUnit, c.bytesPerUnit);
        differ("packet bytes", run.packetBytes, c.packetBytes);
        const double distance = std::abs(std::log(static_cast<double>(run.nodes) / c.nodes));
        if (!nearest || d.size() < best.size() ||
            (d.size() == best.size() && distance < bestDistance))
        {
            nearest = &c;
            best = std::move(d);
            bestDistance = distance;
        }
    }
    differences = best;
    return nearest;
}

void
PrintFlowLevelCheck(std::ostream& os, const std::string& program, const ExperimentConfig& config)
{
    NS_LOG_FUNCTION(program);
    if (!IsFluid(config.level))
    {
        return;
    }
    const FlowLevelCheck run = GetFlowLevelSettings(program, config);
    std::vector<std::string> differences;
    const FlowLevelCheck* c = FindNearestFlowLevelCheck(run, GetFlowLevelChecks(), differences);
    if (c && !run.rdma)
    {
        // the checked runs keep ns-3's TCP as it is; a TCP start set otherwise differs too
        std::vector<std::string> tcp = MoseFluidFabricHelper::GetTcpStartAttributes();
        tcp.emplace_back("ns3::MoseTrafficHelper::TcpVariant");
        for (const std::string& attribute : tcp)
        {
            if (IsModuleAttributeSet(attribute))
            {
                differences.push_back("--" + attribute +
                                      " given, which the checked runs leave at its default");
            }
        }
    }
    os << "validated (" << ToString(config.level) << ", " << (run.rdma ? "rdma" : "tcp") << "): ";
    if (!c)
    {
        os << "outside every checked run (none of " << program << " over this transport)\n";
        return;
    }
    if (differences.empty())
    {
        os << "checked against the packet level at these settings (";
    }
    else
    {
        os << "outside every checked run (";
        for (std::size_t k = 0; k < differences.size(); ++k)
        {
            os << (k > 0 ? "; " : "") << differences[k];
        }
        os << "); the nearest against the packet level (";
    }
    os << Describe(*c) << "; MoSE, run 1): the fluid level's mean FCT " << Percent(c->kvError)
       << " (KV), " << Percent(c->trainingError)
       << " (training) (doc/mose.rst, Flow lists at the fluid level)\n";
}

} // namespace mose
} // namespace ns3
