/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RoCEv2 transport (MoseRdmaTransport) by hand: its headers' bytes, DCQCN's formulas, one
// QP's exact transfer time, the NIC's round robin, go-back-N and selective repeat after a drop,
// the retransmission timer, bad attributes, determinism, and the LLM workloads over it.

#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <gtest/gtest.h>
#include <list>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Two nodes on one point-to-point link (10 Gb/s, delay as given), IPv4 on both
struct Pair
{
    NodeContainer nodes;
    NetDeviceContainer devices;
};

Pair
MakePair(Time delay)
{
    Pair p;
    p.nodes.Create(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    p.devices = link.Install(p.nodes);
    InternetStackHelper stack;
    stack.Install(p.nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    addresses.Assign(p.devices);
    return p;
}

/// Device `device` of pair p loses the packets it receives at these positions (0: its first)
void
LoseOnReceive(const Pair& p, uint32_t device, const std::list<uint32_t>& positions)
{
    Ptr<ReceiveListErrorModel> em = CreateObject<ReceiveListErrorModel>();
    em->SetList(positions);
    p.devices.Get(device)->SetAttribute("ReceiveErrorModel", PointerValue(em));
}

/// A transport installed on pair p with this RetransmitTimeout, its other attributes the defaults
Ptr<MoseRdmaTransport>
InstallWithTimeout(const Pair& p, Time timeout)
{
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->SetAttribute("RetransmitTimeout", TimeValue(timeout));
    t->Install(p.nodes);
    return t;
}

/// Sets MoseScale for one test and puts 1 back (a global value outlives a test)
struct ScaleGuard
{
    explicit ScaleGuard(uint64_t scale)
    {
        MoseScale::Set(scale);
    }

    ~ScaleGuard()
    {
        MoseScale::Set(1);
    }
};

/// The wire time of a frame at 10 Gb/s: payload + 44 B (IPv4, UDP, BTH, ICRC) + 2 B (PPP)
Time
FrameTime(uint32_t payload)
{
    return NanoSeconds((payload + 46) * 8 / 10); // 10 Gb/s: 0.8 ns per byte
}

} // namespace

TEST(RdmaTransport, TheBaseTransportHeaderHasRoceV2sTwelveBytes)
{
    MoseRoceBthHeader bth;
    bth.SetOpcode(MoseRoceBthHeader::SEND_LAST);
    bth.SetPartitionKey(0xffff);
    bth.SetDestQp(0x123456);
    bth.SetAckRequest(true);
    bth.SetPsn(0xabcdef);
    Ptr<Packet> p = Create<Packet>(0);
    p->AddHeader(bth);
    ASSERT_EQ(p->GetSize(), 12u);
    uint8_t b[12];
    p->CopyData(b, 12);
    const uint8_t expected[12] =
        {0x02, 0x00, 0xff, 0xff, 0x00, 0x12, 0x34, 0x56, 0x80, 0xab, 0xcd, 0xef};
    for (int i = 0; i < 12; ++i)
    {
        EXPECT_EQ(b[i], expected[i]) << "byte " << i;
    }
    MoseRoceBthHeader back;
    p->RemoveHeader(back);
    EXPECT_EQ(back.GetOpcode(), MoseRoceBthHeader::SEND_LAST);
    EXPECT_EQ(back.GetDestQp(), 0x123456u);
    EXPECT_TRUE(back.GetAckRequest());
    EXPECT_EQ(back.GetPsn(), 0xabcdefu);
    bth.SetPsn(0x1000001); // 25 bits: the PSN keeps 24
    EXPECT_EQ(bth.GetPsn(), 1u);

    MoseRoceAethHeader aeth;
    aeth.SetSyndrome(MoseRoceAethHeader::NAK_SEQUENCE);
    aeth.SetMsn(7);
    Ptr<Packet> a = Create<Packet>(0);
    a->AddHeader(aeth);
    uint8_t c[4];
    a->CopyData(c, 4);
    EXPECT_EQ(c[0], 0x60);
    EXPECT_EQ(c[3], 7);
    MoseRoceAethHeader aback;
    a->RemoveHeader(aback);
    EXPECT_TRUE(aback.IsNak());
}

// DCQCN's reaction point by hand: a CNP cuts Rc to Rc (1 - alpha / 2) with the alpha before the
// CNP, then alpha = (1 - g) alpha + g; each timer period without a CNP: alpha (1 - g); rate
// increase events: fast recovery Rc = (Rt + Rc) / 2 for the first F, then additive.
TEST(RdmaTransport, ACnpCutsTheRateByTheDcqcnFormula)
{
    MoseDcqcnConfig c;
    c.lineRate = 10e9;
    c.minRate = 1e6;
    c.g = 1.0 / 16;
    c.initialAlpha = 0.5;
    c.alphaTimer = MicroSeconds(55);
    c.rateTimer = MicroSeconds(100);
    c.byteCounter = 1000000000; // no byte-counter events here
    c.fastRecovery = 2;
    c.additiveRate = 100e6;
    MoseDcqcn d(c);
    EXPECT_DOUBLE_EQ(d.GetRate(), 10e9);
    d.ReceiveCnp(Seconds(0));
    EXPECT_DOUBLE_EQ(d.GetRate(), 10e9 * (1 - 0.5 / 2)); // 7.5 Gb/s
    EXPECT_DOUBLE_EQ(d.GetTargetRate(), 10e9);
    const double alpha1 = (1 - 1.0 / 16) * 0.5 + 1.0 / 16; // 0.53125
    EXPECT_DOUBLE_EQ(d.GetAlpha(), alpha1);
    // a second CNP 10 us later: no timer has fired
    d.ReceiveCnp(MicroSeconds(10));
    EXPECT_DOUBLE_EQ(d.GetRate(), 7.5e9 * (1 - alpha1 / 2));
    EXPECT_DOUBLE_EQ(d.GetTargetRate(), 7.5e9);
    const double alpha2 = (1 - 1.0 / 16) * alpha1 + 1.0 / 16;
    EXPECT_DOUBLE_EQ(d.GetAlpha(), alpha2);
    const double rc = 7.5e9 * (1 - alpha1 / 2);
    // at 65 us the alpha timer fired once (10 + 55), the rate timer not yet (10 + 100)
    d.Advance(MicroSeconds(65));
    EXPECT_DOUBLE_EQ(d.GetAlpha(), alpha2 * 15 / 16);
    EXPECT_DOUBLE_EQ(d.GetRate(), rc);
    // at 110 us: the rate timer's first event, fast recovery (T = 1 < F = 2)
    d.Advance(MicroSeconds(110));
    EXPECT_EQ(d.GetTimerStage(), 1u);
    const double rc1 = (7.5e9 + rc) / 2;
    EXPECT_DOUBLE_EQ(d.GetRate(), rc1);
    EXPECT_DOUBLE_EQ(d.GetTargetRate(), 7.5e9);
    // at 210 us: T = 2, max(T, BC) = 2 is not below F and min(T, BC) = 0 not above: additive
    d.Advance(MicroSeconds(210));
    EXPECT_DOUBLE_EQ(d.GetTargetRate(), 7.6e9);
    EXPECT_DOUBLE_EQ(d.GetRate(), (7.6e9 + rc1) / 2);
    EXPECT_EQ(d.GetNCuts(), 2u);
    // the rate never falls below MinRate
    MoseDcqcnConfig low = c;
    low.minRate = 6e9;
    MoseDcqcn e(low);
    e.ReceiveCnp(Seconds(0));
    e.ReceiveCnp(Seconds(0));
    EXPECT_DOUBLE_EQ(e.GetRate(), 6e9);
}

// One QP alone on a 10 Gb/s link with 1 us delay moves 10,000 B as 9 packets of 1024 B and one
// of 784 B, back to back at line rate: the last bit arrives after 9 x 1070 + 830 bytes on the
// wire (8.368 us) plus the delay: 9.368 us after Start().
TEST(RdmaTransport, OneQpMovesItsBytesInExactlyTheWireTime)
{
    Pair p = MakePair(MicroSeconds(1));
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->Install(p.nodes);
    EXPECT_EQ(t->GetNicRate(0), DataRate("10Gb/s"));
    const uint64_t id = t->Start(0, 1, 10000, MoseTransport::DoneCallback());
    Simulator::Run();
    const MoseTransfer& r = t->GetTransfer(id);
    ASSERT_TRUE(r.complete);
    const Time expected = FrameTime(1024) * 9 + FrameTime(784) + MicroSeconds(1);
    EXPECT_EQ(expected, NanoSeconds(9368));
    EXPECT_EQ(r.GetCompletionTime(), expected);
    EXPECT_EQ(r.received, 10000u);
    EXPECT_EQ(t->GetBytesBetween(0, 1), 10000u);
    EXPECT_EQ(t->GetNDataPackets(), 10u);
    EXPECT_EQ(t->GetNRetransmissions(), 0u);
    EXPECT_EQ(t->GetNDrops(), 0u);
    EXPECT_EQ(t->GetNAcks(), 1u) << "one ACK: the message's last packet (AckInterval 16)";
    EXPECT_EQ(t->GetNErrors(), 0u);
    // one process simulates every receiver; an id that was never started is an error
    EXPECT_TRUE(t->IsReceivedHere(id));
    EXPECT_THROW(t->IsReceivedHere(id + 1), Error);
    Simulator::Destroy();
}

// Two QPs of one NIC share its line rate packet by packet: after the first, each QP's bytes
// stay within one packet of the other's, and both end within one frame time of the total wire
// time of both transfers.
TEST(RdmaTransport, TwoQpsShareTheLineRateRoundRobin)
{
    Pair p = MakePair(MicroSeconds(1));
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->Install(p.nodes);
    const uint64_t bytes = 1024 * 1000; // 1000 full packets each
    const uint64_t a = t->Start(0, 1, bytes, MoseTransport::DoneCallback());
    const uint64_t b = t->Start(0, 1, bytes, MoseTransport::DoneCallback());
    EXPECT_NE(t->GetQpOf(a), t->GetQpOf(b));
    int64_t worst = 0;
    for (int k = 1; k <= 19; ++k)
    {
        Simulator::Schedule(MicroSeconds(85.6 * k), [&, k]() {
            const int64_t diff = static_cast<int64_t>(t->GetTransfer(a).received) -
                                 static_cast<int64_t>(t->GetTransfer(b).received);
            worst = std::max(worst, std::abs(diff));
        });
    }
    Simulator::Run();
    EXPECT_LE(worst, 1024) << "the two QPs' bytes differ by at most one packet";
    const Time total = FrameTime(1024) * 2000 + MicroSeconds(1);
    EXPECT_EQ(t->GetTransfer(b).end, total) << "the last packet is b's";
    EXPECT_EQ(t->GetTransfer(a).end, total - FrameTime(1024));
    Simulator::Destroy();
}

// MaxInFlight caps a QP's unacknowledged packets (IRN's BDP-FC): with a cap of 4 and an ACK
// every 4 packets, 16 packets go in 4 rounds. A round is 4 frames (4 x 856 ns), the link delay
// out, the ACK's 50-byte frame (40 ns: IPv4 20, UDP 8, BTH 12, AETH 4, ICRC 4, PPP 2) and the
// delay back: 5,464 ns. The last packet arrives 4 frames and one delay after the last round
// starts: 3 x 5,464 + 4 x 856 + 1,000 = 20,816 ns, where no cap takes 16 frames and a delay.
// A cap below AckInterval would wait for an ACK that never comes before the timeout: refused.
TEST(RdmaTransport, MaxInFlightCapsTheUnacknowledgedPackets)
{
    Pair p = MakePair(MicroSeconds(1));
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->SetAttribute("MaxInFlight", UintegerValue(4));
    t->SetAttribute("AckInterval", UintegerValue(4));
    t->Install(p.nodes);
    const uint64_t id = t->Start(0, 1, 16 * 1024, MoseTransport::DoneCallback());
    Simulator::Run();
    const MoseTransfer& r = t->GetTransfer(id);
    ASSERT_TRUE(r.complete);
    EXPECT_EQ(r.GetCompletionTime(), NanoSeconds(20816));
    EXPECT_EQ(3 * (4 * FrameTime(1024) + MicroSeconds(2) + NanoSeconds(40)) + 4 * FrameTime(1024) +
                  MicroSeconds(1),
              NanoSeconds(20816));
    EXPECT_EQ(t->GetNAcks(), 4u);
    EXPECT_EQ(t->GetNTimeouts(), 0u);
    Simulator::Destroy();

    Pair q = MakePair(MicroSeconds(1));
    Ptr<MoseRdmaTransport> u = CreateObject<MoseRdmaTransport>();
    u->SetAttribute("MaxInFlight", UintegerValue(8)); // AckInterval 16
    try
    {
        u->Install(q.nodes);
        ADD_FAILURE() << "a cap below AckInterval was taken";
    }
    catch (const mose::Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("ns3::MoseRdmaTransport::MaxInFlight"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("at least AckInterval = 16"), std::string::npos)
            << e.what();
    }
    Simulator::Destroy();
}

// IRN's BDP-FC sized by hand (GetBdpInFlight()): on a 10 Gb/s link with 1 us each way, a round
// trip is a 1070-byte frame (856 ns), a 50-byte ACK (40 ns) and 2 us: 2,896 ns, 3.4 frames, 4
// rounded up; with an ACK every 4 packets the cap adds 3. With it a QP alone sends 16 packets
// back to back, as with no cap (16 frames and the delay: 14,696 ns): the ACK of packet 3 is
// back at 4 x 856 + 2,040 = 5,464 ns, before the 8th packet's turn at 7 x 856 = 5,992 ns. One
// packet less makes the 7th wait for that ACK.
TEST(RdmaTransport, TheBdpCapKeepsALoneQpAtLineRate)
{
    Ptr<MoseRdmaTransport> sized = CreateObject<MoseRdmaTransport>();
    sized->SetAttribute("AckInterval", UintegerValue(4));
    const uint32_t cap = sized->GetBdpInFlight({{DataRate("10Gb/s"), MicroSeconds(1)}});
    EXPECT_EQ(cap, 7u);
    EXPECT_EQ(sized->GetBdpInFlight({}), 4u); // no link: AckInterval
    EXPECT_NE(ErrorOf([&sized] {
                  sized->GetBdpInFlight(
                      {{DataRate("10Gb/s"), MicroSeconds(1)}, {DataRate(0), MicroSeconds(1)}});
              }).find("rate 0"),
              std::string::npos);
    auto completion = [](uint32_t maxInFlight) {
        Pair p = MakePair(MicroSeconds(1));
        Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
        t->SetAttribute("AckInterval", UintegerValue(4));
        t->SetAttribute("MaxInFlight", UintegerValue(maxInFlight));
        t->Install(p.nodes);
        const uint64_t id = t->Start(0, 1, 16 * 1024, MoseTransport::DoneCallback());
        Simulator::Run();
        const Time done = t->GetTransfer(id).GetCompletionTime();
        Simulator::Destroy();
        return done;
    };
    EXPECT_EQ(16 * FrameTime(1024) + MicroSeconds(1), NanoSeconds(14696));
    EXPECT_EQ(completion(0), NanoSeconds(14696));
    EXPECT_EQ(completion(cap), NanoSeconds(14696));
    EXPECT_GT(completion(cap - 1), NanoSeconds(14696));
}

// A QP opened per message keeps one record per QP open at once: a closed QP's record is
// reused once four retransmission timeouts (4 ms) have passed, so two messages 10 ms apart
// open two QPs in one record, while two at once hold two.
TEST(RdmaTransport, AClosedQpsRecordIsReusedAfterFourTimeouts)
{
    Pair p = MakePair(MicroSeconds(1));
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->Install(p.nodes);
    t->Start(0, 1, 10000, MoseTransport::DoneCallback());
    Simulator::Schedule(MilliSeconds(10),
                        [t]() { t->Start(0, 1, 10000, MoseTransport::DoneCallback()); });
    Simulator::Run();
    EXPECT_EQ(t->GetNConnections(), 2u);
    EXPECT_EQ(t->GetNQueuePairRecords(), 1u);
    Simulator::Destroy();

    Pair q = MakePair(MicroSeconds(1));
    Ptr<MoseRdmaTransport> u = CreateObject<MoseRdmaTransport>();
    u->Install(q.nodes);
    u->Start(0, 1, 10000, MoseTransport::DoneCallback());
    u->Start(0, 1, 10000, MoseTransport::DoneCallback());
    Simulator::Run();
    EXPECT_EQ(u->GetNConnections(), 2u);
    EXPECT_EQ(u->GetNQueuePairRecords(), 2u);
    Simulator::Destroy();
}

// FlowMonitor sees each QP as a flow: two QPs of one pair are two UDP flows to port 4791 with
// their own source ports, each with its 10 data packets; the ACKs are flows the other way.
TEST(RdmaTransport, FlowMonitorSeesEachQpAsAFlow)
{
    Pair p = MakePair(MicroSeconds(1));
    FlowMonitorHelper flowHelper;
    Ptr<FlowMonitor> monitor = flowHelper.InstallAll();
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->Install(p.nodes);
    t->Start(0, 1, 10000, MoseTransport::DoneCallback());
    t->Start(0, 1, 10000, MoseTransport::DoneCallback());
    Simulator::Stop(MilliSeconds(10)); // FlowMonitor's periodic check never ends by itself
    Simulator::Run();
    monitor->CheckForLostPackets();
    Ptr<Ipv4FlowClassifier> classifier =
        DynamicCast<Ipv4FlowClassifier>(flowHelper.GetClassifier());
    std::set<uint16_t> ports;
    uint32_t forward = 0;
    for (const auto& [flow, stats] : monitor->GetFlowStats())
    {
        const Ipv4FlowClassifier::FiveTuple tuple = classifier->FindFlow(flow);
        EXPECT_EQ(tuple.protocol, 17);
        EXPECT_EQ(tuple.destinationPort, 4791);
        if (tuple.sourceAddress == Ipv4Address("10.1.1.1"))
        {
            ++forward;
            ports.insert(tuple.sourcePort);
            EXPECT_EQ(stats.rxPackets, 10u);
            EXPECT_EQ(stats.lostPackets, 0u);
        }
    }
    EXPECT_EQ(forward, 2u);
    EXPECT_EQ(ports.size(), 2u);
    Simulator::Destroy();
}

namespace
{

/// The PSNs resent, and the transfer's completion, with the receiver's device dropping its
/// index-th data packet (10 us of delay: all ten packets leave before the NAK arrives)
struct DropRun
{
    std::vector<uint64_t> resent;
    Time end;
    uint64_t outOfOrder{0};
    uint64_t nacks{0};
    uint64_t timeouts{0};
};

DropRun
RunWithDrop(const std::string& mode)
{
    Pair p = MakePair(MicroSeconds(10));
    LoseOnReceive(p, 1, {3}); // the fourth data packet received: PSN 3
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->SetAttribute("RetxMode", StringValue(mode));
    t->Install(p.nodes);
    DropRun run;
    t->TraceConnectWithoutContext(
        "Retransmit",
        MakeBoundCallback(
            +[](DropRun* r, uint32_t, uint64_t psn) { r->resent.push_back(psn); },
            &run));
    const uint64_t id = t->Start(0, 1, 10000, MoseTransport::DoneCallback());
    Simulator::Run();
    EXPECT_TRUE(t->GetTransfer(id).complete);
    EXPECT_EQ(t->GetTransfer(id).received, 10000u);
    run.end = t->GetTransfer(id).end;
    run.outOfOrder = t->GetNDrops(MoseRdmaTransport::OUT_OF_ORDER);
    run.nacks = t->GetNNacks();
    run.timeouts = t->GetNTimeouts();
    EXPECT_EQ(t->GetNErrors(), 0u);
    Simulator::Destroy();
    return run;
}

} // namespace

// PSN 3 is lost. The receiver NAKs PSN 3 when PSN 4 arrives (5 frames + 10 us = 14.28 us); the
// NAK (50 B on the wire, 40 ns) reaches the sender at 24.32 us, after all ten packets left.
// Go-back-N resends PSNs 3 to 9 (the receiver discarded 4 to 9): the last (830 B) arrives at
// 24.32 + 6 x 0.856 + 0.664 + 10 = 40.12 us. Selective repeat resends PSN 3 alone: it arrives
// at 24.32 + 0.856 + 10 = 35.176 us.
TEST(RdmaTransport, ADroppedPacketIsResentAsGoBackNOrSelectiveRepeatMust)
{
    const Time nakAtSender =
        FrameTime(1024) * 5 + MicroSeconds(10) + NanoSeconds(40) + MicroSeconds(10);
    ASSERT_EQ(nakAtSender, NanoSeconds(24320));

    const DropRun gbn = RunWithDrop("GoBackN");
    EXPECT_EQ(gbn.resent, (std::vector<uint64_t>{3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(gbn.outOfOrder, 6u);
    EXPECT_EQ(gbn.nacks, 1u);
    EXPECT_EQ(gbn.timeouts, 0u);
    EXPECT_EQ(gbn.end, nakAtSender + FrameTime(1024) * 6 + FrameTime(784) + MicroSeconds(10));
    EXPECT_EQ(gbn.end, NanoSeconds(40120));

    const DropRun sr = RunWithDrop("SelectiveRepeat");
    EXPECT_EQ(sr.resent, (std::vector<uint64_t>{3}));
    EXPECT_EQ(sr.outOfOrder, 0u);
    EXPECT_EQ(sr.nacks, 1u);
    EXPECT_EQ(sr.timeouts, 0u);
    EXPECT_EQ(sr.end, nakAtSender + FrameTime(1024) + MicroSeconds(10));
    EXPECT_EQ(sr.end, NanoSeconds(35176));
}

// A lost last packet has no later packet to reveal the gap: the retransmission timer resends it.
TEST(RdmaTransport, ALostLastPacketIsResentByTheTimeout)
{
    Pair p = MakePair(MicroSeconds(1));
    LoseOnReceive(p, 1, {9});
    Ptr<MoseRdmaTransport> t = InstallWithTimeout(p, MicroSeconds(100));
    const uint64_t id = t->Start(0, 1, 10000, MoseTransport::DoneCallback());
    Simulator::Run();
    EXPECT_TRUE(t->GetTransfer(id).complete);
    EXPECT_EQ(t->GetNTimeouts(), 1u);
    // no ACK came back at all (the only ACK request was the lost last packet): go-back-N
    // resends all ten, from the time the timer was armed (the first packet, at 0) + 100 us
    EXPECT_EQ(t->GetNRetransmissions(), 10u);
    EXPECT_EQ(t->GetTransfer(id).end,
              MicroSeconds(100) + FrameTime(1024) * 9 + FrameTime(784) + MicroSeconds(1));
    Simulator::Destroy();
}

// The receiver keeps a closed QP's side NoticeDelay longer, as the receiver's MPI rank does until
// the close reaches it: a late duplicate in between is answered with an ACK, which is stale at
// the sender. By hand (10 Gb/s, 1 us, 1024 B packets in 856 ns, an ACK in 40 ns): the lone ACK
// of a 10-packet message is lost; at the 100 us timeout go-back-N resends packets 0-9, one every
// 856 ns. The duplicate of packet 0 arrives at 101.856 us and its ACK closes the QP at 102.896;
// by then packets 0-3 have left. Packet 1 arrives at 102.712, before the close (a duplicate; its
// ACK reaches the closed sender at 103.752: stale). Packets 2 and 3 arrive at 103.568 and
// 104.424: with NoticeDelay 0 stale, with NoticeDelay 50 us duplicates whose ACKs are stale.
TEST(RdmaTransport, ALateDuplicateIsAnsweredUntilNoticeDelayAfterTheClose)
{
    struct Counts
    {
        uint64_t duplicate;
        uint64_t stale;
        uint64_t acks;
        uint64_t resent;
    };

    auto run = [](Time noticeDelay) {
        Pair p = MakePair(MicroSeconds(1));
        LoseOnReceive(p, 0, {0}); // the sender's first packet received: the message's ACK
        Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
        t->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
        t->SetAttribute("NoticeDelay", TimeValue(noticeDelay));
        t->Install(p.nodes);
        const uint64_t id = t->Start(0, 1, 10000, MoseTransport::DoneCallback());
        Simulator::Run();
        EXPECT_TRUE(t->GetTransfer(id).complete);
        EXPECT_EQ(t->GetNTimeouts(), 1u);
        EXPECT_EQ(t->GetNErrors(), 0u);
        const Counts c{t->GetNDrops(MoseRdmaTransport::DUPLICATE),
                       t->GetNDrops(MoseRdmaTransport::STALE),
                       t->GetNAcks(),
                       t->GetNRetransmissions()};
        Simulator::Destroy();
        return c;
    };

    const Counts now = run(Seconds(0));
    EXPECT_EQ(now.resent, 4u) << "packets 0-3 left before the close";
    EXPECT_EQ(now.duplicate, 2u) << "packets 0 and 1";
    EXPECT_EQ(now.stale, 3u) << "packets 2 and 3, and packet 1's ACK";
    EXPECT_EQ(now.acks, 3u) << "the lost one, and one per duplicate";

    const Counts later = run(MicroSeconds(50));
    EXPECT_EQ(later.resent, 4u);
    EXPECT_EQ(later.duplicate, 4u) << "packets 0 to 3";
    EXPECT_EQ(later.stale, 3u) << "the ACKs of packets 1, 2 and 3";
    EXPECT_EQ(later.acks, 5u);
}

// The retransmission timer waits RetransmitTimeout from the QP's last progress, not from when it
// was armed. By hand (10 Gb/s, 1 us, AckInterval 16): a 20,000 B message is 19 packets of
// 1024 B and one of 544 B; the last is lost. The timer is armed at 0. PSN 15 asks for an ACK: it
// arrives at 16 x 0.856 + 1 = 14.696 us and its ACK (40 ns) reaches the sender at 15.736 us.
// At 100 us the timer finds that progress and waits until 115.736 us; then go-back-N resends
// PSNs 16-19, the last arriving at 115.736 + 3 x 0.856 + 0.472 + 1 = 119.776 us.
TEST(RdmaTransport, TheTimeoutWaitsFromTheLastProgress)
{
    Pair p = MakePair(MicroSeconds(1));
    LoseOnReceive(p, 1, {19});
    Ptr<MoseRdmaTransport> t = InstallWithTimeout(p, MicroSeconds(100));
    std::vector<Time> timeouts;
    t->TraceConnectWithoutContext(
        "Timeout",
        MakeBoundCallback(
            +[](std::vector<Time>* v, uint32_t, uint64_t) { v->push_back(Simulator::Now()); },
            &timeouts));
    const uint64_t id = t->Start(0, 1, 20000, MoseTransport::DoneCallback());
    Simulator::Run();
    EXPECT_TRUE(t->GetTransfer(id).complete);
    EXPECT_EQ(timeouts, (std::vector<Time>{NanoSeconds(115736)}));
    EXPECT_EQ(t->GetNRetransmissions(), 4u);
    EXPECT_EQ(t->GetTransfer(id).end,
              NanoSeconds(15736) + MicroSeconds(100) + FrameTime(1024) * 3 + FrameTime(544) +
                  MicroSeconds(1));
    EXPECT_EQ(t->GetTransfer(id).end, NanoSeconds(119776));
    Simulator::Destroy();
}

// Two QPs' timers, armed 50 us apart, fire each at its own time. Each 10,000 B message loses its
// last packet and gets no ACK: QP A (started at 0) times out at 100 us and ends, as in
// ALostLastPacketIsResentByTheTimeout, at 109.368 us; QP B (started at 50 us) times out at 150 us
// and ends at 159.368 us. The run ends when the last timer, armed again by B's resending at
// 150 us, fires at 250 us and finds nothing outstanding.
TEST(RdmaTransport, EachQpsTimerFiresAtItsOwnTime)
{
    Pair p = MakePair(MicroSeconds(1));
    LoseOnReceive(p, 1, {9, 19}); // the last packet of each: A's ten arrive first
    Ptr<MoseRdmaTransport> t = InstallWithTimeout(p, MicroSeconds(100));
    std::vector<std::pair<Time, uint32_t>> timeouts;
    t->TraceConnectWithoutContext(
        "Timeout",
        MakeBoundCallback(
            +[](std::vector<std::pair<Time, uint32_t>>* v, uint32_t qpn, uint64_t) {
                v->emplace_back(Simulator::Now(), qpn);
            },
            &timeouts));
    const uint64_t a = t->Start(0, 1, 10000, MoseTransport::DoneCallback());
    uint64_t b = 0;
    Simulator::Schedule(MicroSeconds(50),
                        [&t, &b]() { b = t->Start(0, 1, 10000, MoseTransport::DoneCallback()); });
    Simulator::Run();
    const Time stop = Simulator::Now();
    ASSERT_TRUE(t->GetTransfer(a).complete);
    ASSERT_TRUE(t->GetTransfer(b).complete);
    ASSERT_EQ(timeouts.size(), 2u);
    EXPECT_EQ(timeouts[0].first, MicroSeconds(100));
    EXPECT_EQ(timeouts[1].first, MicroSeconds(150));
    EXPECT_NE(timeouts[0].second, timeouts[1].second) << "two QPs";
    EXPECT_EQ(t->GetNRetransmissions(), 20u);
    const Time resend = FrameTime(1024) * 9 + FrameTime(784) + MicroSeconds(1);
    EXPECT_EQ(t->GetTransfer(a).end, MicroSeconds(100) + resend);
    EXPECT_EQ(t->GetTransfer(b).end, MicroSeconds(150) + resend);
    EXPECT_EQ(t->GetTransfer(b).end, NanoSeconds(159368));
    EXPECT_EQ(stop, MicroSeconds(250));
    Simulator::Destroy();
}

// MoseScale 4: the timeout is 4 x 100 us, the rates and the byte counter are divided by 4, and
// the attributes keep the values given. The links here are made by hand at 10 Gb/s, standing
// for a fabric the topology helper already divided (tests of that division are in scale-test).
TEST(RdmaTransport, MoseScaleDividesRatesAndBytesAndStretchesTheTimeout)
{
    ScaleGuard scale(4);
    Pair p = MakePair(MicroSeconds(1));
    LoseOnReceive(p, 1, {9});
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    // 40 Gb/s is above the 10 Gb/s line rate; divided by 4 it is not
    t->SetAttribute("MinRate", DataRateValue(DataRate("40Gb/s")));
    t->Install(p.nodes);
    const uint64_t id = t->Start(0, 1, 10000, MoseTransport::DoneCallback());
    Simulator::Run();
    EXPECT_TRUE(t->GetTransfer(id).complete);
    EXPECT_EQ(t->GetNTimeouts(), 1u);
    EXPECT_EQ(t->GetTransfer(id).end,
              MicroSeconds(400) + FrameTime(1024) * 9 + FrameTime(784) + MicroSeconds(1));
    TimeValue rto;
    t->GetAttribute("RetransmitTimeout", rto);
    EXPECT_EQ(rto.Get(), MicroSeconds(100)); // the input is kept
    Simulator::Destroy();

    // the same MinRate at MoseScale 1 is above the line rate: refused, by name
    MoseScale::Set(1);
    Pair q = MakePair(MicroSeconds(1));
    Ptr<MoseRdmaTransport> u = CreateObject<MoseRdmaTransport>();
    u->SetAttribute("MinRate", DataRateValue(DataRate("40Gb/s")));
    EXPECT_CONTAINS(ErrorOf([&] { u->Install(q.nodes); }), "MinRate");
    Simulator::Destroy();

    // a byte counter that MoseScale would bring to 0 is refused with both values named
    MoseScale::Set(4);
    Pair r = MakePair(MicroSeconds(1));
    Ptr<MoseRdmaTransport> v = CreateObject<MoseRdmaTransport>();
    v->SetAttribute("ByteCounter", UintegerValue(3));
    const std::string message = ErrorOf([&] { v->Install(r.nodes); });
    EXPECT_CONTAINS(message, "ByteCounter");
    EXPECT_CONTAINS(message, "MoseScale = 4");
    Simulator::Destroy();
}

namespace
{

/// A 2 MB transfer over a link that loses 1% of the data packets at random (a fixed stream)
struct LossyRun
{
    bool complete{false};
    uint64_t received{0};
    uint64_t retransmissions{0};
    uint64_t errors{0};
    Time end;
};

LossyRun
RunLossy(const std::string& mode)
{
    Pair p = MakePair(MicroSeconds(1));
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(0.01);
    em->AssignStreams(7);
    p.devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->SetAttribute("RetxMode", StringValue(mode));
    t->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
    t->Install(p.nodes);
    const uint64_t id = t->Start(0, 1, 2000000, MoseTransport::DoneCallback());
    Simulator::Run();
    LossyRun r;
    r.complete = t->GetTransfer(id).complete;
    r.received = t->GetTransfer(id).received;
    r.retransmissions = t->GetNRetransmissions();
    r.errors = t->GetNErrors();
    r.end = t->GetTransfer(id).end;
    Simulator::Destroy();
    return r;
}

} // namespace

// 1% random loss: both modes deliver every byte exactly once to the transfer; selective repeat
// resends fewer packets than go-back-N (here 19 against 100 for 1954 packets, about 20 lost) and
// ends sooner; the same stream gives the same run.
TEST(RdmaTransport, RandomLossIsRecoveredByBothModes)
{
    const LossyRun gbn = RunLossy("GoBackN");
    const LossyRun sr = RunLossy("SelectiveRepeat");
    for (const LossyRun* r : {&gbn, &sr})
    {
        EXPECT_TRUE(r->complete);
        EXPECT_EQ(r->received, 2000000u);
        EXPECT_EQ(r->errors, 0u);
        EXPECT_GT(r->retransmissions, 0u);
    }
    EXPECT_LT(sr.retransmissions, gbn.retransmissions);
    EXPECT_LT(sr.end, gbn.end);
    EXPECT_EQ(RunLossy("SelectiveRepeat").end, sr.end);
}

TEST(RdmaTransport, BadAttributesAreRefusedByName)
{
    auto installWith = [](const std::string& name, const AttributeValue& value) {
        Pair p = MakePair(MicroSeconds(1));
        Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
        t->SetAttribute(name, value);
        std::string error = ErrorOf([&] { t->Install(p.nodes); });
        Simulator::Destroy();
        return error;
    };
    const std::string pair = installWith("MinRate", DataRateValue(DataRate("20Gb/s")));
    EXPECT_CONTAINS(pair, "MinRate");
    EXPECT_CONTAINS(pair, "20000000000bps");
    EXPECT_CONTAINS(pair, "at most the line rate 10000000000bps");
    const std::string zero = installWith("MinRate", DataRateValue(DataRate(0)));
    EXPECT_CONTAINS(zero, "MinRate");
    EXPECT_CONTAINS(zero, "above 0");
    const std::string g = installWith("DcqcnG", DoubleValue(0));
    EXPECT_CONTAINS(g, "DcqcnG");
    EXPECT_CONTAINS(g, "(0, 1]");
    const std::string mtu = installWith("PayloadSize", UintegerValue(4096));
    EXPECT_CONTAINS(mtu, "PayloadSize");
    EXPECT_CONTAINS(mtu, "4096");
    EXPECT_CONTAINS(mtu, "MTU 1500");
    const std::string ack = installWith("AckInterval", UintegerValue(0));
    EXPECT_CONTAINS(ack, "AckInterval");
    const std::string rto = installWith("RetransmitTimeout", TimeValue(Seconds(0)));
    EXPECT_CONTAINS(rto, "RetransmitTimeout");
    {
        Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
        t->SetAttribute("MinRate", DataRateValue(DataRate("2Gb/s")));
        t->SetAttribute("LineRate", DataRateValue(DataRate("1Gb/s")));
        Pair p = MakePair(MicroSeconds(1));
        const std::string order = ErrorOf([&] { t->Install(p.nodes); });
        EXPECT_CONTAINS(order, "MinRate");
        EXPECT_CONTAINS(order, "LineRate");
        EXPECT_CONTAINS(order, "not above LineRate");
        Simulator::Destroy();
    }
}

namespace
{

/// Two senders into one receiver through a switch node whose port to the receiver is the
/// bottleneck (10 Gb/s everywhere) with a RED queue disc marking ECN: DCQCN's test bench
struct Incast
{
    std::vector<Time> ends;
    std::vector<uint64_t> received;
    uint64_t cnps{0};
    uint64_t drops{0};
    uint64_t errors{0};
    std::vector<double> shareA; //!< a's share of the bytes received per 100 us window
};

Incast
RunIncast(uint64_t bytes)
{
    NodeContainer n;
    n.Create(4); // 0, 1 senders; 2 switch; 3 receiver
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer d0 = link.Install(n.Get(0), n.Get(2));
    NetDeviceContainer d1 = link.Install(n.Get(1), n.Get(2));
    NetDeviceContainer d3 = link.Install(n.Get(2), n.Get(3));
    InternetStackHelper stack;
    stack.Install(n);
    TrafficControlHelper red;
    red.SetRootQueueDisc("ns3::RedQueueDisc",
                         "UseEcn",
                         BooleanValue(true),
                         "MinTh",
                         DoubleValue(5),
                         "MaxTh",
                         DoubleValue(200),
                         "LInterm",
                         DoubleValue(100), // Pmax 1%
                         "QW",
                         DoubleValue(1),
                         "UseHardDrop",
                         BooleanValue(false), // above MaxTh: mark, not drop
                         "MaxSize",
                         QueueSizeValue(QueueSize("1000p")));
    QueueDiscContainer discs = red.Install(d3.Get(0));
    // RED's random stream fixed, so that a second run in this process draws the same marks
    DynamicCast<RedQueueDisc>(discs.Get(0))->AssignStreams(1);
    Ipv4AddressHelper a("10.1.0.0", "255.255.255.0");
    a.Assign(d0);
    a.SetBase("10.1.1.0", "255.255.255.0");
    a.Assign(d1);
    a.SetBase("10.1.2.0", "255.255.255.0");
    a.Assign(d3);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->Install(NodeContainer(n.Get(0), n.Get(1), n.Get(3)));
    const uint64_t x = t->Start(0, 2, bytes, MoseTransport::DoneCallback());
    const uint64_t y = t->Start(1, 2, bytes, MoseTransport::DoneCallback());
    Incast r;
    auto last = std::make_shared<std::pair<uint64_t, uint64_t>>(0, 0);
    for (int k = 1; k <= 40; ++k)
    {
        Simulator::Schedule(MicroSeconds(100 * k), [&r, t, x, y, last]() {
            const uint64_t ax = t->GetTransfer(x).received;
            const uint64_t by = t->GetTransfer(y).received;
            const double dx = static_cast<double>(ax - last->first);
            const double dy = static_cast<double>(by - last->second);
            if (dx + dy > 0 && ax < t->GetTransfer(x).bytes && by < t->GetTransfer(y).bytes)
            {
                r.shareA.push_back(dx / (dx + dy));
            }
            *last = {ax, by};
        });
    }
    Simulator::Run();
    r.ends = {t->GetTransfer(x).end, t->GetTransfer(y).end};
    r.received = {t->GetTransfer(x).received, t->GetTransfer(y).received};
    r.cnps = t->GetNCnps();
    r.drops = t->GetNDrops() + t->GetNRetransmissions() + t->GetNTimeouts();
    r.errors = t->GetNErrors();
    Simulator::Destroy();
    return r;
}

} // namespace

// Two senders at line rate into one 10 Gb/s port (RED with ECN: Kmin 5, Kmax 200 packets,
// Pmax 1%, as in the DCQCN paper): the queue grows until RED marks, DCQCN cuts both, and from
// 1.2 ms on each gets its fair half within 10 points in every 100 us window; nothing is lost.
// Same inputs (RED's stream fixed), same bytes and times.
TEST(RdmaTransport, TwoSendersConvergeToTheFairShareUnderDcqcn)
{
    const uint64_t bytes = 2500000; // 2.5 MB each: 4 ms at 5 Gb/s
    const Incast r = RunIncast(bytes);
    EXPECT_EQ(r.received, (std::vector<uint64_t>{bytes, bytes}));
    EXPECT_GT(r.cnps, 0u) << "the RED queue marked and the receiver notified";
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.errors, 0u);
    ASSERT_GE(r.shareA.size(), 20u);
    // the first 0.8 ms at line rate, half each; the queue built meanwhile makes RED mark, the
    // cuts reshuffle the shares for a few windows; from 1.2 ms on every window is fair
    for (std::size_t i = 0; i < 8; ++i)
    {
        EXPECT_NEAR(r.shareA[i], 0.5, 0.01) << "window " << i;
    }
    for (std::size_t i = 12; i < r.shareA.size(); ++i) // window i ends at (i + 1) x 100 us
    {
        EXPECT_NEAR(r.shareA[i], 0.5, 0.1) << "window " << i;
    }
    const Incast again = RunIncast(bytes);
    EXPECT_EQ(again.ends, r.ends);
    EXPECT_EQ(again.cnps, r.cnps);
    EXPECT_EQ(again.shareA, r.shareA);
}

// The LLM workloads over RoCEv2 on the module's fabric, through MoseWorkloadHelper, at
// MoseScale 2000 with the transport's defaults (its timeout follows MoseScale): every request is
// served, the training job completes iterations, nothing is lost or resent, and the trace
// sources are reachable by Config path.
TEST(RdmaTransport, TheLlmWorkloadsRunOverIt)
{
    constexpr uint32_t kGroups = 4;
    ScaleGuard scale(2000);
    const FlowExperimentConfig config = PaperScaledConfig(kGroups, 2);
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetOcsAttribute("DataRate", DataRateValue(DataRate("400Gb/s")));
    topology->SetTemplate(config, 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topology->Install();
    Ptr<MoseLossMonitor> loss = topology->InstallLossMonitor();
    Ptr<MoseRdmaTransport> transport = CreateObject<MoseRdmaTransport>();
    transport->Install(topology->GetGroupEndpoints());
    uint64_t cnpsByPath = 0;
    Config::ConnectWithoutContext("/MoseTransportList/*/$ns3::MoseRdmaTransport/Cnp",
                                  MakeBoundCallback(
                                      +[](uint64_t* n, uint32_t) { ++*n; },
                                      &cnpsByPath));
    uint64_t doneByPath = 0;
    Config::ConnectWithoutContext(
        "/MoseTransportList/0/$ns3::MoseRdmaTransport/TransferDone",
        MakeBoundCallback(
            +[](uint64_t* n, uint64_t, uint32_t, uint32_t, uint64_t, Time) { ++*n; },
            &doneByPath));

    const RoleAssignment roles = topology->GetRoles();
    MoseWorkloadHelper inferenceHelper("ns3::MoseInferenceWorkload");
    auto inference = DynamicCast<MoseInferenceWorkload>(inferenceHelper.Install(transport));
    std::vector<LlmRequest> requests;
    for (uint64_t i = 0; i < 20; ++i)
    {
        requests.push_back(LlmRequest{i * 10000000, 512, 16, "", 0}); // one per 10 ms
    }
    inference->SetRequests(requests);
    MoseWorkloadHelper trainingHelper("ns3::MoseTrainingWorkload");
    trainingHelper.SetAttribute("MaxIterations", UintegerValue(3));
    auto training = DynamicCast<MoseTrainingWorkload>(trainingHelper.Install(transport));
    const auto graph = std::make_shared<const CircuitGraph>(topology->GetCircuitGraph());
    inference->SetMode(WorkloadMode::INFERENCE_HEAVY, roles, graph);
    training->SetMode(WorkloadMode::INFERENCE_HEAVY, roles, graph);
    inference->Start(Seconds(0));
    training->Start(Seconds(0));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    ASSERT_EQ(inference->GetRecords().size(), 20u);
    for (const MoseRequestRecord& r : inference->GetRecords())
    {
        EXPECT_TRUE(r.done) << "request " << r.index;
    }
    EXPECT_EQ(training->GetRecords().size(), 3u);
    for (const MoseIterationRecord& it : training->GetRecords())
    {
        EXPECT_TRUE(it.done);
    }
    EXPECT_GT(transport->GetNTransfers(), 20u);
    EXPECT_EQ(transport->GetNCompleted(), transport->GetNTransfers());
    EXPECT_EQ(doneByPath, transport->GetNCompleted());
    EXPECT_EQ(cnpsByPath, transport->GetNCnps());
    EXPECT_EQ(loss->GetTotal(), 0u);
    EXPECT_EQ(transport->GetNDrops(), 0u)
        << "out of order " << transport->GetNDrops(MoseRdmaTransport::OUT_OF_ORDER)
        << ", duplicate " << transport->GetNDrops(MoseRdmaTransport::DUPLICATE) << ", stale "
        << transport->GetNDrops(MoseRdmaTransport::STALE) << ", timeouts "
        << transport->GetNTimeouts() << ", CNPs " << transport->GetNCnps();
    EXPECT_EQ(transport->GetNRetransmissions(), 0u);
    EXPECT_EQ(transport->GetNTimeouts(), 0u);
    EXPECT_EQ(inference->GetNErrors() + training->GetNErrors() + transport->GetNErrors(), 0u);
    Simulator::Destroy();
}

namespace
{

/// What a switching LLM run over RoCEv2 gives (RunAcrossSwitches())
struct SwitchRun
{
    uint32_t served{0};          //!< requests done
    uint32_t iterations{0};      //!< iterations done
    uint32_t switches{0};        //!< switches done
    uint64_t lostInSwitch{0};    //!< packets lost during the switches (the switcher's records)
    uint64_t lost{0};            //!< packets lost in the fabric (MoseLossMonitor, whole run)
    uint64_t drops{0};           //!< packets the transport dropped
    uint64_t outOfOrder{0};      //!< of them, after a gap (go-back-N)
    uint64_t timeouts{0};        //!< retransmission timeouts
    uint64_t retransmissions{0}; //!< PSNs resent
    uint64_t errors{0};          //!< errors of the workloads, transport and switcher
    std::vector<Time> kvEnds;    //!< every request's KV end
};

/// 16 groups, d = 4, MoSE, inference, training, inference (150 ms each) at MoseScale 2000:
/// kRequests requests (one per 2 ms) and a training job over RoCEv2, across two switches
constexpr uint32_t kRequests = 200;

SwitchRun
RunAcrossSwitches(bool drain, const std::string& retxMode = "GoBackN")
{
    constexpr uint32_t kGroups = 16;
    ScaleGuard scale(2000);
    const FlowExperimentConfig config = PaperScaledConfig(kGroups, 4);
    const Scenario scenario = ScenarioBuilder(config).Build(1);
    const ModeSchedule schedule =
        ParseSchedule("--schedule",
                      "inference-heavy:0.15s,training-heavy:0.15s,inference-heavy:0.15s");
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetTemplate(config, 1, schedule.GetInitialMode(), Policy::MOSE);
    topology->Install();
    MoseModeSwitcherHelper switcherHelper;
    switcherHelper.SetTargetProvider(
        MoseModeSwitcherHelper::MakePolicyProvider(Policy::MOSE, scenario));
    switcherHelper.SetSchedule(schedule);
    switcherHelper.SetSwitcherAttribute("Drain", BooleanValue(drain));
    Ptr<MoseModeSwitcher> switcher = switcherHelper.Install(topology);
    Ptr<MoseRdmaTransport> transport = CreateObject<MoseRdmaTransport>();
    transport->SetAttribute("RetxMode", StringValue(retxMode));
    transport->Install(topology->GetGroupEndpoints());

    std::vector<LlmRequest> requests;
    for (uint64_t i = 0; i < kRequests; ++i)
    {
        requests.push_back(LlmRequest{i * 2000000 + 1000000, 1024, 16, "", 0});
    }
    auto inference = DynamicCast<MoseInferenceWorkload>(
        MoseWorkloadHelper("ns3::MoseInferenceWorkload").Install(transport));
    inference->SetRequests(requests);
    auto training = DynamicCast<MoseTrainingWorkload>(
        MoseWorkloadHelper("ns3::MoseTrainingWorkload").Install(transport));
    switcher->AddWorkload(inference);
    switcher->AddWorkload(training);
    inference->Start(Seconds(0));
    training->Start(Seconds(0));
    Simulator::Schedule(Seconds(0.45), [training]() { training->Stop(); });
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    SwitchRun run;
    run.served = inference->GetNDone();
    run.iterations = training->GetNDone();
    for (const MoseSwitchRecord& r : switcher->GetRecords())
    {
        run.switches += r.done ? 1 : 0;
        run.lostInSwitch += r.lost;
    }
    run.lost = switcher->GetLossMonitor()->GetTotal();
    run.drops = transport->GetNDrops();
    run.outOfOrder = transport->GetNDrops(MoseRdmaTransport::OUT_OF_ORDER);
    run.timeouts = transport->GetNTimeouts();
    run.retransmissions = transport->GetNRetransmissions();
    run.errors = inference->GetNErrors() + training->GetNErrors() + transport->GetNErrors() +
                 switcher->GetNErrors();
    for (const MoseRequestRecord& r : inference->GetRecords())
    {
        run.kvEnds.push_back(r.kvEnd);
    }
    Simulator::Destroy();
    return run;
}

} // namespace

// Two switches with drain over RoCEv2: the fabric loses no packet and every request is served;
// the same run twice gives the same KV times. The drain routes new packets around the circuits
// it empties, so a QP's packets on the old path arrive after its first ones on the new path:
// go-back-N discards them as out of order (counted by the transport, never lost by the fabric)
// and resends them; selective repeat keeps them and resends fewer, without a timeout either way.
// Without drain the circuits go dark with packets on them: the fabric's loss is counted, and
// go-back-N recovers it (a tail loss by the timeout), so every request is still served.
TEST(RdmaTransport, ASwitchWithDrainLosesNothing)
{
    const SwitchRun drained = RunAcrossSwitches(true);
    EXPECT_EQ(drained.switches, 2u);
    EXPECT_EQ(drained.served, kRequests);
    EXPECT_GT(drained.iterations, 0u);
    EXPECT_EQ(drained.lost, 0u);
    EXPECT_EQ(drained.lostInSwitch, 0u);
    EXPECT_EQ(drained.timeouts, 0u);
    EXPECT_GT(drained.outOfOrder, 0u);
    EXPECT_EQ(drained.errors, 0u);
    EXPECT_EQ(RunAcrossSwitches(true).kvEnds, drained.kvEnds);

    const SwitchRun selective = RunAcrossSwitches(true, "SelectiveRepeat");
    EXPECT_EQ(selective.served, kRequests);
    EXPECT_EQ(selective.lost, 0u);
    EXPECT_EQ(selective.outOfOrder, 0u);
    EXPECT_EQ(selective.timeouts, 0u);
    EXPECT_LT(selective.retransmissions, drained.retransmissions);

    const SwitchRun dark = RunAcrossSwitches(false);
    EXPECT_EQ(dark.switches, 2u);
    EXPECT_EQ(dark.served, kRequests);
    EXPECT_GT(dark.lostInSwitch, 0u);
    EXPECT_GT(dark.retransmissions, 0u);
    EXPECT_EQ(dark.errors, 0u);
    std::cout << "RDMA across two switches (16 groups, d = 4, MoSE, MoseScale 2000): drain + "
              << "go-back-N " << drained.outOfOrder << " out of order, " << drained.retransmissions
              << " resent; drain + selective repeat " << selective.retransmissions
              << " resent; no drain " << dark.lostInSwitch << " lost, " << dark.retransmissions
              << " resent, " << dark.timeouts << " timeouts" << std::endl;
}
