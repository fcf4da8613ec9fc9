#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>
#include <string>

#include "kernel_lens/attention.hpp"
#include "kernel_lens/laboratory.hpp"
#include "kernel_lens/detail/exp_block.hpp"
#include "kernel_lens/limits.hpp"
#include "lab_fixture.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

namespace {

LabConfig lab_config(const nlohmann::json& j) {
  LabConfig c;
  c.key_seed = j["keySeed"].get<std::uint64_t>();
  c.observed_seed = j["observedSeed"].get<std::uint64_t>();
  c.monte_carlo_seed = j["monteCarloSeed"].get<std::uint64_t>();
  c.keys = j["keys"].get<std::size_t>();
  c.queries = j["queries"].get<std::size_t>();
  c.worlds = j["worlds"].get<std::size_t>();
  c.noise = j["noise"].get<double>();
  c.bandwidths = j["bandwidths"].get<std::vector<double>>();
  c.key_low = j["keyLow"].get<double>();
  c.key_high = j["keyHigh"].get<double>();
  c.query_low = j["queryLow"].get<double>();
  c.query_high = j["queryHigh"].get<double>();
  return c;
}

void require_rows(const std::vector<RiskRow>& rows, const nlohmann::json& expected) {
  REQUIRE(rows.size() == expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& e = expected[i];
    INFO("row " << i << ", h = " << rows[i].bandwidth);
    REQUIRE(rows[i].bandwidth == e["bandwidth"].get<double>());
    REQUIRE(relative_close(rows[i].tau, e["tau"].get<double>(), 1e-15));
    REQUIRE(relative_close(rows[i].bias2, e["bias2"].get<double>()));
    REQUIRE(relative_close(rows[i].variance, e["variance"].get<double>()));
    REQUIRE(relative_close(rows[i].mse, e["mse"].get<double>()));
  }
}

std::string fixed4(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", x);
  return buffer;
}

}  // namespace

TEST_CASE("the chapter's dataset is NumPy's, bit for bit", "[laboratory]") {
  const auto& chapter = laboratory_fixture()["chapter"];
  const ChapterDataset data = chapter_dataset(LabConfig{});
  REQUIRE(data.keys == hex_vector(chapter["keys"].get<std::string>()));
  REQUIRE(data.queries == hex_vector(chapter["queries"].get<std::string>()));
  const Vector observed = hex_vector(chapter["observedValues"].get<std::string>());
  for (Eigen::Index i = 0; i < observed.size(); ++i) REQUIRE(std::abs(data.observed_values(i) - observed(i)) <= 1e-14);
}

TEST_CASE("the sweep reproduces the chapter's printed table and grid minimum", "[laboratory]") {
  const std::vector<RiskRow> rows = bias_variance_sweep(LabConfig{});
  const char* printed[8][4] = {
      {"0.0050", "0.0119", "0.0343", "0.0462"}, {"0.0128", "0.0101", "0.0247", "0.0348"},
      {"0.0288", "0.0090", "0.0169", "0.0259"}, {"0.0648", "0.0127", "0.0109", "0.0236"},
      {"0.1568", "0.0304", "0.0069", "0.0373"}, {"0.3528", "0.0747", "0.0047", "0.0794"},
      {"0.8450", "0.1721", "0.0031", "0.1753"}, {"2.0000", "0.3142", "0.0022", "0.3164"}};
  REQUIRE(rows.size() == 8);
  std::size_t best = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO("row " << i);
    REQUIRE(fixed4(rows[i].tau) == printed[i][0]);
    REQUIRE(fixed4(rows[i].bias2) == printed[i][1]);
    REQUIRE(fixed4(rows[i].variance) == printed[i][2]);
    REQUIRE(fixed4(rows[i].mse) == printed[i][3]);
    if (rows[i].mse < rows[best].mse) best = i;
  }
  REQUIRE(fixed4(rows[best].bandwidth) == "0.1800");
  REQUIRE(fixed4(rows[best].mse) == "0.0236");
}

