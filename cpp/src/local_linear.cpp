#include "kernel_lens/local_linear.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernel_lens/limits.hpp"

namespace kernel_lens {

namespace {

/// At most d + 1 = 9 rows: the moment matrices live on the stack.
constexpr int max_order = static_cast<int>(local_linear_max_dimension) + 1;
using Square = double[max_order][max_order];

/// The smallest and largest eigenvalues of the symmetric k x k matrix `a` (destroyed), by cyclic
/// Jacobi rotations until the off-diagonal part is negligible (a few sweeps at these sizes).
std::pair<double, double> eigenvalue_range(Square& a, int k) {
  for (int sweep = 0; sweep < 64; ++sweep) {
    double off = 0.0, diagonal = 0.0;
    for (int i = 0; i < k; ++i) {
      diagonal += a[i][i] * a[i][i];
      for (int j = i + 1; j < k; ++j) off += a[i][j] * a[i][j];
    }
    if (off <= 1e-36 * diagonal) break;
    for (int p = 0; p < k; ++p)
      for (int q = p + 1; q < k; ++q) {
        if (a[p][q] == 0.0) continue;
        const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
        const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0);
        const double s = t * c;
        for (int r = 0; r < k; ++r) {  // columns p and q
          const double arp = a[r][p], arq = a[r][q];
          a[r][p] = c * arp - s * arq;
          a[r][q] = s * arp + c * arq;
        }
        for (int r = 0; r < k; ++r) {  // rows p and q
          const double apr = a[p][r], aqr = a[q][r];
          a[p][r] = c * apr - s * aqr;
          a[q][r] = s * apr + c * aqr;
        }
      }
  }
  double smallest = a[0][0], largest = a[0][0];
  for (int i = 1; i < k; ++i) {
    smallest = std::min(smallest, a[i][i]);
    largest = std::max(largest, a[i][i]);
  }
  return {smallest, largest};
}

/// Solves S x = b for the symmetric positive definite d x d matrix S (destroyed: its Cholesky
/// factor) in place of b.
void cholesky_solve(Square& s, int d, double* b) {
  for (int j = 0; j < d; ++j) {
    for (int k = 0; k < j; ++k) s[j][j] -= s[j][k] * s[j][k];
    s[j][j] = std::sqrt(s[j][j]);
    for (int i = j + 1; i < d; ++i) {
      for (int k = 0; k < j; ++k) s[i][j] -= s[i][k] * s[j][k];
      s[i][j] /= s[j][j];
    }
  }
  for (int i = 0; i < d; ++i) {  // L y = b
    for (int k = 0; k < i; ++k) b[i] -= s[i][k] * b[k];
    b[i] /= s[i][i];
  }
  for (int i = d - 1; i >= 0; --i) {  // L^T x = y
    for (int k = i + 1; k < d; ++k) b[i] -= s[k][i] * b[k];
    b[i] /= s[i][i];
  }
}

/// Row r of the local linear weights from the NW weights `w` (n) at query `q` (d), in place;
/// false (w untouched) when the row's weighted design is numerically singular.
bool local_linear_row(const MatrixRef& keys, const RowVectorRef& q, RowVectorOut w) {
  const Eigen::Index n = keys.rows();
  const int d = static_cast<int>(keys.cols());
  double mean[max_order] = {};  // sum_i w_i x_i (the weights sum to one)
  for (Eigen::Index i = 0; i < n; ++i)
    if (w(i) != 0.0)
      for (int a = 0; a < d; ++a) mean[a] += w(i) * keys(i, a);
  Square covariance = {};  // S = sum_i w_i (x_i - mu)(x_i - mu)^T
  double centred[max_order];
  for (Eigen::Index i = 0; i < n; ++i) {
    if (w(i) == 0.0) continue;
    for (int a = 0; a < d; ++a) centred[a] = keys(i, a) - mean[a];
    for (int a = 0; a < d; ++a)
      for (int b = 0; b <= a; ++b) covariance[a][b] += w(i) * centred[a] * centred[b];
  }
  double offset[max_order];  // delta = q - mu
  for (int a = 0; a < d; ++a) {
    offset[a] = q(a) - mean[a];
    for (int b = 0; b < a; ++b) covariance[b][a] = covariance[a][b];
    if (!(covariance[a][a] > 0.0)) return false;
  }

  // The design's moment matrix M = [[1, -delta^T], [-delta, S + delta delta^T]] (rows [1, x_i - q]),
  // scaled to a unit diagonal; its eigenvalues decide whether the line is determined.
  Square moments;
  moments[0][0] = 1.0;
  for (int a = 0; a < d; ++a) {
    moments[0][a + 1] = moments[a + 1][0] = -offset[a];
    for (int b = 0; b < d; ++b) moments[a + 1][b + 1] = covariance[a][b] + offset[a] * offset[b];
  }
  double scale[max_order];
  for (int a = 0; a <= d; ++a) {
    if (!std::isfinite(moments[a][a])) return false;
    scale[a] = 1.0 / std::sqrt(moments[a][a]);
  }
  for (int a = 0; a <= d; ++a)
    for (int b = 0; b <= d; ++b) moments[a][b] *= scale[a] * scale[b];
  const auto [smallest, largest] = eigenvalue_range(moments, d + 1);
  if (!(smallest > local_linear_rcond * largest)) return false;

  // l_i = w_i (1 + (x_i - mu)^T S^{-1} delta); S is positive definite here (M is, and S is its
  // Schur complement).
  cholesky_solve(covariance, d, offset);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (w(i) == 0.0) continue;
    double dot = 0.0;
    for (int a = 0; a < d; ++a) dot += (keys(i, a) - mean[a]) * offset[a];
    w(i) *= 1.0 + dot;
  }
  return true;
}

}  // namespace

