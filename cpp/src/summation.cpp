#include "kernel_lens/summation.hpp"

namespace kernel_lens {

namespace {
constexpr std::size_t block = 128;
constexpr std::size_t unroll = 8;
}  // namespace

double pairwise_sum(const double* x, std::size_t n) {
  if (n < unroll) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += x[i];
    return sum;
  }
  if (n <= block) {
    double r[unroll];
    for (std::size_t j = 0; j < unroll; ++j) r[j] = x[j];
    std::size_t i = unroll;
    for (; i < n - n % unroll; i += unroll)
      for (std::size_t j = 0; j < unroll; ++j) r[j] += x[i + j];
    double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += x[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % unroll;
  return pairwise_sum(x, half) + pairwise_sum(x + half, n - half);
}

}  // namespace kernel_lens
