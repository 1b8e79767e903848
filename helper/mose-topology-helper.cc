/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-topology-helper.h"

#include "mose-routing-helper.h"

#include "ns3/boolean.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/mose-device-queue.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-partition.h"
#include "ns3/mose-scale.h"
#include "ns3/mose-scenario.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/simulator.h"
#if __has_include("distributed-simulator-impl.h")
// not installed by ns-3's mpi module: the mose CMakeLists adds src/mpi/model to the include path
#include "distributed-simulator-impl.h"
#define MOSE_HAVE_DISTRIBUTED_SIMULATOR_IMPL 1
#endif
#endif

#include <algorithm>
#include <optional>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseTopologyHelper");
NS_OBJECT_ENSURE_REGISTERED(MoseTopologyHelper);

TypeId
MoseTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseTopologyHelper")
            .SetParent<Object>()
            .SetGroupName("Mose")
            .AddConstructor<MoseTopologyHelper>()
            .AddAttribute("Groups",
                          "N, the number of groups (group nodes)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&MoseTopologyHelper::m_groups),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PortsPerGroup",
                          "d, the optical ports of every group",
                          UintegerValue(4),
                          MakeUintegerAccessor(&MoseTopologyHelper::m_ports),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostsPerGroup",
                          "H, hosts behind each group node, each on its own electrical "
                          "point-to-point link (one per GPU or NIC, rail h = host h; 0: "
                          "applications run on the group nodes)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseTopologyHelper::m_hosts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostDataRate",
                          "Data rate of every host's own link (per host, as each GPU's NIC of a "
                          "rail-optimised cluster has its own rate; a group's hosts together "
                          "have H times it), divided by the global value MoseScale",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&MoseTopologyHelper::m_hostRate),
                          MakeDataRateChecker())
            .AddAttribute("HostDelay",
                          "Propagation delay of the host links",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&MoseTopologyHelper::m_hostDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("HostMtu",
                          "MTU of the host links' devices, both ends (e.g. the port devices' "
                          "jumbo Mtu, so that a host's segments cross its link whole)",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&MoseTopologyHelper::m_hostMtu),
                          MakeUintegerChecker<uint16_t>(68))
            .AddAttribute("AddressBase",
                          "Network address of group 0's block; group g's block follows at "
                          "g block sizes",
                          Ipv4AddressValue(Ipv4Address("10.0.0.0")),
                          MakeIpv4AddressAccessor(&MoseTopologyHelper::m_addressBase),
                          MakeIpv4AddressChecker())
            .AddAttribute("GlobalRouting",
                          "Route with ns-3's global routing (Ipv4GlobalRoutingHelper) instead of "
                          "MoseRoutingProtocol: usable for small static fabrics without hosts "
                          "(its recomputation grows about as N^3 and it cannot follow circuits "
                          "that change); GetRouteTable() then has no table",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MoseTopologyHelper::m_globalRouting),
                          MakeBooleanChecker())
            .AddAttribute("BlockPrefixLength",
                          "Prefix length of every group's address block (24: 256 addresses)",
                          UintegerValue(24),
                          MakeUintegerAccessor(&MoseTopologyHelper::m_prefixLength),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DefaultQueueDisc",
                          "Install ns-3's default root queue disc (TrafficControlHelper::Default: "
                          "an FqCoDelQueueDisc) on every port and host-link device, as "
                          "Ipv4AddressHelper::Assign does on the devices it numbers; replace it "
                          "with TrafficControlHelper::Uninstall and Install. false: no queue "
                          "disc, packets go straight to the device queue (a packet for a full, "
                          "stopped device queue is dropped by the traffic-control layer)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MoseTopologyHelper::m_defaultQueueDisc),
                          MakeBooleanChecker())
            .AddAttribute("QueueDiscType",
                          "The root queue disc DefaultQueueDisc installs on every port and "
                          "host-link device: ns3::FqCoDelQueueDisc (ns-3's default, "
                          "TrafficControlHelper::Default) or any other QueueDisc with its "
                          "attribute defaults, e.g. ns3::FifoQueueDisc (one FIFO, no per-flow "
                          "state: cheaper per packet on fabrics whose devices carry thousands "
                          "of flows)",
                          TypeIdValue(TypeId::LookupByName("ns3::FqCoDelQueueDisc")),
                          MakeTypeIdAccessor(&MoseTopologyHelper::m_queueDiscType),
                          MakeTypeIdChecker())
            .AddAttribute("PortTxQueuesType",
                          "The transmission queue (NetDeviceQueueInterface's TxQueuesType) of "
                          "every port device: ns3::MoseDeviceQueue wakes the queue disc when the "
                          "device starts its next frame, in that event; ns3::NetDeviceQueue "
                          "(ns-3's) wakes it in an event of its own, one more event per packet "
                          "and port when the device queue holds one packet. Events of one "
                          "time step may run in another order with the one than with the "
                          "other, and where they meet in a queue a run can differ",
                          TypeIdValue(MoseDeviceQueue::GetTypeId()),
                          MakeTypeIdAccessor(&MoseTopologyHelper::m_portTxQueuesType),
                          MakeTypeIdChecker())
            .AddAttribute("Ranks",
                          "R, the MPI ranks (system ids) the groups are partitioned over; 0: "
                          "the ranks of this run (MpiInterface::GetSize() when ns-3 is built "
                          "with MPI and it is enabled, else 1). At most the ranks of the run "
                          "and at most Groups. Each group's node and hosts get its rank",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseTopologyHelper::m_ranks),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Partition",
                          "Which rank each group is on: empty or \"blocks\" for contiguous "
                          "blocks (group g on rank floor(g R / N)); \"min-cut\" for the fewest "
                          "circuits of the initial circuit graph across ranks that METIS finds "
                          "with floor(N / R) to ceil(N / R) groups per rank, the same placement "
                          "on every run (mose::PartitionCircuitGraph); or N comma-separated "
                          "ranks < R, one per group",
                          StringValue(""),
                          MakeStringAccessor(&MoseTopologyHelper::m_partition),
                          MakeStringChecker());
    return tid;
}

