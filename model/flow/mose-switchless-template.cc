/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switchless-template.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <boost/array.hpp>
#include <boost/graph/grid_graph.hpp>
#include <limits>
#include <optional>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchlessTemplate");

namespace
{

/// The largest number of circuits a CircuitGraph indexes (32-bit circuit ids, one kept for none)
constexpr uint64_t MAX_CIRCUITS = std::numeric_limits<uint32_t>::max() - 1;

/// \return the baseline's name for messages, e.g. "the 3D torus"
std::string
Describe(SwitchlessBaseline baseline)
{
    switch (baseline)
    {
    case SwitchlessBaseline::TORUS_2D:
        return "the 2D torus";
    case SwitchlessBaseline::TORUS_3D:
        return "the 3D torus";
    case SwitchlessBaseline::FULL_MESH_3D:
        return "the 3D full-mesh";
    }
    return "the baseline";
}

/// \return an example shape with k dimensions, for messages
std::string
ExampleShape(uint32_t k)
{
    return k == 2 ? "32x32" : "16x8x8";
}

/// \return the row-major strides of a shape (the last dimension's stride is 1)
std::vector<uint64_t>
Strides(const GridShape& shape)
{
    std::vector<uint64_t> strides(shape.dims.size(), 1);
    for (std::size_t i = shape.dims.size(); i-- > 1;)
    {
        strides[i - 1] = strides[i] * shape.dims[i];
    }
    return strides;
}

/// Throws unless n circuits fit a CircuitGraph
void
CheckCircuitCount(uint64_t circuits, const GridShape& shape, const std::string& parameter)
{
    if (circuits > MAX_CIRCUITS)
    {
        ThrowBadParameter(parameter,
                          QuoteText(shape.ToString()),
                          "the topology would have " + std::to_string(circuits) +
                              " circuits, more than the " + std::to_string(MAX_CIRCUITS) +
                              " a circuit graph can index");
    }
}

/**
 * The circuits of a D-dimensional torus from Boost's wrapped grid_graph: each vertex's out-edges
 * are its two ring neighbours along each dimension; every circuit is seen from both ends and
 * kept once, from its smaller row-major id.
 */
template <std::size_t D>
std::vector<Circuit>
TorusCircuits(const GridShape& shape)
{
    using Grid = boost::grid_graph<D>;
    boost::array<std::size_t, D> lengths;
    for (std::size_t i = 0; i < D; ++i)
    {
        lengths[i] = shape.dims[i];
    }
    const Grid grid(lengths, true);
    // grid_graph's functions are hidden friends, found by argument-dependent lookup only (hence
    // the unqualified calls below). Boost numbers a grid's vertices with the first coordinate
    // varying fastest; the module's ids are row-major (the last coordinate fastest), computed
    // here from the coordinates.
    const std::vector<uint64_t> strides = Strides(shape);
    auto id = [&strides](const typename Grid::vertex_descriptor& v) {
        uint64_t index = 0;
        for (std::size_t i = 0; i < D; ++i)
        {
            index += v[i] * strides[i];
        }
        return static_cast<uint32_t>(index);
    };
    std::vector<Circuit> circuits;
    circuits.reserve(static_cast<std::size_t>(shape.GetNodes()) * D);
    typename boost::graph_traits<Grid>::vertex_iterator vi;
    typename boost::graph_traits<Grid>::vertex_iterator vend;
    for (boost::tie(vi, vend) = vertices(grid); vi != vend; ++vi)
    {
        const uint32_t u = id(*vi);
        typename boost::graph_traits<Grid>::out_edge_iterator ei;
        typename boost::graph_traits<Grid>::out_edge_iterator eend;
        for (boost::tie(ei, eend) = out_edges(*vi, grid); ei != eend; ++ei)
        {
            const uint32_t v = id(target(*ei, grid));
            if (u < v)
            {
                circuits.push_back({u, v});
            }
        }
    }
    return circuits;
}

/// Checks a template's invariants (a bug if they fail: the shape was validated)
CircuitGraph
CheckedGraph(uint32_t nodes,
             std::vector<Circuit> circuits,
             uint32_t degree,
             const std::string& what)
{
    CircuitGraph graph(nodes, std::move(circuits));
    std::string problem = graph.FindProblem(degree);
    if (!problem.empty())
    {
        throw Error(what + " is not a simple connected " + std::to_string(degree) +
                    "-regular graph: " + problem);
    }
    return graph;
}

/// Multiplies two sizes, saturating at UINT64_MAX
uint64_t
SaturatingProduct(uint64_t a, uint64_t b)
{
    if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
    {
        return std::numeric_limits<uint64_t>::max();
    }
    return a * b;
}

/**
 * Searches the factorisations of n into k factors >= minimum, in nonincreasing order, each at
 * most maxFactor; keeps the best (smallest largest factor, then smallest sum) in best.
 */
void
SearchFactorisations(uint64_t n,
                     uint32_t k,
                     uint64_t minimum,
                     uint64_t maxFactor,
                     const std::vector<uint64_t>& divisors,
                     std::vector<uint32_t>& current,
                     std::optional<std::vector<uint32_t>>& best)
{
    if (k == 1)
    {
        if (n < minimum || n > maxFactor)
        {
            return;
        }
        current.push_back(static_cast<uint32_t>(n));
        auto key = [](const std::vector<uint32_t>& dims) {
            uint64_t sum = 0;
            for (uint32_t d : dims)
            {
                sum += d;
            }
            return std::make_pair(dims.front(), sum);
        };
        if (!best || key(current) < key(*best))
        {
            best = current;
        }
        current.pop_back();
        return;
    }
    for (uint64_t f : divisors)
    {
        if (f < minimum || f > maxFactor || n % f != 0)
        {
            continue;
        }
        current.push_back(static_cast<uint32_t>(f));
        SearchFactorisations(n / f, k - 1, minimum, f, divisors, current, best);
        current.pop_back();
    }
}

} // namespace

