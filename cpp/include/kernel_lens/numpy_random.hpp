#pragma once
/// numpy.random.default_rng(seed) reproduced bit for bit: SeedSequence -> PCG64 (XSL-RR) ->
/// random / uniform / standard_normal (256-layer ziggurat) / normal. Consecutive calls continue
/// one stream exactly as a NumPy Generator does.
#include <cstdint>
#include <vector>

#include "kernel_lens/types.hpp"

namespace kernel_lens {

namespace detail {
__extension__ typedef unsigned __int128 uint128;  ///< PCG64's state word
}  // namespace detail

/// Largest accepted seed, 2^53 - 1: every such integer is exact as a JavaScript number.
inline constexpr std::uint64_t max_seed = (std::uint64_t{1} << 53) - 1;

/// numpy.random.SeedSequence(entropy).generate_state(words, np.uint32): the entropy's 32-bit
/// little-endian words hashed into a pool of four, then `words` output words.
std::vector<std::uint32_t> seed_sequence_state(std::uint64_t entropy, std::size_t words);

/// \f$ \log(1+x) \f$ evaluated exactly as glibc's libm does it (the value NumPy's ziggurat tail
/// sees), so the native and the WebAssembly (musl) builds draw the same tail samples.
double numpy_log1p(double x);

/// One NumPy Generator stream over a PCG64 bit generator.
class NumpyRandom {
 public:
  /// numpy.random.default_rng(seed); std::invalid_argument when seed > 2^53 - 1.
  explicit NumpyRandom(std::uint64_t seed);

  /// The next raw 64-bit output: state <- state * M + inc, then XSL-RR of the new state.
  std::uint64_t next_uint64();
  /// \f$ (u \gg 11) \cdot 2^{-53} \in [0, 1) \f$.
  double next_double();
  /// One standard normal via NumPy's ziggurat (tail and wedge included).
  double next_standard_normal();

  /// Generator.random(count). (count)
  Vector random(std::size_t count);
  /// Generator.uniform(low, high, count): low + (high - low) * U. (count)
  Vector uniform(double low, double high, std::size_t count);
  /// Generator.standard_normal(count). (count)
  Vector standard_normal(std::size_t count);
  /// Generator.normal(loc, scale, count): loc + scale * Z; scale >= 0. (count)
  Vector normal(double loc, double scale, std::size_t count);
  /// Generator.normal(loc, scale, size=(rows, cols)), filled row-major. (rows, cols)
  RowMatrix normal(double loc, double scale, std::size_t rows, std::size_t cols);

 private:
  /// count draws of next(), after the size check.
  template <class Draw>
  Vector draw(std::size_t count, Draw next);

  detail::uint128 state_ = 0;
  detail::uint128 increment_ = 0;
};

namespace detail {
/// NumPy's layer widths scaled by 2^-52 (wi_double): x = magnitude * wi[i].
extern const double ziggurat_wi[256];
/// NumPy's acceptance thresholds (ki_double) and edge densities (fi_double), derived from the
/// widths exactly as published (cpp/src/ziggurat_tables.cpp).
struct ZigguratTables {
  ZigguratTables();
  std::uint64_t ki[256];
  double fi[256];
};
/// Built on first use.
const ZigguratTables& ziggurat_tables();
}  // namespace detail

}  // namespace kernel_lens
