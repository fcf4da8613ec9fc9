#pragma once
// Turning fuzzer bytes into the core's arguments, and the one rule every target checks: a refusal
// is a std::logic_error (invalid_argument, length_error, domain_error) with a message; anything
// else (a crash, a sanitizer report, std::bad_alloc, a huge allocation) is a finding.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kernel_lens/types.hpp"

namespace kernel_lens::fuzz {

/// A double that is usually ordinary (small, integral, a multiple of 1/8) and sometimes any bit
/// pattern at all (NaN, ±Inf, subnormals, ±1e308).
inline double number(FuzzedDataProvider& input) {
  switch (input.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return input.ConsumeIntegralInRange<int>(-8, 8);
    case 1:
      return input.ConsumeIntegralInRange<int>(-400, 400) / 8.0;
    case 2:
      return input.ConsumeFloatingPoint<double>();
    default: {
      const auto bits = input.ConsumeIntegral<std::uint64_t>();
      double x;
      static_assert(sizeof x == sizeof bits);
      std::memcpy(&x, &bits, sizeof x);
      return x;
    }
  }
}

/// A positive bandwidth most of the time, any double otherwise.
inline double bandwidth(FuzzedDataProvider& input) {
  if (input.ConsumeBool()) return number(input);
  return std::ldexp(1.0 + input.ConsumeIntegralInRange<int>(0, 15) / 16.0, input.ConsumeIntegralInRange<int>(-12, 12));
}

inline RowMatrix matrix(FuzzedDataProvider& input, Eigen::Index rows, Eigen::Index cols) {
  RowMatrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = number(input);
  return m;
}

inline Vector vector(FuzzedDataProvider& input, Eigen::Index size) {
  Vector v(size);
  for (Eigen::Index i = 0; i < size; ++i) v(i) = number(input);
  return v;
}

/// A count: small most of the time, otherwise any 64-bit value (which the caps must refuse).
inline std::size_t count(FuzzedDataProvider& input, std::size_t small) {
  if (input.ConsumeIntegralInRange<int>(0, 7) != 0) return input.ConsumeIntegralInRange<std::size_t>(0, small);
  return input.ConsumeIntegral<std::size_t>() | (std::size_t{1} << 25);
}

/// Runs f; a std::logic_error with a non-empty message is an accepted refusal.
template <class F>
void refusal_allowed(F&& f) {
  try {
    f();
  } catch (const std::logic_error& error) {
    if (error.what()[0] == '\0') std::abort();
  }
}

/// Aborts (a finding) unless every entry is finite.
template <class Derived>
void require_finite(const Eigen::DenseBase<Derived>& m) {
  if (!m.derived().allFinite()) std::abort();
}

}  // namespace kernel_lens::fuzz
