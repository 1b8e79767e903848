/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_OPTIONS_H
#define MOSE_LLM_OPTIONS_H

#include "mose-llm-experiment.h"
#include "mose-llm-regime-map.h"
#include "mose-scenario-options.h"
#include "mose-transport-options.h"

#include "ns3/command-line.h"
#include "ns3/mose-llm-trace.h"
#include "ns3/mose-model-shape.h"
#include "ns3/mose-policy.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The command-line options of mose-llm: registers them on an ns-3 CommandLine and
 *        validates what was given into a regime map (LlmRegimeMapConfig) or one experiment
 *        (MakeLlmConfig()'s ExperimentConfig with its requests and schedule).
 *
 * The scenario options are every mose program's (mose::ScenarioOptions with SEEDS and
 * FABRIC: --nodes, --degree, the role counts and roles files, the templates, the assignment,
 * --seeds; N = 64, d = 8, one seed by default); the run is --RngRun, seed k of the map uses run
 * --RngRun + k. mose-llm's own options: the workload (--trace or the generator's --rate,
 * --requests, --promptMean; --model, --placement, --prefillRate; --trainingJob, --collective,
 * --tokensPerMember, --compute, --noticeDelay; --trainingTrace, --rankMapping, --ncclChannels,
 * --ncclAlgorithm), the fabric (--hostRate, --scale, --jumbo,
 * --reuseConnections), the transport (--transport=tcp|rdma, MoseTransportHelper's spelling;
 * with rdma the ports' RED with ECN: --ecnKmin, --ecnKmax, --ecnPmax), the trace's form and filters
 * (--traceFormat, auto by default, and the filters of mose::LlmTraceReadOptions), the KV export of
 * one experiment (--kvExport=PATH, CSV or JSON lines by the extension:
 * WriteLlmKvExport()), the map (--map, --loads,
 * --intervals, --darkTimes, --cycles,
 * --tolerance, --flowLevelFlows), one experiment's clock (--traceStart=first|TIME: the trace
 * starts at its first request or at a given time of its clock, the requests before it left
 * out; --stopTime: the run's end, by default DefaultLlmStopTime(), the latest of 30 s, the
 * schedule's end and the last arrival plus LlmServeAllowance()), one experiment's schedule
 * (--schedule of MODE:DURATION periods or "threshold" with --end, --period, --window, --dwell,
 * --enterLoad, --exitLoad), and
 * --policies. The output options (--outputDir, --plot, --progress, --distributed) are the
 * program scaffold's (Program), as in every mose program.
 *
 * A setting that would not be used is an error naming it: the shared --flows, KV shares and
 * flows files (the workloads bring their own traffic; the flow-level break-even takes
 * --flowLevelFlows), --threads (the packet-level runs are sequential), --seeds > 1 without the
 * map, the single run's options with the map, the generator's options with --trace, the
 * trace's options (--traceFormat, --traceModel, --traceLogType, --traceFailed,
 * --traceRequestType, --traceDate) without --trace and each filter with a trace of another form
 * than its own, the ECN options with --transport=tcp or without the packet level, --kvExport with
 * the map, --traceStart without --trace, --stopTime with the map, --end without threshold
 * switching, and ns3::MoseRouteTable::Rule (the LLM experiment
 * routes on shortest paths). The host rate follows ExperimentConfig::ResolveHostRate() (default
 * d x the circuit rate, 3200 Gb/s at d = 8). Every error is a mose::Error naming the option, the
 * text and what is allowed.
 *
 * Not copyable (the scenario options write into it through callbacks during Parse()).
 */
class LlmOptions
{
  public:
    /// the largest share of one experiment's requests that may arrive at or after its end
    /// (--stopTime): a run that leaves more unarrived is refused
    static constexpr double MAX_LATE_SHARE = 0.1;
    /// a lower bound of the memory one run keeps per request (the request, its record, its
    /// state in the workload), which with the machine's memory limits --requests and a map
    /// cell's requests (CheckCountMemory()). Measured: the peak memory of mose-llm --map=false
    /// --policies=MoSE --rate=800 grows by 1.49 kB a request at the aggregate level and 1.62 kB
    /// at the fluid level from 20,000 to 200,000 requests; the packet level keeps more.
    static constexpr uint64_t REQUEST_BYTES = 1400;

