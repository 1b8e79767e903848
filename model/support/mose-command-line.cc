/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-command-line.h"

#include "mose-attribute.h"
#include "mose-error.h"
#include "mose-ns3-compat.h"
#include "mose-parse.h"
#include "mose-text-io.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/global-value.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <new>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>
#include <utility>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseCommandLine");

namespace
{

/// Checks one name=value pair if it is RngRun or RngSeed; \p shown is how the user wrote it
void
CheckRngValue(const std::string& name, const std::string& value, const std::string& shown)
{
    if (name == "RngRun")
    {
        ParseUnsigned64(shown, value);
    }
    else if (name == "RngSeed")
    {
        if (ParseUnsigned32(shown, value) == 0)
        {
            ThrowBadParameter(shown,
                              "\"0\"",
                              "the seed must be 1..4294967295 (MRG32k3a needs a "
                              "nonzero seed)");
        }
    }
}

std::string
AttributeNames(TypeId tid)
{
    std::vector<std::string> names;
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            names.push_back(t.GetAttribute(i).name);
        }
        if (t == t.GetParent())
        {
            break;
        }
    }
    std::sort(names.begin(), names.end());
    std::string text;
    for (const std::string& n : names)
    {
        text += (text.empty() ? "" : ", ") + n;
    }
    return text;
}

/**
 * \brief Reads an ns-3 Time text strictly: an optional sign, a number and an optional unit
 *        that ns-3's Time(std::string) knows (it aborts on anything else).
 * \param text the text \return whether it is one
 */
bool
IsTimeText(const std::string& text)
{
    std::size_t n = text.find_first_not_of("+-0123456789.eE");
    std::string number = text.substr(0, n);
    std::string unit = n == std::string::npos ? "" : text.substr(n);
    static const std::vector<std::string> units =
        {"", "s", "ms", "us", "ns", "ps", "fs", "min", "h", "d", "y"};
    if (number.empty() || std::find(units.begin(), units.end(), unit) == units.end())
    {
        return false;
    }
    double value = 0;
    return TryParseReal(number[0] == '-' || number[0] == '+' ? number.substr(1) : number, value)
               .empty() &&
           std::isfinite(value);
}

/// \return the range a Time checker allows, found by trying values: ">= 0", "> 0" or ""
std::string
TimeRange(const Ptr<const AttributeChecker>& checker)
{
    if (checker->Check(TimeValue(NanoSeconds(-1))))
    {
        return "";
    }
    return checker->Check(TimeValue(Seconds(0))) ? " >= 0" : " > 0";
}

/// \return the text typed for each module attribute on the command line, by path
std::map<std::string, std::string>&
TypedAttributes()
{
    static std::map<std::string, std::string> typed;
    return typed;
}

/// \return the type and attribute name of "ns3::Type::Name" (a mose::Error if there is none)
std::pair<TypeId, std::string>
LookupAttributePath(const std::string& path)
{
    const std::size_t sep = path.rfind("::");
    TypeId tid;
    if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(path.substr(0, sep), &tid))
    {
        throw Error("there is no attribute " + path);
    }
    return {tid, path.substr(sep + 2)};
}

/**
 * \brief Checks the text of an attribute or global value by its checker's kind (integer, real,
 *        boolean, time, data rate, IPv4 address, TypeId, enum, or any other kind the checker
 *        reads); throws a mose::Error naming \p option.
 * \param option the option as typed, with dashes
 * \param value the text after '='
 * \param checker the value's checker
 * \param help " (what the value is)", for the message
 * \param settable whether the value can be set at all
 */
