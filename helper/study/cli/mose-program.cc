/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-program.h"

#include "mose-study-report.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"
#include "ns3/mose-traffic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <utility>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseProgram");

namespace
{

/// Standard output of the ranks other than 0 of a distributed run: discarded
class DiscardBuffer : public std::streambuf
{
  protected:
    int overflow(int c) override
    {
        return traits_type::not_eof(c);
    }
};

DiscardBuffer g_discard;                //!< Program::Parse() on ranks other than 0
std::streambuf* g_coutBuffer = nullptr; //!< std::cout's own buffer while it is discarded

/// \return a file as a message names it: its option as typed and its path
std::string
Named(const FileOption& f)
{
    return f.option + " = " + QuoteText(f.path);
}
} // namespace

void
CheckOutputFolder(const std::string& option, const std::string& folder)
{
    NS_LOG_FUNCTION(option << folder);
    try
    {
        MakeOutputDirectory(folder);
    }
    catch (const Error& e)
    {
        ThrowBadParameter(option, QuoteText(folder), e.what());
    }
    const std::string probe = folder + "/.mose-write-probe-" + std::to_string(getpid());
    bool written = false;
    {
        std::ofstream out(probe);
        out << "probe\n";
        out.close();
        written = static_cast<bool>(out);
    }
    std::remove(probe.c_str());
    if (!written)
    {
        ThrowBadParameter(option,
                          QuoteText(folder),
                          "cannot write a file in the folder (read-only, full or no permission)");
    }
}

void
CheckOutputsAreNotInputs(const std::vector<FileOption>& inputs,
                         const std::vector<FileOption>& outputs)
{
    NS_LOG_FUNCTION(inputs.size() << outputs.size());
    // both sides resolved as far as they exist and compared as paths
    const auto resolve = ResolveFilePath;
    std::vector<std::filesystem::path> in;
    for (const FileOption& f : inputs)
    {
        in.push_back(resolve(f.path));
    }
    std::vector<std::filesystem::path> out;
    for (const FileOption& f : outputs)
    {
        const std::filesystem::path p = resolve(f.path);
        for (size_t i = 0; i < inputs.size(); ++i)
        {
            if (p == in[i])
            {
                throw Error(Named(f) + " would replace the input " + Named(inputs[i]) +
                            " (both are " + p.string() +
                            " after resolving links): an output never replaces an input; give " +
                            f.option + " another path");
            }
        }
        for (size_t i = 0; i < out.size(); ++i)
        {
            if (p == out[i])
            {
                throw Error(Named(f) + " would replace the output " + Named(outputs[i]) +
                            " (both are " + p.string() +
                            " after resolving links): an output never replaces another; give " +
                            f.option + " another path");
            }
        }
        out.push_back(p);
    }
}

void
CheckMemory(const std::string& what, uint64_t bytes)
{
    NS_LOG_FUNCTION(what << bytes);
    uint64_t available = AvailableMemoryBytes();
    if (bytes > available)
    {
        throw Error(what + " needs at least " + FormatBytes(bytes) + " of memory; " +
                    FormatBytes(available) + " are available to this process");
    }
    NS_LOG_LOGIC(what << ": needs " << FormatBytes(bytes) << " of " << FormatBytes(available));
}

void
CheckCountFitsMemory(const std::string& subject,
                     double count,
                     const std::string& counted,
                     uint64_t bytesEach,
                     const std::string& noun,
                     const std::string& what,
                     uint64_t available)
{
    NS_LOG_FUNCTION(subject << count << bytesEach << available);
    const uint64_t each = std::max<uint64_t>(bytesEach, 1);
    const uint64_t limit = available / each;
    if (!(count <= static_cast<double>(limit)))
    {
        const std::string text = !counted.empty() ? counted
                                 : count < 1e18
                                     ? std::to_string(static_cast<uint64_t>(std::ceil(count)))
                                     : FormatNumber(count);
        throw Error(subject + ": " + text + " " + noun + " keep at least " +
                    FormatBytes(count * static_cast<double>(each)) + " (" + FormatBytes(each) +
                    " each: " + what + "); at most " + std::to_string(limit) + " " + noun +
                    " fit in the " + FormatBytes(static_cast<double>(available)) +
                    " available to this process");
    }
}

void
CheckCountMemory(const std::string& option,
                 const std::string& value,
                 uint64_t count,
                 uint64_t bytesEach,
                 const std::string& noun,
                 const std::string& what,
                 uint64_t available)
{
    NS_LOG_FUNCTION(option << value << count << bytesEach << available);
    // compared in integers here: a count past 2^53 is not exact as a double
    if (count > available / std::max<uint64_t>(bytesEach, 1))
    {
        CheckCountFitsMemory("invalid " + option + " = " + value,
                             static_cast<double>(count),
                             std::to_string(count),
                             bytesEach,
                             noun,
                             what,
                             available);
    }
}

