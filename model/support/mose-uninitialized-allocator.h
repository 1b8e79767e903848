/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_UNINITIALIZED_ALLOCATOR_H
#define MOSE_UNINITIALIZED_ALLOCATOR_H

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-support
 * \brief A std::allocator whose value-initialisation (vector::resize() without a value) leaves
 *        trivial elements uninitialised.
 *
 * For arrays that are sized to a bound and then overwritten element by element (the
 * DemandDags arrays, LevelSearch::FollowPaths()'s steps): zero-filling them first cost ~7% of
 * a shortest-path evaluation.
 * \tparam T the element type
 */
template <class T>
struct UninitializedAllocator : std::allocator<T>
{
    /// the same allocator for another type
    template <class U>
    struct rebind
    {
        using other = UninitializedAllocator<U>; //!< the rebound allocator
    };

    UninitializedAllocator() = default;

    /// \param other the allocator to copy (stateless)
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U>& other) noexcept
        : std::allocator<T>(other)
    {
    }

    /**
     * \brief Default-initialises (for trivial types: leaves as is) instead of value-initialising.
     * \param p where to construct
     */
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void*>(p)) U;
    }

    /**
     * \brief Constructs from arguments, as std::allocator does.
     * \param p where to construct
     * \param args the constructor's arguments
     */
    template <class U, class... Args>
    void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_UNINITIALIZED_ALLOCATOR_H */
