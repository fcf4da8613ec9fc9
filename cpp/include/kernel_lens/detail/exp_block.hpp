#pragma once
/// \f$ e^x \f$ for a block of x <= 0, written as plain arithmetic so the compiler vectorises it
/// (clang: wasm SIMD): the leave-one-out curve evaluates n^2 kernels per bandwidth and a libm call
/// per kernel was most of its time. Within 4e-16 relative of std::exp; x < -708 (where e^x is
/// below 2^-1022, negligible beside the nearest key's weight 1) gives 0.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kernel_lens::detail {

/// In place: x_i <- e^{x_i} for x_i <= 0 (including -inf), i < n.
/// \f$ e^x = 2^k e^r \f$, k = round(x / ln 2), r = x - k ln 2 in two parts (Cody-Waite), e^r by
/// its Taylor series to r^12 (|r| <= ln 2 / 2: remainder below 2e-16), 2^k from the exponent bits.
inline void exp_nonpositive(double* x, std::ptrdiff_t n) {
  constexpr double log2e = 1.4426950408889634;
  constexpr double ln2_high = 6.93147180369123816490e-01;  // 32 significant bits: k ln2_high is exact
  constexpr double ln2_low = 1.90821492927058770002e-10;
  constexpr double shifter = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
  constexpr double smallest = -708.0;
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    // Clamped first, so no intermediate below is subnormal, infinite or NaN (slow paths on some CPUs).
    const double in = x[i];
    const double v = in > smallest ? in : smallest;
    const double shifted = v * log2e + shifter;
    std::uint64_t bits;
    std::memcpy(&bits, &shifted, sizeof bits);
    const double k = shifted - shifter;
    const double r = (v - k * ln2_high) - k * ln2_low;
    double p = 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    // The low bits of `bits` hold k; (k + 1023) << 52 is the double 2^k for -1022 <= k <= 0.
    const std::uint64_t scale_bits = (bits + 1023u) << 52;
    double scale;
    std::memcpy(&scale, &scale_bits, sizeof scale);
    const double result = p * scale;  // finite and normal for v >= smallest
    x[i] = in < smallest ? 0.0 : result;
  }
}

}  // namespace kernel_lens::detail
