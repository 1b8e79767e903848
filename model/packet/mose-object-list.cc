/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-object-list.h"

#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/object-vector.h"
#include "ns3/simulator.h"

#include <array>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseObjectList");

namespace
{

/// The TypeId name of each kind's objects
constexpr std::array<const char*, MoseObjectList::N_KINDS> TYPE_NAMES = {"ns3::MoseOcs",
                                                                         "ns3::MoseRouteTable",
                                                                         "ns3::MoseLossMonitor",
                                                                         "ns3::MoseTransferMonitor",
                                                                         "ns3::MoseTransport",
                                                                         "ns3::MosePfc"};

/// The list names: the root namespace attributes
constexpr std::array<const char*, MoseObjectList::N_KINDS> LIST_NAMES = {"MoseOcsList",
                                                                         "MoseRouteTableList",
                                                                         "MoseLossMonitorList",
                                                                         "MoseTransferMonitorList",
                                                                         "MoseTransportList",
                                                                         "MosePfcList"};

/// \return the kind as an index, mose::Error if it does not exist
std::size_t
CheckKind(MoseObjectList::Kind kind)
{
    const auto k = static_cast<std::size_t>(kind);
    if (k >= MoseObjectList::N_KINDS)
    {
        mose::ThrowBadParameter("kind",
                                std::to_string(static_cast<int>(kind)),
                                "a MoseObjectList::Kind from 0 (OCS) to " +
                                    std::to_string(MoseObjectList::N_KINDS - 1) + " (PFC)");
    }
    return k;
}

} // namespace

/**
 * \ingroup mose-packet
 * \brief The root namespace object of MoseObjectList: one ObjectVector attribute per kind, so
 *        that a path's first segment names a list (as NodeListPriv's "NodeList" attribute does).
 */
class MoseObjectListPriv : public Object
{
  public:
    /**
     * \brief Register this type.
     * \return The object TypeId.
     */
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::MoseObjectListPriv")
                .SetParent<Object>()
                .SetGroupName("Mose")
                .AddAttribute(LIST_NAMES[MoseObjectList::OCS],
                              "The optical circuit switches of the simulation (MoseOcs), in the "
                              "order SetSize() sized them",
                              ObjectVectorValue(),
                              MakeObjectVectorAccessor(&MoseObjectListPriv::m_ocs),
                              MakeObjectVectorChecker<Object>())
                .AddAttribute(LIST_NAMES[MoseObjectList::ROUTE_TABLE],
                              "The fabrics' route tables of the simulation (MoseRouteTable), in "
                              "the order SetAddressing() set them up",
                              ObjectVectorValue(),
                              MakeObjectVectorAccessor(&MoseObjectListPriv::m_routeTables),
                              MakeObjectVectorChecker<Object>())
                .AddAttribute(LIST_NAMES[MoseObjectList::LOSS_MONITOR],
                              "The loss monitors of the simulation (MoseLossMonitor), in the "
                              "order Install() hooked them",
                              ObjectVectorValue(),
                              MakeObjectVectorAccessor(&MoseObjectListPriv::m_lossMonitors),
                              MakeObjectVectorChecker<Object>())
                .AddAttribute(LIST_NAMES[MoseObjectList::TRANSFER_MONITOR],
                              "The transfer monitors of the simulation (MoseTransferMonitor), in "
                              "the order of their first transfer",
                              ObjectVectorValue(),
                              MakeObjectVectorAccessor(&MoseObjectListPriv::m_transferMonitors),
                              MakeObjectVectorChecker<Object>())
                .AddAttribute(LIST_NAMES[MoseObjectList::TRANSPORT],
                              "The transports that list themselves (MoseRdmaTransport), in the "
                              "order Install() installed them",
                              ObjectVectorValue(),
                              MakeObjectVectorAccessor(&MoseObjectListPriv::m_transports),
                              MakeObjectVectorChecker<Object>())
                .AddAttribute(LIST_NAMES[MoseObjectList::PFC],
                              "The priority flow controls of the simulation (MosePfc), in the "
                              "order Install() installed them",
                              ObjectVectorValue(),
                              MakeObjectVectorAccessor(&MoseObjectListPriv::m_pfcs),
                              MakeObjectVectorChecker<Object>());
        return tid;
    }

    /// \return the list object of this simulation (created, registered as a root namespace
    ///         object and scheduled for removal at Simulator::Destroy() on first use)
    static Ptr<MoseObjectListPriv> Get()
    {
        Ptr<MoseObjectListPriv>& list = Instance();
        if (!list)
        {
            list = CreateObject<MoseObjectListPriv>();
            Config::RegisterRootNamespaceObject(list);
            Simulator::ScheduleDestroy(&MoseObjectListPriv::Delete);
        }
        return list;
    }

    /// \return the list object of this simulation, or null if nothing was listed yet
    static Ptr<MoseObjectListPriv> Peek()
    {
        return Instance();
    }

    /// \param kind a kind (checked) \return its list
    std::vector<Ptr<Object>>& Of(std::size_t kind)
    {
        switch (kind)
        {
        case MoseObjectList::OCS:
            return m_ocs;
        case MoseObjectList::ROUTE_TABLE:
            return m_routeTables;
        case MoseObjectList::LOSS_MONITOR:
            return m_lossMonitors;
        case MoseObjectList::TRANSFER_MONITOR:
            return m_transferMonitors;
        case MoseObjectList::TRANSPORT:
            return m_transports;
        default:
            return m_pfcs;
        }
    }

  private:
    /// \return the one instance's slot
    static Ptr<MoseObjectListPriv>& Instance()
    {
        static Ptr<MoseObjectListPriv> list;
        return list;
    }

    /// Simulator::Destroy(): leaves the namespace and drops the references (nothing disposed:
    /// the objects belong to their helpers and nodes)
    static void Delete()
    {
        NS_LOG_FUNCTION_NOARGS();
        Ptr<MoseObjectListPriv>& list = Instance();
        if (list)
        {
            Config::UnregisterRootNamespaceObject(list);
            for (std::size_t k = 0; k < MoseObjectList::N_KINDS; ++k)
            {
                list->Of(k).clear();
            }
            list = nullptr;
        }
    }

    std::vector<Ptr<Object>> m_ocs;              //!< "MoseOcsList"
    std::vector<Ptr<Object>> m_routeTables;      //!< "MoseRouteTableList"
    std::vector<Ptr<Object>> m_lossMonitors;     //!< "MoseLossMonitorList"
    std::vector<Ptr<Object>> m_transferMonitors; //!< "MoseTransferMonitorList"
    std::vector<Ptr<Object>> m_transports;       //!< "MoseTransportList"
    std::vector<Ptr<Object>> m_pfcs;             //!< "MosePfcList"
};

