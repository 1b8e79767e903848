/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TOPOLOGY_HELPER_H
#define MOSE_TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/mose-addressing.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-circuit-monitor.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-ocs.h"
#include "ns3/mose-pfc.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-route-table.h"
#include "ns3/mose-routing.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-helpers
 * \brief Builds a MoSE fabric of real ns-3 nodes: N group nodes with d optical port devices
 *        each, one MoseOcs pairing the ports as a circuit graph prescribes, the Internet stack
 *        with the MoseRoutingProtocol on every group node, per-group address blocks, and
 *        optionally H hosts per group behind the group node (one per GPU or NIC, each on
 *        its own link: HostDataRate is the rate of every host's link, not a group's share).
 *
 * The circuit graph comes from the flow-level core (a template built for a policy and a mode,
 * e.g. by mose::ScenarioBuilder) or from a file (mose::ReadCircuitGraphCsv()); it must be
 * simple, connected and d-regular. Its circuits are put on ports by the core's port plan
 * (mose::PlanPorts()), and the OCS connects exactly the plan's pairs, so GetCircuitGraph() (read
 * back from the OCS) is the graph that was given: the flow-level metrics computed on it describe
 * exactly the fabric the packets cross.
 *
 * Like ns-3's LteHelper the helper is an Object: N, d, H, the host links and the addressing are
 * Attributes (Config::SetDefault, --ns3::MoseTopologyHelper::Attr=value); the port devices and
 * their queues are configured through SetPortDeviceAttribute() / SetPortQueue() as with
 * PointToPointHelper, and the routing through the attributes of ns3::MoseRouteTable (Rule, Seed).
 * The circuit data rate and delay are the OCS's attributes (ns3::MoseOcs::DataRate and Delay).
 *
 * Devices and queue discs are made as ns-3's helpers make them: every optical port gets, like a
 * PointToPointHelper device, a NetDeviceQueueInterface whose transmission queue follows the
 * device queue (flow control: a full device queue stops the traffic-control layer, a dequeue
 * wakes it), and the host links are PointToPointHelper links. Where Ipv4AddressHelper::Assign
 * would install ns-3's default root queue disc (TrafficControlHelper::Default(): an
 * FqCoDelQueueDisc), Install() does the same on every port and host-link device
 * (DefaultQueueDisc, true by default), so TrafficControlHelper::Uninstall() followed by
 * TrafficControlHelper::Install() replaces it with any queue disc, as on a PointToPointHelper
 * link. With DefaultQueueDisc false the devices have no queue disc (do not Uninstall then) and a
 * packet for a stopped device queue is dropped by the traffic-control layer ("TcDrop").
 * QueueDiscType installs another root queue disc instead of FqCoDel (e.g. ns3::FifoQueueDisc:
 * one FIFO without FqCoDel's per-flow CoDel queue discs, which grow with the flows a device
 * carries; doc/mose.rst, "Per-event cost of the packet level").
 *
 * Attribute precedence (no value the user set is replaced silently): a value set on an object
 * (SetAttribute(), or SetRouteTableAttribute() / SetPortDeviceAttribute() for the objects the
 * helper creates) wins over a default (Config::SetDefault, --ns3::Type::Name=value), which wins
 * over what the helper derives from SetTemplate() (the configuration's N, d, routing rule and the
 * run's seed). A value given explicitly to a helper method (SetRouting()'s rule and seed,
 * SetTemplate()'s routing rule when it is not the configuration's default, SetTemplate()'s N and
 * d) that differs from a value the user set for the same attribute is a mose::Error naming both.
 *
 * Configuration errors (roles that do not match N, a graph whose size or degree is not N and d,
 * an address base too small for N groups, ...) throw a mose::Error from Install(), before
 * any node is created.
 */