MoseTopologyHelper::MoseTopologyHelper()
{
    NS_LOG_FUNCTION(this);
    m_deviceFactory.SetTypeId("ns3::PointToPointNetDevice");
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_ocsFactory.SetTypeId("ns3::MoseOcs");
    m_tableFactory.SetTypeId("ns3::MoseRouteTable");
}

void
MoseTopologyHelper::SetRouteTableAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_tableFactory.Set(name, value);
    m_tableAttributes[name] = value.Copy();
}

void
MoseTopologyHelper::SetRouting(mose::RoutingRule rule, uint64_t seed)
{
    NS_LOG_FUNCTION(this << mose::ToString(rule) << seed);
    m_rule = rule;
    m_seed = seed;
    m_ruleExplicit = true;
    m_seedExplicit = true;
    m_ruleSource = "MoseTopologyHelper::SetRouting";
    m_seedSource = m_ruleSource;
    m_hasRouting = true;
}

void
MoseTopologyHelper::SetListRouting(const Ipv4ListRoutingHelper& list, int16_t priority)
{
    NS_LOG_FUNCTION(this << priority);
    m_listRouting = std::make_shared<Ipv4ListRoutingHelper>(list);
    m_listPriority = priority;
}

void
MoseTopologyHelper::ResolveRouting()
{
    NS_LOG_FUNCTION(this);
    if (!m_hasRouting || m_globalRouting)
    {
        return; // the table's own attributes, whoever set them
    }
    ResolveTableAttribute("Rule",
                          StringValue(mose::ToString(m_rule)),
                          m_ruleExplicit,
                          m_ruleSource);
    ResolveTableAttribute("Seed", UintegerValue(m_seed), m_seedExplicit, m_seedSource);
}

std::string
MoseTopologyHelper::ResolvedTableAttribute(const std::string& name,
                                           const AttributeValue& value,
                                           bool isExplicit,
                                           const std::string& source) const
{
    const TypeId tid = TypeId::LookupByName("ns3::MoseRouteTable");
    std::string user;
    std::string userSource;
    const auto set = m_tableAttributes.find(name);
    if (set != m_tableAttributes.end())
    {
        user = mose::GetAttributeValueText(tid, name, *set->second);
        userSource = "MoseTopologyHelper::SetRouteTableAttribute(\"" + name + "\")";
    }
    else if (mose::IsAttributeDefaultSet(tid, name))
    {
        user = mose::GetAttributeDefaultText(tid, name);
        userSource = "Config::SetDefault or --ns3::MoseRouteTable::" + name;
    }
    const std::string given = mose::GetAttributeValueText(tid, name, value);
    if (userSource.empty())
    {
        return given; // nobody else set it
    }
    if (isExplicit && user != given)
    {
        throw mose::Error("ns3::MoseRouteTable::" + name + " = " + user + " (set by " + userSource +
                          ") conflicts with " + name + " " + given + " given to " + source +
                          ": set it in one place, or to the same value in both");
    }
    NS_LOG_INFO("ns3::MoseRouteTable::" << name << " = " << user << " (" << userSource
                                        << ") wins over " << source << "'s " << given);
    return user;
}

void
MoseTopologyHelper::ResolveTableAttribute(const std::string& name,
                                          const AttributeValue& value,
                                          bool isExplicit,
                                          const std::string& source)
{
    // a value the user set stays (ResolvedTableAttribute() checks this one against it)
    ResolvedTableAttribute(name, value, isExplicit, source);
    const TypeId tid = TypeId::LookupByName("ns3::MoseRouteTable");
    if (m_tableAttributes.count(name) == 0 && !mose::IsAttributeDefaultSet(tid, name))
    {
        m_tableFactory.Set(name, value); // nobody else set it
    }
}

void
MoseTopologyHelper::SetFromTemplate(const std::string& name, uint32_t value)
{
    UintegerValue current;
    GetAttribute(name, current);
    if (current.Get() != value && mose::IsAttributeUserSet(*this, name))
    {
        throw mose::Error("MoseTopologyHelper::" + name + " = " + std::to_string(current.Get()) +
                          " (set by SetAttribute, Config::SetDefault or "
                          "--ns3::MoseTopologyHelper::" +
                          name + ") conflicts with " + std::to_string(value) + " (" +
                          (name == "Groups" ? "N" : "d") +
                          " of the configuration given to MoseTopologyHelper::SetTemplate): "
                          "set it in one place, or to the same value in both");
    }
    SetAttribute(name, UintegerValue(value));
}

MoseTopologyHelper::~MoseTopologyHelper()
{
    NS_LOG_FUNCTION(this);
}

void
MoseTopologyHelper::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ocs = nullptr;
    m_table = nullptr;
    m_groupNodes = NodeContainer();
    m_portDevices.clear();
    m_hostNodes.clear();
    Object::DoDispose();
}

void
MoseTopologyHelper::SetRoles(const mose::RoleAssignment& roles)
{
    NS_LOG_FUNCTION(this << roles.GetN());
    m_roles = roles;
    m_hasRoles = true;
}

void
MoseTopologyHelper::SetCircuitGraph(const mose::CircuitGraph& graph)
{
    NS_LOG_FUNCTION(this << graph.GetNNodes() << graph.GetNCircuits());
    m_graph = graph;
    m_hasGraph = true;
}

