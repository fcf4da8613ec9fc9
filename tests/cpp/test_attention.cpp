#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core_fixture.hpp"
#include "kernel_lens/attention.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

TEST_CASE("three-point lookup reproduces the chapter's weights and prediction", "[attention][chapter]") {
  const auto& example = core_fixture()["chapter"]["three_point"];
  const RowMatrix query = RowMatrix::Constant(1, 1, example["query"].get<double>());
  const auto result = attention(query, matrix(example["keys"], 1), matrix(example["values"], 1),
                                example["bandwidth"].get<double>());
  REQUIRE(fixed4(result.weights(0, 0)) == "0.0002");
  REQUIRE(fixed4(result.weights(0, 1)) == "0.9413");
  REQUIRE(fixed4(result.weights(0, 2)) == "0.0585");
  REQUIRE(fixed4(result.outputs(0, 0)) == "2.7412");
  CHECK(max_abs_difference(result.weights, matrix(example["weights"], 3)) < 1e-15);
  CHECK(result.outputs(0, 0) == Approx(example["prediction"].get<double>()).epsilon(1e-14));
}

TEST_CASE("Nadaraya-Watson stays inside the witness targets' range", "[attention][chapter]") {
  const auto& example = core_fixture()["chapter"]["ols"];
  const RowMatrix query = RowMatrix::Constant(1, 1, example["query"].get<double>());
  const auto result = attention(query, matrix(example["keys"], 1), matrix(example["witness"], 1),
                                example["nw_bandwidth"].get<double>());
  const char* printed[] = {"0.0010", "0.0206", "0.1520", "0.4132", "0.4132"};
  for (int i = 0; i < 5; ++i) {
    INFO("key " << i);
    REQUIRE(fixed4(result.weights(0, i)) == printed[i]);
  }
  REQUIRE(fixed4(result.outputs(0, 0)) == "0.0010");
  CHECK(max_abs_difference(result.weights, matrix(example["nw_weights"], 5)) < 1e-15);
  CHECK(std::abs(result.weights.sum() - 1.0) < 1e-15);
}

TEST_CASE("the 31 x 60 attention map has unit rows and matches NumPy", "[attention][chapter]") {
  const auto& chapter = core_fixture()["chapter"];
  const auto& map = chapter["map"];
  const RowMatrix keys = matrix(chapter["chapter_keys"], 1);
  const RowMatrix values = matrix(chapter["observed_values"], 1);
  const RowMatrix queries = matrix(map["queries"], 1);
  const auto result = attention(queries, keys, values, map["bandwidth"].get<double>());
  REQUIRE(result.weights.rows() == 31);
  REQUIRE(result.weights.cols() == 60);
  REQUIRE(result.outputs.rows() == 31);
  REQUIRE(result.outputs.cols() == 1);
  CHECK(max_row_sum_error(result.weights) <= 1e-15);
  CHECK(max_abs_difference(result.weights, matrix(map["weights"], 60)) < 1e-14);
  CHECK(max_abs_difference(result.outputs, matrix(map["outputs"], 1)) < 1e-14);
}

TEST_CASE("random shapes, bandwidths and kernels agree with NumPy", "[attention][random]") {
  for (const auto& example : core_fixture()["attention_cases"]) {
    const auto d = example["d"].get<Eigen::Index>();
    const auto p = example["p"].get<Eigen::Index>();
    const Kernel kernel = parse_kernel(example["kernel"].get<std::string>());
    const RowMatrix queries = matrix(example["queries"], d);
    const RowMatrix keys = matrix(example["keys"], d);
    const RowMatrix values = matrix(example["values"], p);
    const double bandwidth = example["bandwidth"].get<double>();
    const RowMatrix expected_weights = matrix(example["weights"], keys.rows());
    const RowMatrix expected_outputs = matrix(example["outputs"], p);
    INFO(example["kernel"].get<std::string>() << " d=" << d << " m=" << queries.rows() << " n=" << keys.rows()
                                              << " h=" << bandwidth);
    if (!example["empty_rows"].empty()) {
      const auto first_empty = example["empty_rows"][0].get<int>();
      REQUIRE_THROWS_AS_WITH(attention(queries, keys, values, bandwidth, kernel), std::domain_error,
                             Catch::Matchers::Contains("query row " + std::to_string(first_empty) + " "));
    }
    const auto result = attention(queries, keys, values, bandwidth, kernel, EmptyRowPolicy::Nearest);
    CHECK(max_abs_difference(result.weights, expected_weights) < 1e-12);
    CHECK(max_abs_difference(result.outputs, expected_outputs) < 1e-12);
    CHECK(max_row_sum_error(result.weights) < 1e-15);
    CHECK(result.weights.minCoeff() >= 0.0);
  }
}

