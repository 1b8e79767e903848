/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-program.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-traffic.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <new>
#include <sstream>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseProgram");

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

/// \return "12.3 GB" for a message
std::string
FormatBytes(uint64_t bytes)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / 1e9 << " GB";
    return os.str();
}

} // namespace

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

void
CheckArguments(int argc, char* argv[], const std::vector<std::string>& boolOptions)
{
    NS_LOG_FUNCTION(argc << boolOptions.size());
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i] != nullptr ? argv[i] : "";
        std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        std::size_t eq = arg.find('=');
        if (dashes == 0 || eq == std::string::npos)
        {
            continue;
        }
        std::string name = arg.substr(dashes, eq - dashes);
        std::string value = arg.substr(eq + 1);
        if (value.empty())
        {
            ThrowBadParameter("--" + name,
                              "\"\"",
                              "the value is empty (write --" + name + "=VALUE; see --PrintHelp)");
        }
        if (std::find(boolOptions.begin(), boolOptions.end(), name) != boolOptions.end())
        {
            ParseBool("--" + name, value);
        }
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
                 Callback<bool, std::string>([target](std::string text) {
                     *target = std::move(text);
                     return true;
                 }),
                 value);
}

int
RunMoseProgram(const std::string& program,
               int argc,
               char* argv[],
               const std::vector<std::string>& boolOptions,
               const std::function<void()>& body)
{
    NS_LOG_FUNCTION(program << argc << boolOptions.size());
    try
    {
        CheckRngArguments(argc, argv);
        CheckArguments(argc, argv, boolOptions);
        body();
        std::cout.flush();
        if (!std::cout)
        {
            throw MoseError("cannot write to standard output (disk full or output closed?)");
        }
        return 0;
    }
    catch (const MoseError& e)
    {
        std::cerr << program << ": error: " << e.what() << std::endl;
    }
    catch (const std::bad_alloc&)
    {
        std::cerr << program
                  << ": error: out of memory; the run is too large for this machine (reduce "
                     "--nodes, --degree, --flows or --threads)"
                  << std::endl;
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

void
CheckMemory(const std::string& what, uint64_t bytes)
{
    NS_LOG_FUNCTION(what << bytes);
    uint64_t available = AvailableMemoryBytes();
    if (bytes > available)
    {
        throw MoseError(what + " needs at least " + FormatBytes(bytes) + " of memory; " +
                        FormatBytes(available) + " are available to this process");
    }
    NS_LOG_LOGIC(what << ": needs " << FormatBytes(bytes) << " of " << FormatBytes(available));
}

void
CheckStudyMemory(const MoseFlowExperimentConfig& config, uint32_t workers)
{
    NS_LOG_FUNCTION(config.nodes << config.degree << config.flows << workers);
    // saturating arithmetic: every product is kept below 2^64 by dividing first
    auto mul = [](uint64_t a, uint64_t b) {
        return (a != 0 && b > UINT64_MAX / a) ? UINT64_MAX : a * b;
    };
    auto add = [](uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; };
    const uint64_t circuits = static_cast<uint64_t>(config.nodes) * config.degree / 2;
    uint64_t seed = mul(mul(2, config.flows), sizeof(Flow));
    seed = add(seed, mul(mul(3, circuits), 3 * 8));
    seed = add(seed, FlowEvaluator::EstimateBytes(config.nodes, config.flows));
    std::ostringstream what;
    what << "--nodes=" << config.nodes << " --degree=" << config.degree
         << " --flows=" << config.flows;
    if (workers > 1)
    {
        what << " on " << workers << " worker threads (--threads)";
    }
    CheckMemory(what.str(), mul(seed, std::max<uint32_t>(workers, 1)));
}

} // namespace mose
} // namespace ns3
