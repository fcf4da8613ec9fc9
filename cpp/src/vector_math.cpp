#include "kernel_lens/detail/vector_math.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "kernel_lens/cold.hpp"
#include "kernel_lens/summation.hpp"

// The scalar tail of a two-lane loop runs at most three times: the compiler's own vectoriser and
// unroller would only turn it into more code (several kB of the wasm module), not more speed.
#if defined(__clang__)
#define KERNEL_LENS_REMAINDER_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define KERNEL_LENS_REMAINDER_LOOP
#endif

namespace kernel_lens::detail {

namespace {

// GCC and Clang vector extensions: two doubles per 128-bit register (wasm SIMD, SSE2).
using f64x2 = double __attribute__((vector_size(16)));
using u64x2 = std::uint64_t __attribute__((vector_size(16)));
using i64x2 = std::int64_t __attribute__((vector_size(16)));

constexpr double inv_ln2_n = 0x1.71547652b82fep0 * 128;  // 128 / ln 2
constexpr double shifter = 0x1.8p52;                       // adding it rounds to an integer
constexpr double neg_ln2_hi_n = -0x1.62e42fefa0000p-8;     // -(ln 2 / 128), high part: k times it is exact
constexpr double neg_ln2_lo_n = -0x1.cf79abc9e3b3ap-47;    // the rest of -(ln 2 / 128)
// e^r - 1 - r ~= c2 r^2 + c3 r^3 + c4 r^4 + c5 r^5 on |r| <= ln 2 / 256.
constexpr double c2 = 0x1.ffffffffffdbdp-2;
constexpr double c3 = 0x1.555555555543cp-3;
constexpr double c4 = 0x1.55555cf172b91p-5;
constexpr double c5 = 0x1.1111167a4d017p-7;

f64x2 load(const double* x) {
  f64x2 v;
  std::memcpy(&v, x, sizeof v);
  return v;
}

void store(double* x, f64x2 v) { std::memcpy(x, &v, sizeof v); }

u64x2 table_entry(std::uint64_t k) {
  u64x2 entry;
  std::memcpy(&entry, &exp_table[2 * k], sizeof entry);
  return entry;
}

double table_double(std::size_t i) {
  double x;
  std::memcpy(&x, &exp_table[i], sizeof x);
  return x;
}

/// The lanes' constants of exp_lanes, two copies each (u64 bits).
alignas(16) constexpr std::uint64_t lane_constant_bits[] = {
    0x40671547652b82feull, 0x40671547652b82feull,  // 128 / ln 2
    0x4338000000000000ull, 0x4338000000000000ull,  // shifter, 1.5 * 2^52
    0xbf762e42fefa0000ull, 0xbf762e42fefa0000ull,  // -(ln 2 / 128), high part
    0xbd0cf79abc9e3b3aull, 0xbd0cf79abc9e3b3aull,  // -(ln 2 / 128), low part
    0x3fdffffffffffdbdull, 0x3fdffffffffffdbdull,  // c2
    0x3fc555555555543cull, 0x3fc555555555543cull,  // c3
    0x3fa55555cf172b91ull, 0x3fa55555cf172b91ull,  // c4
    0x3f81111167a4d017ull, 0x3f81111167a4d017ull,  // c5
    exp_table_size - 1,    exp_table_size - 1,     // the table index's mask
};

/// The constants' address, hidden from the optimisers: V8 materialises a wasm v128.const at
/// every use (three instructions each, nine constants per pair of lanes), and clang and Binaryen
/// fold constants back into their uses. Read through this pointer, they are loaded once per call
/// into locals that the engine keeps in registers. Natively a no-op.
const std::uint64_t* lane_constants() {
  const std::uint64_t* p = lane_constant_bits;
#if defined(__wasm__)
  __asm__("" : "+r"(p));
#endif
  return p;
}

template <typename V>
V load_lanes(const std::uint64_t* bits) {
  V v;
  std::memcpy(&v, bits, sizeof v);
  return v;
}

/// The lanes' constants of exp_lanes, made once per loop rather than once per use.
struct ExpConstants {
  ExpConstants()
      : ExpConstants(lane_constants()) {}
  explicit ExpConstants(const std::uint64_t* c)
      : inv_ln2_n(load_lanes<f64x2>(c)), shifter(load_lanes<f64x2>(c + 2)), neg_ln2_hi_n(load_lanes<f64x2>(c + 4)),
        neg_ln2_lo_n(load_lanes<f64x2>(c + 6)), c2(load_lanes<f64x2>(c + 8)), c3(load_lanes<f64x2>(c + 10)),
        c4(load_lanes<f64x2>(c + 12)), c5(load_lanes<f64x2>(c + 14)), index_mask(load_lanes<u64x2>(c + 16)) {}
  f64x2 inv_ln2_n, shifter, neg_ln2_hi_n, neg_ln2_lo_n, c2, c3, c4, c5;
  u64x2 index_mask;
};

/// The bits of `v` read as a `To` of the same size.
template <class To, class From>
To same_bits(From v) {
  static_assert(sizeof(To) == sizeof(From));
  To out;
  std::memcpy(&out, &v, sizeof out);
  return out;
}

/// exp_lanes' reduction for both lanes: x = k ln 2 / 128 + r, and the bits of the scale 2^(k/128)
/// with tmp such that e^x = scale (1 + tmp). One operation per statement, so no compiler fuses a
/// multiply and an add that the library keeps apart (the build also turns contraction off for
/// this file).
struct ExpParts {
  f64x2 tmp;
  u64x2 scale_bits;
};

ExpParts exp_parts(f64x2 x, const ExpConstants& k) {
  f64x2 kd = k.inv_ln2_n * x;
  kd = kd + k.shifter;
  const u64x2 ki = same_bits<u64x2>(kd);
  kd = kd - k.shifter;
  f64x2 r = x + kd * k.neg_ln2_hi_n;
  r = r + kd * k.neg_ln2_lo_n;
  // Entry k of the table is the pair (T[k], H[k]) in 16 aligned bytes: one load per lane, then
  // the two lanes' tails and scales are regrouped (no lane-by-lane inserts).
  const u64x2 index = ki & k.index_mask;
  const u64x2 first = table_entry(index[0]);
  const u64x2 second = table_entry(index[1]);
  const f64x2 tail = same_bits<f64x2>(__builtin_shufflevector(first, second, 0, 2));
  u64x2 scale_bits = __builtin_shufflevector(first, second, 1, 3);
  scale_bits = scale_bits + (ki << 45);
  const f64x2 r2 = r * r;
  f64x2 tmp = tail + r;
  tmp = tmp + r2 * (k.c2 + r * k.c3);
  tmp = tmp + r2 * r2 * (k.c4 + r * k.c5);
  return {tmp, scale_bits};
}

/// e^x for both lanes, |x| < 512.
f64x2 exp_lanes(f64x2 x, const ExpConstants& k) {
  const ExpParts parts = exp_parts(x, k);
  const f64x2 scale = same_bits<f64x2>(parts.scale_bits);
  return scale + scale * parts.tmp;
}

std::uint64_t bits_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

double from_bits(std::uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// The library's special case of 2^(k/128) (1 + tmp) where the scale's exponent field would leave
/// the normal range (|x| >= 512): scaled by 2^1009 on the way up; on the way down rounded once, at
/// the subnormal precision, so no double rounding.
double exp_scaled(double tmp, std::uint64_t scale_bits, std::uint64_t ki) {
  if ((ki & 0x80000000) == 0) {
    const double scale = from_bits(scale_bits - (1009ull << 52));
    return 0x1p1009 * (scale + scale * tmp);
  }
  const double scale = from_bits(scale_bits + (1022ull << 52));
  double y = scale + scale * tmp;
  if (y < 1.0) {
    double lo = scale - y + scale * tmp;
    const double hi = 1.0 + y;
    lo = 1.0 - hi + y + lo;
    y = (hi + lo) - 1.0;
    if (y == 0.0) y = 0.0;  // never -0
  }
  return 0x1p-1022 * y;
}

/// Below this, e^x is +0 in the library's exp (e^-746 < 2^-1075, half the least subnormal).
constexpr double underflow_limit = -746.0;

/// Whether both lanes lie strictly within 512 of 0 (no NaN): exp_lanes' range.
bool in_range(f64x2 v) {
  const auto inside = (v > -512.0) & (v < 512.0);
  return (inside[0] & inside[1]) != 0;
}

/// exp_lanes where a lane may need the library's special cases (|v| >= 512, inf, NaN): +0 for
/// both lanes below underflow_limit (what exp() returns there; a row's far cells), exp_lanes for
/// both in range, else exp() lane by lane.
__attribute__((noinline)) f64x2 exp_checked(f64x2 v, const ExpConstants& k) {
  const auto below = v < underflow_limit;
  if ((below[0] & below[1]) != 0) return f64x2{0.0, 0.0};
  if (in_range(v)) return exp_lanes(v, k);
  return f64x2{v[0] < underflow_limit ? 0.0 : exp(v[0]), v[1] < underflow_limit ? 0.0 : exp(v[1])};
}

}  // namespace

double exp(double x) {
  constexpr std::uint32_t top_tiny = 0x3c9;  // exponent field of 2^-54: below it e^x rounds to 1 + x
  constexpr std::uint32_t top_512 = 0x408;
  constexpr std::uint32_t top_1024 = 0x409;
  std::uint32_t abstop = static_cast<std::uint32_t>(bits_of(x) >> 52) & 0x7ff;
  if (abstop - top_tiny >= top_512 - top_tiny) {
    if (abstop - top_tiny >= 0x80000000u) return 1.0 + x;  // |x| < 2^-54, 0 included
    if (abstop >= top_1024) {
      if (x == -std::numeric_limits<double>::infinity()) return 0.0;
      if (abstop >= 0x7ff) return 1.0 + x;  // +inf, NaN
      return bits_of(x) >> 63 ? 0.0 : std::numeric_limits<double>::infinity();
    }
    abstop = 0;  // 512 <= |x| < 1024: the scale is fixed up below
  }
  double kd = inv_ln2_n * x;
  kd = kd + shifter;
  const std::uint64_t ki = bits_of(kd);
  kd = kd - shifter;
  const double r = x + kd * neg_ln2_hi_n + kd * neg_ln2_lo_n;
  const std::size_t index = static_cast<std::size_t>(ki % exp_table_size) * 2;
  const double tail = table_double(index);
  const std::uint64_t scale_bits = exp_table[index + 1] + (ki << 45);
  const double r2 = r * r;
  const double tmp = tail + r + r2 * (c2 + r * c3) + r2 * r2 * (c4 + r * c5);
  if (abstop == 0) return exp_scaled(tmp, scale_bits, ki);
  const double scale = from_bits(scale_bits);
  return scale + scale * tmp;
}

void exp_inplace(double* x, std::size_t n, double shift) {
  const ExpConstants constants;
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const f64x2 v = load(x + i) - shift;
    store(x + i, in_range(v) ? exp_lanes(v, constants) : exp_checked(v, constants));
  }
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) x[i] = exp(x[i] - shift);
}

