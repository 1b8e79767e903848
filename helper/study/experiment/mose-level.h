/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LEVEL_H
#define MOSE_LEVEL_H

#include "ns3/mose-parse.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The level an experiment runs at (ExperimentConfig::level): packets, or fluid flows
 *        without the Simulator (LlmLevel for its first user, the LLM run).
 */
enum class LlmLevel : uint8_t
{
    PACKET, //!< ns-3 packets: TCP transfers over the OCS's point-to-point circuits
    FLUID,  //!< fluid flows at max-min fair rates on the same routes (mose::FluidLlmRun)
    /// the fluid level with each all-to-all as one aggregate of transfers that progress
    /// together (mose::TrainingSettings::aggregate): O(links) per iteration instead
    /// of O(n^2) flows, an approximation of FLUID
    AGGREGATE,
};

/**
 * \ingroup mose-study
 * \brief Every level, in LlmLevel order. A new level is a value of LlmLevel, its place here,
 *        its row of LEVEL_TRAITS and its names (EnumTable<LlmLevel>): ToString(), IsFluid(),
 *        ParseLlmLevels(), the messages that list the levels, the readers of a CSV file's
 *        level column and the run records' check follow from them.
 */
constexpr std::array<LlmLevel, 3> ALL_LEVELS = {LlmLevel::PACKET,
                                                LlmLevel::FLUID,
                                                LlmLevel::AGGREGATE};

/**
 * \ingroup mose-study
 * \brief What a level is, as the experiments ask it.
 */
struct LevelTraits
{
    /// moves fluid flows on a mose::FluidFabric without the Simulator, not ns-3 packets
    bool fluid;
    /// runs each all-to-all as one aggregate of transfers (mose::TrainingSettings::aggregate)
    bool aggregateCollectives;
};

/// \ingroup mose-study
/// One row per level, in ALL_LEVELS order
constexpr std::array<LevelTraits, ALL_LEVELS.size()> LEVEL_TRAITS = {{
    {false, false}, // packet
    {true, false},  // fluid
    {true, true},   // aggregate
}};

/// \ingroup mose-study
/// \param level a level \return its row of LEVEL_TRAITS
const LevelTraits& GetLevelTraits(LlmLevel level);

/// \ingroup mose-study
/// \param level a level \return whether it runs without packets (LevelTraits::fluid)
bool IsFluid(LlmLevel level);

/// \ingroup mose-study
/// Names of LlmLevel: "packet", "fluid", "aggregate" (ToString(), ParseLlmLevels())
template <>
struct EnumTable<LlmLevel>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<LlmLevel>>& Get();
};

/// \ingroup mose-study
/// \return every level's name, in ALL_LEVELS order (the words of a CSV file's level column)
std::vector<std::string> LevelNames();

/**
 * \ingroup mose-study
 * \param conjunction the word before the last name ("or", "and")
 * \return the levels' names for a message: "packet, fluid or aggregate"
 */
std::string ListLevelNames(const std::string& conjunction);

/**
 * \ingroup mose-study
 * \brief Reads a --level option: one level ("packet", "fluid", "aggregate", in any letter
 *        case), "both" (packet, then fluid) or two different levels separated by a comma (the
 *        first the reference the second is compared with, e.g. "fluid,aggregate").
 * \param option the option's name, for the message ("--level")
 * \param text what was given
 * \return the levels; a mose::Error naming the option, the text and the choices otherwise
 */
std::vector<LlmLevel> ParseLlmLevels(const std::string& option, const std::string& text);

/**
 * \ingroup mose-study
 * \param levels the levels a program runs
 * \return "" for the packet level alone (a title as before the fluid level), else ", level
 *         fluid" or ", levels packet and fluid"
 */
std::string LevelText(const std::vector<LlmLevel>& levels);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LEVEL_H */
