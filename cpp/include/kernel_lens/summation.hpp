#pragma once
/// Summation in NumPy's pairwise order, so that roundoff-level figures (row-sum errors, the
/// log-kernel identity gap) come out digit for digit as NumPy prints them.
#include <cstddef>

namespace kernel_lens {

/// \f$ \sum_i x_i \f$ over a contiguous array, blocked exactly like NumPy's pairwise sum:
/// fewer than 8 terms are added left to right; up to 128 terms use eight running partial sums
/// combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) and then the remainder; longer arrays split
/// in two halves (the first a multiple of 8) and recurse.
double pairwise_sum(const double* x, std::size_t n);

}  // namespace kernel_lens