void
MoseTopologyHelper::SetTemplate(const mose::FlowExperimentConfig& config,
                                uint64_t run,
                                mose::WorkloadMode mode,
                                mose::Policy policy)
{
    NS_LOG_FUNCTION(this << run << mose::ToString(mode) << mose::ToString(policy));
    const mose::ScenarioBuilder builder(config);
    SetFromTemplate("Groups", config.nodes);
    SetFromTemplate("PortsPerGroup", config.degree);
    SetRoles(builder.BuildMode(run, mode).roles);
    SetCircuitGraph(builder.BuildCircuitGraph(run, mode, policy));
    // the configuration's rule counts as given when it is not the configuration's default; the
    // seed is derived from the run. An earlier SetRouting() keeps its explicit rule and seed.
    const bool ruleGiven = config.routing != mose::FlowExperimentConfig().routing;
    const std::string source = "MoseTopologyHelper::SetTemplate (the configuration's routing)";
    if (m_hasRouting && m_ruleExplicit)
    {
        if (ruleGiven && config.routing != m_rule)
        {
            throw mose::Error("the routing rule " + mose::ToString(config.routing) +
                              " of the configuration given to " + source + " conflicts with " +
                              mose::ToString(m_rule) + " given to " + m_ruleSource +
                              ": set it in one place, or to the same value in both");
        }
    }
    else
    {
        m_rule = config.routing;
        m_ruleExplicit = ruleGiven;
        m_ruleSource = source;
    }
    if (!m_hasRouting || !m_seedExplicit)
    {
        m_seed = builder.BuildRoutingSeed(run);
        m_seedExplicit = false;
        m_seedSource = source;
    }
    m_hasRouting = true;
}

void
MoseTopologyHelper::ReadCircuitGraph(const std::string& path)
{
    NS_LOG_FUNCTION(this << path);
    SetCircuitGraph(mose::ReadCircuitGraphCsv(path, m_groups, std::optional<uint32_t>(m_ports)));
}

void
MoseTopologyHelper::SetPortDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_deviceFactory.Set(name, value);
    m_deviceAttributes[name] = value.Copy();
}

void
MoseTopologyHelper::SetOcsAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_ocsFactory.Set(name, value);
}

void
MoseTopologyHelper::SetPortQueue(const std::string& type,
                                 const std::string& name1,
                                 const AttributeValue& value1)
{
    NS_LOG_FUNCTION(this << type);
    m_queueFactory.SetTypeId(type);
    if (!name1.empty())
    {
        m_queueFactory.Set(name1, value1);
    }
}

void
MoseTopologyHelper::GetOcsAttribute(const std::string& name, AttributeValue& value) const
{
    // the OCS Install() creates: the attribute's default, or SetOcsAttribute()'s value
    m_ocsFactory.Create<MoseOcs>()->GetAttribute(name, value);
}

void
MoseTopologyHelper::GetRouting(mose::RoutingRule& rule, uint64_t& seed) const
{
    // the MoseRouteTable attributes Install() gives every table, resolved as ResolveRouting()
    // resolves them (a conflict between two explicit settings throws here as it would there)
    const TypeId tid = TypeId::LookupByName("ns3::MoseRouteTable");
    const auto effective = [&](const std::string& name,
                               const AttributeValue& given,
                               bool isExplicit,
                               const std::string& source) {
        if (!m_hasRouting || m_globalRouting)
        {
            const auto set = m_tableAttributes.find(name);
            return set != m_tableAttributes.end()
                       ? mose::GetAttributeValueText(tid, name, *set->second)
                       : mose::GetAttributeDefaultText(tid, name);
        }
        return ResolvedTableAttribute(name, given, isExplicit, source);
    };
    const std::string ruleText =
        effective("Rule", StringValue(mose::ToString(m_rule)), m_ruleExplicit, m_ruleSource);
    const std::string seedText =
        effective("Seed", UintegerValue(m_seed), m_seedExplicit, m_seedSource);
    rule = mose::ParseEnum<mose::RoutingRule>(ruleText, "ns3::MoseRouteTable::Rule");
    seed = mose::ParseUnsigned64("ns3::MoseRouteTable::Seed", seedText);
}

void
MoseTopologyHelper::ValidatePortDevices() const
{
    const auto rate = m_deviceAttributes.find("DataRate");
    if (rate == m_deviceAttributes.end())
    {
        return;
    }
    const TypeId device = TypeId::LookupByName("ns3::PointToPointNetDevice");
    const std::string given = mose::GetAttributeValueText(device, "DataRate", *rate->second);
    // the OCS Install() creates has the attribute's default, or SetOcsAttribute()'s value
    const std::string circuit = mose::GetAttributeText(*m_ocsFactory.Create<MoseOcs>(), "DataRate");
    if (given != circuit)
    {
        throw mose::Error("MoseTopologyHelper::SetPortDeviceAttribute(\"DataRate\") = " + given +
                          " conflicts with ns3::MoseOcs::DataRate = " + circuit +
                          ", which MoseOcs::AddPort sets on every port: set the circuit "
                          "rate with ns3::MoseOcs::DataRate or SetOcsAttribute()");
    }
}

void
MoseTopologyHelper::Validate() const
{
    NS_LOG_FUNCTION(this);
    ValidateFabric();
    ValidateQueueDiscs();
    if (m_globalRouting && m_listRouting)
    {
        throw mose::Error("MoseTopologyHelper::GlobalRouting = true with SetListRouting(): "
                          "a list routes with MoseRoutingProtocol; use GlobalRouting = false "
                          "or no list");
    }
    if (m_hasRoles && m_roles.GetN() != m_groups)
    {
        throw mose::Error("the roles name " + std::to_string(m_roles.GetN()) +
                          " groups but MoseTopologyHelper::Groups = " + std::to_string(m_groups));
    }
    CheckQueueSize(m_queueFactory, "optical port devices'");
    if (m_hosts > 0)
    {
        CheckQueueSize(ObjectFactory("ns3::DropTailQueue<Packet>"),
                       "host links'"); // their helper's
    }
}

