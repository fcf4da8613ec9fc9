#include <catch2/catch.hpp>

#include "kernel_lens/attention.hpp"
#include "kernel_lens/kernels.hpp"
#include "kernel_lens/laboratory.hpp"

using namespace kernel_lens;
using Catch::Matchers::Contains;

namespace {
/// Exercise 4's keys [0, 0, 1] and query 0.
RowMatrix tie_keys() {
  RowMatrix keys(3, 1);
  keys << 0.0, 0.0, 1.0;
  return keys;
}
RowMatrix tie_query() { return RowMatrix::Zero(1, 1); }
}  // namespace

TEST_CASE("exercise 4: shrinking h splits the exact tie (0.5, 0.5, 0)", "[ties]") {
  for (const double h : {0.0625, 1e-6, 1e-150}) {
    INFO("h = " << h);
    const RowMatrix weights = attention(tie_query(), tie_keys(), tie_keys(), h).weights;
    REQUIRE(weights(0, 0) == Approx(0.5).epsilon(1e-15));
    REQUIRE(weights(0, 1) == Approx(0.5).epsilon(1e-15));
    REQUIRE(weights(0, 2) == Approx(0.0).margin(1e-55));
  }
}

TEST_CASE("a positive bandwidth whose square underflows is refused, not turned into NaN", "[ties][validation]") {
  for (const Kernel kernel : {Kernel::Gaussian, Kernel::Epanechnikov}) {
    REQUIRE_THROWS_WITH(attention(tie_query(), tie_keys(), tie_keys(), 1e-200, kernel), Contains("too small"));
    REQUIRE_THROWS_WITH(log_scores(tie_query(), tie_keys(), 1e-200, kernel), Contains("underflows"));
  }
}

TEST_CASE("a Gaussian bandwidth whose scores overflow gives the nearest-key weights, not 'no key in the support'",
          "[ties][validation]") {
  // h between 1e-162 and 1e-154: 2h^2 is subnormal and -D/(2h^2) is -inf for every key; the
  // softmax of the scores is then exactly the nearest-key limit in double precision.
  const RowMatrix keys = (RowMatrix(3, 1) << 1.0, 3.0, 5.0).finished();
  const RowMatrix values = (RowMatrix(3, 1) << 1.5, 2.8, 1.8).finished();
  const RowMatrix query = RowMatrix::Constant(1, 1, 3.5);
  for (const double h : {1e-155, 1e-160, 1e-161, 1e-154, 1e-150}) {
    for (const Kernel kernel : {Kernel::Gaussian, Kernel::Laplacian}) {
      INFO("h = " << h << ", kernel " << kernel_name(kernel));
      const AttentionResult result = attention(query, keys, values, h, kernel);
      REQUIRE(result.weights(0, 0) == 0.0);
      REQUIRE(result.weights(0, 1) == 1.0);
      REQUIRE(result.weights(0, 2) == 0.0);
      REQUIRE(result.outputs(0, 0) == 2.8);
    }
  }
  // An exact tie between the two nearest keys is split.
  const RowMatrix middle = RowMatrix::Constant(1, 1, 4.0);
  const RowMatrix split = attention(middle, keys, values, 1e-155).weights;
  REQUIRE(split(0, 1) == 0.5);
  REQUIRE(split(0, 2) == 0.5);
}

TEST_CASE("the leave-one-out curve agrees with attention at a tiny bandwidth", "[ties][laboratory]") {
  // Each point predicted from its nearest other key: (2.8-1.5)^2 + (1.5-2.8)^2 (tie at 3: keys 1
  // and 5 average to 1.65) + (2.8-1.8)^2 over 3.
  const RowMatrix keys = (RowMatrix(3, 1) << 1.0, 3.0, 5.0).finished();
  const Vector values = (Vector(3) << 1.5, 2.8, 1.8).finished();
  const double expected = (1.3 * 1.3 + 1.15 * 1.15 + 1.0 * 1.0) / 3.0;
  for (const double h : {1e-155, 1e-160}) {
    INFO("h = " << h);
    const Vector curve = loo_curve(keys, values, {h}, Kernel::Gaussian);
    REQUIRE(curve(0) == Approx(expected).epsilon(1e-15));
    // attention of each key against the others, as the curve's rows: the same predictions.
    double total = 0.0;
    for (Eigen::Index i = 0; i < 3; ++i) {
      RowMatrix others(2, 1);
      Vector others_values(2);
      for (Eigen::Index j = 0, k = 0; j < 3; ++j)
        if (j != i) {
          others(k, 0) = keys(j, 0);
          others_values(k++) = values(j);
        }
      const RowMatrix prediction = attention(keys.row(i), others, others_values, h).outputs;
      total += (prediction(0, 0) - values(i)) * (prediction(0, 0) - values(i));
    }
    REQUIRE(curve(0) == Approx(total / 3.0).epsilon(1e-15));
  }
  REQUIRE_THROWS_WITH(loo_curve(keys, values, {1e-200}, Kernel::Gaussian), Contains("too small: 2h^2 underflows to 0"));
}

TEST_CASE("a temperature that overflows is named as such", "[validation]") {
  REQUIRE_THROWS_AS(temperature_from_bandwidth(1e308), std::domain_error);
  REQUIRE_THROWS_WITH(temperature_from_bandwidth(1e308), Contains("2h^2 overflows"));
  REQUIRE(temperature_from_bandwidth(1e150) == Approx(2e300).epsilon(1e-15));
}