void
CheckValueText(const std::string& option,
               const std::string& value,
               const Ptr<const AttributeChecker>& checker,
               const std::string& help,
               bool settable)
{
    const std::string quoted = QuoteText(value);
    // ns-3 names some kinds with "ns3::" (TimeValue, UintegerValue), some without (DataRateValue)
    std::string kind = checker->GetValueTypeName();
    if (kind.rfind("ns3::", 0) != 0)
    {
        kind = "ns3::" + kind;
    }
    Ptr<AttributeValue> parsed;
    if (kind == "ns3::UintegerValue")
    {
        const uint64_t v = ParseUnsigned64(option, value);
        parsed = Create<UintegerValue>(v);
        if (!checker->Check(*parsed))
        {
            ThrowBadParameter(option,
                              quoted,
                              "an integer in " + checker->GetUnderlyingTypeInformation() + help);
        }
        return;
    }
    if (kind == "ns3::DoubleValue")
    {
        const double v = ParseReal(option, value);
        if (!checker->Check(DoubleValue(v)))
        {
            ThrowBadParameter(option,
                              quoted,
                              "a number in " + checker->GetUnderlyingTypeInformation() + help);
        }
        return;
    }
    if (kind == "ns3::BooleanValue")
    {
        ParseBool(option, value);
        return;
    }
    if (kind == "ns3::TimeValue")
    {
        const std::string allowed = "a time" + TimeRange(checker) +
                                    ": a number with an optional unit s, ms, us, ns, ps, fs, "
                                    "min, h, d or y (no unit: seconds), e.g. 10ms" +
                                    help;
        if (!IsTimeText(value))
        {
            ThrowBadParameter(option, quoted, allowed);
        }
        TimeValue t;
        if (!t.DeserializeFromString(value, checker) || !checker->Check(t))
        {
            ThrowBadParameter(option, quoted, allowed);
        }
        return;
    }
    if (kind == "ns3::DataRateValue")
    {
        DataRateValue rate;
        if (!rate.DeserializeFromString(value, checker) || rate.Get().GetBitRate() == 0)
        {
            ThrowBadParameter(option,
                              quoted,
                              DataRateAllowed("400Gbps or 100Mbps") +
                                  " (a link at 0 bps never finishes a packet)" + help);
        }
        return;
    }
    if (kind == "ns3::QueueSizeValue")
    {
        // ns-3's own message names the type only ("a value of QueueSize"): give its forms
        Ptr<AttributeValue> v = checker->Create();
        if (!v->DeserializeFromString(value, checker) || !checker->Check(*v))
        {
            ThrowBadParameter(option,
                              quoted,
                              "a queue size: a count with its unit, packets (100p) or bytes "
                              "(64kB, 1500B)" +
                                  help);
        }
        return;
    }
    if (kind == "ns3::Ipv4AddressValue")
    {
        in_addr address;
        if (inet_pton(AF_INET, value.c_str(), &address) != 1)
        {
            ThrowBadParameter(option, quoted, "an IPv4 address a.b.c.d, e.g. 10.0.0.0" + help);
        }
        return;
    }
    if (kind == "ns3::TypeIdValue")
    {
        TypeId other;
        if (!TypeId::LookupByNameFailSafe(value, &other))
        {
            ThrowBadParameter(option,
                              quoted,
                              "the name of a type, e.g. ns3::TcpSocketFactory (--PrintTypeIds "
                              "lists them)" +
                                  help);
        }
        return;
    }
    if (kind.rfind("ns3::EnumValue", 0) == 0) // "ns3::EnumValue<T>" from ns-3.41
    {
        const std::vector<std::string> allowed = GetEnumNames(*checker);
        if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
        {
            const std::string list = JoinAlternatives(allowed);
            ThrowBadParameter(option, quoted, "allowed values are " + list + help);
        }
        return;
    }
    if (kind == "ns3::IntegerValue")
    {
        int64_t v = 0;
        const bool negative = !value.empty() && value[0] == '-';
        const uint64_t magnitude = ParseUnsigned64(option, negative ? value.substr(1) : value);
        if (magnitude > static_cast<uint64_t>(INT64_MAX))
        {
            ThrowBadParameter(option,
                              quoted,
                              "an integer in " + checker->GetUnderlyingTypeInformation() + help);
        }
        v = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
        if (!checker->Check(IntegerValue(v)))
        {
            ThrowBadParameter(option,
                              quoted,
                              "an integer in " + checker->GetUnderlyingTypeInformation() + help);
        }
        return;
    }
    // pointers, object vectors and other kinds: no value can be given as text
    if (!settable || kind == "ns3::PointerValue" || kind == "ns3::ObjectPtrContainerValue")
    {
        ThrowBadParameter(option,
                          quoted,
                          "the attribute cannot be set on the command line (" + kind + ")");
    }
    Ptr<AttributeValue> v = checker->Create();
    if (!v->DeserializeFromString(value, checker) || !checker->Check(*v))
    {
        ThrowBadParameter(option,
                          quoted,
                          "a value of " + checker->GetUnderlyingTypeInformation() + help);
    }
}

} // namespace