void
MoseTopologyHelper::ValidateFabric() const
{
    if (m_groups < 2)
    {
        throw mose::Error("MoseTopologyHelper::Groups = " + std::to_string(m_groups) +
                          ": a fabric needs at least 2 groups");
    }
    if (m_ports < 1 || m_ports >= m_groups)
    {
        throw mose::Error("MoseTopologyHelper::PortsPerGroup = " + std::to_string(m_ports) +
                          " with Groups = " + std::to_string(m_groups) + ": allowed 1 <= d < N");
    }
    // the rates as Install() divides them by MoseScale: an error names one that would be 0
    MoseScale::ScaleRate(m_hostRate, "ns3::MoseTopologyHelper::HostDataRate");
    DataRateValue ocsRate;
    GetOcsAttribute("DataRate", ocsRate);
    MoseScale::ScaleRate(ocsRate.Get(), "ns3::MoseOcs::DataRate");
    if (!m_hasGraph)
    {
        throw mose::Error("MoseTopologyHelper::Install: no circuit graph; call "
                          "SetCircuitGraph() with a template or a graph read from a file");
    }
    if (m_graph.GetNNodes() != m_groups)
    {
        throw mose::Error("the circuit graph has " + std::to_string(m_graph.GetNNodes()) +
                          " groups but MoseTopologyHelper::Groups = " + std::to_string(m_groups));
    }
    const std::string problem = m_graph.FindProblem(m_ports);
    if (!problem.empty())
    {
        throw mose::Error("the circuit graph cannot be realised with PortsPerGroup = " +
                          std::to_string(m_ports) + ": " + problem);
    }
    if (m_globalRouting && m_hosts > 0)
    {
        throw mose::Error("MoseTopologyHelper::GlobalRouting = true with HostsPerGroup = " +
                          std::to_string(m_hosts) +
                          ": hosts need MoseRoutingProtocol; use GlobalRouting = false or "
                          "HostsPerGroup = 0");
    }
    if (m_prefixLength < 1 || m_prefixLength > 30)
    {
        mose::ThrowBadParameter("ns3::MoseTopologyHelper::BlockPrefixLength",
                                std::to_string(m_prefixLength),
                                "1 to 30 (a group's block needs a network and a broadcast "
                                "address)");
    }
    const uint64_t room = (uint64_t{1} << (32 - m_prefixLength)) - 2;
    const uint64_t need = uint64_t{m_ports} + m_hosts;
    if (need > room)
    {
        // the longest prefix whose block holds the ports and hosts
        uint32_t longest = 30;
        while (longest > 1 && (uint64_t{1} << (32 - longest)) - 2 < need)
        {
            --longest;
        }
        // hosts given: HostsPerGroup is named (with the prefix that would hold them); none:
        // the prefix length alone is wrong, and HostsPerGroup, not given, is not blamed
        const std::string prefix = "a prefix length of 1 to " + std::to_string(longest);
        if (m_hosts > 0)
        {
            mose::ThrowBadParameter(
                "ns3::MoseTopologyHelper::HostsPerGroup",
                std::to_string(m_hosts),
                "0 to " + std::to_string(room > m_ports ? room - m_ports : 0) +
                    " with PortsPerGroup = " + std::to_string(m_ports) +
                    " and BlockPrefixLength = " + std::to_string(m_prefixLength) +
                    " (a group's block holds " + std::to_string(room) +
                    " port and host addresses), or " + prefix);
        }
        mose::ThrowBadParameter("ns3::MoseTopologyHelper::BlockPrefixLength",
                                std::to_string(m_prefixLength),
                                prefix + " with PortsPerGroup = " + std::to_string(m_ports) +
                                    " (a group's block of prefix length " +
                                    std::to_string(m_prefixLength) + " holds " +
                                    std::to_string(room) + " addresses, fewer than its " +
                                    std::to_string(m_ports) + " ports)");
    }
}

void
MoseTopologyHelper::ValidateQueueDiscs() const
{
    if (m_portTxQueuesType != NetDeviceQueue::GetTypeId() &&
        !m_portTxQueuesType.IsChildOf(NetDeviceQueue::GetTypeId()))
    {
        mose::ThrowBadParameter("MoseTopologyHelper::PortTxQueuesType",
                                m_portTxQueuesType.GetName(),
                                "ns3::MoseDeviceQueue (the default), ns3::NetDeviceQueue or "
                                "another NetDeviceQueue type");
    }
    if (m_defaultQueueDisc && !m_queueDiscType.IsChildOf(TypeId::LookupByName("ns3::QueueDisc")))
    {
        mose::ThrowBadParameter("MoseTopologyHelper::QueueDiscType",
                                m_queueDiscType.GetName(),
                                "a root queue disc type, e.g. ns3::FqCoDelQueueDisc (the default) "
                                "or ns3::FifoQueueDisc");
    }
    for (const auto& [name, value] : m_queueDiscAttributes)
    {
        // checked here, not when set: QueueDiscType may change in between, and ns-3 aborts on
        // an unknown attribute or a bad value
        TypeId::AttributeInformation info;
        if (!m_queueDiscType.LookupAttributeByName(name, &info))
        {
            mose::ThrowBadParameter("MoseTopologyHelper::SetQueueDiscAttribute",
                                    mose::QuoteText(name),
                                    "an attribute of the QueueDiscType " +
                                        m_queueDiscType.GetName());
        }
        if (!info.checker->CreateValidValue(*value))
        {
            mose::ThrowBadParameter(m_queueDiscType.GetName() + "::" + name,
                                    mose::QuoteText(value->SerializeToString(info.checker)),
                                    "a " + info.checker->GetValueTypeName());
        }
    }
}

