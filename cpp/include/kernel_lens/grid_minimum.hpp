#pragma once
/// The grid minimum of a risk curve: the bandwidth on a predeclared grid with the smallest risk
/// (numpy.argmin semantics: the first index on ties).
#include <cstddef>
#include <vector>

#include "kernel_lens/types.hpp"

namespace kernel_lens {

struct GridMinimum {
  std::size_t index;  ///< argmin_b risks_b, first on ties
  double bandwidth;   ///< bandwidths[index]
  double risk;        ///< risks[index]
};

/// \f$ b^\ast = \arg\min_b r_b \f$ over bandwidths h_b with risks r_b, both (B), B >= 1.
/// Throws std::invalid_argument on a size mismatch, an empty grid, a non-finite risk or a
/// bandwidth that is not positive and finite; std::length_error above Limits::max_bandwidths.
GridMinimum grid_minimum(const std::vector<double>& bandwidths, const VectorRef& risks);

}  // namespace kernel_lens