class MoseTopologyHelper : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a helper with the attribute defaults; set roles and a circuit graph, then Install()
    MoseTopologyHelper();
    ~MoseTopologyHelper() override;

    /**
     * \param roles the role of every group (its size must be N)
     */
    void SetRoles(const mose::RoleAssignment& roles);

    /**
     * \param graph the circuit graph to realise (N nodes, simple, connected, d-regular)
     */
    void SetCircuitGraph(const mose::CircuitGraph& graph);

    /**
     * \brief The template of a policy in a workload mode, through the flow-level core: the
     *        scenario builder draws the run's roles of the mode and the policy's circuit graph
     *        (SetRoles() and SetCircuitGraph()), and the routing follows the configuration's
     *        rule with the run's seed. Groups and PortsPerGroup are set from the configuration's
     *        N and d.
     *
     * What the user set wins or fails loudly: Groups or PortsPerGroup set to another value
     * (SetAttribute(), Config::SetDefault(), the command line) is a mose::Error naming both. The
     * rule and seed apply to the route table only where the user did not set
     * ns3::MoseRouteTable::Rule / Seed (SetRouteTableAttribute(), Config::SetDefault(),
     * --ns3::MoseRouteTable::Rule=...); a user-set Rule that differs from a configuration rule
     * other than the configuration's default (random-shortest-path) is a mose::Error from
     * Install() naming both. A rule and seed given earlier with SetRouting() are kept (an
     * explicit configuration rule that differs from that rule is a mose::Error).
     * \param config the flow-level scenario (N, d, roles, templates, routing rule)
     * \param run the ns-3 run that draws it (--RngRun)
     * \param mode the workload mode
     * \param policy the policy
     */
    void SetTemplate(const mose::FlowExperimentConfig& config,
                     uint64_t run,
                     mose::WorkloadMode mode,
                     mose::Policy policy);

    /**
     * \brief Reads the circuit graph from an edge-list CSV file (mose::ReadCircuitGraphCsv())
     *        with N = Groups and d = PortsPerGroup as they are set now; errors name the file and
     *        line.
     * \param path the file
     */
    void ReadCircuitGraph(const std::string& path);

    /**
     * \brief Sets an attribute of every optical port device (a PointToPointNetDevice), e.g. "Mtu".
     *        The data rate is the OCS's DataRate attribute, which MoseOcs::AddPort() sets on
     *        every port: a "DataRate" here that differs from it is a mose::Error from Install().
     * \param name the attribute name
     * \param value its value
     */
    void SetPortDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Sets an attribute of the MoseOcs that Install() creates (e.g. "DataRate", "Delay"),
     *        as SetAttribute() on it: it wins over the attribute's default (Config::SetDefault,
     *        the command line) for this fabric only, and changes no global state. A port device
     *        "DataRate" (SetPortDeviceAttribute()) must then equal this one.
     * \param name the attribute name
     * \param value its value
     */
    void SetOcsAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief The queue of every optical port device, as PointToPointHelper::SetQueue.
     * \param type the queue type, e.g. "ns3::DropTailQueue<Packet>"
     * \param name1 an attribute name (e.g. "MaxSize"), or empty
     * \param value1 its value
     */
    void SetPortQueue(const std::string& type,
                      const std::string& name1 = "",
                      const AttributeValue& value1 = EmptyAttributeValue());

    /**
     * \brief Sets an attribute of every root queue disc Install() puts on the ports and
     *        host-link ends (QueueDiscType, with DefaultQueueDisc true), e.g. "UseEcn" and
     *        "MinTh" of an ns3::RedQueueDisc. Set on this fabric's discs only: no default is
     *        changed. Install() refuses a name QueueDiscType does not have, or a value its
     *        checker refuses, with a mose::Error naming both.
     * \param name the attribute name
     * \param value its value
     */
    void SetQueueDiscAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Sets an attribute of the fabric's MoseRouteTable before Install() creates it
     *        (e.g. "Rule", "Seed"), as SetAttribute() on the table: it wins over the attribute's
     *        default (Config::SetDefault, the command line) and over SetTemplate()'s rule and
     *        seed; a value that differs from SetRouting()'s is a mose::Error from Install().
     * \param name the attribute name
     * \param value its value
     */
    void SetRouteTableAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief The routing rule and the seed of its random choices: the same (rule, seed) as the
     *        flow-level ShortestPathRouting gives the same paths (mose::DeriveRoutingSeed(run)
     *        is the seed the flow-level study uses for a run).
     * \param rule the rule
     * \param seed the seed of RANDOM_SHORTEST_PATH's choices (the other rules ignore it; the
     *        ECMP flow hash depends on the 5-tuple and the node only)
     *
     * Both are given explicitly: if the user set ns3::MoseRouteTable::Rule or Seed to another
     * value (SetRouteTableAttribute(), Config::SetDefault(), --ns3::MoseRouteTable::Rule=...),
     * Install() throws a mose::Error naming both values and where each came from.
     */
    void SetRouting(mose::RoutingRule rule, uint64_t seed);

    /**
     * \brief Routes the group nodes with an Ipv4ListRouting instead of MoseRoutingProtocol
     *        alone (the default): the protocols of list (e.g. ns-3's static routing for
     *        host-side routes) and the fabric's MoseRoutingProtocol at the given priority, e.g.
     *        \code
     *        Ipv4StaticRoutingHelper staticRouting;
     *        Ipv4ListRoutingHelper list;
     *        list.Add(staticRouting, 0);
     *        topology->SetListRouting(list, 10);
     *        \endcode
     *        Give MoseRoutingProtocol the highest priority: the list asks it first, and it
     *        declines what it has no route for (see MoseRoutingProtocol). Hosts keep static
     *        routing. GlobalRouting = true with a list is a mose::Error from Install().
     * \param list the other protocols (copied; may be empty)
     * \param priority MoseRoutingProtocol's priority in the list
     */
    void SetListRouting(const Ipv4ListRoutingHelper& list, int16_t priority = 10);

    /**
     * \brief Creates the nodes, ports, OCS circuits, stack, routing and addresses.
     * \return the N group nodes (node i is group i)
     */
    NodeContainer Install();

    /**
     * \brief Reads an attribute of the OCS that Install() creates: SetOcsAttribute()'s value,
     *        else the attribute's default (before the division by MoseScale).
     * \param name the MoseOcs attribute, e.g. "DataRate" or "Delay"
     * \param value receives it
     */
    void GetOcsAttribute(const std::string& name, AttributeValue& value) const;

    /**
     * \brief The routing rule and seed every MoseRouteTable gets at Install(), resolved as
     *        Install() resolves them (SetRouting() or SetTemplate(), a user's
     *        SetRouteTableAttribute() or Config::SetDefault, else MoseRouteTable's defaults).
     * \param rule receives the rule
     * \param seed receives the seed
     * \throws mose::Error for two explicit settings that conflict, as Install() would
     */
    void GetRouting(mose::RoutingRule& rule, uint64_t& seed) const;

    /// \return N
    uint32_t GetNGroups() const;
    /// \return d
    uint32_t GetNPorts() const;
    /// \return H
    uint32_t GetNHostsPerGroup() const;

    /// \return the group nodes (node i is group i)
    NodeContainer GetGroupNodes() const;
    /// \param group a group \return its node
    Ptr<Node> GetGroupNode(uint32_t group) const;
    /// \param group a group \return its d port devices, port p at index p
    NetDeviceContainer GetPorts(uint32_t group) const;
    /// \param group a group \param port a port \return the port's device
    Ptr<NetDevice> GetPortDevice(uint32_t group, uint32_t port) const;
    /// \param group a group \return its H hosts
    NodeContainer GetHosts(uint32_t group) const;
    /// \return all hosts, group by group
    NodeContainer GetAllHosts() const;
    /**
     * \return one node per group where the group's applications run: its first host when H > 0,
     *         else the group node itself (the endpoints MoseTrafficHelper::Install() takes)
     */
    NodeContainer GetEndpoints() const;
    /**
     * \brief Every group's endpoints, one per GPU or NIC: with H > 0 its H hosts (host h at
     *        index h: rail h of a rail-optimised cluster, each on its own link at HostDataRate),
     *        else the group node alone. MoseSocketTransfers::Install() takes it and spreads a
     *        group's transfers over them (host rail mod H at each end).
     * \return per group (index g), its endpoints
     */
    std::vector<NodeContainer> GetGroupEndpoints() const;
    /// \param group a group \return its role
    mose::GroupRole GetRole(uint32_t group) const;
    /// \return the roles
    const mose::RoleAssignment& GetRoles() const;
    /// \param group a group \return the group node's address (that of its port 0; it never
    ///        changes when circuits do)
    Ipv4Address GetGroupAddress(uint32_t group) const;
    /// \param group a group \param host a host index < H \return the host's address
    Ipv4Address GetHostAddress(uint32_t group, uint32_t host) const;
    /// \return the address plan
    const MoseAddressing& GetAddressing() const;
    /// \return the live circuit graph, read back from the OCS
    mose::CircuitGraph GetCircuitGraph() const;
    /// \return the port plan the circuits were put on
    const mose::PortPlan& GetPortPlan() const;
    /// \return the optical circuit switch
    Ptr<MoseOcs> GetOcs() const;

    /**
     * \brief A MoseLossMonitor on every drop point of the installed fabric: its group nodes,
     *        hosts and OCS (as FlowMonitorHelper installs a FlowMonitor on nodes).
     * \return the monitor
     */
    Ptr<MoseLossMonitor> InstallLossMonitor() const;

    /**
     * \brief PFC (MosePfc, with its attribute defaults) on the installed fabric: ingress
     *        accounting at the group nodes, pausable egress at their ports and at the hosts'
     *        links, following the OCS's circuits. MoseTransportHelper::Install(topology) then
     *        connects a MoseRdmaTransport's NICs to it. Once per fabric (mose::Error after).
     * \return the PFC object (not installed if its Enabled attribute is false)
     */
    Ptr<MosePfc> InstallPfc();
    /// \return the PFC object InstallPfc() installed, or null
    Ptr<MosePfc> GetPfc() const;

    /**
     * \brief A MoseCircuitMonitor on the installed fabric's OCS: payload bytes per circuit and
     *        port.
     * \return the monitor
     */
    Ptr<MoseCircuitMonitor> InstallCircuitMonitor() const;
    /// \return the fabric's route table (shared by all group nodes' routing protocols)
    Ptr<MoseRouteTable> GetRouteTable() const;

    /**
     * \brief The ranks the fabric is partitioned over: "Ranks", or with Ranks = 0 the MPI
     *        ranks of this run (MpiInterface::GetSize() when MPI is enabled, else 1).
     * \return R >= 1
     */
    uint32_t GetNRanks() const;
    /// \param group a group \return its rank (the system id of its node and of its hosts)
    uint32_t GetGroupRank(uint32_t group) const;
    /// \return the circuits of the initial port plan whose two ends are on different ranks
    uint32_t GetNCircuitsCut() const;
    /**
     * \brief The smallest delay of the fabric's links: every OCS port channel's Delay and, with
     *        hosts, HostDelay (the lookahead of a distributed run). Before Install(), the
     *        delays Install() will give them (GetOcsAttribute("Delay"), HostDelay).
     * \return the delay
     */
    Time GetSmallestLinkDelay() const;
    /**
     * \brief Before Simulator::Run() of a distributed run (NS3_MPI, MPI enabled, more than one
     *        rank; otherwise it does nothing): fixes the lookahead to the smallest OCS port
     *        channel Delay and (with hosts) HostDelay, on ns-3's DistributedSimulatorImpl
     *        (BoundLookAhead) and on MoseOcsChannel (a circuit across ranks below it is then a
     *        fatal error). Throws a mose::Error if the simulator implementation is not
     *        ns3::DistributedSimulatorImpl or the lookahead would be zero.
     * \return the lookahead (zero when it does nothing)
     */
    Time PrepareDistributedRun();

  protected:
    void DoDispose() override;

  private:
    /// Throws a mose::Error unless Install() was called
    void CheckInstalled(const char* what) const;
    /// Throws a mose::Error for a group index out of range
    void CheckGroup(uint32_t group, const char* what) const;
    /// Checks N, d, H, roles, graph, addressing, queue discs and queues (mose::Error)
    void Validate() const;
    /// Validate(): N, d, the rates at MoseScale, the graph, routing with hosts, addressing
    void ValidateFabric() const;
    /// Validate(): QueueDiscType and the attributes given for it
    void ValidateQueueDiscs() const;
    /**
     * \brief Refuses a queue MaxSize of 0, which ns-3 reads as no limit (mose::Error)
     * \param factory the queues' factory \param of whose queues, for the message
     */
    static void CheckQueueSize(const ObjectFactory& factory, const std::string& of);
    /// Checks that the port devices' attributes agree with the OCS's (mose::Error)
    void ValidatePortDevices() const;
    /// Sets the route table factory's Rule and Seed from SetRouting()/SetTemplate() where the
    /// user set none, and throws a mose::Error where an explicit value conflicts with the user's
    void ResolveRouting();
    /**
     * \brief Resolves one route table attribute (see ResolveRouting())
     * \param name "Rule" or "Seed"
     * \param value the value SetRouting() or SetTemplate() gave
     * \param isExplicit whether it was given explicitly (a conflict is then a mose::Error)
     * \param source who gave it, for the message
     */
    void ResolveTableAttribute(const std::string& name,
                               const AttributeValue& value,
                               bool isExplicit,
                               const std::string& source);
    /// The value ResolveTableAttribute() leaves in effect, without setting it: the user's
    /// (SetRouteTableAttribute() or Config::SetDefault) if set, else \p value; mose::Error as
    /// there \param name the attribute \param value the helper's value \param isExplicit
    /// whether it was given explicitly \param source who gave it \return the value as text
    std::string ResolvedTableAttribute(const std::string& name,
                                       const AttributeValue& value,
                                       bool isExplicit,
                                       const std::string& source) const;
    /// Sets Groups or PortsPerGroup from SetTemplate()'s configuration, or throws a mose::Error if
    /// the user set it to another value \param name the attribute \param value the value
    void SetFromTemplate(const std::string& name, uint32_t value);
    /// Computes m_groupRanks from Ranks and Partition (blocks, min-cut of the circuit graph, or
    /// explicit ranks; mose::Error for bad values)
    void ResolvePartition();
    /// Installs the root queue disc (QueueDiscType: ns-3's default, FqCoDel, unless set) on a
    /// device with flow control and no disc yet \param device it
    void InstallDefaultQueueDisc(Ptr<NetDevice> device) const;
    /// \brief Install(): the group nodes (node id g on every rank) and their IPv4 stacks, with
    ///        MoseRoutingProtocol over the shared table (or ns-3's global routing)
    void InstallGroupNodes();
    /// \brief Install(): the optical ports on the OCS (its DataRate divided by MoseScale),
    ///        their addresses and the initial circuits and routes
    void InstallPorts();
    /// \brief Install(): the hosts behind each group node on their own links (HostDataRate
    ///        divided by MoseScale), addresses and routes
    void InstallHosts();
    /// \brief Install(): DefaultQueueDisc's root queue disc on every device of the fabric
    void InstallDefaultQueueDiscs();

    uint32_t m_groups;         //!< N (attribute)
    uint32_t m_ports;          //!< d (attribute)
    uint32_t m_hosts;          //!< H (attribute)
    DataRate m_hostRate;       //!< host link rate (attribute)
    Time m_hostDelay;          //!< host link delay (attribute)
    uint16_t m_hostMtu{1500};  //!< host link MTU (attribute)
    Ipv4Address m_addressBase; //!< first block (attribute)
    bool m_globalRouting;      //!< ns-3's global routing instead (attribute)
    uint32_t m_prefixLength;   //!< block prefix length (attribute)
    bool m_defaultQueueDisc;   //!< install ns-3's default root queue disc (attribute)
    TypeId m_queueDiscType;    //!< its type (attribute)
    TypeId m_portTxQueuesType; //!< the ports' transmission queues (attribute)
    /// its attributes (SetQueueDiscAttribute()), in the order given
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_queueDiscAttributes;
    uint32_t m_ranks;                   //!< R (attribute; 0: this run's MPI ranks)
    std::string m_partition;            //!< blocks, min-cut or explicit ranks (attribute)
    std::vector<uint32_t> m_groupRanks; //!< per group, its rank (Install())
    uint32_t m_nRanks{1};               //!< R resolved by Install()
    ObjectFactory m_deviceFactory;      //!< port devices
    ObjectFactory m_queueFactory;       //!< port device queues
    ObjectFactory m_tableFactory;       //!< the route table
    ObjectFactory m_ocsFactory;         //!< the OCS (SetOcsAttribute())
    std::map<std::string, Ptr<AttributeValue>> m_tableAttributes;  //!< SetRouteTableAttribute()
    std::map<std::string, Ptr<AttributeValue>> m_deviceAttributes; //!< SetPortDeviceAttribute()
    bool m_hasRouting{false};  //!< SetRouting() or SetTemplate() was called
    bool m_ruleExplicit{true}; //!< the rule was given explicitly (not a configuration default)
    bool m_seedExplicit{true}; //!< the seed was given explicitly (not derived from the run)
    std::string m_ruleSource;  //!< who gave the rule
    std::string m_seedSource;  //!< who gave the seed
    mose::RoutingRule m_rule{mose::RoutingRule::SHORTEST_PATH}; //!< SetRouting()'s rule
    uint64_t m_seed{0};                                         //!< SetRouting()'s seed
    mose::RoleAssignment m_roles;                               //!< roles
    bool m_hasRoles{false};                                     //!< SetRoles() was called
    mose::CircuitGraph m_graph;                                 //!< the graph to realise
    bool m_hasGraph{false};                                     //!< SetCircuitGraph() was called
    bool m_installed{false};                                    //!< Install() ran
    NodeContainer m_groupNodes;                                 //!< group nodes
    std::vector<NetDeviceContainer> m_portDevices;              //!< per group, its ports
    std::vector<NodeContainer> m_hostNodes;                     //!< per group, its hosts
    MoseAddressing m_addressing;                                //!< the address plan
    mose::PortPlan m_plan;                                      //!< circuits on ports
    Ptr<MoseOcs> m_ocs;                                         //!< the OCS
    Ptr<MosePfc> m_pfc;                                         //!< InstallPfc()
    Ptr<MoseRouteTable> m_table;                                //!< the shared route table

    std::shared_ptr<Ipv4ListRoutingHelper> m_listRouting; //!< SetListRouting()'s list, or null
    int16_t m_listPriority{10};                           //!< SetListRouting()'s priority
};

} // namespace ns3

#endif /* MOSE_TOPOLOGY_HELPER_H */
