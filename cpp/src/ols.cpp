#include "kernel_lens/ols.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernel_lens/attention.hpp"
#include "kernel_lens/cold.hpp"
#include "kernel_lens/limits.hpp"

namespace kernel_lens {

namespace {

/// Columns of R whose pivot falls below this fraction of the largest one count as dependent.
constexpr double kRankTolerance = 1e-10;

/// \f$ \lambda \f$ is unchanged by an invertible affine map of each feature (the intercept keeps
/// the column space), so keys and queries are standardised first, \f$ z = (x/u - c)/s \f$ with
/// u = max |x|, c and s the mean and rms spread of x/u: the weights then do not depend on the
/// features' units, from 1e-300 to 1e300 alike.
/// Then \f$ \tilde Z P = QR \f$ by Householder reflections with column pivoting, and
/// \f$ \lambda = Q R^{-\top} P^\top \tilde z \f$. The design is n x (d + 1) with d <= 64, so plain
/// loops over its columns do the work.
class HatWeights {
 public:
  KERNEL_LENS_COLD explicit HatWeights(const MatrixRef& keys) {
    check_matrix_shape(keys, "keys");
    check_finite(keys, "keys");
    const Eigen::Index n = keys.rows();
    const Eigen::Index d = keys.cols();
    if (n < d + 1)
      throw std::domain_error("OLS needs at least d + 1 = " + std::to_string(d + 1) + " keys, got " +
                              std::to_string(n) + "; the design matrix with its intercept is rank-deficient");
    /// Per feature: unit u = max |x| (so x / u lies in [-1, 1] and nothing below overflows or
    /// underflows when squared), centre c = mean(x / u), spread s = rms(x / u - c).
    unit_.resize(d);
    centre_.resize(d);
    spread_.resize(d);
    for (Eigen::Index c = 0; c < d; ++c) {
      const double unit = keys.col(c).cwiseAbs().maxCoeff();
      double spread = 0.0;
      double centre = 0.0;
      if (unit > 0.0) {
        const Eigen::ArrayXd scaled = keys.col(c).array() / unit;
        centre = scaled.mean();
        spread = std::sqrt((scaled - centre).square().mean());
      }
      if (!(spread > 0.0))
        throw std::domain_error("keys column " + std::to_string(c) +
                                " is constant; the design matrix with its intercept is rank-deficient");
      unit_(c) = unit;
      centre_(c) = centre;
      spread_(c) = spread;
    }
    qr_.resize(n, d + 1);
    qr_.col(0).setOnes();
    for (Eigen::Index r = 0; r < n; ++r) qr_.row(r).tail(d) = standardized(keys.row(r));
    const Eigen::Index rank = factorize();
    if (rank < d + 1)
      throw std::domain_error("the design matrix with its intercept has rank " + std::to_string(rank) +
                              " < d + 1 = " + std::to_string(d + 1) +
                              "; the keys are duplicated or collinear (rank-deficient)");
  }

  /// Q:(m,d) -> (m,n).
  RowMatrix operator()(const MatrixRef& queries) const {
    const Eigen::Index n = qr_.rows();
    const Eigen::Index k = qr_.cols();
    RowMatrix weights(queries.rows(), n);
    Vector design(k);
    Vector lambda(n);
    for (Eigen::Index r = 0; r < queries.rows(); ++r) {
      design(0) = 1.0;
      design.tail(k - 1) = standardized(queries.row(r)).transpose();
      /// R^T y = P^T z~ by forward substitution, y stored in lambda's head.
      for (Eigen::Index j = 0; j < k; ++j) {
        double sum = design(permutation_[static_cast<std::size_t>(j)]);
        for (Eigen::Index i = 0; i < j; ++i) sum -= qr_(i, j) * lambda(i);
        lambda(j) = sum / diagonal_(j);
      }
      lambda.tail(n - k).setZero();
      /// lambda = H_0 ... H_{k-1} [y; 0].
      for (Eigen::Index j = k - 1; j >= 0; --j) reflect(j, lambda.data());
      if (!lambda.allFinite())
        throw std::domain_error("OLS weights of query row " + std::to_string(r) +
                                " overflow double precision; the query lies too far from the keys");
      weights.row(r) = lambda.transpose();
    }
    return weights;
  }

 private:
  /// \f$ z = (x/u - c)/s \f$ per feature.
  Eigen::RowVectorXd standardized(const RowVectorRef& point) const {
    return ((point.array() / unit_.array() - centre_.array()) / spread_.array()).matrix();
  }

  /// x <- H_j x with H_j = I - tau_j v_j v_j^T, v_j = (1, qr_(j+1:, j)) acting on x(j:).
  void reflect(Eigen::Index j, double* x) const {
    const Eigen::Index n = qr_.rows();
    const double* v = qr_.col(j).data();
    double dot = x[j];
    for (Eigen::Index i = j + 1; i < n; ++i) dot += v[i] * x[i];
    dot *= tau_(j);
    x[j] -= dot;
    for (Eigen::Index i = j + 1; i < n; ++i) x[i] -= dot * v[i];
  }

