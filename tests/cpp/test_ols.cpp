#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core_fixture.hpp"
#include "lab_fixture.hpp"
#include "kernel_lens/ols.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

TEST_CASE("OLS hat weights reproduce the chapter's signed weights (eq. 12.1)", "[ols][chapter]") {
  const auto& example = core_fixture()["chapter"]["ols"];
  const RowMatrix keys = matrix(example["keys"], 1);
  const Vector weights = ols_weights(keys, Vector::Constant(1, example["query"].get<double>()));
  const char* printed[] = {"-0.1000", "0.0500", "0.2000", "0.3500", "0.5000"};
  for (int i = 0; i < 5; ++i) {
    INFO("key " << i);
    REQUIRE(fixed4(weights(i)) == printed[i]);
  }
  CHECK((weights - vector(example["weights"])).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(weights.sum() == Approx(1.0).epsilon(1e-15));
  CHECK(weights.minCoeff() < 0.0);

  const RowMatrix query = RowMatrix::Constant(1, 1, example["query"].get<double>());
  const auto prediction = ols_predict(keys, vector(example["witness"]), query);
  REQUIRE(fixed4(prediction.predictions(0)) == "-0.1000");
  CHECK(prediction.predictions(0) == Approx(example["ols_prediction"].get<double>()).epsilon(1e-14));
}

TEST_CASE("OLS weights agree with NumPy on random designs", "[ols][random]") {
  for (const auto& example : core_fixture()["ols_cases"]) {
    const auto d = example["d"].get<Eigen::Index>();
    const RowMatrix keys = matrix(example["keys"], d);
    const RowMatrix queries = matrix(example["queries"], d);
    INFO("d=" << d << " n=" << keys.rows() << " m=" << queries.rows());
    const RowMatrix expected = matrix(example["weights"], keys.rows());
    CHECK(max_abs_difference(ols_weight_matrix(keys, queries), expected) < 1e-12);
    const auto prediction = ols_predict(keys, vector(example["targets"]), queries);
    CHECK((prediction.predictions - vector(example["predictions"])).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((ols_weights(keys, queries.row(0).transpose()) - expected.row(0).transpose()).cwiseAbs().maxCoeff() <
          1e-12);
    CHECK((prediction.weights.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("OLS refuses a rank-deficient design", "[ols][validation]") {
  const Vector query = Vector::Zero(1);
  const RowMatrix one_key = RowMatrix::Constant(1, 1, 2.0);
  REQUIRE_THROWS_AS_WITH(ols_weights(one_key, query), std::domain_error,
                         Catch::Matchers::Contains("at least d + 1 = 2 keys"));
  const RowMatrix same_keys = RowMatrix::Constant(4, 1, 2.0);
  REQUIRE_THROWS_AS_WITH(ols_weights(same_keys, query), std::domain_error,
                         Catch::Matchers::Contains("rank-deficient"));
  const RowMatrix collinear = (RowMatrix(4, 2) << 1.0, 2.0, 2.0, 4.0, 3.0, 6.0, -1.0, -2.0).finished();
  REQUIRE_THROWS_AS_WITH(ols_weights(collinear, Vector::Zero(2)), std::domain_error,
                         Catch::Matchers::Contains("rank-deficient"));
  const RowMatrix affine = (RowMatrix(3, 2) << 0.0, 1.0, 1.0, 3.0, 2.0, 5.0).finished();
  REQUIRE_THROWS_AS(ols_weights(affine, Vector::Zero(2)), std::domain_error);
}

TEST_CASE("OLS weights do not depend on the units of the features", "[ols]") {
  const RowMatrix keys = (RowMatrix(4, 2) << 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 2.0).finished();
  RowMatrix scaled = keys;
  scaled.col(0) *= 1e6;
  scaled.col(1) *= 1e-6;
  const Vector query = (Vector(2) << 0.3, 0.7).finished();
  const Vector scaled_query = (Vector(2) << 0.3e6, 0.7e-6).finished();
  CHECK((ols_weights(keys, query) - ols_weights(scaled, scaled_query)).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("OLS refuses a query so far away that its weights overflow (fuzz finding)", "[ols]") {
  const RowMatrix keys = (RowMatrix(3, 1) << -8.0, -8.0, -6.375).finished();
  const Vector far = Vector::Constant(1, -1.7976931348623157e308);
  REQUIRE_THROWS_AS(ols_weights(keys, far), std::domain_error);
  REQUIRE_THROWS_WITH(ols_weights(keys, far), Catch::Contains("overflow double precision"));
  const RowMatrix near = (RowMatrix(1, 1) << 1e150).finished();
  REQUIRE_THROWS_WITH(ols_predict(keys, (Vector(3) << 1e300, -1e300, 1e300).finished(), near),
                      Catch::Contains("overflows double precision"));
}

TEST_CASE("OLS weights at extreme units: 1e200 and 1e-300 keys are neither collinear nor constant", "[ols]") {
  // lambda(q) is invariant to an affine map of the feature: keys [1, -1, 0] at q = 0.5 give
  // X~(X~^T X~)^-1 q~ = 1/3 + (0.5 k_i)/2 = (7/12, 1/12, 1/3).
  const Vector expected = (Vector(3) << 7.0 / 12.0, 1.0 / 12.0, 1.0 / 3.0).finished();
  const RowMatrix huge = (RowMatrix(3, 1) << 1e200, -1e200, 0.0).finished();
  CHECK((ols_weights(huge, Vector::Constant(1, 0.5e200)) - expected).cwiseAbs().maxCoeff() < 1e-14);
  // keys [1, 2, 3] x 1e-300 at q = 2.5e-300: 1/3 + (k_i - 2)(0.5)/2 = (1/12, 1/3, 7/12).
  const RowMatrix tiny = (RowMatrix(3, 1) << 1e-300, 2e-300, 3e-300).finished();
  const Vector expected_tiny = (Vector(3) << 1.0 / 12.0, 1.0 / 3.0, 7.0 / 12.0).finished();
  CHECK((ols_weights(tiny, Vector::Constant(1, 2.5e-300)) - expected_tiny).cwiseAbs().maxCoeff() < 1e-14);
  // Two features in wildly different units at once, against the unit-scale answer.
  const RowMatrix keys = (RowMatrix(4, 2) << 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 2.0).finished();
  RowMatrix scaled = keys;
  scaled.col(0) *= 1e250;
  scaled.col(1) *= 1e-290;
  const Vector query = (Vector(2) << 0.3, 0.7).finished();
  const Vector scaled_query = (Vector(2) << 0.3e250, 0.7e-290).finished();
  CHECK((ols_weights(keys, query) - ols_weights(scaled, scaled_query)).cwiseAbs().maxCoeff() < 1e-12);
  // Keys near the largest double: their mean and spread would overflow if taken directly.
  const RowMatrix largest = (RowMatrix(3, 1) << 1.7e308, -1.7e308, 1.7e308).finished();
  CHECK(ols_weights(largest, Vector::Constant(1, 0.0)).allFinite());
}

TEST_CASE("OLS weights equal the chapter's np.linalg.solve route bit for bit at every slider stop", "[ols][chapter]") {
  const auto& fixture = core_fixture()["ols_slider_stops"];
  const RowMatrix keys = matrix(fixture["keys"], 1);
  for (const auto& stop : fixture["stops"]) {
    const double query = stop["query"].get<double>();
    const Vector weights = ols_weights(keys, Vector::Constant(1, query));
    const RowMatrix many = ols_weight_matrix(keys, RowMatrix::Constant(1, 1, query));
    const Vector bits = hex_vector(stop["weights"].get<std::string>());
    REQUIRE(bits.size() == keys.rows());
    for (Eigen::Index i = 0; i < keys.rows(); ++i) {
      const double expected = bits(i);
      INFO("q = " << query << ", key " << i);
      REQUIRE(std::signbit(weights(i)) == std::signbit(expected));
      REQUIRE(weights(i) == expected);
      REQUIRE(many(0, i) == expected);
    }
  }
  // The slider stop the round-off sign used to decide: the first weight is 0, not -5.55e-17.
  CHECK(ols_weights(keys, Vector::Constant(1, 1.0))(0) == 0.0);
}
