/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-attribute.h"

#include "mose-error.h"

#include "ns3/nstime.h"
#include "ns3/string.h"

#include <algorithm>
#include <sstream>

namespace ns3
{
namespace mose
{
namespace
{

/// \return the attribute's information (Error if the type has no such attribute)
TypeId::AttributeInformation
LookupAttribute(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw Error("attribute \"" + name + "\": " + tid.GetName() +
                    " has no attribute of that name");
    }
    return info;
}

} // namespace

bool
IsAttributeDefaultSet(TypeId tid, const std::string& name)
{
    const TypeId::AttributeInformation info = LookupAttribute(tid, name);
    return info.initialValue != info.originalInitialValue;
}

std::string
GetAttributeDefaultText(TypeId tid, const std::string& name)
{
    const TypeId::AttributeInformation info = LookupAttribute(tid, name);
    return info.initialValue->SerializeToString(info.checker);
}

std::string
GetAttributeValueText(TypeId tid, const std::string& name, const AttributeValue& value)
{
    const TypeId::AttributeInformation info = LookupAttribute(tid, name);
    const std::vector<std::string> names = GetEnumNames(*info.checker);
    // CreateValidValue() of text parses it with EnumValue::DeserializeFromString(), which does
    // not reject an unknown name (see GetEnumNames())
    if (!names.empty() && dynamic_cast<const StringValue*>(&value) != nullptr)
    {
        const std::string text = value.SerializeToString(info.checker);
        if (std::find(names.begin(), names.end(), text) == names.end())
        {
            throw Error("attribute " + tid.GetName() + "::" + name + ": the value \"" + text +
                        "\" is not valid; allowed: " + JoinAlternatives(names));
        }
    }
    Ptr<AttributeValue> valid = info.checker->CreateValidValue(value);
    if (!valid)
    {
        throw Error("attribute " + tid.GetName() + "::" + name + ": the value \"" +
                    value.SerializeToString(info.checker) +
                    "\" is not valid; allowed: " + info.checker->GetUnderlyingTypeInformation());
    }
    return valid->SerializeToString(info.checker);
}

std::string
FormatAttributeText(TypeId tid, const std::string& name, const std::string& text)
{
    const TypeId::AttributeInformation info = LookupAttribute(tid, name);
    Ptr<AttributeValue> value = info.checker->Create();
    const auto* time = dynamic_cast<const TimeValue*>(PeekPointer(value));
    if (time == nullptr || !value->DeserializeFromString(text, info.checker))
    {
        return text;
    }
    std::ostringstream os;
    os << time->Get().As(Time::AUTO);
    return os.str();
}

std::string
GetAttributeText(const ObjectBase& object, const std::string& name)
{
    const TypeId::AttributeInformation info = LookupAttribute(object.GetInstanceTypeId(), name);
    Ptr<AttributeValue> value = info.checker->Create();
    object.GetAttribute(name, *value);
    return value->SerializeToString(info.checker);
}

bool
IsAttributeUserSet(const ObjectBase& object, const std::string& name)
{
    const TypeId tid = object.GetInstanceTypeId();
    return IsAttributeDefaultSet(tid, name) ||
           GetAttributeText(object, name) != GetAttributeDefaultText(tid, name);
}

std::vector<std::string>
GetEnumNames(const AttributeChecker& checker)
{
    std::vector<std::string> names;
    // EnumChecker is a class up to ns-3.40 and a template on the enum type from 3.41, so it is
    // recognised by the value type it names: "ns3::EnumValue", or "ns3::EnumValue<T>"
    if (checker.GetValueTypeName().rfind("ns3::EnumValue", 0) != 0)
    {
        return names;
    }
    std::istringstream in(checker.GetUnderlyingTypeInformation());
    std::string item;
    while (std::getline(in, item, '|'))
    {
        names.push_back(item);
    }
    return names;
}

std::string
JoinAlternatives(const std::vector<std::string>& names)
{
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        list += (i == 0 ? "" : (i + 1 == names.size() ? " or " : ", ")) + names[i];
    }
    return list;
}

} // namespace mose
} // namespace ns3