    LlmOptions();
    LlmOptions(const LlmOptions&) = delete;
    LlmOptions& operator=(const LlmOptions&) = delete;

    /// \brief Adds the options to a CommandLine; call once, before cmd.Parse() \param cmd it
    void AddOptions(CommandLine& cmd);

    /**
     * \brief Validates what was given (call once, after cmd.Parse()): a mose::Error names the
     *        first bad option. One experiment's requests are generated or read and its schedule
     * computed here.
     */
    void Read();

    /// \return whether to run the regime map (--map) rather than one experiment
    bool IsMap() const;
    /// \return the levels that run, as OptionPlace AT_ bits (after Read())
    uint32_t GetLevelPlaces() const;
    /// \return the mode, as OptionPlace IN_ bits: IN_MAP, or IN_ONE (with IN_THRESHOLD for
    ///         --schedule=threshold), with the transport's IN_TCP or IN_RDMA
    ///         (CheckOptionScopes())
    uint32_t GetModePlaces() const;
    /// \return the map's configuration (after Read(), with --map)
    const LlmRegimeMapConfig& GetMapConfig() const;
    /// \return one experiment's configuration, requests and schedule set (after Read())
    const ExperimentConfig& GetExperimentConfig() const;
    /// \return the policies to run, in the order given
    const std::vector<mose::Policy>& GetPolicies() const;
    /// \return the levels to run (--level: packet, fluid, or both: packet then fluid)
    const std::vector<LlmLevel>& GetLevels() const;
    /// \return the model shape (--model)
    const mose::ModelShape& GetShape() const;
    /// \return the line that states what runs ("mose-llm: N=64, 120 requests, ...")
    std::string GetTitle() const;
    /// \return ", transport rdma (RED with ECN: ...)" with rdma, "" with tcp (the title as
    ///         before --transport)
    std::string TransportText() const;
    /// \return a line on the trace's requests a filter or the failed-request rule left out
    ///         ("" when none was, or without --trace)
    std::string GetTraceNote() const;
    /**
     * \return a line on the run's clock: the requests' first and last arrival (and, with
     *         --traceStart, the shift of the trace's clock), the run's end (--stopTime or the
     *         derived one, and how it was derived), and a note when every request arrives
     *         after the schedule's end; "" for the generator's requests with the default end
     */
    std::string GetClockNote() const;
    /// \return --trace: the trace's file ("" when not given)
    const std::string& GetTrace() const;
    /**
     * \return the training job's files, per file the option that names it as typed and its
     *         path: --trainingTrace's AICB file, or every file of its Chakra trace (the folder's
     *         files, or the PREFIX.* files), and --rankMapping (none not given)
     */
    std::vector<std::pair<std::string, std::string>> GetTrainingInputs() const;
    /// \return --kvExport: the KV export's file ("" when not given)
    const std::string& GetKvExport() const;
    /// \return whether the KV export is JSON lines (--kvExport ends in .jsonl)
    bool IsKvExportJson() const;

  private:
    /// \brief AddOptions(): --trace, its form and filters, --kvExport \param cmd the line
    void AddTraceOptions(CommandLine& cmd);
    /// \brief AddOptions(): --map and the map's options \param cmd the command line
    void AddMapOptions(CommandLine& cmd);
    /// \brief AddOptions(): the requests, the model, the placement, the training job and the
    ///        hosts \param cmd the command line
    void AddWorkloadOptions(CommandLine& cmd);
    /// \brief AddOptions(): the schedule, the scale, the transport, the policies and the level
    /// \param cmd the command line
    void AddRunOptions(CommandLine& cmd);

