/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCHLESS_TEMPLATE_H
#define MOSE_SWITCHLESS_TEMPLATE_H

#include "mose-circuit-graph.h"

#include "ns3/mose-parse.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/**
 * \file
 * \ingroup mose-flow
 * The switchless baselines: fixed direct-connect topologies with no optical circuit switch,
 * as compared with MoSE in "Rethinking Network Topologies for Cost-Effective Mixture-of-Experts
 * LLM Serving" (2D/3D torus and 3D full-mesh). They are built as CircuitGraphs, so that the same
 * traffic, routing and metrics as the MoSE study apply to them unchanged.
 *
 * Node numbering (every builder here): the groups are the points of a grid with dimensions
 * dims[0] x dims[1] x ... x dims[k-1]; the group with coordinates (c_0, ..., c_{k-1}),
 * 0 <= c_i < dims[i], has the row-major id
 *
 *     id = ((c_0 * dims[1] + c_1) * dims[2] + c_2) ...   (the last coordinate varies fastest),
 *
 * so in a 4x4 torus group 5 is (1, 1) and its neighbours are 1, 4, 6 and 9.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The switchless baselines.
 */
enum class SwitchlessBaseline : uint8_t
{
    TORUS_2D,     //!< 2D torus (k-ary 2-cube with wraparound), degree 4
    TORUS_3D,     //!< 3D torus (k-ary 3-cube with wraparound), degree 6
    FULL_MESH_3D, //!< 3D full-mesh: the Hamming graph K_a x K_b x K_c, degree (a-1)+(b-1)+(c-1)
};

/// All baselines, in table order
constexpr std::array<SwitchlessBaseline, 3> ALL_SWITCHLESS_BASELINES = {
    SwitchlessBaseline::TORUS_2D,
    SwitchlessBaseline::TORUS_3D,
    SwitchlessBaseline::FULL_MESH_3D};

/// \ingroup mose-flow
/// Names of SwitchlessBaseline: "torus-2d", "torus-3d", "full-mesh-3d"; also "2d-torus",
/// "3d-torus", "3d-full-mesh" and "hamming-3d"
template <>
struct EnumTable<SwitchlessBaseline>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<SwitchlessBaseline>>& Get();
};

/**
 * \ingroup mose-flow
 * \brief The shape of a grid: the size of each dimension, e.g. {32, 32} or {16, 8, 8}.
 */
struct GridShape
{
    std::vector<uint32_t> dims; //!< size of each dimension, in coordinate order

    /// \return the product of the dimensions (the number of groups); 0 for no dimension
    uint64_t GetNodes() const;

    /// \return the shape as text, dimensions joined by 'x' ("16x8x8"); empty for no dimension
    std::string ToString() const;

    /// \return true if both shapes have the same dimensions in the same order
    bool operator==(const GridShape& o) const
    {
        return dims == o.dims;
    }
};

/**
 * \ingroup mose-flow
 * \brief Reads a grid shape: dimensions as unsigned decimal integers separated by 'x' (or 'X'),
 *        e.g. "32x32" or "16x8x8" (ParseUnsigned32() for each; no spaces).
 *
 * Throws a mose::Error naming the parameter and the text if the text is empty, has an empty
 * dimension ("16xx8", "x8"), a dimension that is not a number, or a dimension of 0. Whether the
 * shape fits a baseline is ValidateSwitchlessShape()'s business.
 * \param parameter the parameter's name as the user types it (e.g. "--torus3d")
 * \param text the text
 * \return the shape
 */
GridShape ParseGridShape(const std::string& parameter, std::string_view text);

/**
 * \ingroup mose-flow
 * \param baseline the baseline
 * \return its number of dimensions: 2 for TORUS_2D, 3 otherwise
 */
uint32_t GetBaselineDimensions(SwitchlessBaseline baseline);

/**
 * \ingroup mose-flow
 * \brief The smallest size of a dimension of a baseline: 3 for the tori (a ring of 2 groups
 *        would join them twice, a ring of 1 would be a self-loop), 1 for the full-mesh (a
 *        dimension of size 1 adds no circuit).
 * \param baseline the baseline
 * \return the smallest allowed size of one dimension
 */
uint32_t GetMinimumDimension(SwitchlessBaseline baseline);

/**
 * \ingroup mose-flow
 * \brief The port budget of a baseline: every group's number of circuits.
 * \param baseline the baseline
 * \param shape its shape (validated: ValidateSwitchlessShape())
 * \return 2 k for a k-dimensional torus, the sum of (dims[i] - 1) for the full-mesh
 */
uint32_t GetBaselineDegree(SwitchlessBaseline baseline, const GridShape& shape);