void
MoseTopologyHelper::CheckQueueSize(const ObjectFactory& factory, const std::string& of)
{
    // ns-3 takes a queue MaxSize of 0 (0p or 0B) without complaint and reads it as no limit at
    // all (the queue reports 4294967295p): refuse it for the port and host queues this helper
    // makes. The value is the factory's own (SetPortQueue()) or the type's default (Config,
    // --ns3::DropTailQueue<Packet>::MaxSize=...), read as given, before ns-3 converts it.
    const TypeId tid = factory.GetTypeId();
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName("MaxSize", &info))
    {
        return; // a queue type without a MaxSize
    }
    std::ostringstream serialised;
    serialised << factory; // TYPE[NAME=VALUE|...]
    const std::string text = serialised.str();
    std::string value = info.initialValue->SerializeToString(info.checker);
    const std::size_t at = text.find("MaxSize=");
    if (at != std::string::npos)
    {
        const std::size_t from = at + std::string("MaxSize=").size();
        value = text.substr(from, text.find_first_of("|]", from) - from);
    }
    QueueSizeValue size;
    if (size.DeserializeFromString(value, info.checker) && size.Get().GetValue() == 0)
    {
        mose::ThrowBadParameter(tid.GetName() + "::MaxSize",
                                value,
                                "the " + of +
                                    " queues need room for at least 1 packet or 1 byte (e.g. "
                                    "100p, ns-3's default); ns-3 would read 0 as no limit");
    }
}

NodeContainer
MoseTopologyHelper::Install()
{
    NS_LOG_FUNCTION(this);
    if (m_installed)
    {
        throw mose::Error("MoseTopologyHelper::Install was already called: a helper builds "
                          "one fabric");
    }
    Validate();
    ResolveRouting();
    ValidatePortDevices();
    // the address plan checks the base, the prefix and the room for d ports and H hosts
    m_addressing = MoseAddressing(m_groups, m_ports, m_hosts, m_addressBase, m_prefixLength);
    m_plan = mose::PlanPorts(m_graph, m_ports);
    if (!m_hasRoles)
    {
        m_roles =
            mose::RoleAssignment(std::vector<mose::GroupRole>(m_groups, mose::GroupRole::TRAINING));
    }

    ResolvePartition();
    InstallGroupNodes();
    InstallPorts();
    InstallHosts();
    if (m_defaultQueueDisc)
    {
        InstallDefaultQueueDiscs();
    }
    m_installed = true;
    NS_LOG_INFO("fabric of " << m_groups << " groups x " << m_ports << " ports, "
                             << m_graph.GetNCircuits() << " circuits, " << m_hosts
                             << " hosts per group");
    return m_groupNodes;
}

void
MoseTopologyHelper::InstallGroupNodes()
{
    for (uint32_t g = 0; g < m_groups; ++g)
    {
        m_groupNodes.Create(1, m_groupRanks[g]); // node id g on every rank
    }
    InternetStackHelper groupStack;
    if (!m_globalRouting)
    {
        m_table = m_tableFactory.Create<MoseRouteTable>(); // Rule and Seed: ResolveRouting()
        m_table->SetAddressing(m_addressing);
        if (m_listRouting)
        {
            Ipv4ListRoutingHelper list(*m_listRouting);
            list.Add(MoseRoutingHelper(m_table), m_listPriority);
            groupStack.SetRoutingHelper(list);
        }
        else
        {
            groupStack.SetRoutingHelper(MoseRoutingHelper(m_table));
        }
    }
    // else: InternetStackHelper's default, static and global routing in a list
    groupStack.Install(m_groupNodes);
}

void
MoseTopologyHelper::InstallPorts()
{
    // the optical ports: ordinary point-to-point devices, each on its OCS port channel
    m_ocs = m_ocsFactory.Create<MoseOcs>();
    if (MoseScale::Get() != 1)
    {
        DataRateValue rate;
        m_ocs->GetAttribute("DataRate", rate);
        m_ocs->SetAttribute(
            "DataRate",
            DataRateValue(MoseScale::ScaleRate(rate.Get(), "ns3::MoseOcs::DataRate")));
    }
    m_ocs->SetSize(m_groups, m_ports);
    m_portDevices.assign(m_groups, NetDeviceContainer());
    for (uint32_t g = 0; g < m_groups; ++g)
    {
        Ptr<Node> node = m_groupNodes.Get(g);
        for (uint32_t p = 0; p < m_ports; ++p)
        {
            Ptr<PointToPointNetDevice> device = m_deviceFactory.Create<PointToPointNetDevice>();
            device->SetAddress(Mac48Address::Allocate());
            node->AddDevice(device);
            Ptr<Queue<Packet>> queue = m_queueFactory.Create<Queue<Packet>>();
            device->SetQueue(queue);
            // flow control, as PointToPointHelper::Install gives its devices: the device queue
            // stops the traffic-control layer when it is full and wakes it when there is room
            // (MoseDeviceQueue: when the device starts its next frame)
            Ptr<NetDeviceQueueInterface> ndqi = CreateObjectWithAttributes<NetDeviceQueueInterface>(
                "TxQueuesType",
                TypeIdValue(m_portTxQueuesType));
            Ptr<NetDeviceQueue> txq = ndqi->GetTxQueue(0);
            if (Ptr<MoseDeviceQueue> mose = DynamicCast<MoseDeviceQueue>(txq))
            {
                mose->Attach(device, queue);
            }
            else
            {
                txq->ConnectQueueTraces(queue);
            }
            device->AggregateObject(ndqi);
            m_ocs->AddPort(g, p, device);
            m_portDevices[g].Add(device);
        }
        if (m_table)
        {
            MoseRoutingHelper(m_table).ConfigurePorts(node, g, m_portDevices[g]);
        }
        else
        {
            // the same addresses, set by hand, for ns-3's global routing
            Ptr<Ipv4> ip = node->GetObject<Ipv4>();
            for (uint32_t p = 0; p < m_ports; ++p)
            {
                const int32_t i = ip->AddInterface(m_portDevices[g].Get(p));
                ip->AddAddress(i,
                               Ipv4InterfaceAddress(m_addressing.GetPortAddress(g, p),
                                                    m_addressing.GetBlockMask()));
                ip->SetUp(i);
            }
        }
    }
    m_ocs->ApplyMatching(m_plan.GetPeers());
    if (m_table)
    {
        m_table->Update(m_plan.GetPeers());
    }
    else
    {
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    }
}

