#pragma once
/// Piecewise-linear interpolation with numpy.interp's rules, used to place the k = q locus of an
/// attention map in sorted-key coordinates: interp(queries, keys, [0, 1, ..., n - 1]).
#include "kernel_lens/types.hpp"

namespace kernel_lens {

/// numpy.interp(x, xp, fp) for finite x: for xp[j] <= x < xp[j+1],
/// \f$ f(x) = fp_j + (fp_{j+1} - fp_j)(x - xp_j)/(xp_{j+1} - xp_j) \f$; x <= xp[0] gives fp[0],
/// x >= xp[last] gives fp[last]. xp, fp: (n), n >= 1, xp nondecreasing; returns (x.size()).
/// Throws std::invalid_argument on a size mismatch, an empty xp, a non-finite entry or a
/// decreasing xp; std::length_error above Limits::max_rows entries.
Vector interp(const VectorRef& x, const VectorRef& xp, const VectorRef& fp);

/// Fractional index of each query among sorted keys: interp(queries, keys, 0..n-1), (m).
Vector sorted_key_position(const VectorRef& queries, const VectorRef& keys);

}  // namespace kernel_lens