TEST_CASE("a compact kernel gives exact zeros outside its support", "[attention][kernels]") {
  const RowMatrix keys = (RowMatrix(4, 1) << -1.0, 0.0, 0.5, 3.0).finished();
  const RowMatrix values = (RowMatrix(4, 1) << 1.0, 2.0, 3.0, 4.0).finished();
  const RowMatrix query = RowMatrix::Zero(1, 1);
  const auto result = attention(query, keys, values, 1.0, Kernel::Epanechnikov);
  /// kappa = 1 - u^2: (0, 1, 0.75, 0) -> (0, 4/7, 3/7, 0).
  CHECK(result.weights(0, 0) == 0.0);
  CHECK(result.weights(0, 3) == 0.0);
  CHECK(result.weights(0, 1) == Approx(4.0 / 7.0).epsilon(1e-15));
  CHECK(result.weights(0, 2) == Approx(3.0 / 7.0).epsilon(1e-15));
}

TEST_CASE("a query outside every compact support errors or falls back to the nearest key",
          "[attention][kernels]") {
  const RowMatrix keys = (RowMatrix(3, 1) << 0.0, 2.0, 2.0).finished();
  const RowMatrix values = (RowMatrix(3, 1) << 10.0, 20.0, 40.0).finished();
  const RowMatrix queries = (RowMatrix(2, 1) << 0.1, 5.0).finished();
  for (const Kernel kernel : {Kernel::Epanechnikov, Kernel::Tricube}) {
    INFO(kernel_name(kernel));
    REQUIRE_THROWS_AS_WITH(attention(queries, keys, values, 0.5, kernel), std::domain_error,
                           Catch::Matchers::Contains("query row 1") && Catch::Matchers::Contains(kernel_name(kernel)));
    const auto result = attention(queries, keys, values, 0.5, kernel, EmptyRowPolicy::Nearest);
    CHECK(result.weights(0, 0) == 1.0);
    CHECK(result.weights(1, 0) == 0.0);
    CHECK(result.weights(1, 1) == 0.5);
    CHECK(result.weights(1, 2) == 0.5);
    CHECK(result.outputs(1, 0) == 30.0);
    CHECK(result.weights.allFinite());
  }
}

TEST_CASE("exact nearest-key ties split the mass as h shrinks (exercise 4)", "[attention][limits]") {
  const auto& ties = core_fixture()["chapter"]["ties"];
  const RowMatrix keys = matrix(ties["keys"], 1);
  const RowMatrix query = RowMatrix::Zero(1, 1);
  for (const auto& example : ties["cases"]) {
    const double bandwidth = example["bandwidth"].get<double>();
    INFO("h = " << bandwidth);
    const RowMatrix weights = attention_weights(query, keys, bandwidth);
    CHECK(max_abs_difference(weights, matrix(example["weights"], 3)) < 1e-15);
  }
  const RowMatrix sharp = attention_weights(query, keys, 1e-3);
  CHECK(sharp(0, 0) == 0.5);
  CHECK(sharp(0, 1) == 0.5);
  CHECK(sharp(0, 2) == 0.0);
  const Vector limit = nearest_key_limit(Vector::Zero(1), keys);
  CHECK(limit(0) == 0.5);
  CHECK(limit(1) == 0.5);
  CHECK(limit(2) == 0.0);
}

TEST_CASE("the nearest-key limit picks the closest key in several dimensions", "[attention][limits]") {
  const RowMatrix keys = (RowMatrix(3, 2) << 0.0, 0.0, 1.0, 1.0, -1.0, 1.0).finished();
  const Vector query = (Vector(2) << 0.9, 0.8).finished();
  const Vector limit = nearest_key_limit(query, keys);
  CHECK(limit(1) == 1.0);
  CHECK(limit.sum() == 1.0);
  const RowMatrix weights = attention_weights(query.transpose(), keys, 0.01);
  CHECK(weights(0, 1) == 1.0);
}

