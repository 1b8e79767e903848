/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-fct-cdf-plot.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFctCdfPlot");

std::vector<double>
FctCdfPlot::GetCompletionTimes(const std::vector<MoseTransfer>& transfers, TrafficClass cls)
{
    std::vector<double> fct;
    for (const auto& t : transfers)
    {
        if (t.cls == cls && t.complete)
        {
            fct.push_back(t.GetCompletionTime().GetSeconds() * 1e3);
        }
    }
    std::sort(fct.begin(), fct.end());
    return fct;
}

namespace
{

/// \param fct completion times, ascending \param title the line's title \return their CDF
Gnuplot2dDataset
CdfOf(const std::vector<double>& fct, const std::string& title)
{
    Gnuplot2dDataset data(title);
    data.SetStyle(Gnuplot2dDataset::LINES);
    for (std::size_t i = 0; i < fct.size(); ++i)
    {
        data.Add(fct[i], static_cast<double>(i + 1) / static_cast<double>(fct.size()));
    }
    return data;
}

} // namespace

Gnuplot2dDataset
FctCdfPlot::MakeCdf(const std::vector<MoseTransfer>& transfers,
                    TrafficClass cls,
                    const std::string& title)
{
    return CdfOf(GetCompletionTimes(transfers, cls), title);
}

void
FctCdfPlot::AddRun(const std::vector<MoseTransfer>& transfers, const std::string& title)
{
    NS_LOG_FUNCTION(this << transfers.size() << title);
    AddTimes(GetCompletionTimes(transfers, TrafficClass::KV),
             GetCompletionTimes(transfers, TrafficClass::TRAINING),
             title);
}

void
FctCdfPlot::AddTimes(const std::vector<double>& kvMs,
                     const std::vector<double>& trainingMs,
                     const std::string& title)
{
    NS_LOG_FUNCTION(this << kvMs.size() << trainingMs.size() << title);
    m_kv.AddDataset(CdfOf(kvMs, title));
    m_training.AddDataset(CdfOf(trainingMs, title));
}

void
FctCdfPlot::GenerateOutput(const std::string& base,
                           const std::string& mode,
                           uint32_t nodes,
                           std::ostream& os)
{
    NS_LOG_FUNCTION(this << base);
    for (Gnuplot* p : {&m_kv, &m_training})
    {
        const bool kv = p == &m_kv;
        p->SetTerminal("pngcairo size 800,500");
        p->SetOutputFilename(base + (kv ? "_kv.png" : "_training.png"));
        p->SetTitle(std::string(kv ? "KV" : "training") + " transfers, " + mode +
                    ", N=" + std::to_string(nodes));
        p->SetLegend("flow completion time (ms)", "CDF");
        p->AppendExtra("set key bottom right");
        p->GenerateOutput(os);
    }
}

} // namespace mose
} // namespace ns3
