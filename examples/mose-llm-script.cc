/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-llm-script: a switching LLM scenario written as an ns-3 script with the module's
 * installed classes only (no study library): a fabric of N groups from a policy's template,
 * a mode switcher that follows a schedule, a transport, an inference server and a training job
 * that the switcher keeps in step with the mode, FlowMonitor beside them. doc/mose.rst,
 * "Writing an LLM script", walks through it.
 *
 *   mose-llm-script                         # N=32, MoSE, 60 requests, two switches
 *   mose-llm-script --policy=S-Train --requests=100 --rate=400
 *   mose-llm-script --groups=16 --degree=4
 *   mose-llm-script --transport=tcp         # ns-3's TCP instead of RoCEv2
 */

#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/mose-module.h"
#include "ns3/traffic-control-module.h"

#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    return RunProgram("mose-llm-script", argc, argv, [&]() {
        uint32_t groups = 32;
        uint32_t degree = 8;
        std::string policyName = "MoSE";
        uint64_t requests = 60;
        double rate = 200;
        std::string scheduleText = "inference-heavy:0.2s,training-heavy:0.2s,inference-heavy:0.2s";
        // RoCEv2 by default, as mose-llm: validated against the fluid level it lost no packet
        // and agreed in every verdict of the default map (doc/mose.rst, "Validated against
        // both transports")
        std::string transportName = MoseTransportHelper::RDMA;
        // one scale for the whole run: the topology divides its link rates by it, the
        // workloads their byte counts (the ns-3 global value MoseScale: --MoseScale=N)
        MoseScale::Set(2000);
        CommandLine cmd(__FILE__);
        cmd.AddValue("groups", "number of groups N", groups);
        cmd.AddValue("degree", "optical ports per group d", degree);
        cmd.AddValue("policy", "the policy: " + mose::AllowedEnumNames<mose::Policy>(), policyName);
        cmd.AddValue("requests", "inference requests", requests);
        cmd.AddValue("rate", "requests per second (Poisson)", rate);
        cmd.AddValue("schedule", "MODE:DURATION periods", scheduleText);
        cmd.AddValue("transport",
                     "the workloads' transport: rdma (RoCEv2 with DCQCN and RED with ECN on the "
                     "ports, the default, as mose-llm's: validated against the fluid level) or "
                     "tcp (ns-3's TCP)",
                     transportName);
        ParseCommandLine(cmd, argc, argv);
        const Policy policy = ParseEnum<Policy>(policyName, "--policy");
        MoseTransportHelper transportHelper(
            MoseTransportHelper::GetTypeName("--transport", transportName));
        const bool rdma = transportName == MoseTransportHelper::RDMA;
        const ModeSchedule schedule = ParseSchedule("--schedule", scheduleText);
        const uint64_t run = RngSeedManager::GetRun();

        // the scenario: roles, P-D assignments and templates per mode, from the flow-level core
        FlowExperimentConfig config;
        config.nodes = groups;
        config.degree = degree;
        config.pdReservedPorts = DefaultPdReservedPorts(config.degree);
        config.inferenceRoles = RoleCounts::PaperScaled(groups, WorkloadMode::INFERENCE_HEAVY);
        config.trainingRoles = RoleCounts::PaperScaled(groups, WorkloadMode::TRAINING_HEAVY);
        const Scenario scenario = ScenarioBuilder(config).Build(run);

        // the fabric in the first mode's template (400 Gb/s circuits, divided by MoseScale)
        Ptr<MoseTopologyHelper> fabric = CreateObject<MoseTopologyHelper>();
        fabric->SetTemplate(config, run, schedule.GetInitialMode(), policy);
        if (rdma)
        {
            // RoCEv2's ports: RED marks ECN at the DCQCN paper's Kmin 5 and Kmax 200 packets
            // with Pmax 1% on the instantaneous queue, in the port's 1000-packet buffer; the
            // device queue holds one packet, so that the backlog waits in RED
            fabric->SetAttribute("QueueDiscType", TypeIdValue(RedQueueDisc::GetTypeId()));
            fabric->SetQueueDiscAttribute("UseEcn", BooleanValue(true));
            fabric->SetQueueDiscAttribute("MinTh", DoubleValue(5));
            fabric->SetQueueDiscAttribute("MaxTh", DoubleValue(200));
            fabric->SetQueueDiscAttribute("LInterm", DoubleValue(100));
            fabric->SetQueueDiscAttribute("QW", DoubleValue(1));
            fabric->SetQueueDiscAttribute("UseHardDrop", BooleanValue(false));
            fabric->SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize("1000p")));
            fabric->SetPortQueue("ns3::DropTailQueue<Packet>",
                                 "MaxSize",
                                 QueueSizeValue(QueueSize("1p")));
        }
        fabric->Install();

        // the switcher: drains, darkens and relinks the circuits at each boundary
        MoseModeSwitcherHelper switcherHelper;
        switcherHelper.SetTargetProvider(
            MoseModeSwitcherHelper::MakePolicyProvider(policy, scenario));
        switcherHelper.SetSchedule(schedule);
        Ptr<MoseModeSwitcher> switcher = switcherHelper.Install(fabric);

        // the transport of the workloads' bytes on the groups' endpoints: RoCEv2 queue pairs
        // capped at the bandwidth-delay product of the longest route over every graph the
        // switcher installs, or TCP connections
        Ptr<MoseTransport> transport = transportHelper.Install(fabric, switcher);

        // the workloads; the switcher gives them the mode they are in and every mode it enters
        LlmRequestGeneratorOptions generator;
        generator.requests = requests;
        generator.rate = rate;
        Random rng = Random::Create(run, Stream::LLM_REQUESTS);
        MoseWorkloadHelper inferenceHelper("ns3::MoseInferenceWorkload");
        auto inference = DynamicCast<MoseInferenceWorkload>(inferenceHelper.Install(transport));
        inference->SetRequests(GenerateLlmRequests(generator, rng));
        MoseWorkloadHelper trainingHelper("ns3::MoseTrainingWorkload");
        auto training = DynamicCast<MoseTrainingWorkload>(trainingHelper.Install(transport));
        switcher->AddWorkload(inference);
        switcher->AddWorkload(training);
        inference->Start(Seconds(0));
        training->Start(Seconds(0));
        const Time end = MoseScheduleTimes(schedule).back() + Seconds(0.1);
        Simulator::Schedule(end, [training]() { training->Stop(); });

        FlowMonitorHelper flowmon;
        Ptr<FlowMonitor> monitor = flowmon.InstallAll();
        Simulator::Stop(end + Seconds(1));
        Simulator::Run();

        // the inference workload's own summary; the direct circuits from its records
        const InferenceSummary summary = inference->GetSummary();
        uint32_t direct = 0;
        for (const MoseRequestRecord& r : inference->GetRecords())
        {
            direct += r.done && r.direct ? 1 : 0;
        }
        std::cout << ToString(policy) << ", N=" << groups << ", run " << run << ": "
                  << summary.served << "/" << requests << " requests served (" << direct
                  << " on a direct circuit), mean TTFT " << summary.ttft.mean * 1e3 << " ms; "
                  << training->GetNDone() << " iterations; " << switcher->GetRecords().size()
                  << " switches; " << switcher->GetLossMonitor()->GetTotal()
                  << " packets lost; FlowMonitor saw " << monitor->GetFlowStats().size()
                  << " flows; errors "
                  << inference->GetNErrors() + training->GetNErrors() + switcher->GetNErrors()
                  << std::endl;
        Simulator::Destroy();
    });
}
