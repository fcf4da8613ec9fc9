#include "kernel_lens/exercises.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "kernel_lens/attention.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/numpy_random.hpp"
#include "kernel_lens/work.hpp"

namespace kernel_lens {
namespace {

/// Nadaraya-Watson predictions at xs from the pairs (keys, values), Gaussian kernel. (xs)
Vector predict(const Vector& keys, const Vector& values, const Vector& xs, double bandwidth) {
  return mix_value_column(attention_weights(as_rows(xs), as_rows(keys), bandwidth), values);
}

double mse(const Vector& predictions, const Vector& targets) {
  return (predictions - targets).squaredNorm() / static_cast<double>(targets.size());
}

std::size_t argmin(const Vector& x) {
  Eigen::Index index = 0;
  for (Eigen::Index i = 1; i < x.size(); ++i)
    if (x(i) < x(index)) index = i;
  return static_cast<std::size_t>(index);
}

/// Stable order of `keys` (numpy.argsort(kind="stable")): equal keys keep their index order.
std::vector<Eigen::Index> stable_order(const Vector& keys) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(keys.size()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::sort(order.begin(), order.end(),
            [&](Eigen::Index a, Eigen::Index b) { return keys(a) < keys(b) || (keys(a) == keys(b) && a < b); });
  return order;
}

/// The sorted pairs of draws [begin, begin + count).
void sorted_split(const Vector& x, const Vector& y, Eigen::Index begin, Eigen::Index count, Vector& keys,
                  Vector& values) {
  const Vector part = x.segment(begin, count);
  const std::vector<Eigen::Index> order = stable_order(part);
  keys.resize(count);
  values.resize(count);
  for (Eigen::Index i = 0; i < count; ++i) {
    keys(i) = part(order[static_cast<std::size_t>(i)]);
    values(i) = y(begin + order[static_cast<std::size_t>(i)]);
  }
}

/// Share of \f$ \sum_{r,i} \|q_r - k_i\|^2 \f$ owed to each of the two features.
std::array<double, 2> distance_share(const RowMatrix& queries, const RowMatrix& keys) {
  std::array<double, 2> per_feature{};
  for (int j = 0; j < 2; ++j)
    for (Eigen::Index r = 0; r < queries.rows(); ++r)
      per_feature[static_cast<std::size_t>(j)] += (keys.col(j).array() - queries(r, j)).square().sum();
  const double total = per_feature[0] + per_feature[1];
  if (total > 0.0)
    for (double& share : per_feature) share /= total;
  return per_feature;
}

}  // namespace

void SelectionConfig::check() const {
  check_seed(seed, "seed");
  check_at_least(train, 2, "train");
  check_at_least(validation, 1, "validation");
  check_at_least(test, 1, "test");
  check_size(train, Limits::max_rows, "train");
  check_size(validation, Limits::max_rows, "validation");
  check_size(test, Limits::max_rows, "test");
  check_size(train + validation + test, Limits::max_rows, "train + validation + test");
  check_at_least(curve_points, 1, "curve_points");
  const std::size_t widest = std::max({validation, test, curve_points, train});
  check_cells(widest, train, "the query x training-key weight matrix");
  LabConfig lab;
  lab.key_seed = lab.observed_seed = lab.monte_carlo_seed = seed;
  lab.noise = noise;
  lab.bandwidths = bandwidths;
  lab.key_low = key_low;
  lab.key_high = key_high;
  lab.query_low = query_low;
  lab.query_high = query_high;
  lab.check();
  check_work(work::selection(*this), "the bandwidth selection",
             [&] { return std::string("bandwidths x train x (train + validation + test) + the leave-one-out curve + 3 curves x curve_points x train + the "
             "audit over the bandwidths, with " + std::to_string(bandwidths.size()) + " bandwidths, " + std::to_string(train) +
                 " training points"); });
}

SelectionResult bandwidth_selection(const SelectionConfig& config) {
  config.check();
  const std::size_t total = config.train + config.validation + config.test;
  NumpyRandom rng(config.seed);
  const Vector x = rng.uniform(config.key_low, config.key_high, total);
  const Vector y = truth(x) + rng.normal(0.0, config.noise, total);
  const auto train = static_cast<Eigen::Index>(config.train);
  const auto validation = static_cast<Eigen::Index>(config.validation);
  const auto test = static_cast<Eigen::Index>(config.test);

  SelectionResult result;
  sorted_split(x, y, 0, train, result.train_keys, result.train_values);
  sorted_split(x, y, train, validation, result.validation_keys, result.validation_values);
  sorted_split(x, y, train + validation, test, result.test_keys, result.test_values);
  result.bandwidths = config.bandwidths;

  const auto count = static_cast<Eigen::Index>(config.bandwidths.size());
  result.training_mse.resize(count);
  result.validation_mse.resize(count);
  for (Eigen::Index b = 0; b < count; ++b) {
    const double h = config.bandwidths[static_cast<std::size_t>(b)];
    result.training_mse(b) = mse(predict(result.train_keys, result.train_values, result.train_keys, h),
                                 result.train_values);
    result.validation_mse(b) =
        mse(predict(result.train_keys, result.train_values, result.validation_keys, h), result.validation_values);
  }
  result.loo_mse = loo_curve(as_rows(result.train_keys), result.train_values, config.bandwidths);

  const auto test_mse_at = [&](std::size_t index) {
    return mse(predict(result.train_keys, result.train_values, result.test_keys, config.bandwidths[index]),
               result.test_values);
  };
  result.selected_index = argmin(result.validation_mse);
  result.test_mse = test_mse_at(result.selected_index);
  result.loo_selected_index = argmin(result.loo_mse);
  result.loo_test_mse = test_mse_at(result.loo_selected_index);

  LabConfig audit;
  audit.noise = config.noise;
  audit.bandwidths = config.bandwidths;
  const std::vector<RiskRow> rows = bias_variance_sweep(audit);
  Vector audit_mse(count);
  for (Eigen::Index b = 0; b < count; ++b) audit_mse(b) = rows[static_cast<std::size_t>(b)].mse;
  result.truth_index = argmin(audit_mse);
  result.truth_mse = audit_mse(static_cast<Eigen::Index>(result.truth_index));
  result.truth_test_mse = test_mse_at(result.truth_index);

  result.curve_queries = linspace(config.query_low, config.query_high, config.curve_points);
  result.truth_curve = truth(result.curve_queries);
  const auto curve_at = [&](std::size_t index) {
    return predict(result.train_keys, result.train_values, result.curve_queries, config.bandwidths[index]);
  };
  result.selected_curve = curve_at(result.selected_index);
  result.loo_curve = curve_at(result.loo_selected_index);
  result.truth_grid_curve = curve_at(result.truth_index);
  return result;
}

void StandardizeConfig::check() const {
  check_seed(seed, "seed");
  check_at_least(keys, 2, "keys");
  check_at_least(queries, 1, "queries");
  check_size(keys, Limits::max_rows, "keys");
  check_size(queries, Limits::max_rows, "queries");
  check_cells(queries, keys, "the query x key weight matrix");
  if (!std::isfinite(noise) || noise < 0.0)
    throw std::invalid_argument("noise must be finite and >= 0, got " + format_number(noise));
  check_bandwidth(bandwidth);
  for (std::size_t j = 0; j < 2; ++j) {
    const double scale = feature_scales[j];
    if (!std::isfinite(scale) || scale <= 0.0)
      throw std::invalid_argument("feature_scales[" + std::to_string(j) + "] must be positive and finite, got " +
                                  format_number(scale));
    const std::string name = "feature_scales[" + std::to_string(j) + "] = " + format_number(scale);
    if (scale > max_feature_scale)
      throw std::domain_error(name + " overflows: the keys reach 3 x the scale and their squared differences "
                              "(36 x scale^2) exceed double precision; the scale must be at most " +
                              format_number(max_feature_scale));
    if (scale < min_feature_scale)
      throw std::domain_error(name + " underflows: the squared differences of the keys fall below double "
                              "precision's normal range; the scale must be at least " +
                              format_number(min_feature_scale));
  }
}

Vector truth_2d(const MatrixRef& natural) {
  if (natural.cols() != 2)
    throw std::invalid_argument("natural coordinates must have 2 columns, got " + std::to_string(natural.cols()));
  return (1.5 * natural.col(0).array()).sin() + 0.3 * (4.0 * natural.col(1).array()).cos();
}

StandardizeResult standardize_exercise(const StandardizeConfig& config) {
  config.check();
  NumpyRandom rng(config.seed);
  const auto n = static_cast<Eigen::Index>(config.keys);
  const auto m = static_cast<Eigen::Index>(config.queries);
  const Vector key_draws = rng.uniform(-3.0, 3.0, 2 * config.keys);
  const RowMatrix natural_keys = Eigen::Map<const RowMatrix>(key_draws.data(), n, 2);
  const Vector values = truth_2d(natural_keys) + rng.normal(0.0, config.noise, config.keys);
  const Vector query_draws = rng.uniform(-3.0, 3.0, 2 * config.queries);
  const RowMatrix natural_queries = Eigen::Map<const RowMatrix>(query_draws.data(), m, 2);

  const std::vector<Eigen::Index> key_order = stable_order(natural_keys.col(0));
  const std::vector<Eigen::Index> query_order = stable_order(natural_queries.col(0));
  const Eigen::RowVector2d scales(config.feature_scales[0], config.feature_scales[1]);

  StandardizeResult result;
  result.raw_keys.resize(n, 2);
  result.values.resize(n);
  RowMatrix sorted_natural_queries(m, 2);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Index source = key_order[static_cast<std::size_t>(i)];
    result.raw_keys.row(i) = natural_keys.row(source).cwiseProduct(scales);
    result.values(i) = values(source);
  }
  result.raw_queries.resize(m, 2);
  for (Eigen::Index r = 0; r < m; ++r) {
    sorted_natural_queries.row(r) = natural_queries.row(query_order[static_cast<std::size_t>(r)]);
    result.raw_queries.row(r) = sorted_natural_queries.row(r).cwiseProduct(scales);
  }

