#pragma once
// Compares detail::exp_inplace, detail::exp and the softmax row's exp_shifted_sum with std::exp over the range attention's shifted scores take
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
#include "kernel_lens/summation.hpp"

namespace kernel_lens::testing {

struct ExpComparison {
  std::size_t count = 0;
  std::size_t differing = 0;  ///< results of exp_inplace whose bits differ from std::exp's
  std::uint64_t max_ulps = 0; ///< largest distance in units in the last place
  std::size_t scalar_differing = 0;  ///< the same for the scalar detail::exp
  std::uint64_t scalar_max_ulps = 0;
  /// The softmax row's call on rows of the arguments at or below the shift (`shift` their
  /// maximum): exp_shifted_sum's results against std::exp, and the rows where it differs, in any
  /// bit of a result or of the sum, from exp_inplace followed by pairwise_sum.
  std::size_t row_count = 0;
  std::size_t row_differing = 0;
  std::uint64_t row_max_ulps = 0;
  std::size_t sum_rows = 0;
  std::size_t sum_rows_differing = 0;
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

/// Rows of every length from 1 to 300 cut from `x`, each moved at or below `shift` with its
/// maximum set to `shift` (a softmax row after its shift). Half the rows lie within 511 of the
/// shift, a quarter within 659 (exp_lanes' direct range, where exp() itself takes the library's
/// scaled way below -512); of the others, half spread over 1100 below it and half over 8000
/// (groups with lanes from -746 to -660 in exp_scaled's two-lane form: normal, subnormal and zero
/// results; groups mixing near lanes with lanes below -746, and groups wholly below -746, +0),
/// each ending in -inf or 600 below the shift.
inline void compare_rows(const std::vector<double>& x, double shift, ExpComparison& result) {
  std::size_t start = 0;
  for (std::size_t n = 1; start + n <= x.size() && n <= 300; start += n, ++n) {
    std::vector<double> row(x.begin() + static_cast<std::ptrdiff_t>(start), x.begin() + static_cast<std::ptrdiff_t>(start + n));
    for (double& v : row) {
      const double spread = n % 8 == 4 ? 8000.0 : n % 4 == 0 ? 1100.0 : n % 4 == 2 ? 659.0 : 511.0;
      const double below = std::isfinite(v) ? std::fmod(std::fmod(std::abs(v), spread) * 7.0, spread) : 300.0;  // in [0, spread)
      v = shift - below;
    }
    row[n / 2] = shift;
    if (n % 4 == 0) row[n - 1] = (n % 8 == 0) ? -std::numeric_limits<double>::infinity() : shift - 600.0;
    std::vector<double> fused = row, plain = row;
    const double fused_sum = detail::exp_shifted_sum(fused.data(), n, shift);
    detail::exp_inplace(plain.data(), n, shift);
    const double plain_sum = pairwise_sum(plain.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t ulps = ulp_distance(fused[i], std::exp(row[i] - shift));
      ++result.row_count;
      if (ulps != 0) ++result.row_differing;
      if (ulps > result.row_max_ulps) result.row_max_ulps = ulps;
    }
    ++result.sum_rows;
    if (std::memcmp(&fused_sum, &plain_sum, sizeof fused_sum) != 0 || fused != plain)
      ++result.sum_rows_differing;
  }
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
  compare_rows(x, shift, result);
  return result;
}

}  // namespace kernel_lens::testing
