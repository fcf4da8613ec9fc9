#include "kernel_lens/numpy_random.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "kernel_lens/cold.hpp"
#include "kernel_lens/detail/vector_math.hpp"
#include "kernel_lens/limits.hpp"

namespace kernel_lens {
namespace {

using detail::uint128;

/// SeedSequence's hash constants (numpy/random/bit_generator.pyx).
constexpr std::uint32_t hash_init_a = 0x43b0d7e5;
constexpr std::uint32_t hash_mult_a = 0x931e8875;
constexpr std::uint32_t hash_init_b = 0x8b51f9dd;
constexpr std::uint32_t hash_mult_b = 0x58f38ded;
constexpr std::uint32_t mix_mult_l = 0xca01f9dd;
constexpr std::uint32_t mix_mult_r = 0x4973f715;
constexpr int hash_shift = 16;
constexpr std::size_t pool_size = 4;

/// PCG's default 128-bit LCG multiplier.
constexpr uint128 pcg_multiplier =
    (static_cast<uint128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL;

/// r and 1/r of NumPy's double ziggurat.
constexpr double ziggurat_r = 3.6541528853610087963519472518;
constexpr double ziggurat_inv_r = 0.27366123732975827203338247596;

/// \f$ v \leftarrow (v \oplus c)\cdot c' \f$, \f$ c' = c\cdot M_A \f$, then xorshift.
std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= hash_mult_a;
  value *= hash_const;
  value ^= value >> hash_shift;
  return value;
}

std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t result = mix_mult_l * x - mix_mult_r * y;
  result ^= result >> hash_shift;
  return result;
}

std::uint64_t high_word(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

double with_high_word(double x, std::uint32_t high) {
  std::uint64_t bits = high_word(x);
  bits = (static_cast<std::uint64_t>(high) << 32) | (bits & 0xffffffffULL);
  double out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

std::uint64_t rotate_right(std::uint64_t value, unsigned rotation) {
  return (value >> rotation) | (value << ((64 - rotation) & 63));
}

}  // namespace

KERNEL_LENS_COLD std::vector<std::uint32_t> seed_sequence_state(std::uint64_t entropy, std::size_t words) {
  check_size(words, Limits::max_draws, "words");
  std::vector<std::uint32_t> entropy_words;
  do {
    entropy_words.push_back(static_cast<std::uint32_t>(entropy & 0xffffffffULL));
    entropy >>= 32;
  } while (entropy != 0);

  std::uint32_t pool[pool_size];
  std::uint32_t hash_const = hash_init_a;
  for (std::size_t i = 0; i < pool_size; ++i)
    pool[i] = hashmix(i < entropy_words.size() ? entropy_words[i] : 0u, hash_const);
  for (std::size_t source = 0; source < pool_size; ++source)
    for (std::size_t target = 0; target < pool_size; ++target)
      if (source != target) pool[target] = mix(pool[target], hashmix(pool[source], hash_const));
  for (std::size_t source = pool_size; source < entropy_words.size(); ++source)
    for (std::size_t target = 0; target < pool_size; ++target)
      pool[target] = mix(pool[target], hashmix(entropy_words[source], hash_const));

  std::vector<std::uint32_t> state(words);
  std::uint32_t output_const = hash_init_b;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint32_t value = pool[i % pool_size];
    value ^= output_const;
    output_const *= hash_mult_b;
    value *= output_const;
    value ^= value >> hash_shift;
    state[i] = value;
  }
  return state;
}

double numpy_log1p(double x) {
  /// fdlibm's reduction 1 + x = 2^k (1 + f), sqrt(2)/2 < 1 + f < sqrt(2), then
  /// log(1+f) = f - (hfsq - s (hfsq + R(z))), hfsq = f^2/2, s = f / (2 + f), z = s^2, with R in
  /// pairwise (Estrin) order and the fused multiply-adds of glibc's x86-64 FMA build, which is
  /// the log1p NumPy calls on machines with FMA.
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  constexpr double lp1 = 6.666666666666735130e-01;
  constexpr double lp2 = 3.999999999940941908e-01;
  constexpr double lp3 = 2.857142874366239149e-01;
  constexpr double lp4 = 2.222219843214978396e-01;
  constexpr double lp5 = 1.818357216161805012e-01;
  constexpr double lp6 = 1.531383769920937332e-01;
  constexpr double lp7 = 1.479819860511658591e-01;

  const auto hx = static_cast<std::int32_t>(high_word(x) >> 32);
  const std::int32_t ax = hx & 0x7fffffff;
  double f = 0.0;
  double c = 0.0;
  std::int32_t k = 1;
  std::int32_t hu = 0;
  if (hx < 0x3FDA827A) {
    if (ax >= 0x3ff00000) return x == -1.0 ? -HUGE_VAL : std::nan("");
    if (ax < 0x3e200000) return ax < 0x3c900000 ? x : std::fma(-(x * x), 0.5, x);
    if (hx > 0 || hx <= static_cast<std::int32_t>(0xbfd2bec3)) {
      k = 0;
      f = x;
      hu = 1;
    }
  } else if (hx >= 0x7ff00000) {
    return x + x;
  }
  if (k != 0) {
    double u;
    if (hx < 0x43400000) {
      u = 1.0 + x;
      hu = static_cast<std::int32_t>(high_word(u) >> 32);
      k = (hu >> 20) - 1023;
      c = (k > 0) ? 1.0 - (u - x) : x - (u - 1.0);
      c /= u;
    } else {
      u = x;
      hu = static_cast<std::int32_t>(high_word(u) >> 32);
      k = (hu >> 20) - 1023;
      c = 0.0;
    }
    hu &= 0x000fffff;
    if (hu < 0x6a09e) {
      u = with_high_word(u, static_cast<std::uint32_t>(hu | 0x3ff00000));
    } else {
      k += 1;
      u = with_high_word(u, static_cast<std::uint32_t>(hu | 0x3fe00000));
      hu = (0x00100000 - hu) >> 2;
    }
    f = u - 1.0;
  }
  const double dk = k;
  const double hfsq = (0.5 * f) * f;
  if (hu == 0) {
    if (f == 0.0) return k == 0 ? 0.0 : std::fma(dk, ln2_hi, std::fma(dk, ln2_lo, c));
    const double r = std::fma(-f, 0.66666666666666666, 1.0) * hfsq;
    if (k == 0) return f - r;
    return std::fma(dk, ln2_hi, -((r - std::fma(dk, ln2_lo, c)) - f));
  }
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double z2 = z * z;
  const double z4 = z2 * z2;
  const double z6 = z2 * z4;
  const double r2 = std::fma(z, lp3, lp2);
  const double r3 = std::fma(z, lp5, lp4);
  const double r4 = std::fma(z, lp7, lp6);
  const double r = std::fma(z6, r4, std::fma(z4, r3, std::fma(z, lp1, z2 * r2)));
  const double correction = (hfsq + r) * s;
  if (k == 0) return f - (hfsq - correction);
  return std::fma(dk, ln2_hi, -((hfsq - (correction + std::fma(dk, ln2_lo, c))) - f));
}

KERNEL_LENS_COLD NumpyRandom::NumpyRandom(std::uint64_t seed) {
  if (seed > max_seed)
    throw std::invalid_argument("seed must be an integer from 0 to 2^53 - 1, got " +
                                std::to_string(seed));
  /// generate_state(4, np.uint64): eight 32-bit words read as four little-endian uint64;
  /// state = (w0 << 64) | w1 and initial increment = (w2 << 64) | w3.
  const std::vector<std::uint32_t> words = seed_sequence_state(seed, 8);
  std::uint64_t wide[4];
  for (int i = 0; i < 4; ++i)
    wide[i] = static_cast<std::uint64_t>(words[2 * i]) |
              (static_cast<std::uint64_t>(words[2 * i + 1]) << 32);
  const uint128 initial_state = (static_cast<uint128>(wide[0]) << 64) | wide[1];
  const uint128 initial_increment = (static_cast<uint128>(wide[2]) << 64) | wide[3];
  state_ = 0;
  increment_ = (initial_increment << 1) | 1u;
  state_ = state_ * pcg_multiplier + increment_;
  state_ += initial_state;
  state_ = state_ * pcg_multiplier + increment_;
}

std::uint64_t NumpyRandom::next_uint64() {
  state_ = state_ * pcg_multiplier + increment_;
  const auto high = static_cast<std::uint64_t>(state_ >> 64);
  const auto low = static_cast<std::uint64_t>(state_);
  return rotate_right(high ^ low, static_cast<unsigned>(state_ >> 122));
}

double NumpyRandom::next_double() {
  return static_cast<double>(next_uint64() >> 11) * (1.0 / 9007199254740992.0);
}

double NumpyRandom::next_standard_normal() {
  using detail::ziggurat_wi;
  static const detail::ZigguratTables& tables = detail::ziggurat_tables();
  const std::uint64_t* const ziggurat_ki = tables.ki;
  const double* const ziggurat_fi = tables.fi;
  for (;;) {
    std::uint64_t r = next_uint64();
    const int layer = static_cast<int>(r & 0xff);
    r >>= 8;
    const bool negative = (r & 1u) != 0;
    const std::uint64_t magnitude = (r >> 1) & 0x000fffffffffffffULL;
    double x = static_cast<double>(magnitude) * ziggurat_wi[layer];
    if (negative) x = -x;
    if (magnitude < ziggurat_ki[layer]) return x;
    if (layer == 0) {
      for (;;) {
        const double xx = -ziggurat_inv_r * numpy_log1p(-next_double());
        const double yy = -numpy_log1p(-next_double());
        if (yy + yy > xx * xx)
          return ((magnitude >> 8) & 1u) ? -(ziggurat_r + xx) : ziggurat_r + xx;
      }
    }
    const double u = next_double();
    if ((ziggurat_fi[layer - 1] - ziggurat_fi[layer]) * u + ziggurat_fi[layer] <
        detail::exp(-0.5 * x * x))
      return x;
  }
}

template <class Draw>
Vector NumpyRandom::draw(std::size_t count, Draw next) {
  check_size(count, Limits::max_draws, "count");
  Vector out(static_cast<Eigen::Index>(count));
  for (auto& v : out) v = next();
  return out;
}

Vector NumpyRandom::random(std::size_t count) {
  return draw(count, [this] { return next_double(); });
}

Vector NumpyRandom::uniform(double low, double high, std::size_t count) {
  if (!std::isfinite(low) || !std::isfinite(high) || !std::isfinite(high - low))
    throw std::invalid_argument("low, high and high - low must be finite, got low = " + format_number(low) +
                                ", high = " + format_number(high));
  const double range = high - low;
  return draw(count, [this, low, range] { return low + range * next_double(); });
}

Vector NumpyRandom::standard_normal(std::size_t count) {
  return draw(count, [this] { return next_standard_normal(); });
}

Vector NumpyRandom::normal(double loc, double scale, std::size_t count) {
  return normal(loc, scale, count, 1).reshaped();
}

RowMatrix NumpyRandom::normal(double loc, double scale, std::size_t rows, std::size_t cols) {
  if (rows > Limits::max_draws || cols > Limits::max_draws || (cols != 0 && rows > Limits::max_draws / cols))
    throw std::length_error("size " + std::to_string(rows) + " x " + std::to_string(cols) +
                            " exceeds the limit of " + std::to_string(Limits::max_draws) +
                            " draws");
  if (!std::isfinite(loc)) throw std::invalid_argument("loc must be finite");
  if (!std::isfinite(scale) || scale < 0.0)
    throw std::invalid_argument("scale must be finite and >= 0, got " + format_number(scale));
  RowMatrix out(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  double* data = out.data();
  for (Eigen::Index i = 0; i < out.size(); ++i) data[i] = loc + scale * next_standard_normal();
  return out;
}

}  // namespace kernel_lens