std::string
DataRateAllowed(const std::string& example)
{
    // ns-3 reads the number as a double and keeps whole bit/s in 64 bits: the largest double
    // below 2^64 is the largest rate it reads
    return "a data rate > 0 and at most 18446744073709549568bps (ns-3's DataRate holds a 64-bit "
           "count of bit/s), a number without an exponent and a unit (bps, kbps, Mbps, Gbps, "
           "B/s, ...), e.g. " +
           example;
}

void
CheckModuleAttribute(const std::string& name, const std::string& value)
{
    NS_LOG_FUNCTION(name << value);
    const std::string option = "--" + name;
    const std::string quoted = QuoteText(value);
    const std::size_t sep = name.rfind("::");
    const std::string typeName = sep == std::string::npos ? name : name.substr(0, sep);
    const std::string attribute = sep == std::string::npos ? "" : name.substr(sep + 2);
    TypeId tid;
    if (sep == std::string::npos || sep == 0 || !TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        ThrowBadParameter(option,
                          quoted,
                          "there is no type " + typeName +
                              " (write --ns3::TYPE::ATTRIBUTE=VALUE; --PrintTypeIds lists the "
                              "types)");
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        ThrowBadParameter(option,
                          quoted,
                          typeName + " has no attribute " + attribute + "; its attributes are " +
                              AttributeNames(tid));
    }
    CheckValueText(option,
                   value,
                   info.checker,
                   " (" + info.help + ")",
                   (info.flags & TypeId::ATTR_SET) != 0);
}

void
CheckModuleAttributes(int argc, char* argv[])
{
    NS_LOG_FUNCTION(argc);
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i] != nullptr ? argv[i] : "";
        std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        std::string rest = arg.substr(dashes);
        // the module's attributes and ns-3's own: ns-3 aborts on "--ns3::TcpSocketBase::MinRto=abc"
        if (dashes == 0 || rest.rfind("ns3::", 0) != 0)
        {
            continue;
        }
        std::size_t eq = rest.find('=');
        if (eq == std::string::npos)
        {
            ThrowBadParameter("--" + rest,
                              "\"\"",
                              "an attribute needs a value (write --" + rest + "=VALUE)");
        }
        CheckModuleAttribute(rest.substr(0, eq), rest.substr(eq + 1));
        TypedAttributes()[rest.substr(0, eq)] = rest.substr(eq + 1);
    }
}

namespace
{

/**
 * \brief The base type that the type a TypeId global value names must derive from: the
 *        Simulator creates its implementation and scheduler from them with an ObjectFactory, and
 *        a type that is not one crashes the first Simulator call.
 * \param name the global value's name
 * \return the base, or none if ns-3 asks only for an existing type
 */
std::optional<TypeId>
GlobalValueBase(const std::string& name)
{
    if (name == "SimulatorImplementationType")
    {
        return TypeId::LookupByName("ns3::SimulatorImpl");
    }
    if (name == "SchedulerType")
    {
        return TypeId::LookupByName("ns3::Scheduler");
    }
    return std::nullopt;
}

/// Checks one name=value pair if the name is an ns-3 global value; \p shown is how the user
/// wrote the name
void
CheckGlobalValueText(const std::string& name,
                     const std::string& value,
                     bool hasValue,
                     const std::string& shown)
{
    if (name == "RngRun" || name == "RngSeed")
    {
        return; // CheckRngArguments()
    }
    for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
    {
        if ((*g)->GetName() != name)
        {
            continue;
        }
        const Ptr<const AttributeChecker> checker = (*g)->GetChecker();
        std::string kind = checker->GetValueTypeName();
        if (kind.rfind("ns3::", 0) != 0)
        {
            kind = "ns3::" + kind; // as CheckValueText() names the kinds
        }
        const std::string help = " (" + (*g)->GetHelp() + ")";
        // SimulatorImplementationType is a string that names a type, SchedulerType a TypeId
        const std::optional<TypeId> base = GlobalValueBase(name);
        if (kind != "ns3::TypeIdValue" && !base)
        {
            if (hasValue || kind != "ns3::BooleanValue")
            {
                CheckValueText(shown, value, checker, help, true);
            }
            return;
        }
        TypeId tid;
        const bool found = TypeId::LookupByNameFailSafe(value, &tid);
        if (!base)
        {
            if (!found)
            {
                ThrowBadParameter(shown,
                                  QuoteText(value),
                                  "the name of a type (--PrintTypeIds lists them)" + help);
            }
            return;
        }
        if (!found || tid == *base || !tid.IsChildOf(*base) || !tid.HasConstructor())
        {
            std::vector<std::string> allowed;
            for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
            {
                const TypeId t = TypeId::GetRegistered(i);
                if (t != *base && t.IsChildOf(*base) && t.HasConstructor())
                {
                    allowed.push_back(t.GetName());
                }
            }
            std::sort(allowed.begin(), allowed.end());
            ThrowBadParameter(shown,
                              QuoteText(value),
                              "allowed values are " + JoinAlternatives(allowed) +
                                  " (the types derived from " + base->GetName() + ")" + help);
        }
        return;
    }
}

} // namespace

