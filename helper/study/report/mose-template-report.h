/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TEMPLATE_REPORT_H
#define MOSE_TEMPLATE_REPORT_H

#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-scenario.h"

#include <cstdint>
#include <functional>
#include <ostream>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief Prints the properties of one scenario's three templates (mose-templates): a line
 *        naming the run and the parameters, a note when the distances are sampled, and one row
 *        per template (circuits, degree range, simple, connected, P-D circuits per P/D group and
 *        in total, the share of P-D assignment pairs made, AvgHop and diameter), each row
 *        flushed as it is measured (MeasureTemplate()).
 * \param s the scenario
 * \param config the configuration it was built from
 * \param distanceSources AvgHop and diameter from at most this many sources (0: all pairs)
 * \param progress called with the template and the sources done of the distances (may be
 *        empty)
 * \param os the stream
 * \return whether the distances were sampled (fewer sources than groups)
 */
bool PrintTemplateTable(const Scenario& s,
                        const FlowExperimentConfig& config,
                        uint32_t distanceSources,
                        const std::function<void(TemplateId, uint32_t, uint32_t)>& progress,
                        std::ostream& os);

} // namespace mose
} // namespace ns3

#endif /* MOSE_TEMPLATE_REPORT_H */