void
MoseTopologyHelper::InstallHosts()
{
    // hosts behind the group node, on electrical links; their traffic to any other address
    // goes to the group node
    m_hostNodes.assign(m_groups, NodeContainer());
    if (m_hosts > 0)
    {
        PointToPointHelper link;
        link.SetDeviceAttribute(
            "DataRate",
            DataRateValue(
                MoseScale::ScaleRate(m_hostRate, "ns3::MoseTopologyHelper::HostDataRate")));
        link.SetChannelAttribute("Delay", TimeValue(m_hostDelay));
        link.SetDeviceAttribute("Mtu", UintegerValue(m_hostMtu));
        InternetStackHelper hostStack;
        Ipv4StaticRoutingHelper staticRouting;
        for (uint32_t g = 0; g < m_groups; ++g)
        {
            m_hostNodes[g].Create(m_hosts, m_groupRanks[g]);
            hostStack.Install(m_hostNodes[g]);
            Ptr<Node> groupNode = m_groupNodes.Get(g);
            Ptr<Ipv4> groupIp = groupNode->GetObject<Ipv4>();
            Ptr<MoseRoutingProtocol> groupRouting = MoseRoutingHelper::GetRouting(groupNode);
            for (uint32_t h = 0; h < m_hosts; ++h)
            {
                Ptr<Node> host = m_hostNodes[g].Get(h);
                NetDeviceContainer pair = link.Install(groupNode, host);
                // group side: an interface without an address of its own (the group node is
                // reached at its port addresses), up, with a host route
                const int32_t gi = groupIp->AddInterface(pair.Get(0));
                groupIp->SetUp(gi);
                const Ipv4Address hostAddress = m_addressing.GetHostAddress(g, h);
                groupRouting->AddHostRoute(hostAddress, static_cast<uint32_t>(gi));
                // host side: its address in the group's block, default route to the group node
                Ptr<Ipv4> hostIp = host->GetObject<Ipv4>();
                const int32_t hi = hostIp->AddInterface(pair.Get(1));
                hostIp->AddAddress(hi,
                                   Ipv4InterfaceAddress(hostAddress, m_addressing.GetBlockMask()));
                hostIp->SetUp(hi);
                staticRouting.GetStaticRouting(hostIp)->SetDefaultRoute(
                    m_addressing.GetPortAddress(g, 0),
                    hi);
            }
        }
    }
}

void
MoseTopologyHelper::InstallDefaultQueueDiscs()
{
    for (uint32_t g = 0; g < m_groups; ++g)
    {
        Ptr<Node> node = m_groupNodes.Get(g);
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            InstallDefaultQueueDisc(node->GetDevice(i));
        }
        for (uint32_t h = 0; h < m_hostNodes[g].GetN(); ++h)
        {
            Ptr<Node> host = m_hostNodes[g].Get(h);
            for (uint32_t i = 0; i < host->GetNDevices(); ++i)
            {
                InstallDefaultQueueDisc(host->GetDevice(i));
            }
        }
    }
}

void
MoseTopologyHelper::ResolvePartition()
{
    uint32_t available = 1;
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        available = MpiInterface::GetSize();
    }
#endif
    const uint32_t ranks = m_ranks == 0 ? available : m_ranks;
    if (ranks > available)
    {
        throw mose::Error("MoseTopologyHelper::Ranks = " + std::to_string(m_ranks) +
                          ": this run has " + std::to_string(available) +
                          " rank(s) (MPI ranks, or 1 without MPI); allowed 0 (all of them) or "
                          "1.." +
                          std::to_string(available));
    }
    if (ranks > m_groups)
    {
        throw mose::Error("MoseTopologyHelper::Ranks = " + std::to_string(ranks) +
                          " with Groups = " + std::to_string(m_groups) +
                          ": allowed at most one rank per group");
    }
    std::vector<uint32_t> result(m_groups, 0);
    // a method's name ("blocks", "min-cut", any letter case, blanks around it), else a list
    const auto from = m_partition.find_first_not_of(" \t");
    const std::string name =
        from == std::string::npos
            ? ""
            : m_partition.substr(from, m_partition.find_last_not_of(" \t") - from + 1);
    const std::optional<mose::PartitionMethod> method =
        m_partition.empty() ? mose::PartitionMethod::BLOCKS
                            : mose::TryParseEnum<mose::PartitionMethod>(name);
    if (method)
    {
        // the initial circuit graph, the one the port plan puts on the ports
        result = mose::PartitionCircuitGraph(m_graph, ranks, *method).ranks;
    }
    else
    {
        std::vector<uint32_t> given;
        std::stringstream in(m_partition);
        std::string item;
        while (std::getline(in, item, ','))
        {
            const auto first = item.find_first_not_of(" \t");
            const auto last = item.find_last_not_of(" \t");
            const std::string word =
                first == std::string::npos ? "" : item.substr(first, last - first + 1);
            if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos ||
                word.size() > 9 || std::stoul(word) >= ranks)
            {
                throw mose::Error("MoseTopologyHelper::Partition = \"" + m_partition +
                                  "\": entry " + std::to_string(given.size()) + " = \"" + word +
                                  "\" is not a rank; allowed: N comma-separated ranks 0.." +
                                  std::to_string(ranks - 1) + " (Ranks = " + std::to_string(ranks) +
                                  "), \"min-cut\" for the fewest circuits cut, or empty or "
                                  "\"blocks\" for contiguous blocks");
            }
            given.push_back(static_cast<uint32_t>(std::stoul(word)));
        }
        if (given.size() != m_groups)
        {
            throw mose::Error("MoseTopologyHelper::Partition = \"" + m_partition + "\" has " +
                              std::to_string(given.size()) + " entries; allowed: one rank per " +
                              "group, Groups = " + std::to_string(m_groups) +
                              ", \"min-cut\" for the fewest circuits cut, or empty or "
                              "\"blocks\" for contiguous blocks");
        }
        result = given;
    }
    m_groupRanks = result;
    m_nRanks = ranks;
}

