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
#include "kernel_lens/numpy_random.hpp"
#include "kernel_lens/work.hpp"
#include "core_fixture.hpp"
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
  REQUIRE(work::loo(1000, 1, 4096) > Limits::max_work);
  // The page's largest table: 5,000 rows and 25 + 1 bandwidths fit.
  REQUIRE(work::loo(5000, 8, 26) <= Limits::max_work);
}

TEST_CASE("leave-one-out streams rows: 5,000 keys need no 5,000 x 5,000 matrix", "[laboratory][slow]") {
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

TEST_CASE("audit_worlds: the sweep's own worlds, their curves and one query's spread", "[laboratory]") {
  const LabConfig config;
  const double h = 0.18;
  const auto data = chapter_dataset(config);
  // The grid query nearest to q: index 120 of linspace(-2.9, 2.9, 241) is 0.
  const double query = 0.01;
  const auto worlds = audit_worlds(config, h, 30, query);
  CHECK(worlds.query_index == 120);
  CHECK(audit_worlds(config, h, 0, -10.0).query_index == 0);
  CHECK(audit_worlds(config, h, 0, 10.0).query_index == 240);
  REQUIRE(worlds.curves.rows() == 30);
  REQUIRE(worlds.curves.cols() == static_cast<Eigen::Index>(config.queries));
  REQUIRE(worlds.at_query.size() == static_cast<Eigen::Index>(config.worlds));
  CHECK(worlds.query == data.queries(120));
  CHECK(worlds.truth == data.truth_at_queries(120));
  // The worlds are the sweep's: drawn here again as bias_variance_sweep draws them.
  RowMatrix responses = NumpyRandom(config.monte_carlo_seed).normal(0.0, config.noise, config.worlds, config.keys);
  responses.rowwise() += data.truth_at_keys.transpose();
  const RowMatrix weights = attention_weights(as_rows(data.queries), as_rows(data.keys), h);
  for (Eigen::Index w : {0, 7, 29}) {
    const Vector curve = weights * responses.row(w).transpose();
    for (Eigen::Index r = 0; r < curve.size(); r += 40) CHECK(worlds.curves(w, r) == Approx(curve(r)).margin(1e-13));
    CHECK(worlds.at_query(w) == Approx(worlds.curves(w, 120)).margin(1e-13));
  }
  CHECK(worlds.at_query(999) == Approx(weights.row(120).dot(responses.row(999))).margin(1e-13));
  CHECK(worlds.mean_curve(120) == Approx(worlds.at_query.mean()).margin(1e-13));
  // The exact mean and sd on the fixed design, and the worlds' spread about them (1,000 draws:
  // the sample sd within 10 % of the exact one, the mean within 4 standard errors).
  CHECK(worlds.exact_mean == Approx(weights.row(120).dot(data.truth_at_keys)).margin(1e-14));
  CHECK(worlds.exact_sd == Approx(config.noise * weights.row(120).norm()).epsilon(1e-13));
  const double spread = std::sqrt((worlds.at_query.array() - worlds.at_query.mean()).square().mean());
  CHECK(std::abs(spread / worlds.exact_sd - 1.0) < 0.1);
  CHECK(std::abs(worlds.at_query.mean() - worlds.exact_mean) < 4.0 * worlds.exact_sd / std::sqrt(1000.0));

  CHECK_THROWS_WITH(audit_worlds(config, h, 201, query), Catch::Contains("curves must be at most 200"));
  LabConfig few = config;
  few.worlds = 10;
  CHECK_THROWS_WITH(audit_worlds(few, h, 11, query), Catch::Contains("curves must be at most 10"));
  CHECK_THROWS_WITH(audit_worlds(config, h, 30, std::nan("")), Catch::Contains("query must be a finite number, got nan"));
  CHECK_THROWS_WITH(audit_worlds(config, 0.0, 30, query), Catch::Contains("bandwidth must be positive"));
}

TEST_CASE("histogram: equal-width bins from the smallest value to the largest", "[laboratory]") {
  Vector values(6);
  values << 0.0, 0.1, 0.25, 0.5, 0.75, 1.0;
  const auto h = histogram(values, 4);
  REQUIRE(h.edges.size() == 5);
  CHECK(h.edges(0) == 0.0);
  CHECK(h.edges(2) == 0.5);
  CHECK(h.edges(4) == 1.0);
  // [0, .25): 0, 0.1; [.25, .5): 0.25; [.5, .75): 0.5; [.75, 1]: 0.75, 1.
  CHECK(h.counts(0) == 2.0);
  CHECK(h.counts(1) == 1.0);
  CHECK(h.counts(2) == 1.0);
  CHECK(h.counts(3) == 2.0);
  const auto single = histogram(Vector::Constant(3, 2.0), 2);
  CHECK(single.edges(0) == 1.5);
  CHECK(single.edges(2) == 2.5);
  CHECK(single.counts(1) == 3.0);
  // Values a hair below an edge stay below it.
  Vector close(3);
  close << 0.0, std::nextafter(1.0 / 3.0, 0.0), 1.0;
  const auto thirds = histogram(close, 3);
  CHECK(thirds.counts(0) == (close(1) < thirds.edges(1) ? 2.0 : 1.0));
  CHECK(thirds.counts.sum() == 3.0);
  CHECK_THROWS_WITH(histogram(Vector(0), 3), Catch::Contains("at least one number"));
  CHECK_THROWS_WITH(histogram(values, 0), Catch::Contains("bins must be from 1 to 1000, got 0"));
  Vector bad = values;
  bad(1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(histogram(bad, 3), Catch::Contains("values[1] must be finite"));
}
