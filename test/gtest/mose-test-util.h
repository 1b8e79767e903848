/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TEST_UTIL_H
#define MOSE_TEST_UTIL_H

/**
 * \file
 * \brief Fixtures that several mose-gtest files share: error-message checks, the paper's role
 *        layout and small graphs whose circuit indices the tests compute by hand.
 *
 * Helpers that only one test file needs stay in that file.
 */

#include "ns3/command-line.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-roles.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

/**
 * \brief Expects `text` (anything a std::string can be made from) to contain `part`; prints
 *        `text` when it does not.
 */
#define EXPECT_CONTAINS(text, part)                                                                \
    EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

namespace ns3
{
namespace mose
{
namespace test
{

/**
 * \brief Runs `f` and returns the message of the Error it throws.
 * \param f the call
 * \return the message; "" (and a test failure) if `f` throws none
 */
template <class F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const Error& e)
    {
        return e.what();
    }
    ADD_FAILURE() << "expected a mose::Error";
    return "";
}

/**
 * \brief Expects `call` to throw a mose::Error whose message contains `phrase` (a parameter's name
 *        or any other part of the message).
 * \param call the call
 * \param phrase the text the message must contain
 */
template <class F>
void
ExpectErrorContaining(F&& call, const std::string& phrase)
{
    try
    {
        call();
        ADD_FAILURE() << "expected a mose::Error containing " << phrase;
    }
    catch (const Error& e)
    {
        std::string m = e.what();
        EXPECT_NE(m.find(phrase), std::string::npos) << m;
    }
}

/// \param path a text file \return its lines (none if it cannot be read)
inline std::vector<std::string>
ReadLines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

/**
 * \brief Parses arguments as a program's command line would (after its name, "mose-test").
 * \param cmd the command line, its options added \param args the arguments
 */
inline void
ParseArgs(CommandLine& cmd, std::vector<std::string> args)
{
    args.insert(args.begin(), "mose-test");
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
}

/**
 * \brief Parses a program's options as a user would give them: `Options` adds them to an ns-3
 *        CommandLine (AddOptions()) and returns what they give (GetConfig()).
 * \param args the arguments after the program name
 * \return Options::GetConfig()
 */
template <class Options>
auto
ParseOptions(std::vector<std::string> args)
{
    Options options;
    CommandLine cmd;
    options.AddOptions(cmd);
    ParseArgs(cmd, std::move(args));
    return options.GetConfig();
}

/**
 * \brief A small study that runs in milliseconds: N = 64, d = 4, roles 24/24/16
 *        (inference-heavy) and 8/8/48 (training-heavy).
 * \param flows flows per mode
 * \return the configuration
 */
inline FlowExperimentConfig
SmallStudyConfig(uint64_t flows)
{
    FlowExperimentConfig c;
    c.nodes = 64;
    c.degree = 4;
    c.inferenceRoles = {24, 24, 16};
    c.trainingRoles = {8, 8, 48};
    c.flows = flows;
    return c;
}

/// \return the paper's inference-heavy roles (410 prefill, 410 decode, 204 training) in id order
inline RoleAssignment
PaperRoles()
{
    return RoleAssignment::Contiguous(RoleCounts::InferenceHeavyDefault());
}

/**
 * \brief The ring 0-1-...-(n-1)-0, circuits given as (i, i + 1 mod n).
 *
 * For n = 6 the circuit indices are c0 (0,1), c1 (0,5), c2 (1,2), c3 (2,3), c4 (3,4), c5 (4,5).
 * \param n the number of nodes
 * \return the ring
 */
inline CircuitGraph
Ring(uint32_t n)
{
    std::vector<Circuit> c;
    for (uint32_t i = 0; i < n; ++i)
    {
        c.push_back({i, (i + 1) % n});
    }
    return CircuitGraph(n, c);
}

/**
 * \brief The 3-cube: i ~ j when they differ in one bit.
 *
 * Circuit indices: c0 (0,1), c1 (0,2), c2 (0,4), c3 (1,3), c4 (1,5), c5 (2,3), c6 (2,6),
 * c7 (3,7), c8 (4,5), c9 (4,6), c10 (5,7), c11 (6,7).
 * \return the cube
 */
inline CircuitGraph
Cube3()
{
    std::vector<Circuit> c;
    for (uint32_t i = 0; i < 8; ++i)
    {
        for (uint32_t b = 1; b < 8; b <<= 1)
        {
            if ((i ^ b) > i)
            {
                c.push_back({i, i ^ b});
            }
        }
    }
    return CircuitGraph(8, c);
}

/**
 * \brief The first "set yrange [LOW:HIGH]" of a gnuplot script (a test failure if there is none
 *        or it is malformed).
 * \param script the script's text
 * \return {LOW, HIGH} ({0, 0} on a failure)
 */
inline std::pair<double, double>
ReadYRange(const std::string& script)
{
    const std::size_t at = script.find("set yrange [");
    if (at == std::string::npos)
    {
        ADD_FAILURE() << "no set yrange in\n" << script;
        return {0, 0};
    }
    double low = 0;
    double high = 0;
    char colon = 0;
    std::istringstream(script.substr(at + 12)) >> low >> colon >> high;
    EXPECT_EQ(colon, ':') << script.substr(at, 60);
    return {low, high};
}

/// \param path a file \return its bytes, read in binary ("" if it cannot be read)
inline std::string
ReadFileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

/// \return the folder of the sample traces the module ships, examples/traces, found from this
///         file's path (test/gtest/). ccache (MOSE_CCACHE) compiles with the paths under the
///         source folder made relative to the build folder, where ninja runs the compiler, so
///         a relative __FILE__ is taken from the build folder: the parent of the test
///         binary's bin/ (an ns-3 tree compiles with absolute paths)
inline std::filesystem::path
TracesDir()
{
    std::filesystem::path file(__FILE__);
    if (file.is_relative())
    {
        file = std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / file;
    }
    return file.parent_path().parent_path().parent_path() / "examples" / "traces";
}

/**
 * \brief The circulant C10(1,2): i ~ i +- 1, i +- 2 (mod 10), 4-regular.
 *
 * Circuit indices: c0 (0,1), c1 (0,2), c2 (0,8), c3 (0,9), c4 (1,2), c5 (1,3), c6 (1,9),
 * c7 (2,3), c8 (2,4), c9 (3,4), c10 (3,5), c11 (4,5), c12 (4,6), c13 (5,6), c14 (5,7),
 * c15 (6,7), c16 (6,8), c17 (7,8), c18 (7,9), c19 (8,9).
 * \return the circulant
 */
inline CircuitGraph
Circulant10()
{
    std::vector<Circuit> c;
    for (uint32_t i = 0; i < 10; ++i)
    {
        c.push_back({i, (i + 1) % 10});
        c.push_back({i, (i + 2) % 10});
    }
    return CircuitGraph(10, c);
}

/**
 * \brief Writes a file of the test's own under the temporary folder: FOLDER-PID/NAME.
 * \param folder the folder's prefix (one per test file)
 * \param name the file's name
 * \param text its contents
 * \return its path
 */
inline std::string
TempFile(const std::string& folder, const std::string& name, const std::string& text)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / (folder + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
}

/**
 * \param name a test's folder \return an empty folder for it under the temporary folder, one per
 *         test process (its pid in the name); the test removes it
 */
inline std::string
FreshTempFolder(const std::string& name)
{
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("mose-" + name + "-" + std::to_string(::getpid())))
                                .string();
    std::filesystem::remove_all(dir);
    return dir;
}

/**
 * \param dir a folder
 * \return the names of the files in it, sorted: what a report wrote, to compare with the names it
 *         declares (SortedNames())
 */
inline std::vector<std::string>
ListFileNames(const std::string& dir)
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

/**
 * \param lists lists of file names (a report's name functions)
 * \return them in one list, sorted; a name listed twice stays twice, so that it differs from
 *         ListFileNames()
 */
inline std::vector<std::string>
SortedNames(const std::vector<std::vector<std::string>>& lists)
{
    std::vector<std::string> names;
    for (const std::vector<std::string>& list : lists)
    {
        names.insert(names.end(), list.begin(), list.end());
    }
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_TEST_UTIL_H */