uint32_t
MoseTopologyHelper::GetNRanks() const
{
    CheckInstalled("GetNRanks");
    return m_nRanks;
}

uint32_t
MoseTopologyHelper::GetGroupRank(uint32_t group) const
{
    CheckGroup(group, "GetGroupRank");
    return m_groupRanks[group];
}

uint32_t
MoseTopologyHelper::GetNCircuitsCut() const
{
    CheckInstalled("GetNCircuitsCut");
    const std::vector<uint32_t>& peers = m_plan.GetPeers();
    uint32_t cut = 0;
    for (uint32_t a = 0; a < peers.size(); ++a)
    {
        const uint32_t b = peers[a];
        if (b != mose::PortPlan::DARK && a < b &&
            m_groupRanks[a / m_ports] != m_groupRanks[b / m_ports])
        {
            ++cut;
        }
    }
    return cut;
}

Time
MoseTopologyHelper::GetSmallestLinkDelay() const
{
    if (!m_installed)
    {
        // the delays Install() will give the circuits and the host links
        TimeValue ocsDelay;
        GetOcsAttribute("Delay", ocsDelay);
        return m_hosts > 0 ? std::min(ocsDelay.Get(), m_hostDelay) : ocsDelay.Get();
    }
    Time smallest = Time::Max();
    for (uint32_t g = 0; g < m_groups; ++g)
    {
        for (uint32_t p = 0; p < m_ports; ++p)
        {
            TimeValue delay;
            m_ocs->GetChannel(g, p)->GetAttribute("Delay", delay);
            smallest = std::min(smallest, delay.Get());
        }
    }
    if (m_hosts > 0)
    {
        smallest = std::min(smallest, m_hostDelay);
    }
    return smallest;
}

Time
MoseTopologyHelper::PrepareDistributedRun()
{
    NS_LOG_FUNCTION(this);
    CheckInstalled("PrepareDistributedRun");
#ifdef NS3_MPI
    if (!MpiInterface::IsEnabled() || MpiInterface::GetSize() <= 1)
    {
        return Time(0);
    }
    const Time lookAhead = GetSmallestLinkDelay();
    if (!lookAhead.IsStrictlyPositive())
    {
        throw mose::Error("MoseTopologyHelper::PrepareDistributedRun: the lookahead, the smallest "
                          "circuit delay (ns3::MoseOcs::Delay) and HostDelay, is " +
                          std::to_string(lookAhead.GetNanoSeconds()) +
                          " ns; a run on several MPI ranks needs every delay > 0");
    }
    const std::string impl = Simulator::GetImplementation()->GetInstanceTypeId().GetName();
#ifdef MOSE_HAVE_DISTRIBUTED_SIMULATOR_IMPL
    Ptr<DistributedSimulatorImpl> distributed =
        DynamicCast<DistributedSimulatorImpl>(Simulator::GetImplementation());
    if (!distributed)
    {
        throw mose::Error("MoseTopologyHelper::PrepareDistributedRun: SimulatorImplementationType "
                          "= " +
                          impl +
                          "; allowed: ns3::DistributedSimulatorImpl (the granted-time-window "
                          "scheduler: a circuit may be re-paired to any rank, which the "
                          "null-message scheduler's fixed neighbour set does not allow)");
    }
    distributed->BoundLookAhead(lookAhead);
#else
    throw mose::Error("MoseTopologyHelper::PrepareDistributedRun: this build cannot bound the "
                      "lookahead of " +
                      impl + " (distributed-simulator-impl.h was not on the include path)");
#endif
    MoseOcsChannel::SetDistributedLookAhead(lookAhead);
    // the lookahead belongs to this simulation: a later one in the same process starts without
    Simulator::ScheduleDestroy(&MoseOcsChannel::SetDistributedLookAhead, Time(0));
    NS_LOG_INFO("rank " << MpiInterface::GetSystemId() << " of " << MpiInterface::GetSize()
                        << ": lookahead " << lookAhead.As(Time::NS) << ", " << GetNCircuitsCut()
                        << " circuits cut");
    return lookAhead;
#else
    return Time(0);
#endif
}

void
MoseTopologyHelper::SetQueueDiscAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_queueDiscAttributes.emplace_back(name, value.Copy());
}

void
MoseTopologyHelper::InstallDefaultQueueDisc(Ptr<NetDevice> device) const
{
    Ptr<NetDeviceQueueInterface> ndqi = device->GetObject<NetDeviceQueueInterface>();
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    if (!ndqi || !tc || tc->GetRootQueueDiscOnDevice(device))
    {
        return; // the loopback device, or a device that has a queue disc already
    }
    if (m_queueDiscType == TypeId::LookupByName("ns3::FqCoDelQueueDisc") &&
        m_queueDiscAttributes.empty())
    {
        TrafficControlHelper::Default(ndqi->GetNTxQueues()).Install(device);
        return;
    }
    TrafficControlHelper helper;
    helper.SetRootQueueDisc(m_queueDiscType.GetName());
    Ptr<QueueDisc> disc = helper.Install(device).Get(0);
    // set before the disc is initialized (at the simulation's start), as the factory would;
    // checked by Install()
    for (const auto& [name, value] : m_queueDiscAttributes)
    {
        disc->SetAttribute(name, *value);
    }
}

void
MoseTopologyHelper::CheckInstalled(const char* what) const
{
    if (!m_installed)
    {
        throw mose::Error(std::string("MoseTopologyHelper::") + what +
                          " needs the fabric: call Install() first");
    }
}