NS_OBJECT_ENSURE_REGISTERED(MoseObjectListPriv);

uint32_t
MoseObjectList::Add(Kind kind, Ptr<Object> object)
{
    NS_LOG_FUNCTION(kind << object);
    const std::size_t k = CheckKind(kind);
    if (!object)
    {
        throw mose::Error("MoseObjectList::Add: the object for " + GetListName(kind) + " is null");
    }
    const TypeId expected = TypeId::LookupByName(TYPE_NAMES[k]);
    const TypeId tid = object->GetInstanceTypeId();
    if (tid != expected && !tid.IsChildOf(expected))
    {
        mose::ThrowBadParameter("object",
                                "an object of type " + tid.GetName(),
                                std::string("a ") + TYPE_NAMES[k] + " (or a subclass) for " +
                                    GetListName(kind));
    }
    std::vector<Ptr<Object>>& list = MoseObjectListPriv::Get()->Of(k);
    for (std::size_t i = 0; i < list.size(); ++i)
    {
        if (list[i] == object)
        {
            return static_cast<uint32_t>(i);
        }
    }
    list.push_back(object);
    NS_LOG_INFO("/" << GetListName(kind) << "/" << list.size() - 1 << ": " << tid.GetName());
    return static_cast<uint32_t>(list.size() - 1);
}

uint32_t
MoseObjectList::GetN(Kind kind)
{
    const std::size_t k = CheckKind(kind);
    Ptr<MoseObjectListPriv> lists = MoseObjectListPriv::Peek();
    return lists ? static_cast<uint32_t>(lists->Of(k).size()) : 0;
}

Ptr<Object>
MoseObjectList::Get(Kind kind, uint32_t index)
{
    const std::size_t k = CheckKind(kind);
    const uint32_t n = GetN(kind);
    if (index >= n)
    {
        mose::ThrowBadParameter("index",
                                std::to_string(index),
                                "an index < " + std::to_string(n) + ", the size of " +
                                    GetListName(kind) + " in this simulation");
    }
    return MoseObjectListPriv::Peek()->Of(k)[index];
}

std::string
MoseObjectList::GetListName(Kind kind)
{
    return LIST_NAMES[CheckKind(kind)];
}

std::string
MoseObjectList::GetPath(Ptr<const Object> object)
{
    Ptr<MoseObjectListPriv> lists = MoseObjectListPriv::Peek();
    if (!lists || !object)
    {
        return "";
    }
    for (std::size_t k = 0; k < N_KINDS; ++k)
    {
        const std::vector<Ptr<Object>>& list = lists->Of(k);
        for (std::size_t i = 0; i < list.size(); ++i)
        {
            if (PeekPointer(list[i]) == PeekPointer(object))
            {
                return "/" + std::string(LIST_NAMES[k]) + "/" + std::to_string(i);
            }
        }
    }
    return "";
}

} // namespace ns3