void
CheckGlobalValues(int argc, char* argv[])
{
    NS_LOG_FUNCTION(argc);
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i] != nullptr ? argv[i] : "";
        const std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        if (dashes == 0)
        {
            continue;
        }
        const std::string rest = arg.substr(dashes);
        const std::size_t eq = rest.find('=');
        const std::string name = rest.substr(0, eq);
        CheckGlobalValueText(name,
                             eq == std::string::npos ? "" : rest.substr(eq + 1),
                             eq != std::string::npos,
                             "--" + name);
    }
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env != nullptr)
    {
        std::istringstream pairs(env);
        std::string pair;
        while (std::getline(pairs, pair, ';'))
        {
            const std::size_t eq = pair.find('=');
            const std::string name = pair.substr(0, eq);
            CheckGlobalValueText(name,
                                 eq == std::string::npos ? "" : pair.substr(eq + 1),
                                 eq != std::string::npos,
                                 "NS_GLOBAL_VALUE " + name);
        }
    }
}

bool
IsModuleAttributeSet(const std::string& path)
{
    const auto [tid, name] = LookupAttributePath(path);
    return IsAttributeDefaultSet(tid, name);
}

std::string
GetModuleAttributeText(const std::string& path)
{
    const auto [tid, name] = LookupAttributePath(path);
    if (!IsAttributeDefaultSet(tid, name))
    {
        return "";
    }
    const std::string current = GetAttributeDefaultText(tid, name);
    TypeId::AttributeInformation info;
    tid.LookupAttributeByName(name, &info);
    // the text typed, if it is still what the default holds (not replaced by a later
    // Config::SetDefault())
    auto typed = TypedAttributes().find(path);
    if (typed != TypedAttributes().end())
    {
        Ptr<AttributeValue> value = info.checker->Create();
        if (value->DeserializeFromString(typed->second, info.checker) &&
            value->SerializeToString(info.checker) == current)
        {
            return typed->second;
        }
    }
    // a time as ns-3 writes it ("+1.5e+08ns") is no duration the options read
    TimeValue time;
    if (info.checker->GetValueTypeName() == "ns3::TimeValue" &&
        time.DeserializeFromString(current, info.checker))
    {
        return std::to_string(time.Get().GetNanoSeconds()) + "ns";
    }
    return current;
}

std::optional<std::string>
ResolveAttributeOption(const AttributeOption& o, const std::optional<std::string>& given)
{
    NS_LOG_FUNCTION(o.option << o.attribute);
    if (!IsModuleAttributeSet(o.attribute))
    {
        return given;
    }
    const std::string attributeText = GetModuleAttributeText(o.attribute);
    const std::string attributeValue = o.read("--" + o.attribute, attributeText);
    if (!given)
    {
        NS_LOG_INFO("--" << o.option << " from --" << o.attribute << " = " << attributeText);
        return attributeText;
    }
    if (o.read("--" + o.option, *given) != attributeValue)
    {
        throw Error("--" + o.option + " = " + QuoteText(*given) + " and --" + o.attribute + " = " +
                    QuoteText(attributeText) +
                    " disagree: give one (the program sets the attribute from --" + o.option + ")");
    }
    return given;
}