TEST_CASE("the sweep agrees with NumPy's prediction-matrix computation to 1e-9", "[laboratory]") {
  const auto& fixture = laboratory_fixture();
  require_rows(bias_variance_sweep(LabConfig{}), fixture["chapter"]["sweep"]);
  for (const auto& other : fixture["other"]) require_rows(bias_variance_sweep(lab_config(other["config"])), other["sweep"]);
}

TEST_CASE("exact risk agrees with NumPy to 1e-9", "[laboratory]") {
  const auto& fixture = laboratory_fixture();
  LabConfig chapter;
  chapter.bandwidths = fixture["chapter"]["exactRiskBandwidths"].get<std::vector<double>>();
  require_rows(exact_risk(chapter), fixture["chapter"]["exactRisk"]);
  for (const auto& other : fixture["other"]) require_rows(exact_risk(lab_config(other["config"])), other["exactRisk"]);
}

TEST_CASE("leave-one-out curve agrees with NumPy", "[laboratory]") {
  const auto& loo = laboratory_fixture()["loo"];
  const RowMatrix keys = hex_matrix(loo["keys"].get<std::string>(), 2);
  const Vector values = hex_vector(loo["values"].get<std::string>());
  const Vector curve = loo_curve(keys, values, loo["bandwidths"].get<std::vector<double>>());
  const auto expected = loo["mse"].get<std::vector<double>>();
  for (std::size_t i = 0; i < expected.size(); ++i) REQUIRE(relative_close(curve(static_cast<Eigen::Index>(i)), expected[i]));
}

TEST_CASE("linspace follows numpy.linspace", "[laboratory]") {
  const Vector x = linspace(-2.9, 2.9, 241);
  REQUIRE(x(0) == -2.9);
  REQUIRE(x(240) == 2.9);
  REQUIRE(x(1) == -2.9 + 1 * ((2.9 - -2.9) / 240));
  REQUIRE(linspace(1.0, 5.0, 1).size() == 1);
}

TEST_CASE("bad laboratory configurations throw with a message", "[laboratory]") {
  LabConfig c;
  c.worlds = 1;
  REQUIRE_THROWS_WITH(c.check(), Catch::Contains("worlds must be at least 2"));
  c = LabConfig{};
  c.noise = -0.1;
  REQUIRE_THROWS_WITH(c.check(), Catch::Contains("noise"));
  c = LabConfig{};
  c.bandwidths.clear();
  REQUIRE_THROWS_WITH(c.check(), Catch::Contains("bandwidths must not be empty"));
  c = LabConfig{};
  c.worlds = 200'000;
  REQUIRE_THROWS_AS(c.check(), std::length_error);
  c = LabConfig{};
  c.bandwidths = {0.1, 0.0};
  REQUIRE_THROWS_WITH(c.check(), Catch::Contains("bandwidths[1]"));
  c = LabConfig{};
  c.key_low = 3.0;
  REQUIRE_THROWS_AS(c.check(), std::invalid_argument);
}

TEST_CASE("linspace between ends whose difference overflows stays finite", "[laboratory]") {
  // NumPy gives [nan, inf, inf, 1.7e308] here; the exact values are -1.7e308 + i (3.4e308 / 3).
  const Vector x = linspace(-1.7e308, 1.7e308, 4);
  REQUIRE(x.allFinite());
  REQUIRE(x(0) == -1.7e308);
  REQUIRE(x(1) == Approx(-1.7e308 / 3.0).epsilon(1e-15));
  REQUIRE(x(2) == Approx(1.7e308 / 3.0).epsilon(1e-15));
  REQUIRE(x(3) == 1.7e308);
  const Vector y = linspace(1.7976931348623157e308, -1.7976931348623157e308, 5);
  REQUIRE(y.allFinite());
  REQUIRE(y(2) == 0.0);
  for (Eigen::Index i = 1; i < y.size(); ++i) REQUIRE(y(i) < y(i - 1));
  REQUIRE(linspace(-1.7e308, 1.7e308, 2)(1) == 1.7e308);
}