  /// Householder QR with column pivoting in place: R above the diagonal of qr_ (its diagonal in
  /// diagonal_), the reflectors' tails below it. Returns the rank, the number of |R_jj| above
  /// kRankTolerance times the largest.
  Eigen::Index factorize() {
    const Eigen::Index n = qr_.rows();
    const Eigen::Index k = qr_.cols();
    permutation_.resize(static_cast<std::size_t>(k));
    for (Eigen::Index j = 0; j < k; ++j) permutation_[static_cast<std::size_t>(j)] = j;
    diagonal_.resize(k);
    tau_.resize(k);
    for (Eigen::Index j = 0; j < k; ++j) {
      Eigen::Index pivot = j;
      double pivot_norm = -1.0;
      for (Eigen::Index c = j; c < k; ++c) {
        const double norm = qr_.col(c).tail(n - j).squaredNorm();
        if (norm > pivot_norm) {
          pivot = c;
          pivot_norm = norm;
        }
      }
      qr_.col(j).swap(qr_.col(pivot));
      std::swap(permutation_[static_cast<std::size_t>(j)], permutation_[static_cast<std::size_t>(pivot)]);
      /// H x = beta e_1 for x = qr_(j:, j): beta = -sign(x_0) ||x||, v = x / (x_0 - beta), tau = (beta - x_0) / beta.
      double* x = qr_.col(j).data();
      const double tail = qr_.col(j).tail(n - j - 1).squaredNorm();
      if (tail == 0.0) {
        tau_(j) = 0.0;
        diagonal_(j) = x[j];
      } else {
        const double beta = x[j] >= 0.0 ? -std::sqrt(x[j] * x[j] + tail) : std::sqrt(x[j] * x[j] + tail);
        const double scale = 1.0 / (x[j] - beta);
        for (Eigen::Index i = j + 1; i < n; ++i) x[i] *= scale;
        tau_(j) = (beta - x[j]) / beta;
        diagonal_(j) = beta;
      }
      x[j] = diagonal_(j);
      for (Eigen::Index c = j + 1; c < k; ++c) reflect(j, qr_.col(c).data());
    }
    const double largest = diagonal_.cwiseAbs().maxCoeff();
    return (diagonal_.array().abs() > kRankTolerance * largest).count();
  }

  Eigen::RowVectorXd unit_;
  Eigen::RowVectorXd centre_;
  Eigen::RowVectorXd spread_;
  Eigen::MatrixXd qr_;
  Vector diagonal_;
  Vector tau_;
  std::vector<Eigen::Index> permutation_;
};

void check_work_for(const MatrixRef& keys, Eigen::Index query_count) {
  const auto n = static_cast<double>(keys.rows());
  const auto k = static_cast<double>(keys.cols() + 1);
  check_work(n * k * k + static_cast<double>(query_count) * n * k, "the OLS weights",
             [&] { return std::string("keys x (d + 1)^2 + queries x keys x (d + 1) = " + std::to_string(keys.rows()) + " x " +
                 std::to_string(keys.cols() + 1) + "^2 + " + std::to_string(query_count) + " x " +
                 std::to_string(keys.rows()) + " x " + std::to_string(keys.cols() + 1)); });
}

void check_queries(const MatrixRef& keys, const MatrixRef& queries) {
  check_score_shapes(queries, keys);
  check_finite(queries, "queries");
  check_work_for(keys, queries.rows());
}

}  // namespace

Vector ols_weights(const MatrixRef& keys, const VectorRef& query) {
  check_query(query, keys);
  check_work_for(keys, 1);
  const RowMatrix query_row = query.transpose();
  return HatWeights(keys)(query_row).row(0).transpose();
}

RowMatrix ols_weight_matrix(const MatrixRef& keys, const MatrixRef& queries) {
  check_queries(keys, queries);
  return HatWeights(keys)(queries);
}

OlsPrediction ols_predict(const MatrixRef& keys, const VectorRef& targets, const MatrixRef& queries) {
  check_queries(keys, queries);
  if (targets.size() != keys.rows())
    throw std::invalid_argument("targets have " + std::to_string(targets.size()) + " entries but keys have " +
                                std::to_string(keys.rows()) + " rows; expected one target per key");
  check_finite(targets, "targets");
  OlsPrediction result;
  result.weights = HatWeights(keys)(queries);
  result.predictions = mix_value_column(result.weights, targets);
  for (Eigen::Index r = 0; r < result.predictions.size(); ++r)
    if (!std::isfinite(result.predictions(r)))
      throw std::domain_error("the OLS prediction of query row " + std::to_string(r) +
                              " overflows double precision; the query lies too far from the keys");
  return result;
}

}  // namespace kernel_lens