namespace {

/// The smallest of four pairs' lanes, and the largest (no NaN: a NaN lane could drop out).
f64x2 min_lanes(f64x2 a, f64x2 b, f64x2 c, f64x2 e) {
  const f64x2 ab = a < b ? a : b;
  const f64x2 ce = c < e ? c : e;
  return ab < ce ? ab : ce;
}

f64x2 max_lanes(f64x2 a, f64x2 b, f64x2 c, f64x2 e) {
  const f64x2 ab = a > b ? a : b;
  const f64x2 ce = c > e ? c : e;
  return ab > ce ? ab : ce;
}

bool all_lanes(i64x2 mask) { return (mask[0] & mask[1]) != 0; }

f64x2 select(i64x2 mask, f64x2 yes, f64x2 no) { return mask ? yes : no; }

/// Above this, exp_lanes' two steps are exp()'s bits even where exp() takes exp_scaled's way
/// (x <= -512): there the library computes y' = 2^1022 s + 2^1022 s tmp and returns 2^-1022 y'
/// (y' >= 1), where exp_lanes computes s + s tmp. Scaling by a power of two commutes with each
/// rounding while every value stays normal: here s >= 2^-953 (its exponent field is the table's
/// plus k/128 >= -953, so the integer sum never wraps), and s tmp is normal unless |tmp| < 2^-69,
/// when s + s tmp rounds to s both ways.
constexpr double direct_limit = -660.0;

/// e^x for both lanes of x <= 0 (no NaN; -inf allowed), bit for bit exp() on any spread: exp_lanes'
/// steps, with the scale of a lane at or below direct_limit moved up by 2^1022 as exp_scaled moves
/// it; then per lane the library's result: above direct_limit exp_lanes' (see there), from -746
/// to direct_limit exp_scaled's, below -746 +0 (those lanes are computed at 0 and replaced, so no
/// arithmetic meets an infinity). Where exp_scaled rounds a result at the subnormal precision,
/// (hi + lo) - 1 is exact and a multiple of 2^-52, so 2^-1022 times it is the subnormal whose bits
/// are those of hi + lo less those of 1: integer arithmetic, no floating-point operation on a
/// subnormal (slow on x86).
f64x2 exp_nonpositive_lanes(f64x2 x, const ExpConstants& k) {
  const f64x2 zeros = {0.0, 0.0};
  const f64x2 ones = {1.0, 1.0};
  const i64x2 underflows = x < underflow_limit;
  x = select(underflows, zeros, x);
  const i64x2 scaled = x <= direct_limit;
  const auto [tmp, usual_bits] = exp_parts(x, k);
  const u64x2 up = {1022ull << 52, 1022ull << 52};
  const u64x2 scale_bits = usual_bits + (up & same_bits<u64x2>(scaled));
  const f64x2 scale = same_bits<f64x2>(scale_bits);
  const f64x2 y = scale + scale * tmp;
  if (!(scaled[0] | scaled[1])) return select(underflows, zeros, y);
  // exp_scaled's way down.
  f64x2 lo = scale - y + scale * tmp;
  const f64x2 hi = ones + y;
  lo = ones - hi + y + lo;
  const f64x2 subnormal = same_bits<f64x2>(same_bits<u64x2>(hi + lo) - bits_of(1.0));
  // 2^-1022 y where y >= 1: a normal result, so exact, and its bits are y's with 1022 taken from
  // the exponent field. Integer arithmetic, as above: written as a multiply by 2^-1022, clang turns
  // the select of its operand into a select of products, so the lanes with y < 1 multiplied into
  // subnormals too (a slow microcode path) and the wasm build took about 2 ms more per 2048 rows
  // at h = 0.05. The other lanes' integer difference is discarded.
  const i64x2 rounded = y < ones;
  const f64x2 low = select(rounded, subnormal, same_bits<f64x2>(same_bits<u64x2>(y) - up));
  return select(underflows, zeros, select(scaled, low, y));
}

/// exp_lanes where lanes below underflow_limit (none from there to direct_limit) are +0.
f64x2 exp_or_zero_lanes(f64x2 x, const ExpConstants& k) {
  const f64x2 zeros = {0.0, 0.0};
  const i64x2 underflows = x < underflow_limit;
  return select(underflows, zeros, exp_lanes(select(underflows, zeros, x), k));
}

/// Whether a lane of a, b, c or e lies from underflow_limit to direct_limit.
bool any_in_band(f64x2 a, f64x2 b, f64x2 c, f64x2 e) {
  const auto band = [](f64x2 v) { return (v >= underflow_limit) & (v <= direct_limit); };
  const i64x2 any = band(a) | band(b) | band(c) | band(e);
  return (any[0] | any[1]) != 0;
}

/// One of NumPy's pairwise blocks (n <= 128) exponentiated and summed as pairwise_sum sums it:
/// fewer than 8 terms left to right; else eight partial sums (the lanes of four registers),
/// combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the remainder. Each group of eight
/// arguments (all at most 0) is tested by its extremes: all above direct_limit, exp_lanes; all
/// below -746 (a row's far cells, where the weights underflow), +0 without arithmetic. Else, with
/// no lane from -746 to direct_limit (the common case of a small bandwidth: a row's near cells
/// beside far ones), exp_lanes with the far lanes +0, in one branch whatever the mix, so shuffled
/// keys cost few mispredicted branches; only a group with a lane in that narrow band takes
/// exp_nonpositive_lanes.
double exp_block_sum(double* x, std::size_t n, double shift, const ExpConstants& k) {
  const f64x2 shifts = {shift, shift};
  const f64x2 zeros = {0.0, 0.0};
  // NumPy starts its partial sums at the first eight terms (0 + e is e exactly, e >= +0), and adds
  // fewer than eight terms left to right from 0: the remainder loop alone.
  f64x2 r01 = zeros, r23 = zeros, r45 = zeros, r67 = zeros;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const f64x2 va = load(x + i) - shifts, vb = load(x + i + 2) - shifts;
    const f64x2 vc = load(x + i + 4) - shifts, ve = load(x + i + 6) - shifts;
    f64x2 a, b, c, e;
    if (all_lanes(min_lanes(va, vb, vc, ve) > direct_limit)) {
      a = exp_lanes(va, k);
      b = exp_lanes(vb, k);
      c = exp_lanes(vc, k);
      e = exp_lanes(ve, k);
    } else if (all_lanes(max_lanes(va, vb, vc, ve) < underflow_limit)) {
      a = b = c = e = zeros;
    } else {
      // One copy of each lane function, not four: the wasm module is at its size limit.
      f64x2 lanes[4] = {va, vb, vc, ve};
      if (!any_in_band(va, vb, vc, ve)) {
        KERNEL_LENS_REMAINDER_LOOP
        for (f64x2& v : lanes) v = exp_or_zero_lanes(v, k);
      } else {
        KERNEL_LENS_REMAINDER_LOOP
        for (f64x2& v : lanes) v = exp_nonpositive_lanes(v, k);
      }
      a = lanes[0];
      b = lanes[1];
      c = lanes[2];
      e = lanes[3];
    }
    store(x + i, a);
    store(x + i + 2, b);
    store(x + i + 4, c);
    store(x + i + 6, e);
    r01 += a;
    r23 += b;
    r45 += c;
    r67 += e;
  }
  double sum = ((r01[0] + r01[1]) + (r23[0] + r23[1])) + ((r45[0] + r45[1]) + (r67[0] + r67[1]));
  exp_inplace(x + i, n - i, shift);
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) sum += x[i];
  return sum;
}