void
RejectModuleAttribute(const std::string& path, const std::string& reason)
{
    NS_LOG_FUNCTION(path << reason);
    if (IsModuleAttributeSet(path))
    {
        ThrowBadParameter("--" + path,
                          QuoteText(GetModuleAttributeText(path)),
                          "the attribute would not be used: " + reason);
    }
}

void
RejectModuleAttributes(const std::string& program)
{
    NS_LOG_FUNCTION(program);
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() != "Mose")
        {
            continue;
        }
        for (std::size_t k = 0; k < tid.GetAttributeN(); ++k)
        {
            RejectModuleAttribute(tid.GetName() + "::" + tid.GetAttribute(k).name,
                                  program +
                                      " works at the flow level and creates no ns-3 object of "
                                      "the module");
        }
    }
}

void
CheckRngArguments(int argc, char* argv[])
{
    NS_LOG_FUNCTION(argc);
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i] != nullptr ? argv[i] : "";
        std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        if (dashes == 0)
        {
            continue;
        }
        std::string rest = arg.substr(dashes);
        std::size_t eq = rest.find('=');
        std::string name = rest.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : rest.substr(eq + 1);
        CheckRngValue(name, value, "--" + name);
    }
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env != nullptr)
    {
        NS_LOG_LOGIC("checking NS_GLOBAL_VALUE = " << env);
        std::istringstream pairs(env);
        std::string pair;
        while (std::getline(pairs, pair, ';'))
        {
            std::size_t eq = pair.find('=');
            std::string name = pair.substr(0, eq);
            std::string value = eq == std::string::npos ? "" : pair.substr(eq + 1);
            CheckRngValue(name, value, "NS_GLOBAL_VALUE " + name);
        }
    }
}

namespace
{

/// \return whether a name is an ns-3 global value or an attribute path "ns3::Type::Name"
bool
IsNs3Name(const std::string& name)
{
    for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
    {
        if ((*g)->GetName() == name)
        {
            return true;
        }
    }
    const std::size_t sep = name.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    return sep != std::string::npos && sep > 0 &&
           TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid) &&
           tid.LookupAttributeByName(name.substr(sep + 2), &info);
}

/// Throws the error of an option given as "--name=" (the name known)
[[noreturn]] void
ThrowEmptyValue(const std::string& name)
{
    ThrowBadParameter("--" + name,
                      "\"\"",
                      "the value is empty (write --" + name + "=VALUE; see --PrintHelp)");
}

} // namespace

void
CheckEmptyValues(const CommandLine& cmd, int argc, char* argv[])
{
    NS_LOG_FUNCTION(argc);
    // the program's options and ns-3's general arguments, as --PrintHelp lists them
    std::ostringstream help;
    cmd.PrintHelp(help);
    std::vector<std::string> options;
    std::istringstream lines(help.str());
    for (std::string line; std::getline(lines, line);)
    {
        // "    --nodes:  help [64]", "    --PrintAttributes=[typeid]:  help"
        const std::size_t start = line.find_first_not_of(' ');
        const std::size_t end = line.find_first_of(":=");
        if (start != std::string::npos && line.compare(start, 2, "--") == 0 &&
            end != std::string::npos && end > start + 2)
        {
            options.push_back(line.substr(start + 2, end - start - 2));
        }
    }
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i] != nullptr ? argv[i] : "";
        const std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        const std::size_t eq = arg.find('=');
        if (dashes == 0 || eq == std::string::npos || eq + 1 != arg.size())
        {
            continue;
        }
        const std::string name = arg.substr(dashes, eq - dashes);
        if (std::find(options.begin(), options.end(), name) != options.end() || IsNs3Name(name))
        {
            ThrowEmptyValue(name);
        }
        ThrowBadParameter("--" + name,
                          "\"\"",
                          "there is no option --" + name +
                              " (--PrintHelp lists the options, --PrintGlobals the global "
                              "values)");
    }
}