/**
 * \ingroup mose-flow
 * \brief Checks that a shape fits a baseline and N groups; throws a mose::Error naming the
 *        parameter, the shape and what is allowed otherwise.
 *
 * Rejected: a number of dimensions other than GetBaselineDimensions(); a dimension below
 * GetMinimumDimension(); a product of the dimensions other than nodes (the message gives the
 * product); fewer than 2 groups; more groups than node ids allow.
 * \param baseline the baseline
 * \param nodes N, the number of groups the shape must hold
 * \param shape the shape
 * \param parameter how the message names the shape (e.g. "--torus3d")
 * \param nodesName how the message names N (e.g. "--nodes")
 */
void ValidateSwitchlessShape(SwitchlessBaseline baseline,
                             uint32_t nodes,
                             const GridShape& shape,
                             const std::string& parameter,
                             const std::string& nodesName = "nodes");

/**
 * \ingroup mose-flow
 * \brief The most balanced shape of a baseline for N groups, so that users can give just N.
 *
 * Among the factorisations of N into GetBaselineDimensions() factors of at least
 * max(GetMinimumDimension(), 2) each, the one with the smallest largest dimension, ties broken
 * by the smallest sum (so the smallest degree of a full-mesh and the smallest diameter of a
 * torus); dimensions in nonincreasing order. N = 1024: 32x32 for the 2D torus, 16x8x8 for the
 * 3D torus and the 3D full-mesh. Throws a mose::Error naming "nodes" if there is no such
 * factorisation (e.g. N prime, or N = 4 * 3 for a 3D torus): for a torus no shape holds N
 * groups then; a full-mesh can still be given a shape with dimensions of 1.
 * \param baseline the baseline
 * \param nodes N
 * \param nodesName how the message names N (e.g. "--nodes")
 * \return the shape
 */
GridShape DefaultSwitchlessShape(SwitchlessBaseline baseline,
                                 uint32_t nodes,
                                 const std::string& nodesName = "nodes");

/**
 * \ingroup mose-flow
 * \brief A torus (k-ary n-cube with wraparound) of any number of dimensions: every group is
 *        joined to the groups one step away along each dimension, modulo its size.
 *
 * The neighbourhoods come from Boost.Graph's grid_graph with wrapping (2 and 3 dimensions; the
 * grid's dimensionality is a template parameter there). Node ids are row-major (see the file
 * comment). Every dimension must be at least 3 (Error naming the parameter otherwise); the
 * result is simple, connected and 2k-regular with N k circuits.
 * \param shape the dimensions, 2 or 3 of them
 * \param parameter how messages name the shape (e.g. "--torus2d")
 * \return the circuit graph
 */
CircuitGraph BuildTorus(const GridShape& shape, const std::string& parameter = "shape");

/**
 * \ingroup mose-flow
 * \brief The 2D torus: BuildTorus() after checking that the shape has two dimensions and holds
 *        N groups.
 * \param nodes N
 * \param shape two dimensions of at least 3 whose product is N
 * \param parameter how messages name the shape
 * \return the 4-regular circuit graph, 2 N circuits
 */
CircuitGraph BuildTorus2d(uint32_t nodes,
                          const GridShape& shape,
                          const std::string& parameter = "torus2d");

/**
 * \ingroup mose-flow
 * \brief The 3D torus: BuildTorus() after checking that the shape has three dimensions and
 *        holds N groups.
 * \param nodes N
 * \param shape three dimensions of at least 3 whose product is N
 * \param parameter how messages name the shape
 * \return the 6-regular circuit graph, 3 N circuits
 */
CircuitGraph BuildTorus3d(uint32_t nodes,
                          const GridShape& shape,
                          const std::string& parameter = "torus3d");

/**
 * \ingroup mose-flow
 * \brief The 3D full-mesh: the Hamming graph K_a x K_b x K_c. Every group is joined to every
 *        other group that shares two of its three coordinates (a full mesh along each line of
 *        the grid).
 * \param nodes N = a b c
 * \param shape the three dimensions (a, b, c), each at least 1
 * \param parameter how messages name the shape
 * \return the ((a-1)+(b-1)+(c-1))-regular circuit graph, N ((a-1)+(b-1)+(c-1)) / 2 circuits;
 *         its diameter is the number of dimensions larger than 1
 */
CircuitGraph BuildFullMesh3d(uint32_t nodes,
                             const GridShape& shape,
                             const std::string& parameter = "fullMesh3d");

/**
 * \ingroup mose-flow
 * \brief Builds a baseline: BuildTorus2d(), BuildTorus3d() or BuildFullMesh3d().
 * \param baseline the baseline
 * \param nodes N
 * \param shape its shape
 * \param parameter how messages name the shape
 * \return the circuit graph
 */
CircuitGraph BuildSwitchlessBaseline(SwitchlessBaseline baseline,
                                     uint32_t nodes,
                                     const GridShape& shape,
                                     const std::string& parameter);

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCHLESS_TEMPLATE_H */
