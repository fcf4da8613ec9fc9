#pragma once
// Compares detail::exp_inplace and detail::exp with std::exp over the range attention's shifted scores take
// (x <= 0, down to -inf) plus special values and positive arguments, ulp by ulp. Shared by the
// native Catch2 test (tests/cpp/test_vector_math.cpp) and the wasm check (tests/exp/wasm_exp_check.cpp,
// run in Node by tests/wasm/exp.test.mjs).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernel_lens/detail/vector_math.hpp"

namespace kernel_lens::testing {

struct ExpComparison {
  std::size_t count = 0;
  std::size_t differing = 0;  ///< results of exp_inplace whose bits differ from std::exp's
  std::uint64_t max_ulps = 0; ///< largest distance in units in the last place
  std::size_t scalar_differing = 0;  ///< the same for the scalar detail::exp
  std::uint64_t scalar_max_ulps = 0;
};

inline std::uint64_t ulp_distance(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  std::int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof ia);
  std::memcpy(&ib, &b, sizeof ib);
  if (ia < 0) ia = std::numeric_limits<std::int64_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<std::int64_t>::min() - ib;
  return ia > ib ? static_cast<std::uint64_t>(ia) - static_cast<std::uint64_t>(ib)
                 : static_cast<std::uint64_t>(ib) - static_cast<std::uint64_t>(ia);
}

/// `count` arguments from a fixed seed: uniform on [-760, 0] (the softmax's range, subnormal and
/// zero results included), small magnitudes around 0 and up to 1e6 either side (overflow, tiny
/// arguments), uniform on [-720, 720], and the special values.
inline ExpComparison compare_exp_with_std(std::size_t count, double shift = 0.0) {
  std::mt19937_64 rng(20261201);
  std::uniform_real_distribution<double> wide(-760.0, 0.0);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> x(count);
  for (std::size_t i = 0; i < count; ++i) {
    switch (i % 4) {
      case 0: x[i] = wide(rng); break;
      case 1: x[i] = wide(rng) / 64.0; break;
      case 2: x[i] = unit(rng) * std::pow(10.0, 6.0 * unit(rng)); break;
      default: x[i] = unit(rng) * 720.0; break;
    }
  }
  const double specials[] = {0.0, -0.0, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(), -745.1332191019411, -745.1332191019412, -708.3964185322641,
                             -708.4, 709.782712893384, 709.79, -512.0, 512.0, -511.99999999999994, 1e-300, -1e-300,
                             std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::max()};
  for (std::size_t i = 0; i < sizeof specials / sizeof specials[0] && i < count; ++i) x[i] = specials[i];
  std::vector<double> y = x;
  detail::exp_inplace(y.data(), y.size(), shift);
  ExpComparison result;
  result.count = count;
  for (std::size_t i = 0; i < count; ++i) {
    const double expected = std::exp(x[i] - shift);
    const std::uint64_t ulps = ulp_distance(y[i], expected);
    if (ulps != 0) ++result.differing;
    if (ulps > result.max_ulps) result.max_ulps = ulps;
    const std::uint64_t scalar_ulps = ulp_distance(detail::exp(x[i] - shift), expected);
    if (scalar_ulps != 0) ++result.scalar_differing;
    if (scalar_ulps > result.scalar_max_ulps) result.scalar_max_ulps = scalar_ulps;
  }
  return result;
}

}  // namespace kernel_lens::testing
