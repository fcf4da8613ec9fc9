#include "kernel_lens/summation.hpp"

#include <cstring>

namespace kernel_lens {

namespace {
constexpr std::size_t block = 128;
constexpr std::size_t unroll = 8;

// Two doubles per 128-bit register (wasm SIMD, SSE2): the eight partial sums r0..r7 are the lanes
// of four registers, so each lane adds exactly what NumPy's partial sum of that index adds.
using f64x2 = double __attribute__((vector_size(16)));

f64x2 load(const double* x) {
  f64x2 v;
  std::memcpy(&v, x, sizeof v);
  return v;
}
}  // namespace

double pairwise_sum(const double* x, std::size_t n) {
  if (n < unroll) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += x[i];
    return sum;
  }
  if (n <= block) {
    f64x2 r01 = load(x), r23 = load(x + 2), r45 = load(x + 4), r67 = load(x + 6);
    std::size_t i = unroll;
    for (; i < n - n % unroll; i += unroll) {
      r01 += load(x + i);
      r23 += load(x + i + 2);
      r45 += load(x + i + 4);
      r67 += load(x + i + 6);
    }
    double sum = ((r01[0] + r01[1]) + (r23[0] + r23[1])) + ((r45[0] + r45[1]) + (r67[0] + r67[1]));
    for (; i < n; ++i) sum += x[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % unroll;
  return pairwise_sum(x, half) + pairwise_sum(x + half, n - half);
}

}  // namespace kernel_lens
