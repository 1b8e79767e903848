/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLUID_WORKLOAD_FABRIC_H
#define MOSE_FLUID_WORKLOAD_FABRIC_H

#include "mose-fluid-fabric.h"

#include "ns3/mose-workload-fabric.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief The fluid and aggregate levels as a backend of the workload model.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-workload
 * \brief A FluidFabric as a WorkloadFabric: its clock and events, its transfers (max-min fair
 *        fluid flows) and its aggregates. A transfer's report gives its bytes as received
 *        and its last byte's time; the callback runs the fabric's notice delay later.
 */
class FluidWorkloadFabric : public WorkloadFabric
{
  public:
    /// \param fabric the fluid fabric (outlives this)
    explicit FluidWorkloadFabric(FluidFabric& fabric);

    int64_t Now() const override;
    EventHandle Schedule(int64_t delayNs, Event event) override;
    void Cancel(EventHandle event) override;
    uint64_t StartTransfer(const TransferSpec& transfer, DoneCallback done) override;
    uint64_t StartAggregate(std::shared_ptr<const std::vector<TransferPart>> parts,
                            TrafficClass trafficClass,
                            DoneCallback done) override;
    /// \return true: the fluid fabric moves aggregates as one weighted flow
    bool CanAggregate() const override;
    /// \brief The fabric's kept connections among these groups close (with TCP's start,
    ///        FluidFabric::CloseConnections()) \param groups the groups
    void CloseConnections(const std::vector<uint32_t>& groups) override;

  private:
    /// \return the report of transfer id
    TransferReport Report(uint64_t id) const;

    FluidFabric& m_fabric;         //!< the fabric
    std::vector<bool> m_cancelled; //!< by handle
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLUID_WORKLOAD_FABRIC_H */
