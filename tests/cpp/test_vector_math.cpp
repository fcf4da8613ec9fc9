// The vectorised row loops of attention: the exponential against std::exp, the reductions
// against their plain definitions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "../exp/exp_check.hpp"
#include "kernel_lens/detail/vector_math.hpp"
#include "kernel_lens/kernels.hpp"
#include "kernel_lens/summation.hpp"

using namespace kernel_lens;

TEST_CASE("exp_inplace and exp are std::exp to within 1 ulp over the scores' range and the special values", "[vector_math]") {
  // Natively the C library may be glibc's FMA variant of the same algorithm (1 ulp apart in about
  // 3 results in 10,000); the wasm build's std::exp is matched bit for bit (tests/wasm/exp.test.mjs).
  for (const double shift : {0.0, 0.75, -3.5}) {
    const auto result = testing::compare_exp_with_std(1 << 20, shift);
    INFO("shift " << shift << ": " << result.differing << " of " << result.count << " differ");
    CHECK(result.max_ulps <= 1);
    CHECK(result.differing <= result.count / 1000);
    INFO("scalar exp: " << result.scalar_differing << " differ");
    CHECK(result.scalar_max_ulps <= 1);
    CHECK(result.scalar_differing <= result.count / 1000);
    INFO("softmax rows: " << result.row_differing << " of " << result.row_count << " differ");
    CHECK(result.row_count > 40000);
    CHECK(result.row_max_ulps <= 1);
    CHECK(result.row_differing <= result.row_count / 1000);
    CHECK(result.sum_rows == 300);
    CHECK(result.sum_rows_differing == 0);
  }
}

TEST_CASE("the scalar exp's special cases", "[vector_math]") {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  CHECK(detail::exp(0.0) == 1.0);
  CHECK(detail::exp(-0.0) == 1.0);
  CHECK(detail::exp(1e-300) == 1.0);
  CHECK(detail::exp(-infinity) == 0.0);
  CHECK(!std::signbit(detail::exp(-infinity)));
  CHECK(detail::exp(infinity) == infinity);
  CHECK(std::isnan(detail::exp(std::numeric_limits<double>::quiet_NaN())));
  CHECK(detail::exp(709.79) == infinity);
  CHECK(detail::exp(1e6) == infinity);
  CHECK(detail::exp(-746.0) == 0.0);
  CHECK(detail::exp(-1e6) == 0.0);
  CHECK(detail::exp(-745.1332191019411) == std::numeric_limits<double>::denorm_min());
  CHECK(detail::exp(709.782712893384) == Approx(1.7976931348622732e308).epsilon(1e-15));
  const double subnormal = detail::exp(-740.0);  // 4.2e-322, rounded once at the subnormal precision
  CHECK(subnormal > 0.0);
  CHECK(subnormal < std::numeric_limits<double>::min());
  CHECK(testing::ulp_distance(subnormal, std::exp(-740.0)) <= 1);
}