LocalLinearResult local_linear(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values,
                               double bandwidth, Kernel kernel) {
  check_attention_inputs(queries, keys, values, bandwidth);
  if (keys.cols() > local_linear_max_dimension)
    throw std::length_error("d is " + std::to_string(keys.cols()) + "; local linear regression takes at most " +
                            std::to_string(local_linear_max_dimension) + " features");
  LocalLinearResult result;
  result.weights = attention_weights(queries, keys, bandwidth, kernel);
  for (Eigen::Index r = 0; r < queries.rows(); ++r)
    if (!local_linear_row(keys, queries.row(r), result.weights.row(r))) result.fallback_rows.push_back(r);
  result.outputs = mix_values(result.weights, values);
  return result;
}

namespace {

SmootherErrors errors_of(const RowMatrix& weights, const VectorRef& truth_at_keys, const VectorRef& truth_at_queries,
                         double noise) {
  SmootherErrors errors;
  errors.bias = mix_value_column(weights, truth_at_keys) - truth_at_queries;
  errors.sd = noise * weights.rowwise().norm();
  return errors;
}

}  // namespace

SmootherAudit smoother_audit(const MatrixRef& queries, const MatrixRef& keys, const VectorRef& truth_at_keys,
                             const VectorRef& truth_at_queries, double noise, double bandwidth, Kernel kernel) {
  if (truth_at_keys.size() != keys.rows())
    throw std::invalid_argument("truthAtKeys has " + std::to_string(truth_at_keys.size()) + " numbers for " +
                                std::to_string(keys.rows()) + " keys; expected one per key");
  if (truth_at_queries.size() != queries.rows())
    throw std::invalid_argument("truthAtQueries has " + std::to_string(truth_at_queries.size()) + " numbers for " +
                                std::to_string(queries.rows()) + " queries; expected one per query");
  if (!(noise >= 0.0 && std::isfinite(noise)))
    throw std::domain_error("noise must be a finite standard deviation >= 0, got " + format_number(noise));
  if (!truth_at_queries.allFinite()) throw std::domain_error("truthAtQueries must be finite numbers");
  const LocalLinearResult line = local_linear(queries, keys, truth_at_keys, bandwidth, kernel);
  SmootherAudit audit;
  audit.nadaraya_watson = errors_of(attention_weights(queries, keys, bandwidth, kernel), truth_at_keys, truth_at_queries, noise);
  audit.local_linear = errors_of(line.weights, truth_at_keys, truth_at_queries, noise);
  audit.fallback_rows = line.fallback_rows;
  return audit;
}

BandCoverage band_coverage(const VectorRef& curve, const VectorRef& truth, const VectorRef& bias, const VectorRef& sd,
                           double width) {
  if (curve.size() == 0) throw std::invalid_argument("curve must have at least one query");
  check_rows(static_cast<std::size_t>(curve.size()), "curve");
  const std::pair<const VectorRef*, const char*> others[] = {{&truth, "truth"}, {&bias, "bias"}, {&sd, "sd"}};
  for (const auto& [vector, name] : others)
    if (vector->size() != curve.size())
      throw std::invalid_argument(std::string(name) + " has " + std::to_string(vector->size()) + " numbers for " +
                                  std::to_string(curve.size()) + " queries in curve; expected one per query");
  check_finite(curve, "curve");
  check_finite(truth, "truth");
  check_finite(bias, "bias");
  check_finite(sd, "sd");
  for (Eigen::Index r = 0; r < sd.size(); ++r)
    if (sd(r) < 0.0)
      throw std::invalid_argument("sd[" + std::to_string(r) + "] must be >= 0, got " + format_number(sd(r)));
  if (!(width > 0.0 && std::isfinite(width)))
    throw std::invalid_argument("width must be positive and finite, got " + format_number(width));
  const Eigen::Index m = curve.size();
  BandCoverage coverage{0.0, 0.0, Vector(m)};
  Eigen::Index inside = 0;
  const double root_half = std::sqrt(0.5);
  for (Eigen::Index r = 0; r < m; ++r) {
    if (std::abs(curve(r) - truth(r)) <= width * sd(r)) ++inside;
    // P is even in the bias: with z = |bias| / sd both erfc arguments are at least -width/sqrt 2,
    // so the difference never cancels two numbers near 2. Without noise the band is the curve.
    const double spread = sd(r);
    const double offset = std::abs(bias(r));
    if (spread > 0.0) {
      const double z = offset / spread;
      coverage.probability(r) = 0.5 * (std::erfc((z - width) * root_half) - std::erfc((z + width) * root_half));
    } else {
      coverage.probability(r) = offset == 0.0 ? 1.0 : 0.0;
    }
  }
  coverage.observed = static_cast<double>(inside) / static_cast<double>(m);
  coverage.expected = coverage.probability.mean();
  return coverage;
}

}  // namespace kernel_lens
