#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "kernel_lens/exercises.hpp"
#include "lab_fixture.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

namespace {

void require_close(const Vector& actual, const std::vector<double>& expected) {
  REQUIRE(static_cast<std::size_t>(actual.size()) == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("entry " << i);
    REQUIRE(relative_close(actual(static_cast<Eigen::Index>(i)), expected[i]));
  }
}

void require_close(const RowMatrix& actual, const RowMatrix& expected, double tolerance = 1e-9) {
  REQUIRE(actual.rows() == expected.rows());
  REQUIRE(actual.cols() == expected.cols());
  REQUIRE((actual - expected).cwiseAbs().maxCoeff() <= tolerance * std::max(1.0, expected.cwiseAbs().maxCoeff()));
}

}  // namespace

TEST_CASE("exercise 3: validation, leave-one-out and sealed-test numbers match NumPy", "[exercises]") {
  for (const auto& e : laboratory_fixture()["selection"]) {
    const auto& j = e["config"];
    SelectionConfig c;
    c.seed = j["seed"].get<std::uint64_t>();
    c.train = j["train"].get<std::size_t>();
    c.validation = j["validation"].get<std::size_t>();
    c.test = j["test"].get<std::size_t>();
    c.noise = j["noise"].get<double>();
    c.bandwidths = j["bandwidths"].get<std::vector<double>>();
    const SelectionResult r = bandwidth_selection(c);
    INFO("seed " << c.seed);
    REQUIRE(r.train_keys == hex_vector(e["trainKeys"].get<std::string>()));
    REQUIRE(r.validation_keys == hex_vector(e["validationKeys"].get<std::string>()));
    REQUIRE(r.test_keys == hex_vector(e["testKeys"].get<std::string>()));
    const Vector train_values = hex_vector(e["trainValues"].get<std::string>());
    require_close(r.train_values, std::vector<double>(train_values.begin(), train_values.end()));
    require_close(r.training_mse, e["trainingMse"].get<std::vector<double>>());
    require_close(r.validation_mse, e["validationMse"].get<std::vector<double>>());
    require_close(r.loo_mse, e["looMse"].get<std::vector<double>>());
    REQUIRE(r.selected_index == e["selectedIndex"].get<std::size_t>());
    REQUIRE(relative_close(r.test_mse, e["testMse"].get<double>()));
    REQUIRE(r.loo_selected_index == e["looSelectedIndex"].get<std::size_t>());
    REQUIRE(relative_close(r.loo_test_mse, e["looTestMse"].get<double>()));
    REQUIRE(r.truth_index == e["truthIndex"].get<std::size_t>());
    REQUIRE(relative_close(r.truth_mse, e["truthMse"].get<double>()));
    REQUIRE(relative_close(r.truth_test_mse, e["truthTestMse"].get<double>()));
    REQUIRE(r.selected_curve.size() == 241);
  }
}

TEST_CASE("exercise 3 on the chapter's grid finds the audit's h = 0.18 as the truth minimum", "[exercises]") {
  const SelectionResult r = bandwidth_selection(SelectionConfig{});
  REQUIRE(r.bandwidths[r.truth_index] == 0.18);
}

TEST_CASE("exercise 5: attention maps before and after standardising match NumPy", "[exercises]") {
  for (const auto& e : laboratory_fixture()["standardize"]) {
    const auto& j = e["config"];
    StandardizeConfig c;
    c.seed = j["seed"].get<std::uint64_t>();
    c.keys = j["keys"].get<std::size_t>();
    c.queries = j["queries"].get<std::size_t>();
    c.noise = j["noise"].get<double>();
    c.bandwidth = j["bandwidth"].get<double>();
    const auto scales = j["featureScales"].get<std::vector<double>>();
    c.feature_scales = {scales[0], scales[1]};
    const StandardizeResult r = standardize_exercise(c);
    INFO("seed " << c.seed);
    require_close(r.raw_keys, hex_matrix(e["rawKeys"].get<std::string>(), 2), 1e-15);
    require_close(r.raw_queries, hex_matrix(e["rawQueries"].get<std::string>(), 2), 1e-15);
    require_close(r.raw_weights, hex_matrix(e["rawWeights"].get<std::string>(), c.keys));
    require_close(r.standardized_weights, hex_matrix(e["standardizedWeights"].get<std::string>(), c.keys));
    const auto mean = e["mean"].get<std::vector<double>>();
    const auto scale = e["scale"].get<std::vector<double>>();
    const auto raw_share = e["rawDistanceShare"].get<std::vector<double>>();
    const auto std_share = e["standardizedDistanceShare"].get<std::vector<double>>();
    for (std::size_t f = 0; f < 2; ++f) {
      REQUIRE(relative_close(r.mean[f], mean[f]));
      REQUIRE(relative_close(r.scale[f], scale[f]));
      REQUIRE(relative_close(r.raw_distance_share[f], raw_share[f]));
      REQUIRE(relative_close(r.standardized_distance_share[f], std_share[f]));
    }
    REQUIRE(relative_close(r.raw_mse, e["rawMse"].get<double>()));
    REQUIRE(relative_close(r.standardized_mse, e["standardizedMse"].get<double>()));
  }
}

TEST_CASE("bad exercise configurations throw", "[exercises]") {
  SelectionConfig s;
  s.train = 1;
  REQUIRE_THROWS_WITH(s.check(), Catch::Contains("train must be at least 2"));
  StandardizeConfig z;
  z.feature_scales = {1.0, 0.0};
  REQUIRE_THROWS_WITH(z.check(), Catch::Contains("feature_scales[1]"));
}

TEST_CASE("exercise 5: a feature scale that overflows is called an overflow, not zero spread", "[exercises]") {
  StandardizeConfig config;
  config.feature_scales = {1.0, 1e308};
  REQUIRE_THROWS_AS(standardize_exercise(config), std::domain_error);
  REQUIRE_THROWS_WITH(standardize_exercise(config), Catch::Contains("feature_scales[1] = 1e+308 overflows") &&
                                                        !Catch::Contains("zero spread"));
  config.feature_scales = {1e-200, 1.0};
  REQUIRE_THROWS_WITH(standardize_exercise(config), Catch::Contains("feature_scales[0] = 1e-200 underflows"));
  config.feature_scales = {1e150, 1e-150};
  const StandardizeResult result = standardize_exercise(config);
  REQUIRE(std::isfinite(result.standardized_mse));
  REQUIRE(std::isfinite(result.raw_mse));
}
