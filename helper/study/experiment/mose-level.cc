/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-level.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <optional>
#include <string_view>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLevel");

namespace mose
{

const LevelTraits&
GetLevelTraits(LlmLevel level)
{
    const auto i = static_cast<std::size_t>(level);
    if (i >= LEVEL_TRAITS.size())
    {
        throw mose::Error("no level " + std::to_string(i) + " (at most " +
                          std::to_string(LEVEL_TRAITS.size() - 1) + ")");
    }
    return LEVEL_TRAITS[i];
}

bool
IsFluid(LlmLevel level)
{
    return GetLevelTraits(level).fluid;
}

const std::vector<EnumEntry<LlmLevel>>&
EnumTable<LlmLevel>::Get()
{
    static const std::vector<EnumEntry<LlmLevel>> names = {
        {LlmLevel::PACKET, "packet", {}},
        {LlmLevel::FLUID, "fluid", {}},
        {LlmLevel::AGGREGATE, "aggregate", {}},
    };
    return names;
}

std::vector<std::string>
LevelNames()
{
    std::vector<std::string> names;
    for (const LlmLevel level : ALL_LEVELS)
    {
        names.push_back(ToString(level));
    }
    return names;
}

std::string
ListLevelNames(const std::string& conjunction)
{
    const std::vector<std::string> names = LevelNames();
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        text += (i == 0 ? "" : i + 1 == names.size() ? " " + conjunction + " " : ", ") + names[i];
    }
    return text;
}

std::vector<LlmLevel>
ParseLlmLevels(const std::string& option, const std::string& text)
{
    NS_LOG_FUNCTION(option << text);
    const std::vector<std::string> names = LevelNames();
    std::string allowed;
    for (const std::string& name : names)
    {
        allowed += name + ", ";
    }
    allowed += "both (" + names[0] + "," + names[1] + ") or two of them separated by a comma";
    if (text == "both")
    {
        return {ALL_LEVELS[0], ALL_LEVELS[1]};
    }
    std::vector<LlmLevel> levels;
    std::size_t start = 0;
    while (true)
    {
        const std::size_t comma = text.find(',', start);
        const std::optional<LlmLevel> level =
            TryParseEnum<LlmLevel>(std::string_view(text).substr(start, comma - start));
        if (level)
        {
            levels.push_back(*level);
        }
        if (!level || levels.size() > 2 || (levels.size() == 2 && levels[0] == levels[1]))
        {
            mose::ThrowBadParameter(option, "\"" + text + "\"", allowed);
        }
        if (comma == std::string::npos)
        {
            return levels;
        }
        start = comma + 1;
    }
}

std::string
LevelText(const std::vector<LlmLevel>& levels)
{
    if (levels.size() == 1 && levels[0] == LlmLevel::PACKET)
    {
        return "";
    }
    if (levels.size() == 1)
    {
        return ", level " + ToString(levels[0]);
    }
    return ", levels " + ToString(levels[0]) + " and " + ToString(levels[1]);
}

} // namespace mose
} // namespace ns3