void
MoseTopologyHelper::CheckGroup(uint32_t group, const char* what) const
{
    CheckInstalled(what);
    if (group >= m_groups)
    {
        throw mose::Error(std::string("MoseTopologyHelper::") + what + ": group " +
                          std::to_string(group) + " is out of range: 0 <= group < " +
                          std::to_string(m_groups));
    }
}

uint32_t
MoseTopologyHelper::GetNGroups() const
{
    return m_groups;
}

uint32_t
MoseTopologyHelper::GetNPorts() const
{
    return m_ports;
}

uint32_t
MoseTopologyHelper::GetNHostsPerGroup() const
{
    return m_hosts;
}

NodeContainer
MoseTopologyHelper::GetGroupNodes() const
{
    CheckInstalled("GetGroupNodes");
    return m_groupNodes;
}

Ptr<Node>
MoseTopologyHelper::GetGroupNode(uint32_t group) const
{
    CheckGroup(group, "GetGroupNode");
    return m_groupNodes.Get(group);
}

NetDeviceContainer
MoseTopologyHelper::GetPorts(uint32_t group) const
{
    CheckGroup(group, "GetPorts");
    return m_portDevices[group];
}

Ptr<NetDevice>
MoseTopologyHelper::GetPortDevice(uint32_t group, uint32_t port) const
{
    CheckGroup(group, "GetPortDevice");
    if (port >= m_ports)
    {
        throw mose::Error("MoseTopologyHelper::GetPortDevice: port " + std::to_string(port) +
                          " is out of range: 0 <= port < " + std::to_string(m_ports));
    }
    return m_portDevices[group].Get(port);
}

NodeContainer
MoseTopologyHelper::GetHosts(uint32_t group) const
{
    CheckGroup(group, "GetHosts");
    return m_hostNodes[group];
}

NodeContainer
MoseTopologyHelper::GetAllHosts() const
{
    CheckInstalled("GetAllHosts");
    NodeContainer all;
    for (const auto& hosts : m_hostNodes)
    {
        all.Add(hosts);
    }
    return all;
}

std::vector<NodeContainer>
MoseTopologyHelper::GetGroupEndpoints() const
{
    CheckInstalled("GetGroupEndpoints");
    std::vector<NodeContainer> endpoints(m_groups);
    for (uint32_t g = 0; g < m_groups; ++g)
    {
        endpoints[g] = m_hosts > 0 ? m_hostNodes[g] : NodeContainer(m_groupNodes.Get(g));
    }
    return endpoints;
}

NodeContainer
MoseTopologyHelper::GetEndpoints() const
{
    CheckInstalled("GetEndpoints");
    NodeContainer endpoints;
    for (uint32_t g = 0; g < m_groups; ++g)
    {
        endpoints.Add(m_hosts > 0 ? m_hostNodes[g].Get(0) : m_groupNodes.Get(g));
    }
    return endpoints;
}

mose::GroupRole
MoseTopologyHelper::GetRole(uint32_t group) const
{
    CheckGroup(group, "GetRole");
    return m_roles.Get(group);
}

const mose::RoleAssignment&
MoseTopologyHelper::GetRoles() const
{
    return m_roles;
}

Ipv4Address
MoseTopologyHelper::GetGroupAddress(uint32_t group) const
{
    CheckGroup(group, "GetGroupAddress");
    return m_addressing.GetPortAddress(group, 0);
}

Ipv4Address
MoseTopologyHelper::GetHostAddress(uint32_t group, uint32_t host) const
{
    CheckGroup(group, "GetHostAddress");
    if (host >= m_hosts)
    {
        throw mose::Error(
            "MoseTopologyHelper::GetHostAddress: host " + std::to_string(host) +
            " is out of range: 0 <= host < HostsPerGroup = " + std::to_string(m_hosts));
    }
    return m_addressing.GetHostAddress(group, host);
}

const MoseAddressing&
MoseTopologyHelper::GetAddressing() const
{
    return m_addressing;
}

mose::CircuitGraph
MoseTopologyHelper::GetCircuitGraph() const
{
    CheckInstalled("GetCircuitGraph");
    return m_ocs->GetCircuitGraph();
}

const mose::PortPlan&
MoseTopologyHelper::GetPortPlan() const
{
    CheckInstalled("GetPortPlan");
    return m_plan;
}

Ptr<MoseOcs>
MoseTopologyHelper::GetOcs() const
{
    CheckInstalled("GetOcs");
    return m_ocs;
}

Ptr<MoseLossMonitor>
MoseTopologyHelper::InstallLossMonitor() const
{
    CheckInstalled("InstallLossMonitor");
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    loss->Install(NodeContainer(GetGroupNodes(), GetAllHosts()), m_ocs);
    return loss;
}

Ptr<MosePfc>
MoseTopologyHelper::InstallPfc()
{
    CheckInstalled("InstallPfc");
    if (m_pfc)
    {
        throw mose::Error("MoseTopologyHelper::InstallPfc: PFC is already installed");
    }
    Ptr<MosePfc> pfc = CreateObject<MosePfc>();
    pfc->Install(GetGroupNodes(), GetAllHosts());
    pfc->ConnectOcs(m_ocs);
    m_pfc = pfc;
    return pfc;
}

Ptr<MosePfc>
MoseTopologyHelper::GetPfc() const
{
    return m_pfc;
}

Ptr<MoseCircuitMonitor>
MoseTopologyHelper::InstallCircuitMonitor() const
{
    CheckInstalled("InstallCircuitMonitor");
    Ptr<MoseCircuitMonitor> circuits = CreateObject<MoseCircuitMonitor>();
    circuits->Install(m_ocs);
    return circuits;
}

Ptr<MoseRouteTable>
MoseTopologyHelper::GetRouteTable() const
{
    CheckInstalled("GetRouteTable");
    if (!m_table)
    {
        throw mose::Error("MoseTopologyHelper::GetRouteTable: the fabric routes with ns-3's "
                          "global routing (GlobalRouting = true) and has no MoseRouteTable");
    }
    return m_table;
}

} // namespace ns3