const std::vector<EnumEntry<SwitchlessBaseline>>&
EnumTable<SwitchlessBaseline>::Get()
{
    static const std::vector<EnumEntry<SwitchlessBaseline>> names = {
        {SwitchlessBaseline::TORUS_2D, "torus-2d", {"2d-torus"}},
        {SwitchlessBaseline::TORUS_3D, "torus-3d", {"3d-torus"}},
        {SwitchlessBaseline::FULL_MESH_3D, "full-mesh-3d", {"3d-full-mesh", "hamming-3d"}},
    };
    return names;
}

uint64_t
GridShape::GetNodes() const
{
    if (dims.empty())
    {
        return 0;
    }
    uint64_t product = 1;
    for (uint32_t d : dims)
    {
        product = SaturatingProduct(product, d);
    }
    return product;
}

std::string
GridShape::ToString() const
{
    std::string text;
    for (std::size_t i = 0; i < dims.size(); ++i)
    {
        text += (i ? "x" : "") + std::to_string(dims[i]);
    }
    return text;
}

GridShape
ParseGridShape(const std::string& parameter, std::string_view text)
{
    NS_LOG_FUNCTION(parameter << text);
    const std::string allowed = "expected dimensions separated by 'x', e.g. 32x32 or 16x8x8";
    if (text.empty())
    {
        ThrowBadParameter(parameter, QuoteText(text), "the value is empty; " + allowed);
    }
    GridShape shape;
    std::size_t start = 0;
    while (true)
    {
        std::size_t end = text.find_first_of("xX", start);
        std::string_view part =
            text.substr(start,
                        end == std::string_view::npos ? std::string_view::npos : end - start);
        if (part.empty())
        {
            ThrowBadParameter(parameter, QuoteText(text), "a dimension is empty; " + allowed);
        }
        uint32_t d = 0;
        try
        {
            d = ParseUnsigned32(parameter, part);
        }
        catch (const Error&)
        {
            ThrowBadParameter(parameter,
                              QuoteText(text),
                              "dimension " + QuoteText(part) +
                                  " is not an unsigned decimal integer of at most 4294967295; " +
                                  allowed);
        }
        if (d == 0)
        {
            ThrowBadParameter(parameter, QuoteText(text), "a dimension of 0 holds no group");
        }
        shape.dims.push_back(d);
        if (end == std::string_view::npos)
        {
            break;
        }
        start = end + 1;
    }
    return shape;
}

uint32_t
GetBaselineDimensions(SwitchlessBaseline baseline)
{
    return baseline == SwitchlessBaseline::TORUS_2D ? 2 : 3;
}

uint32_t
GetMinimumDimension(SwitchlessBaseline baseline)
{
    return baseline == SwitchlessBaseline::FULL_MESH_3D ? 1 : 3;
}