void
AddTextOption(CommandLine& cmd,
              const std::string& name,
              const std::string& help,
              std::string& value)
{
    NS_LOG_FUNCTION(name);
    std::string* target = &value;
    cmd.AddValue(name,
                 help,
                 Callback<bool, MOSE_COMMAND_LINE_CB_ARG>([target](MOSE_COMMAND_LINE_CB_ARG text) {
                     *target = std::string(text);
                     return true;
                 }),
                 value);
}

std::string
ReadTimeOption(const std::string& parameter, const std::string& text)
{
    return std::to_string(ParseTimeOption(parameter, text).GetNanoSeconds()) + "ns";
}

void
AddTextOption(CommandLine& cmd,
              const std::string& name,
              const std::string& help,
              std::string& value,
              bool& given)
{
    NS_LOG_FUNCTION(name);
    std::string* target = &value;
    bool* seen = &given;
    cmd.AddValue(
        name,
        help,
        Callback<bool, MOSE_COMMAND_LINE_CB_ARG>([target, seen](MOSE_COMMAND_LINE_CB_ARG text) {
            *target = std::string(text);
            *seen = true;
            return true;
        }),
        value);
}

void
AddBoolOption(CommandLine& cmd, const std::string& name, const std::string& help, bool& value)
{
    NS_LOG_FUNCTION(name << value);
    bool* target = &value;
    const std::string option = "--" + name;
    cmd.AddValue(
        name,
        help,
        Callback<bool, MOSE_COMMAND_LINE_CB_ARG>([target, option](MOSE_COMMAND_LINE_CB_ARG text) {
            // "--name" alone toggles, as it does an ns-3 bool option ("--name=" is refused
            // before, by CheckEmptyValues())
            *target = std::string(text).empty() ? !*target : ParseBool(option, text);
            return true;
        }),
        value ? "true" : "false");
}

void
AddBoolOption(CommandLine& cmd,
              const std::string& name,
              const std::string& help,
              bool& value,
              bool& given)
{
    NS_LOG_FUNCTION(name << value);
    bool* target = &value;
    bool* seen = &given;
    const std::string option = "--" + name;
    cmd.AddValue(name,
                 help,
                 Callback<bool, MOSE_COMMAND_LINE_CB_ARG>(
                     [target, seen, option](MOSE_COMMAND_LINE_CB_ARG text) {
                         *target = std::string(text).empty() ? !*target : ParseBool(option, text);
                         *seen = true;
                         return true;
                     }),
                 value ? "true" : "false");
}

void
ParseCommandLine(CommandLine& cmd, int argc, char* argv[])
{
    NS_LOG_FUNCTION(argc);
    CheckRngArguments(argc, argv);
    CheckGlobalValues(argc, argv);
    CheckEmptyValues(cmd, argc, argv);
    CheckModuleAttributes(argc, argv);
    cmd.Parse(argc, argv);
}

namespace
{
/// \return "12.3 GB", or "456 MB" below a gigabyte, for a message
std::string
FormatMemory(uint64_t bytes)
{
    std::ostringstream os;
    if (bytes >= 1000000000)
    {
        os << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / 1e9 << " GB";
    }
    else
    {
        os << (bytes + 500000) / 1000000 << " MB";
    }
    return os.str();
}

/// Forwards every character to a target buffer and keeps the errno of its first failed write
class ErrnoRecordingBuffer : public std::streambuf
{
  public:
    /// \param target the buffer written through (the errno recorded is cleared)
    void SetTarget(std::streambuf* target)
    {
        m_target = target;
        m_errno = 0;
    }

    /// \return the errno of the first write that failed (0: none, or none recorded)
    int GetErrno() const
    {
        return m_errno;
    }

  protected:
    int overflow(int c) override
    {
        if (traits_type::eq_int_type(c, traits_type::eof()))
        {
            return traits_type::not_eof(c);
        }
        errno = 0;
        const int r = m_target->sputc(traits_type::to_char_type(c));
        if (traits_type::eq_int_type(r, traits_type::eof()))
        {
            Record();
        }
        return r;
    }