    /// \brief Read(): the shared scenario options, and those the LLM workloads refuse
    /// \return the scenario
    mose::FlowExperimentConfig ReadScenario() const;
    /// \brief Read(): m_experiment from the scenario and the options every run shares (model,
    ///        placement, hosts, training job, transport, policies, level)
    /// \param scenario the scenario (ReadScenario())
    void ReadExperiment(const mose::FlowExperimentConfig& scenario);
    /// \brief Read(): the endpoints per group and the host links' rate into m_experiment
    void ReadHosts();
    /**
     * \brief --trainingTrace and its companions (--rankMapping, --ncclChannels,
     *        --ncclAlgorithm) into the training job's plan; refused with --collective or
     *        --tokensPerMember, naming both.
     * \param config the experiment (its hostsPerGroup read already)
     */
    void ReadTrainingTrace(ExperimentConfig& config) const;
    /**
     * \brief ReadExperiment(): the training job's collective and its bytes, from the trace
     *        (ReadTrainingTrace()) or from --collective, --model and --tokensPerMember; the
     *        trace's options without a trace, and --tokensPerMember without the all-to-all, are
     *        refused.
     * \param config the experiment (its collective read already)
     */
    void ReadCollective(ExperimentConfig& config) const;
    /// \brief Read(): --transport and, with rdma, the ECN marking (--ecnKmin, --ecnKmax,
    ///        --ecnPmax) into m_experiment; those refused with tcp or without the packet level
    void ReadTransport();
    /// \brief Read(): m_mapConfig, refusing the single run's options \param seeds --seeds
    void ReadMap(uint32_t seeds);
    /**
     * \brief ReadMap(): the map's counts against the machine's memory (CheckCountMemory()),
     *        before anything is allocated: --seeds (each keeps its runs' figures), --cycles
     *        (each keeps a summary per run) and the largest cell's requests (REQUEST_BYTES each)
     *        of m_mapConfig (its lists, policies, seeds and cycles read)
     */
    void CheckMapMemory() const;
    /// \brief Read(): checks --kvExport's file name (.csv or .jsonl, in an existing folder)
    void CheckKvExport() const;
    /// \brief Read(): one experiment's requests, from --trace or the generator, and the check
    ///        of --noticeDelay against them
    void ReadRequests();
    /// \brief Read(): one experiment's schedule, periods or the threshold controller
    void ReadSchedule();
    /// \brief Read(): --traceStart on the trace's requests (after ReadTrace()): drops those
    ///        before the start and moves the others' arrivals so that the start is time 0
    void ApplyTraceStart();
    /**
     * \brief Read(): one experiment's stop time, --stopTime or DefaultLlmStopTime(), checked
     *        against the schedule's end and the arrivals (no request arriving, or more than
     *        LlmOptions::MAX_LATE_SHARE of them arriving at or after the end, is a mose::Error
     *        naming the first and last arrival and the end), then --noticeDelay against it
     */
    void ReadStopTime();
    /// \brief Reads --trace with --traceFormat and the filters into m_traceRead (Error naming
    ///        the option, or FILE:LINE)
    void ReadTrace();

