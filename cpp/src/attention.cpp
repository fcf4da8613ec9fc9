#include "kernel_lens/attention.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernel_lens/cold.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/summation.hpp"

namespace kernel_lens {

namespace {

/// Row of squared distances -> the h -> 0+ limit, in place: 1/t on the t nearest keys, 0 elsewhere.
void nearest_limit_inplace(RowVectorOut distances) {
  const double nearest = distances.minCoeff();
  const auto ties = static_cast<double>((distances.array() == nearest).count());
  distances = (distances.array() == nearest).select(1.0 / ties, Eigen::RowVectorXd::Zero(distances.size()));
}

/// \f$ A B^\top \f$ for A:(m,k), B:(n,k) -> (m,n), one dot product of contiguous rows per entry.
RowMatrix row_dot_products(const MatrixRef& a, const MatrixRef& b) {
  RowMatrix out(a.rows(), b.rows());
  for (Eigen::Index r = 0; r < a.rows(); ++r)
    for (Eigen::Index c = 0; c < b.rows(); ++c) out(r, c) = a.row(r).dot(b.row(c));
  return out;
}

}  // namespace

RowMatrix mix_values(const MatrixRef& weights, const MatrixRef& values) {
  const RowMatrix values_transposed = values.transpose();
  return row_dot_products(weights, values_transposed);
}

Vector mix_value_column(const MatrixRef& weights, const VectorRef& values) {
  Vector out(weights.rows());
  for (Eigen::Index r = 0; r < weights.rows(); ++r) out(r) = weights.row(r).dot(values.transpose());
  return out;
}

namespace {

/// A query row with no finite score: outside every key's support (compact kernels), or every
/// squared distance overflowing (a kernel without compact support has no empty rows, so saying
/// "support" or suggesting the nearest-key policy would send the reader the wrong way).
[[noreturn]] KERNEL_LENS_COLD void refuse_empty_row(Eigen::Index r, double bandwidth, Kernel kernel) {
  if (!has_compact_support(kernel))
    throw std::domain_error("query row " + std::to_string(r) + " has no finite score with the " +
                            kernel_name(kernel) + " kernel at bandwidth " + format_number(bandwidth) +
                            ": every key's squared distance overflows double precision");
  throw std::domain_error("query row " + std::to_string(r) + " has no key inside the support of the " +
                          kernel_name(kernel) + " kernel with bandwidth " + format_number(bandwidth) +
                          "; expected at least one key closer than the bandwidth (widen it, or set "
                          "empty_rows to \"nearest\")");
}

}  // namespace

RowMatrix attention_weights(const MatrixRef& queries, const MatrixRef& keys, double bandwidth, Kernel kernel,
                            EmptyRowPolicy empty_rows) {
  check_bandwidth(bandwidth);
  check_score_shapes(queries, keys);
  check_finite(queries, "queries");
  check_finite(keys, "keys");
  const RowMatrix keys_transposed = keys.transpose();
  RowMatrix weights(queries.rows(), keys.rows());
  Eigen::RowVectorXd distances(keys.rows());
  for (Eigen::Index r = 0; r < queries.rows(); ++r) {
    auto row = weights.row(r);
    squared_distance_row(queries.row(r), keys_transposed, distances);
    if (kernel_weights_row(distances, bandwidth, kernel, row)) continue;
    if (empty_rows == EmptyRowPolicy::Error) refuse_empty_row(r, bandwidth, kernel);
    row = distances;
    nearest_limit_inplace(row);
  }
  return weights;
}

AttentionResult attention(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values,
                          double bandwidth, Kernel kernel, EmptyRowPolicy empty_rows) {
  check_bandwidth(bandwidth);
  check_attention_shapes(queries, keys, values);
  check_work(static_cast<double>(queries.rows()) * static_cast<double>(keys.rows()) *
                 static_cast<double>(keys.cols() + values.cols() + 1),
             "attention", [&] { return std::string("queries x keys x (d + p + 1) = " + std::to_string(queries.rows()) + " x " +
                              std::to_string(keys.rows()) + " x " + std::to_string(keys.cols() + values.cols() + 1)); });
  check_finite(values, "values");
  AttentionResult result;
  result.weights = attention_weights(queries, keys, bandwidth, kernel, empty_rows);
  result.outputs = mix_values(result.weights, values);
  return result;
}

double temperature_from_bandwidth(double bandwidth) {
  check_bandwidth(bandwidth);
  const double temperature = 2.0 * bandwidth * bandwidth;
  if (!std::isfinite(temperature))
    throw std::domain_error("bandwidth " + format_number(bandwidth) + " has no finite temperature: 2h^2 overflows "
                            "double precision above h = " + format_number(std::sqrt(std::numeric_limits<double>::max() / 2.0)));
  if (temperature == 0.0)
    throw std::domain_error("bandwidth " + format_number(bandwidth) +
                            " is too small: 2h^2 underflows to 0, so the temperature is 0 and the scores become 0/0");
  return temperature;
}

double bandwidth_from_temperature(double temperature) {
  check_bandwidth(temperature, "temperature");
  return std::sqrt(temperature / 2.0);
}

KERNEL_LENS_COLD Vector nearest_key_limit(const VectorRef& query, const MatrixRef& keys) {
  check_query(query, keys);
  const RowMatrix keys_transposed = keys.transpose();
  Eigen::RowVectorXd weights(keys.rows());
  squared_distance_row(query.transpose(), keys_transposed, weights);
  nearest_limit_inplace(weights);
  return weights.transpose();
}

KERNEL_LENS_COLD Vector uniform_limit(Eigen::Index n) {
  if (n < 1) throw std::invalid_argument("n must be at least 1, got " + std::to_string(n));
  if (static_cast<std::size_t>(n) > Limits::max_rows)
    throw std::length_error("n is " + std::to_string(n) + "; the limit is " + std::to_string(Limits::max_rows));
  return Vector::Constant(n, 1.0 / static_cast<double>(n));
}

KERNEL_LENS_COLD RowMatrix dot_product_scores(const MatrixRef& queries, const MatrixRef& keys) {
  check_score_shapes(queries, keys);
  check_finite(queries, "queries");
  check_finite(keys, "keys");
  return row_dot_products(queries, keys);
}

KERNEL_LENS_COLD RowMatrix distance_scores(const MatrixRef& queries, const MatrixRef& keys) {
  RowMatrix scores = squared_distances(queries, keys);
  scores = -scores;
  return scores;
}

KERNEL_LENS_COLD UnderflowReport underflow_report(const VectorRef& query, const MatrixRef& keys, double bandwidth) {
  check_bandwidth(bandwidth);
  check_query(query, keys);
  const RowMatrix query_row = query.transpose();
  UnderflowReport report;
  report.log_scores.resize(keys.rows());
  for (Eigen::Index i = 0; i < keys.rows(); ++i)
    report.log_scores(i) = -0.5 * ((query.transpose() - keys.row(i)) / bandwidth).squaredNorm();
  report.kernel_values = report.log_scores.array().unaryExpr([](double a) { return std::exp(a); });
  report.naive_denominator = pairwise_sum(report.kernel_values.data(), static_cast<std::size_t>(keys.rows()));
  report.naive_weights = report.kernel_values / report.naive_denominator;
  report.naive_all_finite = report.naive_weights.allFinite();
  Eigen::RowVectorXd stable = report.log_scores.transpose();
  if (!softmax_row_inplace(stable))
    throw std::domain_error("every log-kernel is -inf: ((query - key) / bandwidth)^2 overflows double "
                            "precision for all keys; expected at least one finite score");
  report.stable_weights = stable.transpose();
  report.stable_sum = pairwise_sum(report.stable_weights.data(), static_cast<std::size_t>(keys.rows()));
  report.stable_weights.maxCoeff(&report.nearest_index);
  if (report.naive_all_finite)
    report.max_abs_difference = (report.naive_weights - report.stable_weights).cwiseAbs().maxCoeff();
  return report;
}

}  // namespace kernel_lens
