/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_EVAL_OPTIONS_H
#define MOSE_FLOW_EVAL_OPTIONS_H

#include "ns3/command-line.h"
#include "ns3/mose-routing.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief What mose-flow-eval evaluates: a circuit graph and a flow list from files.
 */
struct FlowEvalConfig
{
    std::string graphFile;                                  //!< --graph, edge-list CSV
    std::string flowsFile;                                  //!< --flowsFile, flows CSV
    RoutingRule routing{RoutingRule::RANDOM_SHORTEST_PATH}; //!< --routing
    uint32_t nodes{0};                                      //!< --nodes (0: largest id + 1)
    uint32_t degree{0};                                     //!< --degree (0: no regularity check)
    uint32_t repeat{1};                                     //!< --repeat, at least 1
    std::string loadsFile;                                  //!< --loads (empty: none)
};

/**
 * \ingroup mose-study
 * \brief The options of mose-flow-eval; GetConfig() checks them, naming the option: both files
 *        given, the routing rule, N at most MAX_GROUPS and its per-group storage within the
 *        memory (CheckMemory()), --repeat at least 1.
 */
class FlowEvalOptions
{
  public:
    /**
     * \brief Adds the options to a command line (this object must outlive cmd.Parse()).
     * \param cmd the command line
     */
    void AddOptions(CommandLine& cmd);

    /// \return the configuration, checked (after cmd.Parse())
    FlowEvalConfig GetConfig() const;

  private:
    std::string m_graph;       //!< --graph
    std::string m_flows;       //!< --flowsFile
    std::string m_routing;     //!< --routing (default: every program's)
    std::string m_nodes{"0"};  //!< --nodes
    std::string m_degree{"0"}; //!< --degree
    std::string m_repeat{"1"}; //!< --repeat
    std::string m_loads;       //!< --loads
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLOW_EVAL_OPTIONS_H */