void
CheckStudyMemory(const FlowExperimentConfig& config, uint32_t workers)
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

Program::Program(std::string name, std::string outputDir, uint32_t flags)
    : m_name(std::move(name)),
      m_cmd(m_name),
      m_outputDir(std::move(outputDir)),
      m_flags(flags),
      m_progress((flags & PROGRESS_OFF) == 0),
      m_start(std::chrono::steady_clock::now())
{
    NS_LOG_FUNCTION(m_name << m_outputDir << flags);
}

CommandLine&
Program::GetCommandLine()
{
    return m_cmd;
}

int
Program::Run(int argc, char* argv[], const std::function<void()>& body) const
{
    NS_LOG_FUNCTION(m_name << argc);
    const int status = RunProgram(m_name, argc, argv, body);
    if (MoseDistributed::IsEnabled())
    {
        if (status != 0 && MoseDistributed::GetNRanks() > 1)
        {
            // an error on one rank only would leave the others waiting in a merge: end them all
            MoseDistributed::Abort(status);
        }
        MoseDistributed::Disable();
    }
    if (g_coutBuffer)
    {
        std::cout.rdbuf(g_coutBuffer);
        g_coutBuffer = nullptr;
        SetWritingFiles(true);
    }
    return status;
}

void
Program::AddOutputOptions(const std::string& outputDirHelp,
                          const std::string& plotHelp,
                          const std::string& progressHelp)
{
    NS_LOG_FUNCTION(m_name);
    AddTextOption(m_cmd, "outputDir", outputDirHelp, m_outputDir);
    if ((m_flags & PLOT) != 0)
    {
        AddBoolOption(m_cmd, "plot", plotHelp, m_plot);
    }
    if ((m_flags & (PROGRESS | PROGRESS_OFF)) != 0)
    {
        AddBoolOption(m_cmd, "progress", progressHelp, m_progress);
    }
    if ((m_flags & DISTRIBUTED) != 0)
    {
        AddBoolOption(m_cmd,
                      "distributed",
                      "run on ns-3's distributed simulator under mpirun -np K (an ns-3 tree "
                      "configured with --enable-mpi): the groups are partitioned over the ranks "
                      "(--ns3::MoseTopologyHelper::Partition), rank 0 prints and writes the "
                      "merged outputs",
                      m_distributed);
    }
}

void
Program::Parse(int argc, char* argv[])
{
    NS_LOG_FUNCTION(m_name << argc);
    ParseCommandLine(m_cmd, argc, argv);
    if ((m_flags & FLOW_LEVEL) != 0)
    {
        // no ns-3 object of the module is created: a --ns3::Mose... attribute would be ignored
        RejectModuleAttributes(m_name);
    }
    if (m_distributed)
    {
        MoseDistributed::Enable(&argc, &argv); // Error without MPI
        if (MoseDistributed::GetRank() != 0)
        {
            // every rank holds the merged figures after the run: rank 0 reports them
            g_coutBuffer = std::cout.rdbuf(&g_discard); // Run() gives it back
            SetWritingFiles(false);
        }
    }
}

uint32_t
Program::GetThreads(const SeedPlan& plan)
{
    return plan.GetThreads();
}

uint32_t
Program::GetStudyWorkers(const SeedPlan& plan)
{
    return std::max<uint32_t>(1, std::min(plan.seeds, plan.GetThreads()));
}

void
Program::CheckStudy(const FlowExperimentConfig& config, const SeedPlan& plan)
{
    CheckStudy(config, GetStudyWorkers(plan));
}

void
Program::CheckStudy(const FlowExperimentConfig& config, uint32_t workers)
{
    NS_LOG_FUNCTION(m_name << workers);
    CheckStudyMemory(config, workers);
    AddScenarioInputs(config);
    CheckOutput();
}

void
Program::AddInput(const std::string& option, const std::string& path)
{
    NS_LOG_FUNCTION(m_name << option << path);
    if (!path.empty())
    {
        m_inputs.push_back({option, path});
    }
}

void
Program::AddScenarioInputs(const FlowExperimentConfig& config)
{
    NS_LOG_FUNCTION(m_name);
    AddInput("--inferenceRolesFile", config.inferenceRolesFile);
    AddInput("--trainingRolesFile", config.trainingRolesFile);
    AddInput("--inferenceAssignmentFile", config.inferenceAssignmentFile);
    AddInput("--trainingAssignmentFile", config.trainingAssignmentFile);
    AddInput("--inferenceFlowsFile", config.inferenceFlowsFile);
    AddInput("--trainingFlowsFile", config.trainingFlowsFile);
}