/// pairwise_sum's recursion over [first, first + n): halves, the first a multiple of 8, down to
/// blocks of at most 128, the left half first (divide_tally's dot product takes its terms in
/// index order); `block(first, length)` sums one block.
template <class Block>
double pairwise_blocks(std::size_t first, std::size_t n, const Block& block) {
  if (n <= 128) return block(first, n);
  std::size_t half = n / 2;
  half -= half % 8;
  const double left = pairwise_blocks(first, half, block);
  return left + pairwise_blocks(first + half, n - half, block);
}

}  // namespace

KERNEL_LENS_HOT_LOOP double exp_shifted_sum(double* x, std::size_t n, double shift) {
  const ExpConstants k;
  return pairwise_blocks(0, n, [&](std::size_t first, std::size_t length) { return exp_block_sum(x + first, length, shift, k); });
}

double max_of(const double* x, std::size_t n) {
  constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
  f64x2 m0 = {minus_infinity, minus_infinity};
  f64x2 m1 = m0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const f64x2 a = load(x + i);
    const f64x2 b = load(x + i + 2);
    m0 = a > m0 ? a : m0;
    m1 = b > m1 ? b : m1;
  }
  m0 = m1 > m0 ? m1 : m0;
  double m = m0[0] > m0[1] ? m0[0] : m0[1];
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