TEST_CASE("a huge bandwidth approaches the uniform limit", "[attention][limits]") {
  const auto& chapter = core_fixture()["chapter"];
  const RowMatrix keys = matrix(chapter["chapter_keys"], 1);
  const Vector uniform = uniform_limit(keys.rows());
  CHECK(uniform.size() == 60);
  CHECK(uniform(0) == 1.0 / 60.0);
  const RowMatrix query = RowMatrix::Constant(1, 1, 0.37);
  const RowMatrix weights = attention_weights(query, keys, 1e6);
  CHECK((weights.transpose() - uniform).cwiseAbs().maxCoeff() < 1e-10);
  CHECK((attention_weights(query, keys, 1e9).transpose() - uniform).cwiseAbs().maxCoeff() < 1e-16);
}

TEST_CASE("bandwidth is temperature: softmax(-D / tau) with tau = 2h^2 (eq. 12.5)", "[attention]") {
  CHECK(temperature_from_bandwidth(0.18) == 2.0 * 0.18 * 0.18);
  CHECK(temperature_from_bandwidth(1.0) == 2.0);
  CHECK(bandwidth_from_temperature(2.0) == 1.0);
  CHECK(bandwidth_from_temperature(temperature_from_bandwidth(0.37)) == Approx(0.37).epsilon(1e-15));
  const auto& example = core_fixture()["attention_cases"][2];
  const auto d = example["d"].get<Eigen::Index>();
  const RowMatrix queries = matrix(example["queries"], d);
  const RowMatrix keys = matrix(example["keys"], d);
  const double bandwidth = example["bandwidth"].get<double>();
  const RowMatrix unscaled = -squared_distances(queries, keys);
  const RowMatrix weights = softmax_with_temperature(unscaled, temperature_from_bandwidth(bandwidth));
  CHECK(max_abs_difference(weights, matrix(example["weights"], keys.rows())) < 1e-12);
}

TEST_CASE("dot-product scores: magnitude participates (section 12.6)", "[attention]") {
  const RowMatrix query = (RowMatrix(1, 2) << 1.0, 0.0).finished();
  const RowMatrix keys = (RowMatrix(2, 2) << 1.0, 0.0, 2.0, 0.0).finished();
  const RowMatrix scores = dot_product_scores(query, keys);
  CHECK(scores(0, 0) == 1.0);
  CHECK(scores(0, 1) == 2.0);
  for (const auto& example : core_fixture()["attention_cases"]) {
    const auto d = example["d"].get<Eigen::Index>();
    const RowMatrix queries = matrix(example["queries"], d);
    const RowMatrix random_keys = matrix(example["keys"], d);
    CHECK(max_abs_difference(dot_product_scores(queries, random_keys),
                             matrix(example["dot_products"], random_keys.rows())) < 1e-13);
  }
}

TEST_CASE("distance scores are minus the squared distances, and softmax(s / 2h^2) is the kernel's weights", "[attention]") {
  for (const auto& example : core_fixture()["attention_cases"]) {
    const auto d = example["d"].get<Eigen::Index>();
    const RowMatrix queries = matrix(example["queries"], d);
    const RowMatrix keys = matrix(example["keys"], d);
    const RowMatrix expected = -matrix(example["squared_distances"], keys.rows());
    CHECK(max_abs_difference(distance_scores(queries, keys), expected) < 1e-13);
    if (example["kernel"].get<std::string>() != "gaussian" || !example["empty_rows"].empty()) continue;
    const double bandwidth = example["bandwidth"].get<double>();
    const RowMatrix weights = softmax_with_temperature(distance_scores(queries, keys), temperature_from_bandwidth(bandwidth));
    CHECK(max_abs_difference(weights, matrix(example["weights"], keys.rows())) < 1e-12);
  }
  REQUIRE_THROWS_AS(distance_scores(RowMatrix::Zero(1, 1), RowMatrix::Zero(2, 2)), std::invalid_argument);
}

TEST_CASE("mixtures: A V row by row and A v for one value column (eq. 12.7)", "[attention]") {
  RowMatrix weights(2, 3);
  weights << 0.5, 0.25, 0.25,  //
      0.0, 1.0, 0.0;
  RowMatrix values(3, 2);
  values << 4.0, -8.0,  //
      2.0, 16.0,        //
      6.0, 0.0;
  /// Row 0: 0.5 (4, -8) + 0.25 (2, 16) + 0.25 (6, 0) = (4, 0); row 1 picks (2, 16).
  RowMatrix expected(2, 2);
  expected << 4.0, 0.0,  //
      2.0, 16.0;
  CHECK(mix_values(weights, values) == expected);
  const Vector first_column = values.col(0);
  CHECK(mix_value_column(weights, first_column) == expected.col(0));
}