void
Program::AddOutput(const std::string& option, const std::string& path)
{
    NS_LOG_FUNCTION(m_name << option << path);
    if (!path.empty())
    {
        m_outputs.push_back({option, path});
    }
}

void
Program::AddOutputFiles(const std::vector<std::string>& names)
{
    NS_LOG_FUNCTION(m_name << names.size());
    // declared on every rank of a distributed run (only rank 0 writes), so all refuse alike
    if (m_outputDir.empty())
    {
        return;
    }
    for (const std::string& name : names)
    {
        m_outputs.push_back({"--outputDir (" + name + ")", m_outputDir + "/" + name});
    }
}

void
Program::AddPlotFiles(const std::vector<std::string>& scripts)
{
    NS_LOG_FUNCTION(m_name << scripts.size());
    // declared on every rank, as AddOutputFiles(): --plot, not IsPlotting()
    if ((m_flags & PLOT) == 0 || !m_plot)
    {
        return;
    }
    const std::string plt = ".plt";
    for (const std::string& script : scripts)
    {
        NS_ABORT_MSG_UNLESS(script.size() > plt.size() &&
                                script.compare(script.size() - plt.size(), plt.size(), plt) == 0,
                            "a gnuplot script's name ends in .plt: " << script);
        AddOutputFiles({script, script.substr(0, script.size() - plt.size()) + ".png"});
    }
}

Program::~Program()
{
    if (m_protectsInputs)
    {
        SetProtectedInputs({});
    }
}

void
Program::CheckOutput()
{
    NS_LOG_FUNCTION(m_name << m_outputDir);
    CheckOutputsAreNotInputs(m_inputs, m_outputs);
    // an output declared nowhere (or named only when written) is refused when written
    std::vector<std::pair<std::string, std::string>> inputs;
    for (const FileOption& f : m_inputs)
    {
        inputs.emplace_back(Named(f), f.path);
    }
    SetProtectedInputs(inputs);
    m_protectsInputs = true;
    if (!m_outputDir.empty() && IsWritingFiles())
    {
        CheckOutputFolder("--outputDir", m_outputDir);
    }
    m_start = std::chrono::steady_clock::now();
}

double
Program::GetElapsed() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

const std::string&
Program::GetOutputDir() const
{
    return m_outputDir;
}

bool
Program::IsDistributed() const
{
    return m_distributed;
}

void
Program::CheckOneSimulation(bool several, const std::string& what, const std::string& instead) const
{
    if (m_distributed && several)
    {
        throw mose::Error("--distributed runs one simulation per process (ns-3's MPI interface "
                          "frees its receive buffers when the first ends); " +
                          what + ": give " + instead);
    }
}

bool
Program::IsPlotting() const
{
    return (m_flags & PLOT) != 0 && m_plot && IsWritingFiles();
}

bool
Program::IsShowingProgress() const
{
    return (m_flags & (PROGRESS | PROGRESS_OFF)) != 0 && m_progress;
}

void
Program::ShowProgress(const std::string& text, bool last) const
{
    if (IsShowingProgress())
    {
        std::cerr << "\r[" << m_name << "] " << text << (last ? "\n" : "") << std::flush;
    }
}

void
Program::WritePlots(const std::function<std::vector<std::string>(const std::string&)>& write,
                    const std::string& noun,
                    std::ostream& os) const
{
    NS_LOG_FUNCTION(m_name << noun);
    if (!IsPlotting())
    {
        return;
    }
    const std::vector<std::string> scripts = write(m_outputDir);
    const uint32_t rendered = StudyReport::RenderPlots(m_outputDir, scripts);
    os << scripts.size() << " " << noun << " written, " << rendered << " rendered to PNG in "
       << m_outputDir << "/\n";
}

void
Program::WritePlot(const std::string& base,
                   const std::function<void(std::ostream&)>& generate,
                   const std::string& rendered,
                   std::ostream& os) const
{
    NS_LOG_FUNCTION(m_name << base);
    if (!IsPlotting())
    {
        return;
    }
    std::ostringstream script;
    generate(script);
    const std::string file = m_outputDir + "/" + base + ".plt";
    WriteTextFile(file, [&script](std::ostream& out) { out << script.str(); });
    os << "wrote " << file;
    if (StudyReport::RenderPlots(m_outputDir, {file}) == 1)
    {
        os << " and " << rendered;
    }
    os << std::endl;
}

} // namespace mose
} // namespace ns3