void divide_inplace(double* x, std::size_t n, double divisor) {
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) store(x + i, load(x + i) / divisor);
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) x[i] /= divisor;
}

double negate_divide_max(const double* in, double* out, std::size_t n, double divisor) {
  constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
  f64x2 m = {minus_infinity, minus_infinity};
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const f64x2 v = -load(in + i) / divisor;
    store(out + i, v);
    m = v > m ? v : m;
  }
  double largest = m[0] > m[1] ? m[0] : m[1];
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) {
    out[i] = -in[i] / divisor;
    largest = out[i] > largest ? out[i] : largest;
  }
  return largest;
}

KERNEL_LENS_HOT_LOOP double gaussian_scores(const double* keys_transposed, std::size_t d, std::size_t n,
                                            const double* query, double divisor, double* out) {
  // Eight keys at a time, their distances kept in four registers while the d coordinates are
  // added: four independent chains of additions hide the adder's latency, which a single chain
  // (two keys) waits on at every coordinate. Each key's squares are added in the order c = 0..d-1
  // either way, so the results are the same bits.
  constexpr double infinity = std::numeric_limits<double>::infinity();
  f64x2 high = {-infinity, -infinity};
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const double* k = keys_transposed + i;
    const f64x2 q0 = {query[0], query[0]};
    f64x2 d0 = load(k) - q0;
    f64x2 d1 = load(k + 2) - q0;
    f64x2 d2 = load(k + 4) - q0;
    f64x2 d3 = load(k + 6) - q0;
    f64x2 s0 = d0 * d0;
    f64x2 s1 = d1 * d1;
    f64x2 s2 = d2 * d2;
    f64x2 s3 = d3 * d3;
    for (std::size_t c = 1; c < d; ++c) {
      const double* row = k + c * n;
      const f64x2 qc = {query[c], query[c]};
      d0 = load(row) - qc;
      d1 = load(row + 2) - qc;
      d2 = load(row + 4) - qc;
      d3 = load(row + 6) - qc;
      s0 = s0 + d0 * d0;
      s1 = s1 + d1 * d1;
      s2 = s2 + d2 * d2;
      s3 = s3 + d3 * d3;
    }
    const f64x2 v0 = -s0 / divisor;
    const f64x2 v1 = -s1 / divisor;
    const f64x2 v2 = -s2 / divisor;
    const f64x2 v3 = -s3 / divisor;
    store(out + i, v0);
    store(out + i + 2, v1);
    store(out + i + 4, v2);
    store(out + i + 6, v3);
    high = high < v0 ? v0 : high;
    high = high < v1 ? v1 : high;
    high = high < v2 ? v2 : high;
    high = high < v3 ? v3 : high;
  }
  for (; i + 2 <= n; i += 2) {
    const double* k = keys_transposed + i;
    f64x2 difference = load(k) - query[0];
    f64x2 distance = difference * difference;
    for (std::size_t c = 1; c < d; ++c) {
      difference = load(k + c * n) - query[c];
      distance = distance + difference * difference;
    }
    const f64x2 v = -distance / divisor;
    store(out + i, v);
    high = high < v ? v : high;
  }
  double largest = high[0] > high[1] ? high[0] : high[1];
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) {
    double difference = keys_transposed[i] - query[0];
    double distance = difference * difference;
    for (std::size_t c = 1; c < d; ++c) {
      difference = keys_transposed[c * n + i] - query[c];
      distance = distance + difference * difference;
    }
    out[i] = -distance / divisor;
    largest = out[i] > largest ? out[i] : largest;
  }
  return largest;
}

