/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SCENARIO_OPTIONS_H
#define MOSE_SCENARIO_OPTIONS_H

#include "mose-flow-experiment-helper.h"
#include "mose-seed-pool.h"

#include "ns3/command-line.h"
#include "ns3/mose-flow-experiment-config.h"

#include <cstdint>
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
 * \brief The scale of a program's default run: the only scenario defaults that differ between
 *        the mose programs (mose-paper, mose-baselines, mose-break-even, mose-templates: N = 1024,
 *        100,000 flows, 20 seeds; mose-sweep: 20,000 flows, 2 seeds; mose-packet: N = 64, 2000
 *        flows; mose-mode-switch: N = 64, 1000 flows). Every other option has one default in
 *        every program (ScenarioOptions).
 */
struct ScenarioDefaults
{
    uint32_t nodes{1024};   //!< --nodes
    uint64_t flows{100000}; //!< --flows
    uint32_t seeds{20};     //!< --seeds, where offered
    uint32_t degree{4};     //!< --degree
    /// the memory the program keeps per seed, for GetSeedPlan()'s limit on --seeds
    /// (CheckCountMemory()): the flow study's (FlowExperimentHelper::GetSeedBytes()) by
    /// default; 0 where the program checks its seeds itself (mose-llm's map)
    uint64_t seedBytes{FlowExperimentHelper::GetSeedBytes()};
    /// what a seed keeps, for the message
    std::string seedKeeps{"the flow study's run record and figures of 2 modes x 4 policies"};
};

/**
 * \ingroup mose-study
 * \brief The scenario options of every mose program, one meaning and one default each:
 *        registers them on an ns-3 CommandLine and validates what was given into a
 *        FlowExperimentConfig (the scenario) and a SeedPlan (--seeds and --threads).
 *
 * | option | meaning | default |
 * |---|---|---|
 * | --nodes | N groups | the program's (ScenarioDefaults) |
 * | --degree | d optical ports per group | the program's (ScenarioDefaults; 4) |
 * | --prefill, --decode, --training | inference-heavy role counts | the paper's shares of N |
 * | --trPrefill, --trDecode, --trTraining | training-heavy role counts | the paper's shares of N |
 * | --roleTransition | swap or nested | swap |
 * | --pdReservedPorts | r of H^PD, 0..d (0: H^U) | d - 1 |
 * | --compromiseReservedPorts | r of H^C, 0..d | 1 |
 * | --completion | circulant or random | circulant |
 * | --construction | fresh or rewiring-aware | fresh |
 * | --biregular | allow a biregular P-D split | false |
 * | --assignment | one-to-one or many-to-one | one-to-one |
 * | --assignmentCap | many-to-one: prefills per decode, >= 1 | max(r, 1) |
 * | --flows | flows drawn per mode F | the program's |
 * | --kvShareInference, --kvShareTraining | KV share rho | 0.7, 0.3 |
 * | --routing | shortest-path, random-shortest-path or ecmp | random-shortest-path |
 * | --seeds | seeds; seed k uses run RngRun + k | the program's |
 * | --threads | worker threads (0: one per core) | 0 |
 * | --inferenceRolesFile, --trainingRolesFile | roles CSV (node,role) | none |
 * | --inferenceAssignmentFile, --trainingAssignmentFile | P-D pairs CSV | none |
 * | --inferenceFlowsFile, --trainingFlowsFile | flows CSV (src,dst,class,demand) | none |
 *
 * The paper's shares of N (RoleCounts::PaperScaled()): floor(N * 410 / 1024) prefill and as
 * many decode groups, the rest training, inference-heavy; floor(N * 102 / 1024) and the rest
 * training-heavy (410/410/204 and 102/102/820 at N = 1024). A count that is given replaces only
 * its own default, and the three counts of a mode must add up to N. The first seed's run is
 * ns-3's own --RngRun (FlowExperimentConfig::firstRun).
 *
 * With FABRIC, the module attributes these options set (ns3::MoseTopologyHelper::Groups and
 * ::PortsPerGroup for --nodes and --degree, ns3::MoseRouteTable::Rule for --routing) may be given
 * instead of the option; both given with different values is an error naming both.
 *
 * A user's setting wins or fails: a value that would not be used is an error naming it (role
 * counts next to that mode's roles file, --roleTransition next to --trainingRolesFile, --flows
 * when both modes' flows come from files, a KV share next to its mode's flows file,
 * --assignment/--assignmentCap when both assignments come from files, --assignmentCap with the
 * one-to-one assignment). Numbers are taken as text and parsed strictly (mose-parse.h); every
 * error is a mose::Error "invalid --OPTION = "TEXT": what is allowed", with the text as typed.
 *
 * The object must outlive the CommandLine's Parse() and stays where it is (the options write
 * into it through callbacks), hence no copies.
 */