TEST_CASE("leave-one-out checks its cost against the work budget before it starts", "[laboratory][budget]") {
  // 1,000 keys x 4,096 bandwidths: 4.1e9 kernel evaluations, refused at once (it used to run 53 s).
  const Vector keys = Vector::LinSpaced(1000, 0.0, 1.0);
  const Vector values = keys.array().sin();
  const std::vector<double> bandwidths(Limits::max_bandwidths, 0.1);
  REQUIRE_THROWS_AS(loo_curve(as_rows(keys), values, bandwidths), std::length_error);
  REQUIRE_THROWS_WITH(loo_curve(as_rows(keys), values, bandwidths),
                      Catch::Contains("the leave-one-out curve would take 4,097,000,000 kernel evaluations") &&
                          Catch::Contains("the budget is 1,073,741,824 per call"));
  REQUIRE(loo_cost(1000, 1, 4096) > Limits::max_work);
  // The page's largest table: 5,000 rows and 25 + 1 bandwidths fit.
  REQUIRE(loo_cost(5000, 8, 26) <= Limits::max_work);
}

TEST_CASE("leave-one-out streams rows: 5,000 keys need no 5,000 x 5,000 matrix", "[laboratory]") {
  // More keys than the weight-matrix cap allows (4,097^2 > max_cells), checked on a sub-sample
  // against the formula written out directly.
  const Eigen::Index n = 5000;
  const Vector keys = Vector::LinSpaced(n, 0.0, 10.0);
  Vector values(n);
  for (Eigen::Index i = 0; i < n; ++i) values(i) = std::sin(keys(i)) + 0.1 * std::cos(37.0 * keys(i));
  const std::vector<double> bandwidths = {0.01, 0.5};
  const Vector curve = loo_curve(as_rows(keys), values, bandwidths);
  REQUIRE(curve.allFinite());
  for (std::size_t b = 0; b < bandwidths.size(); ++b) {
    const double h = bandwidths[b];
    double total = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      double weights = 0.0, weighted = 0.0;
      for (Eigen::Index j = 0; j < n; ++j) {
        if (j == i) continue;
        const double g = std::exp(-(keys(i) - keys(j)) * (keys(i) - keys(j)) / (2.0 * h * h));
        weights += g;
        weighted += g * values(j);
      }
      total += (weighted / weights - values(i)) * (weighted / weights - values(i));
    }
    INFO("h = " << h);
    REQUIRE(relative_close(curve(static_cast<Eigen::Index>(b)), total / static_cast<double>(n)));
  }
}

TEST_CASE("the leave-one-out exponential agrees with std::exp", "[laboratory]") {
  std::vector<double> x;
  for (double v = 0.0; v > -710.0; v -= 0.0137) x.push_back(v);
  for (const double v : {-0.0, -1e-300, -5e-324, -0.34657359027997264, -0.34657359027997270, -707.9, -708.5,
                         -std::numeric_limits<double>::infinity()})
    x.push_back(v);
  std::vector<double> y = x;
  detail::exp_nonpositive(y.data(), static_cast<std::ptrdiff_t>(y.size()));
  for (std::size_t i = 0; i < x.size(); ++i) {
    INFO("x = " << x[i]);
    if (x[i] < -708.0) {
      REQUIRE(y[i] == 0.0);
      continue;
    }
    const double expected = std::exp(x[i]);
    REQUIRE(std::abs(y[i] - expected) <= 4e-16 * expected);
  }
  REQUIRE(y[x.size() - 8] == 1.0);
}