uint32_t
GetBaselineDegree(SwitchlessBaseline baseline, const GridShape& shape)
{
    if (baseline != SwitchlessBaseline::FULL_MESH_3D)
    {
        return 2 * static_cast<uint32_t>(shape.dims.size());
    }
    uint64_t degree = 0;
    for (uint32_t d : shape.dims)
    {
        degree += d - 1;
    }
    return static_cast<uint32_t>(std::min<uint64_t>(degree, std::numeric_limits<uint32_t>::max()));
}

void
ValidateSwitchlessShape(SwitchlessBaseline baseline,
                        uint32_t nodes,
                        const GridShape& shape,
                        const std::string& parameter,
                        const std::string& nodesName)
{
    NS_LOG_FUNCTION(static_cast<int>(baseline) << nodes << shape.ToString() << parameter);
    const std::string value = QuoteText(shape.ToString());
    if (nodes < 2)
    {
        ThrowBadParameter(nodesName,
                          std::to_string(nodes),
                          Describe(baseline) + " needs at least 2 groups");
    }
    const uint32_t k = GetBaselineDimensions(baseline);
    if (shape.dims.size() != k)
    {
        ThrowBadParameter(parameter,
                          value,
                          Describe(baseline) + " needs " + std::to_string(k) +
                              " dimensions (e.g. " + ExampleShape(k) + "), got " +
                              std::to_string(shape.dims.size()));
    }
    const uint32_t minimum = GetMinimumDimension(baseline);
    for (uint32_t d : shape.dims)
    {
        if (d < minimum)
        {
            ThrowBadParameter(parameter,
                              value,
                              "every dimension of a torus must be at least 3, got " +
                                  std::to_string(d) +
                                  " (a ring of 2 groups would join them by a repeated circuit, "
                                  "a ring of 1 would be a self-loop)");
        }
    }
    const uint64_t product = shape.GetNodes();
    if (product != nodes)
    {
        std::string factors;
        for (std::size_t i = 0; i < shape.dims.size(); ++i)
        {
            factors += (i ? " * " : "") + std::to_string(shape.dims[i]);
        }
        ThrowBadParameter(
            parameter,
            value,
            "the product of the dimensions must equal the number of groups " + nodesName + " = " +
                std::to_string(nodes) + ", but " + factors + " = " +
                (product == std::numeric_limits<uint64_t>::max() ? std::string("more than 2^64")
                                                                 : std::to_string(product)));
    }
}

GridShape
DefaultSwitchlessShape(SwitchlessBaseline baseline, uint32_t nodes, const std::string& nodesName)
{
    NS_LOG_FUNCTION(static_cast<int>(baseline) << nodes);
    const uint32_t k = GetBaselineDimensions(baseline);
    const uint64_t minimum = std::max<uint32_t>(GetMinimumDimension(baseline), 2);
    std::vector<uint64_t> divisors;
    for (uint64_t f = 1; f * f <= nodes; ++f)
    {
        if (nodes % f == 0)
        {
            divisors.push_back(f);
            if (f * f != nodes)
            {
                divisors.push_back(nodes / f);
            }
        }
    }
    std::vector<uint32_t> current;
    std::optional<std::vector<uint32_t>> best;
    SearchFactorisations(nodes, k, minimum, nodes, divisors, current, best);
    if (!best)
    {
        // a torus needs dimensions of at least 3 anyway: no torus of that kind has N groups;
        // a full-mesh may still be given with dimensions of 1 (a lower-dimensional full-mesh)
        ThrowBadParameter(nodesName,
                          std::to_string(nodes),
                          "it is not a product of " + std::to_string(k) +
                              " dimensions of at least " + std::to_string(minimum) +
                              (baseline == SwitchlessBaseline::FULL_MESH_3D
                                   ? ", so " + Describe(baseline) +
                                         " has no default shape; give its shape explicitly (a "
                                         "dimension may be 1)"
                                   : ", so no shape of " + Describe(baseline) + " holds " +
                                         std::to_string(nodes) + " groups"));
    }
    GridShape shape;
    shape.dims = *best;
    return shape;
}