class ScenarioOptions
{
  public:
    /// offers --routing: the program routes flows
    static constexpr uint32_t ROUTING = 1;
    /// offers --seeds and --threads: the program evaluates several seeds
    static constexpr uint32_t SEEDS = 2;
    /// both: the flow-level study programs
    static constexpr uint32_t STUDY = ROUTING | SEEDS;
    /// the program builds the scenario's packet-level fabric (MoseTopologyHelper): --nodes,
    /// --degree and --routing set ns3::MoseTopologyHelper::Groups, ::PortsPerGroup and
    /// ns3::MoseRouteTable::Rule, which the user may give instead (ResolveAttributeOption());
    /// ns3::MoseRouteTable::Seed comes from the run and is refused
    static constexpr uint32_t FABRIC = 4;
    /// the program's points set d and r of H^PD themselves (mose-sweep): the default
    /// --assignmentCap, max(r, 1), is each point's, not checked against the counts here
    static constexpr uint32_t SWEPT_TEMPLATES = 8;

    /**
     * \param defaults the program's scale (N, flows, seeds)
     * \param offers which optional groups to register (ROUTING, SEEDS); a program without SEEDS
     *        runs one seed (the run --RngRun)
     */
    explicit ScenarioOptions(const ScenarioDefaults& defaults = ScenarioDefaults(),
                             uint32_t offers = STUDY);

    ScenarioOptions(const ScenarioOptions&) = delete;
    ScenarioOptions& operator=(const ScenarioOptions&) = delete;

    /**
     * \brief Adds the options to a CommandLine; call once, before cmd.Parse().
     * \param cmd the command line
     */
    void AddOptions(CommandLine& cmd);

    /**
     * \brief Reads the options given; call after cmd.Parse(). Every option is checked here,
     *        --seeds and --threads included (GetSeedPlan()).
     * \return the scenario's configuration, validated; a mose::Error names the first bad option
     */
    FlowExperimentConfig GetConfig() const;

    /**
     * \brief Reads --seeds and --threads; call after cmd.Parse().
     * \return the seeds (1 without SEEDS) and threads, validated against --RngRun (seed k uses
     *         run --RngRun + k); a mose::Error names the bad option
     */
    SeedPlan GetSeedPlan() const;

    /**
     * \param name an option's name without dashes (e.g. "pdReservedPorts")
     * \return whether the user gave it (with FABRIC: or the attribute it sets)
     */
    bool IsGiven(const std::string& name) const;

    /**
     * \param name an option's name without dashes
     * \return the text the user gave, quoted for a message ("\"8\""), or, if it was not given,
     *         its default and "(default)" ("4 (default)")
     */
    std::string Describe(const std::string& name) const;

    /// \return the names (without dashes) of the options AddOptions() registers, in order
    std::vector<std::string> GetNames() const;

  private:
    /// One option: its name, help, the default shown in --help
    struct Option
    {
        std::string name;        //!< without dashes
        std::string help;        //!< help text
        std::string defaultText; //!< as --help shows it
        bool flag{false};        //!< a boolean option, false unless given (m_flags)
    };

    /// \return the options registered with the given offers
    std::vector<Option> GetOptions() const;
    /// \brief GetConfig(), first: with FABRIC the module attributes, then N and d
    /// \return the paper's scenario scaled to N and d (PaperScaledConfig())
    FlowExperimentConfig ReadScale() const;
    /// \brief GetConfig(): the role counts or files and the transition, checked against N
    /// \param c the configuration, N and d and the files set
    void ReadRoles(FlowExperimentConfig& c) const;
    /// \brief GetConfig(): the templates' r, completion, construction and biregular split
    /// \param c the configuration
    void ReadTemplates(FlowExperimentConfig& c) const;
    /// \brief GetConfig(): the P-D assignment and its cap \param c the configuration
    void ReadAssignment(FlowExperimentConfig& c) const;
    /// \brief GetConfig(): the flows per mode and the KV shares \param c the configuration
    void ReadFlows(FlowExperimentConfig& c) const;
    /// \brief GetConfig(), last: role counts that the P-D assignment cannot pair (one-to-one
    ///        with unequal counts, KV flows without a prefill or decode group), named by the
    ///        options that gave them (the library would name its own fields)
    /// \param c the configuration, roles, assignment and flows read
    void CheckAssignments(const FlowExperimentConfig& c) const;
    /// \param name an option \return the text the user gave it, or (FABRIC) gave the module
    ///        attribute it sets; a mose::Error if both were given and disagree
    std::optional<std::string> GivenText(const std::string& name) const;
    /// \param name an option \return the text given, or its default text if not given
    std::string TextOf(const std::string& name) const;
    /// \param name an option \param otherwise its default \return the value given, or otherwise
    uint32_t Unsigned32(const std::string& name, uint32_t otherwise) const;
    /// \brief Throws a mose::Error naming the first of the options that was given
    /// \param names options that would not be used \param reason why not
    void RejectUnused(const std::vector<std::string>& names, const std::string& reason) const;

    ScenarioDefaults m_defaults;                //!< the program's scale
    uint32_t m_offers;                          //!< ROUTING, SEEDS
    std::map<std::string, bool> m_flags;        //!< the boolean options' values, by name
    std::map<std::string, std::string> m_given; //!< text of every option given, by name
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SCENARIO_OPTIONS_H */