TEST_CASE("exp_inplace handles every length, including an odd tail", "[vector_math]") {
  for (std::size_t n = 0; n < 9; ++n) {
    std::vector<double> x(n), expected(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = -0.37 * static_cast<double>(i);
    for (std::size_t i = 0; i < n; ++i) expected[i] = std::exp(x[i] - 0.5);
    detail::exp_inplace(x.data(), n, 0.5);
    for (std::size_t i = 0; i < n; ++i) CHECK(testing::ulp_distance(x[i], expected[i]) <= 1);
  }
}

TEST_CASE("gaussian_scores is squared_distance_row then negate_divide_max, bit for bit", "[vector_math]") {
  for (std::size_t d = 1; d <= 9; ++d)
    for (const std::size_t n : {1, 2, 3, 7, 8, 129, 300}) {
      RowMatrix keys_transposed(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(n));
      for (Eigen::Index i = 0; i < keys_transposed.size(); ++i) keys_transposed.data()[i] = std::sin(0.7 * static_cast<double>(i)) * 3.0;
      Eigen::RowVectorXd query(static_cast<Eigen::Index>(d));
      for (Eigen::Index c = 0; c < query.size(); ++c) query(c) = 0.3 * static_cast<double>(c) - 0.5;
      Eigen::RowVectorXd distances(static_cast<Eigen::Index>(n)), expected(static_cast<Eigen::Index>(n)), fused(static_cast<Eigen::Index>(n));
      squared_distance_row(query, keys_transposed, distances);
      const double expected_top = detail::negate_divide_max(distances.data(), expected.data(), n, 0.0648);
      const double fused_top = detail::gaussian_scores(keys_transposed.data(), d, n, query.data(), 0.0648, fused.data());
      INFO("d " << d << ", n " << n);
      CHECK(fused == expected);
      CHECK(fused_top == expected_top);
    }
}

namespace {
/// divide_tally of a row already divided (divisor 1), into a zero sum and against a zero value
/// column: its extremes alone.
void fold_row(std::vector<double> x, detail::ValueRange& range) {
  std::vector<double> sums(x.size()), b(x.size());
  double weight_sum = 0.0;
  detail::divide_tally(x.data(), x.size(), 1.0, b.data(), sums.data(), range, weight_sum);
}
}  // namespace

TEST_CASE("divide_tally folds rows with and without zeros into the running extremes", "[vector_math]") {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  detail::ValueRange range{infinity, -infinity, infinity, false};
  fold_row({0.3, 0.2, 0.7, 0.25, 0.9}, range);
  CHECK(range.lowest == 0.2);
  CHECK(range.highest == 0.9);
  CHECK(range.smallest_positive == 0.2);
  CHECK(!range.zero);
  fold_row({0.0, 0.5, 0.0, 0.1, 0.4}, range);  // an odd length: the scalar tail too
  CHECK(range.lowest == 0.0);
  CHECK(range.highest == 0.9);
  CHECK(range.smallest_positive == 0.1);
  CHECK(range.zero);
  // A later all-positive row lowers the smallest positive value but not the lowest (0).
  fold_row({0.05, 0.06}, range);
  CHECK(range.lowest == 0.0);
  CHECK(range.smallest_positive == 0.05);
  CHECK(range.zero);
  fold_row({}, range);
  CHECK(range.smallest_positive == 0.05);
  CHECK(range.highest == 0.9);
  // A row of zeros alone: lowest 0, no positive value.
  detail::ValueRange zeros{infinity, -infinity, infinity, false};
  fold_row({0.0, 0.0, 0.0}, zeros);
  CHECK(zeros.lowest == 0.0);
  CHECK(zeros.highest == 0.0);
  CHECK(zeros.smallest_positive == infinity);
  CHECK(zeros.zero);
}

TEST_CASE("max_of, negate_divide_max, divide_inplace, divide_dot and dot agree with their definitions",
          "[vector_math]") {
  const double minus_infinity = -std::numeric_limits<double>::infinity();
  for (std::size_t n = 1; n < 12; ++n) {
    std::vector<double> x(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = std::sin(1.7 * static_cast<double>(i) + 0.3) * 4.0;
      b[i] = std::cos(0.9 * static_cast<double>(i));
    }
    double largest = minus_infinity;
    for (const double v : x) largest = std::max(largest, v);
    CHECK(detail::max_of(x.data(), n) == largest);

    std::vector<double> negated(n);
    const double top = detail::negate_divide_max(x.data(), negated.data(), n, 0.18);
    double expected_top = minus_infinity;
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(negated[i] == -x[i] / 0.18);
      expected_top = std::max(expected_top, -x[i] / 0.18);
    }
    CHECK(top == expected_top);

    std::vector<double> divided = x;
    detail::divide_inplace(divided.data(), n, 3.0);
    for (std::size_t i = 0; i < n; ++i) CHECK(divided[i] == x[i] / 3.0);

    std::vector<double> fused = x;
    const double fused_dot = detail::divide_dot(fused.data(), n, 3.0, b.data());
    CHECK(fused == divided);
    CHECK(fused_dot == detail::dot(divided.data(), b.data(), n));
    double plain = 0.0;
    for (std::size_t i = 0; i < n; ++i) plain += divided[i] * b[i];
    CHECK(fused_dot == Approx(plain).epsilon(1e-14));
  }
  const std::vector<double> all_minus_infinity(5, minus_infinity);
  CHECK(detail::max_of(all_minus_infinity.data(), 5) == minus_infinity);
  CHECK(detail::dot(nullptr, nullptr, 0) == 0.0);
}

TEST_CASE("divide_tally is divide_dot and pairwise_sum in one pass with the sums and extremes, bit for bit",
          "[vector_math]") {
  // Every remainder mod 8 at lengths of one block, of several blocks (pairwise halves) and of
  // the map's 2048; rows with and without exact zeros (underflowed weights).
  std::vector<std::size_t> lengths;
  for (std::size_t n = 1; n <= 40; ++n) lengths.push_back(n);
  for (const std::size_t n : {127, 128, 129, 130, 131, 132, 133, 135, 255, 256, 257, 300, 301, 1000, 2047, 2048, 2051})
    lengths.push_back(n);
  for (const std::size_t n : lengths)
    for (const bool zeros : {false, true}) {
      std::vector<double> x(n), b(n), sums(n);
      for (std::size_t i = 0; i < n; ++i) {
        const double t = static_cast<double>(i);
        x[i] = zeros && i % 5 == 2 ? 0.0 : std::exp(-std::abs(std::sin(0.37 * t + 0.1)) * 30.0);
        b[i] = std::cos(0.9 * t) * 2.0;
        sums[i] = 0.25 * std::sin(1.3 * t);
      }
      const double divisor = pairwise_sum(x.data(), n) * 1.0000001;
      std::vector<double> expected = x, expected_sums = sums;
      const double expected_dot = detail::divide_dot(expected.data(), n, divisor, b.data());
      const double expected_sum = pairwise_sum(expected.data(), n);
      detail::ValueRange expected_range{0.5, 0.0, 0.75, false}, range = expected_range;
      for (std::size_t i = 0; i < n; ++i) {
        const double w = expected[i];
        expected_sums[i] += w;
        expected_range.lowest = std::min(expected_range.lowest, w);
        expected_range.highest = std::max(expected_range.highest, w);
        if (w > 0.0) expected_range.smallest_positive = std::min(expected_range.smallest_positive, w);
        if (w == 0.0) expected_range.zero = true;
      }

      double weight_sum = -1.0;
      const double dot = detail::divide_tally(x.data(), n, divisor, b.data(), sums.data(), range, weight_sum);
      INFO("n " << n << (zeros ? ", with zeros" : ""));
      CHECK(x == expected);
      CHECK(sums == expected_sums);
      CHECK(dot == expected_dot);
      CHECK(weight_sum == expected_sum);
      CHECK(range.lowest == expected_range.lowest);
      CHECK(range.highest == expected_range.highest);
      CHECK(range.smallest_positive == expected_range.smallest_positive);
      CHECK(range.zero == expected_range.zero);
      CHECK(range.zero == (zeros && n > 2));
    }
}