CircuitGraph
BuildTorus(const GridShape& shape, const std::string& parameter)
{
    NS_LOG_FUNCTION(shape.ToString() << parameter);
    const std::size_t k = shape.dims.size();
    if (k != 2 && k != 3)
    {
        ThrowBadParameter(parameter,
                          QuoteText(shape.ToString()),
                          "a torus is built in 2 or 3 dimensions, got " + std::to_string(k));
    }
    const uint64_t nodes = shape.GetNodes();
    const SwitchlessBaseline baseline =
        k == 2 ? SwitchlessBaseline::TORUS_2D : SwitchlessBaseline::TORUS_3D;
    if (nodes > std::numeric_limits<uint32_t>::max() - 1)
    {
        ThrowBadParameter(parameter,
                          QuoteText(shape.ToString()),
                          "at most 4294967294 groups (32-bit node ids)");
    }
    ValidateSwitchlessShape(baseline, static_cast<uint32_t>(nodes), shape, parameter);
    CheckCircuitCount(nodes * k, shape, parameter);
    // Boost's grid_graph exists for a compile-time number of dimensions, hence the switch
    std::vector<Circuit> circuits = k == 2 ? TorusCircuits<2>(shape) : TorusCircuits<3>(shape);
    NS_LOG_LOGIC("torus " << shape.ToString() << ": " << circuits.size() << " circuits");
    return CheckedGraph(static_cast<uint32_t>(nodes),
                        std::move(circuits),
                        static_cast<uint32_t>(2 * k),
                        "the torus " + shape.ToString());
}

CircuitGraph
BuildTorus2d(uint32_t nodes, const GridShape& shape, const std::string& parameter)
{
    NS_LOG_FUNCTION(nodes << shape.ToString() << parameter);
    ValidateSwitchlessShape(SwitchlessBaseline::TORUS_2D, nodes, shape, parameter);
    return BuildTorus(shape, parameter);
}

CircuitGraph
BuildTorus3d(uint32_t nodes, const GridShape& shape, const std::string& parameter)
{
    NS_LOG_FUNCTION(nodes << shape.ToString() << parameter);
    ValidateSwitchlessShape(SwitchlessBaseline::TORUS_3D, nodes, shape, parameter);
    return BuildTorus(shape, parameter);
}

CircuitGraph
BuildFullMesh3d(uint32_t nodes, const GridShape& shape, const std::string& parameter)
{
    NS_LOG_FUNCTION(nodes << shape.ToString() << parameter);
    ValidateSwitchlessShape(SwitchlessBaseline::FULL_MESH_3D, nodes, shape, parameter);
    const uint32_t degree = GetBaselineDegree(SwitchlessBaseline::FULL_MESH_3D, shape);
    const uint64_t circuitCount = static_cast<uint64_t>(nodes) * degree / 2;
    CheckCircuitCount(circuitCount, shape, parameter);
    // Boost.Graph has no generator for a Hamming graph (a Cartesian product of complete
    // graphs): grid_graph only joins coordinates one step apart. The lines of the grid are
    // enumerated here: each group is joined to every group with a larger coordinate in one
    // dimension and equal coordinates in the others, so each circuit is made once, from its
    // smaller row-major id.
    const std::vector<uint64_t> strides = Strides(shape);
    std::vector<Circuit> circuits;
    circuits.reserve(static_cast<std::size_t>(circuitCount));
    for (uint64_t u = 0; u < nodes; ++u)
    {
        for (std::size_t i = 0; i < shape.dims.size(); ++i)
        {
            const uint64_t coordinate = (u / strides[i]) % shape.dims[i];
            for (uint64_t x = coordinate + 1; x < shape.dims[i]; ++x)
            {
                circuits.push_back({static_cast<uint32_t>(u),
                                    static_cast<uint32_t>(u + (x - coordinate) * strides[i])});
            }
        }
    }
    NS_LOG_LOGIC("full-mesh " << shape.ToString() << ": " << circuits.size() << " circuits");
    return CheckedGraph(nodes, std::move(circuits), degree, "the full-mesh " + shape.ToString());
}

CircuitGraph
BuildSwitchlessBaseline(SwitchlessBaseline baseline,
                        uint32_t nodes,
                        const GridShape& shape,
                        const std::string& parameter)
{
    NS_LOG_FUNCTION(static_cast<int>(baseline) << nodes << shape.ToString() << parameter);
    switch (baseline)
    {
    case SwitchlessBaseline::TORUS_2D:
        return BuildTorus2d(nodes, shape, parameter);
    case SwitchlessBaseline::TORUS_3D:
        return BuildTorus3d(nodes, shape, parameter);
    case SwitchlessBaseline::FULL_MESH_3D:
        return BuildFullMesh3d(nodes, shape, parameter);
    }
    throw Error("unknown switchless baseline");
}

} // namespace mose
} // namespace ns3