    std::streamsize xsputn(const char* s, std::streamsize n) override
    {
        errno = 0;
        const std::streamsize written = m_target->sputn(s, n);
        if (written < n)
        {
            Record();
        }
        return written;
    }

    int sync() override
    {
        errno = 0;
        const int r = m_target->pubsync();
        if (r != 0)
        {
            Record();
        }
        return r;
    }

  private:
    /// keeps errno if no failure was recorded before
    void Record()
    {
        if (m_errno == 0)
        {
            m_errno = errno;
        }
    }

    std::streambuf* m_target{nullptr}; //!< where the characters go
    int m_errno{0};                    //!< the first failure's errno
};
} // namespace

std::string
OutOfMemoryMessage(int argc, char* argv[])
{
    std::string options;
    for (int i = 1; i < argc; ++i)
    {
        if (argv[i] != nullptr && argv[i][0] == '-')
        {
            options += std::string(options.empty() ? "" : " ") + argv[i];
        }
    }
    struct rusage usage;
    const uint64_t peak =
        getrusage(RUSAGE_SELF, &usage) == 0 ? static_cast<uint64_t>(usage.ru_maxrss) * 1024 : 0;
    const uint64_t available = AvailableMemoryBytes();
    std::string text = "out of memory: an allocation failed after the process had used " +
                       FormatMemory(peak) + " (its peak resident memory)";
    if (available != UINT64_MAX)
    {
        text += " of the " + FormatMemory(available) + " available to it";
    }
    return text + "; the run " +
           (options.empty() ? std::string("with the default options") : "of " + options) +
           " is too large for this machine: reduce the options that size it (--PrintHelp "
           "lists them)";
}

int
RunProgram(const std::string& program, int argc, char* argv[], const std::function<void()>& body)
{
    NS_LOG_FUNCTION(program << argc);
    try
    {
        // standard output through a recorder of its first failed write's errno: the failure
        // of a write long before the final flush is reported with its cause
        static ErrnoRecordingBuffer recorder;
        std::streambuf* const original = std::cout.rdbuf();
        const bool recording = original != &recorder;
        // gives std::cout its buffer back, also when the body throws (unless the body replaced
        // it, as the study programs' scaffold does on the ranks that do not print: it gives
        // that back)
        auto restore = [recording, original]() {
            if (recording && std::cout.rdbuf() == &recorder)
            {
                const std::ios_base::iostate state = std::cout.rdstate();
                std::cout.rdbuf(original); // clears the state: set again
                std::cout.setstate(state);
            }
        };

        struct Restore
        {
            std::function<void()> f; //!< the restore

            ~Restore()
            {
                f();
            }
        } restoreAtExit{restore};

        if (recording)
        {
            recorder.SetTarget(original);
            std::cout.rdbuf(&recorder);
        }
        body();
        std::cout.flush();
        restore();
        if (!std::cout)
        {
            throw Error("cannot write to standard output: " +
                        DescribeWriteFailure(std::cout, recorder.GetErrno()));
        }
        return 0;
    }
    catch (const Error& e)
    {
        std::cerr << program << ": error: " << e.what() << std::endl;
    }
    catch (const std::bad_alloc&)
    {
        std::cerr << program << ": error: " << OutOfMemoryMessage(argc, argv) << std::endl;
    }
    catch (const std::exception& e)
    {
        std::cerr << program << ": error: " << e.what() << std::endl;
    }
    return 1;
}

uint64_t
AvailableMemoryBytes()
{
    NS_LOG_FUNCTION_NOARGS();
    uint64_t bytes = UINT64_MAX;
    long pages = sysconf(_SC_PHYS_PAGES);
    long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pageSize > 0)
    {
        bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
    }
    for (int resource : {RLIMIT_AS, RLIMIT_DATA})
    {
        struct rlimit limit;
        if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        {
            bytes = std::min<uint64_t>(bytes, limit.rlim_cur);
        }
    }
    std::ifstream cgroup("/sys/fs/cgroup/memory.max");
    uint64_t max = 0;
    if (cgroup >> max)
    {
        bytes = std::min(bytes, max);
    }
    NS_LOG_LOGIC("available memory " << bytes << " bytes");
    return bytes;
}

} // namespace mose
} // namespace ns3