double divide_dot(double* x, std::size_t n, double divisor, const double* b) {
  f64x2 s0 = {0.0, 0.0};
  f64x2 s1 = s0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const f64x2 a0 = load(x + i) / divisor;
    const f64x2 a1 = load(x + i + 2) / divisor;
    store(x + i, a0);
    store(x + i + 2, a1);
    s0 = s0 + a0 * load(b + i);
    s1 = s1 + a1 * load(b + i + 2);
  }
  double sum = (s0[0] + s1[0]) + (s0[1] + s1[1]);
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) {
    x[i] /= divisor;
    sum += x[i] * b[i];
  }
  return sum;
}

namespace {

/// divide_tally's running state: divide_dot's two registers of partial dot products, and the
/// extremes of the divided values (the largest, the smallest positive, whether one is 0).
struct Tally {
  f64x2 divisor;
  f64x2 dot0, dot1, high, low_positive;
  i64x2 zero;
};

/// Divided values (both lanes) folded into the extremes.
void fold(f64x2 w, Tally& t) {
  const f64x2 zeros = {0.0, 0.0};
  const f64x2 infinities = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  const i64x2 is_zero = w == zeros;
  t.zero |= is_zero;
  t.high = t.high < w ? w : t.high;
  const f64x2 positive = is_zero ? infinities : w;
  t.low_positive = positive < t.low_positive ? positive : t.low_positive;
}

/// A pair of lanes divided, stored, added into the sums and folded into the extremes.
f64x2 tally_pair(double* x, double* sums, std::size_t i, Tally& t) {
  const f64x2 w = load(x + i) / t.divisor;
  store(x + i, w);
  store(sums + i, load(sums + i) + w);
  fold(w, t);
  return w;
}

/// One of pairwise_sum's blocks (n <= 128; only the row's last block has a length that is not a
/// multiple of 8), summed as pairwise_sum sums it, the dot product's terms added to its
/// registers in divide_dot's order. The state lives in locals here (no store to x or the sums
/// can touch them).
double tally_block(double* x, std::size_t n, const double* b, double* sums, Tally& state) {
  Tally t = state;
  f64x2 r01 = {0.0, 0.0}, r23 = r01, r45 = r01, r67 = r01;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const f64x2 p0 = tally_pair(x, sums, i, t), p1 = tally_pair(x, sums, i + 2, t);
    const f64x2 p2 = tally_pair(x, sums, i + 4, t), p3 = tally_pair(x, sums, i + 6, t);
    t.dot0 = t.dot0 + p0 * load(b + i);
    t.dot1 = t.dot1 + p1 * load(b + i + 2);
    t.dot0 = t.dot0 + p2 * load(b + i + 4);
    t.dot1 = t.dot1 + p3 * load(b + i + 6);
    r01 += p0;
    r23 += p1;
    r45 += p2;
    r67 += p3;
  }
  double sum = ((r01[0] + r01[1]) + (r23[0] + r23[1])) + ((r45[0] + r45[1]) + (r67[0] + r67[1]));
  // The remainder, left to right into the sum. divide_dot's lanes (i mod 4: the block starts at
  // a multiple of 8) take the terms of whole groups of four; the rest are divide_tally's. The
  // lanes go through an array here, so the registers of the loop above stay registers.
  double lanes[4];
  std::memcpy(lanes, &t.dot0, sizeof t.dot0);
  std::memcpy(lanes + 2, &t.dot1, sizeof t.dot1);
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) {
    const double w = x[i] / t.divisor[0];
    x[i] = w;
    sums[i] += w;
    sum += w;
    fold(f64x2{w, w}, t);
    if (i < n - n % 4) lanes[i & 3] += w * b[i];
  }
  std::memcpy(&t.dot0, lanes, sizeof t.dot0);
  std::memcpy(&t.dot1, lanes + 2, sizeof t.dot1);
  state = t;
  return sum;
}

}  // namespace

