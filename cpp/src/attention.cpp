#include "kernel_lens/attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernel_lens/cold.hpp"
#include "kernel_lens/detail/vector_math.hpp"
#include "kernel_lens/detail/weight_rows.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/summation.hpp"
#include "kernel_lens/work.hpp"

namespace kernel_lens {

namespace {

/// Row of squared distances -> the h -> 0+ limit, in place: 1/t on the t nearest keys, 0 elsewhere.
KERNEL_LENS_COLD void nearest_limit_inplace(RowVectorOut distances) {
  const double nearest = distances.minCoeff();
  double ties = 0.0;
  for (Eigen::Index i = 0; i < distances.size(); ++i) ties += distances(i) == nearest ? 1.0 : 0.0;
  for (Eigen::Index i = 0; i < distances.size(); ++i) distances(i) = distances(i) == nearest ? 1.0 / ties : 0.0;
}

/// \f$ a_r B^\top \f$: row `r` of A times every row of B:(n,k), into out_row (n).
void row_times_rows(const MatrixRef& a, Eigen::Index r, const MatrixRef& b, double* out_row) {
  const auto k = static_cast<std::size_t>(a.cols());
  for (Eigen::Index c = 0; c < b.rows(); ++c) out_row[c] = detail::dot(a.row(r).data(), b.row(c).data(), k);
}

/// \f$ A B^\top \f$ for A:(m,k), B:(n,k) -> (m,n), one dot product of contiguous rows per entry.
RowMatrix row_dot_products(const MatrixRef& a, const MatrixRef& b) {
  RowMatrix out(a.rows(), b.rows());
  for (Eigen::Index r = 0; r < a.rows(); ++r) row_times_rows(a, r, b, out.row(r).data());
  return out;
}

}  // namespace

RowMatrix mix_values(const MatrixRef& weights, const MatrixRef& values) {
  const RowMatrix values_transposed = values.transpose();
  return row_dot_products(weights, values_transposed);
}

Vector mix_value_column(const MatrixRef& weights, const VectorRef& values) {
  Vector out(weights.rows());
  const auto n = static_cast<std::size_t>(weights.cols());
  for (Eigen::Index r = 0; r < weights.rows(); ++r) out(r) = detail::dot(weights.row(r).data(), values.data(), n);
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

namespace detail {

KERNEL_LENS_COLD WeightRows::WeightRows(const MatrixRef& queries, const MatrixRef& keys, double bandwidth,
                                        Kernel kernel, EmptyRowPolicy empty_rows)
    : queries_(queries), keys_transposed_(keys.transpose()), distances_(keys.rows()), bandwidth_(bandwidth),
      kernel_(kernel), empty_rows_(empty_rows) {
  check_bandwidth(bandwidth);
  check_score_shapes(queries, keys);
  check_finite(queries, "queries");
  check_finite(keys, "keys");
  if (kernel == Kernel::Gaussian && std::isnormal(2.0 * (bandwidth * bandwidth)))
    gaussian_divisor_ = 2.0 * (bandwidth * bandwidth);
}

double WeightRows::gaussian_unnormalised(Eigen::Index r, RowVectorOut row) {
  if (!(gaussian_divisor_ > 0.0)) return 0.0;
  // kernel_weights_row's first attempt, fused: -D / (2h^2) with its maximum, e^(s - max) with
  // NumPy's pairwise sum (then the division, by the caller); the same operations in the same
  // order, so the same bits, in three passes over the row.
  const auto n = static_cast<std::size_t>(row.size());
  const double shift = gaussian_scores(keys_transposed_.data(), static_cast<std::size_t>(keys_transposed_.rows()), n,
                                       queries_.row(r).data(), gaussian_divisor_, row.data());
  if (shift == -std::numeric_limits<double>::infinity()) return 0.0;
  return exp_shifted_sum(row.data(), n, shift);
}

void WeightRows::general(Eigen::Index r, RowVectorOut row) {
  squared_distance_row(queries_.row(r), keys_transposed_, distances_);
  if (!kernel_weights_row(distances_, bandwidth_, kernel_, row)) {
    if (empty_rows_ == EmptyRowPolicy::Error) refuse_empty_row(r, bandwidth_, kernel_);
    row = distances_;
    nearest_limit_inplace(row);
  }
}

double WeightRows::fill(Eigen::Index r, RowVectorOut row, const double* values) {
  const auto n = static_cast<std::size_t>(row.size());
  if (const double sum = gaussian_unnormalised(r, row); sum > 0.0) {
    if (values) return divide_dot(row.data(), n, sum, values);
    divide_inplace(row.data(), n, sum);
    return 0.0;
  }
  general(r, row);
  return values ? dot(row.data(), values, n) : 0.0;
}

double WeightRows::fill_tallied(Eigen::Index r, RowVectorOut row, const double* values, double* sums,
                                ValueRange& range, double& weight_sum) {
  double sum = gaussian_unnormalised(r, row);
  if (!(sum > 0.0)) {
    general(r, row);
    sum = 1.0;  // a row normalised already: divided by 1, it is itself, bit for bit
  }
  return divide_tally(row.data(), static_cast<std::size_t>(row.size()), sum, values, sums, range, weight_sum);
}

}  // namespace detail

namespace {

using detail::WeightRows;

/// Query `r`'s weights into row `i` of `weights` and its outputs into row `i` of `outputs`.
void fill_row(WeightRows& rows, Eigen::Index r, RowMatrix& weights, Eigen::Index i, const RowMatrix& values_transposed,
              RowMatrix& outputs) {
  if (values_transposed.rows() == 1) {
    outputs(i, 0) = rows.fill(r, weights.row(i), values_transposed.data());
    return;
  }
  rows.fill(r, weights.row(i));
  row_times_rows(weights, i, values_transposed, outputs.row(i).data());
}

void check_attention_work(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values) {
  check_work(work::attention(static_cast<double>(queries.rows()), static_cast<double>(keys.rows()),
                            static_cast<double>(keys.cols()), static_cast<double>(values.cols())),
             "attention", [&] { return std::string("queries x keys x (d + p + 1) = " + std::to_string(queries.rows()) + " x " +
                              std::to_string(keys.rows()) + " x " + std::to_string(keys.cols() + values.cols() + 1)); });
}

}  // namespace

RowMatrix attention_weights(const MatrixRef& queries, const MatrixRef& keys, double bandwidth, Kernel kernel,
                            EmptyRowPolicy empty_rows) {
  WeightRows rows(queries, keys, bandwidth, kernel, empty_rows);
  RowMatrix weights(queries.rows(), keys.rows());
  for (Eigen::Index r = 0; r < queries.rows(); ++r) rows.fill(r, weights.row(r));
  return weights;
}

void attention_into(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values, double bandwidth,
                    AttentionResult& result, Kernel kernel, EmptyRowPolicy empty_rows) {
  check_attention_inputs(queries, keys, values, bandwidth);
  WeightRows rows(queries, keys, bandwidth, kernel, empty_rows);
  const RowMatrix values_transposed = values.transpose();
  result.weights.resize(queries.rows(), keys.rows());
  result.outputs.resize(queries.rows(), values.cols());
  for (Eigen::Index r = 0; r < queries.rows(); ++r) fill_row(rows, r, result.weights, r, values_transposed, result.outputs);
}

void check_attention_inputs(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values, double bandwidth) {
  check_bandwidth(bandwidth);
  check_attention_shapes(queries, keys, values);
  check_attention_work(queries, keys, values);
  check_finite(queries, "queries");
  check_finite(keys, "keys");
  check_finite(values, "values");
}

void attention_blocks(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values, double bandwidth,
                      Kernel kernel, EmptyRowPolicy empty_rows, Eigen::Index block_rows, const AttentionBlockVisitor& visit) {
  check_attention_inputs(queries, keys, values, bandwidth);
  if (block_rows < 1) throw std::invalid_argument("block_rows must be at least 1, got " + std::to_string(block_rows));
  WeightRows rows(queries, keys, bandwidth, kernel, empty_rows);
  const RowMatrix values_transposed = values.transpose();
  const Eigen::Index m = queries.rows();
  AttentionResult block;
  block.weights.resize(std::min(block_rows, m), keys.rows());
  block.outputs.resize(block.weights.rows(), values.cols());
  for (Eigen::Index first = 0; first < m; first += block_rows) {
    const Eigen::Index count = std::min(block_rows, m - first);
    for (Eigen::Index i = 0; i < count; ++i) fill_row(rows, first + i, block.weights, i, values_transposed, block.outputs);
    visit(first, block.weights.topRows(count), block.outputs.topRows(count));
  }
}

AttentionResult attention(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values,
                          double bandwidth, Kernel kernel, EmptyRowPolicy empty_rows) {
  AttentionResult result;
  attention_into(queries, keys, values, bandwidth, result, kernel, empty_rows);
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
  report.kernel_values = report.log_scores.array().unaryExpr([](double a) { return detail::exp(a); });
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