  /// Training statistics: mean_j and the ddof-0 standard deviation of each key feature.
  const Eigen::RowVector2d mean = result.raw_keys.colwise().mean();
  const Eigen::RowVector2d scale =
      ((result.raw_keys.rowwise() - mean).array().square().colwise().sum() / static_cast<double>(n)).sqrt();
  for (int j = 0; j < 2; ++j) {
    if (!(scale(j) > 0.0))
      throw std::domain_error("feature " + std::to_string(j) + " of the keys has zero spread; cannot standardise");
    result.mean[static_cast<std::size_t>(j)] = mean(j);
    result.scale[static_cast<std::size_t>(j)] = scale(j);
  }
  result.standardized_keys = (result.raw_keys.rowwise() - mean).array().rowwise() / scale.array();
  result.standardized_queries = (result.raw_queries.rowwise() - mean).array().rowwise() / scale.array();

  result.raw_weights = attention_weights(result.raw_queries, result.raw_keys, config.bandwidth);
  result.standardized_weights = attention_weights(result.standardized_queries, result.standardized_keys, config.bandwidth);
  result.truth_at_queries = truth_2d(sorted_natural_queries);
  result.raw_predictions = mix_value_column(result.raw_weights, result.values);
  result.standardized_predictions = mix_value_column(result.standardized_weights, result.values);
  result.raw_mse = mse(result.raw_predictions, result.truth_at_queries);
  result.standardized_mse = mse(result.standardized_predictions, result.truth_at_queries);
  // Only a noise level near 1e154 or beyond overflows the squared errors; say so instead of NaN.
  if (!std::isfinite(result.raw_mse) || !std::isfinite(result.standardized_mse))
    throw std::domain_error("the squared errors overflow double precision at noise " + format_number(config.noise) +
                            "; reduce the noise level");
  result.raw_distance_share = distance_share(result.raw_queries, result.raw_keys);
  result.standardized_distance_share = distance_share(result.standardized_queries, result.standardized_keys);
  return result;
}

}  // namespace kernel_lens