    mose::ScenarioOptions m_scenario;    //!< the shared scenario options
    std::string m_trace;                 //!< --trace
    std::string m_traceFormat;           //!< --traceFormat
    std::string m_traceModel;            //!< --traceModel
    std::string m_traceLogType;          //!< --traceLogType
    std::string m_traceFailed;           //!< --traceFailed
    std::string m_traceRequestType;      //!< --traceRequestType
    std::string m_traceDate;             //!< --traceDate
    std::string m_traceStart;            //!< --traceStart (empty: 0)
    std::string m_stopTime;              //!< --stopTime (empty: derived)
    std::string m_kvExport;              //!< --kvExport
    std::string m_rate;                  //!< --rate (empty: not given)
    std::string m_requests;              //!< --requests (empty: not given)
    std::string m_prompt;                //!< --promptMean (empty: not given)
    std::string m_model{"mixtral-8x7b"}; //!< --model
    /// --placement (the config's default)
    std::string m_placement{mose::ToString(LlmWorkloadConfig{}.placement)};
    /// --collective (the config's default)
    std::string m_collective{mose::ToString(LlmWorkloadConfig{}.collective)};
    bool m_collectiveGiven{false};                           //!< --collective given
    std::string m_tokensPerMember{"16384"};                  //!< --tokensPerMember
    bool m_tokensPerMemberGiven{false};                      //!< --tokensPerMember given
    std::string m_trainingTrace;                             //!< --trainingTrace (KIND:PATH)
    std::string m_rankMapping;                               //!< --rankMapping (empty: rule)
    std::string m_ncclChannels{"2"};                         //!< --ncclChannels
    std::string m_ncclAlgorithm{"ring"};                     //!< --ncclAlgorithm
    bool m_rankMappingGiven{false};                          //!< --rankMapping given
    bool m_ncclChannelsGiven{false};                         //!< --ncclChannels given
    bool m_ncclAlgorithmGiven{false};                        //!< --ncclAlgorithm given
    std::string m_compute{"20ms"};                           //!< --compute
    std::string m_prefill{"2000000"};                        //!< --prefillRate
    std::string m_hostRate;                                  //!< --hostRate
    bool m_hostRateGiven{false};                             //!< --hostRate given
    std::string m_hostsPerGroup{"1"};                        //!< --hostsPerGroup
    bool m_hostsPerGroupGiven{false};                        //!< --hostsPerGroup given
    std::string m_schedule;                                  //!< --schedule (empty: not given)
    std::string m_loads{"25,800"};                           //!< --loads
    std::string m_intervals{"100ms,400ms"};                  //!< --intervals
    std::string m_darkTimes{"10ms,100ms"};                   //!< --darkTimes
    std::string m_cycles{"1"};                               //!< --cycles
    std::string m_trainingLoadShare{"0.1"};                  //!< --trainingLoadShare
    std::string m_tolerance{"0.02"};                         //!< --tolerance
    std::string m_flowFlows{"20000"};                        //!< --flowLevelFlows
    std::string m_end;                                       //!< --end (empty: not given)
    std::string m_period{"100ms"};                           //!< --period
    std::string m_window{"200ms"};                           //!< --window
    std::string m_dwell{"400ms"};                            //!< --dwell
    std::string m_enter{"150"};                              //!< --enterLoad
    std::string m_exit{"50"};                                //!< --exitLoad
    std::string m_scale{"2000"};                             //!< --scale
    std::string m_noticeDelay;                               //!< --noticeDelay (empty: unset)
    std::string m_policiesText{"MoSE,S-Train,S-Inf,S-Comp"}; //!< --policies
    std::string m_level{"packet"};                           //!< --level
    /// \brief Checks --fluidQueues against the level, the rate epoch and the transport
    void ReadFluidQueues();
    std::string m_rateEpoch;             //!< --rateEpoch (empty: not given)
    bool m_fluidQueues{false};           //!< --fluidQueues
    TransportOptions m_transportOptions; //!< --transport, --ecnKmin, --ecnKmax, --ecnPmax
    std::vector<LlmLevel> m_levels;      //!< from --level
    bool m_map{true};                    //!< --map
    bool m_trainingJob{true};            //!< --trainingJob
    bool m_jumbo{false};                 //!< --jumbo
    bool m_reuseConnections{true};       //!< --reuseConnections

    bool m_read{false};                   //!< Read() ran
    mose::ModelShape m_shape;             //!< from --model
    std::vector<mose::Policy> m_policies; //!< from --policies
    ExperimentConfig m_experiment;        //!< one experiment, or the map's base
    mose::LlmTrace m_traceRead;           //!< what --trace held (its requests moved out)
    uint64_t m_traceShiftNs{0};           //!< --traceStart: ns taken off every arrival
    uint64_t m_beforeStart{0};            //!< --traceStart: requests left out before it
    Time m_derivedStop;                   //!< DefaultLlmStopTime() of the experiment
    LlmRegimeMapConfig m_mapConfig;       //!< the map
};

/// the most items of a map's list option (--loads, --intervals, --darkTimes): each is a row or
/// column of the map, and the lists are checked for repeats pairwise
constexpr std::size_t MAX_LIST_ITEMS = 1000;

/**
 * \ingroup mose-study
 * \brief Reads a comma-separated list of request rates (mose::ParseReal() each, > 0).
 * \param parameter the option's name for messages \param text the text
 * \return the rates in the order given; a mose::Error names the parameter and the text for an
 *         empty list or item, a bad or non-positive number, a value given twice and more than
 *         MAX_LIST_ITEMS items
 */
std::vector<double> ParseLoadList(const std::string& parameter, const std::string& text);

/**
 * \ingroup mose-study
 * \brief Reads a comma-separated list of durations (ParseTimeOption()).
 * \param parameter the option's name \param text the text \param allowZero whether 0 is allowed
 * \return the durations in the order given; errors as ParseLoadList()
 */
std::vector<Time> ParseDurationList(const std::string& parameter,
                                    const std::string& text,
                                    bool allowZero);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_OPTIONS_H */