TEST_CASE("the one-pass fit agrees with attention and with the leave-one-out curve, every kernel", "[laboratory]") {
  // Two features, uneven spacing, a duplicated key and one far outlier (its own value wins at
  // small h, where the other keys' weights underflow relative to its own).
  const Eigen::Index n = 40;
  RowMatrix keys(n, 2);
  Vector values(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double t = static_cast<double>(i);
    keys(i, 0) = std::sin(0.7 * t) * 3.0 + 0.01 * t * t;
    keys(i, 1) = std::cos(1.3 * t);
    values(i) = std::sin(t) + 0.2 * t;
  }
  keys.row(7) = keys.row(3);
  keys(n - 1, 0) = 1e3;
  for (const Kernel kernel : {Kernel::Gaussian, Kernel::Laplacian, Kernel::Epanechnikov, Kernel::Tricube}) {
    for (const double h : {0.05, 0.4, 1.5, 30.0}) {
      INFO("kernel " << static_cast<int>(kernel) << ", h = " << h);
      const LooFit fit = loo_fit(keys, values, h, kernel);
      // Fitted: each key's attention output over every key, itself included.
      const AttentionResult full = attention(keys, keys, values, h, kernel, EmptyRowPolicy::Nearest);
      for (Eigen::Index i = 0; i < n; ++i) {
        INFO("row " << i);
        REQUIRE(std::abs(fit.fitted(i) - full.outputs(i, 0)) <= 1e-12 * (1.0 + std::abs(full.outputs(i, 0))));
      }
      // The error at h is loo_curve's, bit for bit.
      const Vector curve = loo_curve(keys, values, {h}, kernel);
      if (std::isnan(curve(0))) {
        REQUIRE(std::isnan(fit.mse));
      } else {
        REQUIRE(fit.mse == curve(0));
      }
      // Held out: the other keys' weighted mean, written out directly.
      for (Eigen::Index i = 0; i < n; ++i) {
        double weights = 0.0, weighted = 0.0;
        for (Eigen::Index j = 0; j < n; ++j) {
          if (j == i) continue;
          const double u = (keys.row(i) - keys.row(j)).norm() / h;
          double g = 0.0;
          switch (kernel) {
            case Kernel::Gaussian: g = std::exp(-0.5 * u * u); break;
            case Kernel::Laplacian: g = std::exp(-u); break;
            case Kernel::Epanechnikov: g = u < 1.0 ? 1.0 - u * u : 0.0; break;
            case Kernel::Tricube: g = u < 1.0 ? std::pow(1.0 - u * u * u, 3) : 0.0; break;
          }
          weights += g;
          weighted += g * values(j);
        }
        INFO("held-out row " << i);
        if (weights > 1e-250) {
          REQUIRE(relative_close(fit.held_out(i), weighted / weights, 1e-9));
        } else if (kernel == Kernel::Epanechnikov || kernel == Kernel::Tricube) {
          REQUIRE(std::isnan(fit.held_out(i)));
        }
      }
    }
  }
}

TEST_CASE("the one-pass fit refuses what loo_curve refuses, with its own name", "[laboratory]") {
  const Vector keys = Vector::LinSpaced(5, 0.0, 1.0);
  const Vector values = keys;
  REQUIRE_THROWS_WITH(loo_fit(as_rows(keys), values, 0.0), Catch::Contains("bandwidth"));
  REQUIRE_THROWS_WITH(loo_fit(as_rows(keys), values, std::nan("")), Catch::Contains("bandwidth"));
  REQUIRE_THROWS_WITH(loo_fit(as_rows(keys), values.head(4), 0.5), Catch::Contains("values must have one entry per key"));
  REQUIRE_THROWS_WITH(loo_fit(as_rows(keys.head(1)), values.head(1), 0.5), Catch::Contains("at least 2 rows"));
  REQUIRE_THROWS_WITH(loo_fit(as_rows(keys), values, 1e-200), Catch::Contains("2h^2 underflows"));
  // 40,000 keys: 1.6e9 pairs x (1 feature + 1 bandwidth), refused before it starts.
  const Vector many = Vector::LinSpaced(40000, 0.0, 1.0);
  REQUIRE_THROWS_WITH(loo_fit(as_rows(many), many, 0.5), Catch::Contains("the leave-one-out fit would take"));
}