KERNEL_LENS_HOT_LOOP double divide_tally(double* x, std::size_t n, double divisor, const double* b, double* sums,
                                          ValueRange& range, double& weight_sum) {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  Tally t{{divisor, divisor}, {0.0, 0.0}, {0.0, 0.0}, {-infinity, -infinity}, {infinity, infinity}, {0, 0}};
  weight_sum = pairwise_blocks(
      0, n, [&](std::size_t first, std::size_t length) { return tally_block(x + first, length, b + first, sums + first, t); });
  double dot = (t.dot0[0] + t.dot1[0]) + (t.dot0[1] + t.dot1[1]);
  KERNEL_LENS_REMAINDER_LOOP
  for (std::size_t i = n - n % 4; i < n; ++i) dot += x[i] * b[i];
  const bool zero = (t.zero[0] | t.zero[1]) != 0;
  const double highest = t.high[0] > t.high[1] ? t.high[0] : t.high[1];
  const double low_positive = t.low_positive[0] < t.low_positive[1] ? t.low_positive[0] : t.low_positive[1];
  const double lowest = zero ? 0.0 : low_positive;
  range.lowest = lowest < range.lowest ? lowest : range.lowest;
  range.highest = highest > range.highest ? highest : range.highest;
  range.smallest_positive = low_positive < range.smallest_positive ? low_positive : range.smallest_positive;
  range.zero = range.zero || zero;
  return dot;
}

void add_squared_differences(const double* k, double q, double* out, std::size_t n, bool first) {
  const f64x2 queries = {q, q};
  std::size_t i = 0;
  if (first) {
    for (; i + 2 <= n; i += 2) {
      const f64x2 difference = load(k + i) - queries;
      store(out + i, difference * difference);
    }
  } else {
    for (; i + 2 <= n; i += 2) {
      const f64x2 difference = load(k + i) - queries;
      store(out + i, load(out + i) + difference * difference);
    }
  }
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) {
    const double difference = k[i] - q;
    out[i] = first ? difference * difference : out[i] + difference * difference;
  }
}

double dot(const double* a, const double* b, std::size_t n) {
  f64x2 s0 = {0.0, 0.0};
  f64x2 s1 = s0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 = s0 + load(a + i) * load(b + i);
    s1 = s1 + load(a + i + 2) * load(b + i + 2);
  }
  double sum = (s0[0] + s1[0]) + (s0[1] + s1[1]);
  KERNEL_LENS_REMAINDER_LOOP
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace kernel_lens::detail
