#include "kernel_lens/ols.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernel_lens/attention.hpp"
#include "kernel_lens/cold.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/work.hpp"

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

/// The chapter's route, `query_design @ np.linalg.solve(design.T @ design, design.T)`, in the
/// arithmetic order of NumPy on the reference BLAS/LAPACK: the Gram matrix as dot products summed
/// from the first key on (dsyrk), LAPACK's recursive LU with partial pivoting (dgetrf2: pivot = the
/// first largest |entry|, the column below it scaled by the pivot's reciprocal), the two triangular
/// solves of dgetrs for the right-hand sides design^T (dtrsm: division by the diagonal), then the
/// (1 x k) by (k x n) product summed in order. Same operations, same order, so the same bits: at
/// q = 1 on the keys -2..2 the first weight is 0 exactly, as NumPy prints it.
class ChapterRoute {
 public:
  KERNEL_LENS_COLD explicit ChapterRoute(const MatrixRef& keys) : n_(keys.rows()), k_(keys.cols() + 1) {
    design_.resize(n_, k_);
    design_.col(0).setOnes();
    design_.rightCols(k_ - 1) = keys;
    Eigen::MatrixXd lu(k_, k_);
    for (Eigen::Index j = 0; j < k_; ++j)
      for (Eigen::Index i = 0; i < k_; ++i) {
        double sum = 0.0;
        for (Eigen::Index l = 0; l < n_; ++l) sum = sum + design_(l, i) * design_(l, j);
        lu(i, j) = sum;
      }
    pivots_.assign(static_cast<std::size_t>(k_), 0);
    usable_ = lu.allFinite() && factorize(lu, 0, k_, k_, pivots_.data());
    if (!usable_) return;
    /// solution = G^{-1} design^T, column by column (one column per key).
    solution_ = design_.transpose();
    for (Eigen::Index j = 0; j < k_; ++j) {
      const Eigen::Index p = pivots_[static_cast<std::size_t>(j)];
      if (p != j) solution_.row(j).swap(solution_.row(p));
    }
    for (Eigen::Index c = 0; c < n_; ++c) {
      double* b = solution_.col(c).data();
      for (Eigen::Index t = 0; t < k_; ++t)
        if (b[t] != 0.0)
          for (Eigen::Index i = t + 1; i < k_; ++i) b[i] = b[i] - b[t] * lu(i, t);
      for (Eigen::Index t = k_ - 1; t >= 0; --t)
        if (b[t] != 0.0) {
          b[t] = b[t] / lu(t, t);
          for (Eigen::Index i = 0; i < t; ++i) b[i] = b[i] - b[t] * lu(i, t);
        }
    }
    usable_ = solution_.allFinite();
  }

  /// False where the Gram matrix overflowed or its LU met a zero pivot.
  bool usable() const { return usable_; }

  /// The weights of one query (its features without the leading 1) into `out`.
  void operator()(const RowVectorRef& query, double* out) const {
    for (Eigen::Index c = 0; c < n_; ++c) {
      double sum = 0.0;
      sum = sum + 1.0 * solution_(0, c);
      for (Eigen::Index j = 1; j < k_; ++j) sum = sum + query(j - 1) * solution_(j, c);
      out[c] = sum;
    }
  }

 private:
  /// dgetrf2 on the m x n block of `a` starting at (offset, offset); pivots relative to the block.
  /// Returns false on a zero pivot (LAPACK's info > 0).
  static bool factorize(Eigen::MatrixXd& a, Eigen::Index offset, Eigen::Index m, Eigen::Index n,
                        Eigen::Index* pivots) {
    if (m == 1) {
      pivots[0] = 0;
      return a(offset, offset) != 0.0;
    }
    if (n == 1) {
      Eigen::Index best = 0;
      for (Eigen::Index t = 1; t < m; ++t)
        if (std::abs(a(offset + t, offset)) > std::abs(a(offset + best, offset))) best = t;
      pivots[0] = best;
      if (a(offset + best, offset) == 0.0) return false;
      if (best != 0) std::swap(a(offset, offset), a(offset + best, offset));
      const double pivot = a(offset, offset);
      if (std::abs(pivot) >= std::numeric_limits<double>::min()) {
        const double reciprocal = 1.0 / pivot;
        for (Eigen::Index t = 1; t < m; ++t) a(offset + t, offset) *= reciprocal;
      } else {
        for (Eigen::Index t = 1; t < m; ++t) a(offset + t, offset) /= pivot;
      }
      return true;
    }
    const Eigen::Index n1 = std::min(m, n) / 2;
    const Eigen::Index n2 = n - n1;
    /// Columns [c0, c0 + n1) of the block are the left panel, the rest the right one.
    Eigen::Block<Eigen::MatrixXd> block = a.block(offset, offset, m, n);
    bool ok = factorize_panel(a, offset, m, n1, pivots);
    for (Eigen::Index j = 0; j < n1; ++j)
      if (pivots[j] != j)
        for (Eigen::Index c = n1; c < n; ++c) std::swap(block(j, c), block(pivots[j], c));
    for (Eigen::Index c = n1; c < n; ++c)
      for (Eigen::Index t = 0; t < n1; ++t)
        if (block(t, c) != 0.0)
          for (Eigen::Index i = t + 1; i < n1; ++i) block(i, c) = block(i, c) - block(t, c) * block(i, t);
    for (Eigen::Index c = n1; c < n; ++c)
      for (Eigen::Index l = 0; l < n1; ++l) {
        const double temp = -block(l, c);
        for (Eigen::Index i = n1; i < m; ++i) block(i, c) = block(i, c) + temp * block(i, l);
      }
    ok = factorize(a, offset + n1, m - n1, n2, pivots + n1) && ok;
    for (Eigen::Index j = n1; j < std::min(m, n); ++j) {
      pivots[j] += n1;
      if (pivots[j] != j)
        for (Eigen::Index c = 0; c < n1; ++c) std::swap(block(j, c), block(pivots[j], c));
    }
    return ok;
  }

  /// dgetrf2 on the m x n1 panel whose top-left corner is the block's (offset, offset).
  static bool factorize_panel(Eigen::MatrixXd& a, Eigen::Index offset, Eigen::Index m, Eigen::Index n1,
                              Eigen::Index* pivots) {
    Eigen::MatrixXd panel = a.block(offset, offset, m, n1);
    const bool ok = factorize(panel, 0, m, n1, pivots);
    a.block(offset, offset, m, n1) = panel;
    return ok;
  }

  Eigen::Index n_;
  Eigen::Index k_;
  Eigen::MatrixXd design_;
  Eigen::MatrixXd solution_;
  std::vector<Eigen::Index> pivots_;
  bool usable_ = false;
};

/// The weights of each query row: the chapter's route (its bits are NumPy's) wherever it is
/// accurate, that is, wherever it agrees with the standardised QR route to within
/// kRouteAgreement of the weights' scale; the QR route where the normal equations lose that
/// accuracy (keys far from the origin relative to their spread, units near over- or underflow).
constexpr double kRouteAgreement = 1e-10;

RowMatrix hat_weights(const MatrixRef& keys, const MatrixRef& queries) {
  RowMatrix weights = HatWeights(keys)(queries);
  const ChapterRoute chapter(keys);
  if (!chapter.usable()) return weights;
  Eigen::RowVectorXd row(keys.rows());
  for (Eigen::Index r = 0; r < queries.rows(); ++r) {
    chapter(queries.row(r), row.data());
    const double scale = std::max(1.0, weights.row(r).cwiseAbs().maxCoeff());
    if (row.allFinite() && (row - weights.row(r)).cwiseAbs().maxCoeff() <= kRouteAgreement * scale)
      weights.row(r) = row;
  }
  return weights;
}

void check_work_for(const MatrixRef& keys, Eigen::Index query_count) {
  check_work(work::ols(static_cast<double>(keys.rows()), static_cast<double>(keys.cols()), static_cast<double>(query_count)),
             "the OLS weights",
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
  return hat_weights(keys, query_row).row(0).transpose();
}

RowMatrix ols_weight_matrix(const MatrixRef& keys, const MatrixRef& queries) {
  check_queries(keys, queries);
  return hat_weights(keys, queries);
}

OlsPrediction ols_predict(const MatrixRef& keys, const VectorRef& targets, const MatrixRef& queries) {
  check_queries(keys, queries);
  if (targets.size() != keys.rows())
    throw std::invalid_argument("targets have " + std::to_string(targets.size()) + " entries but keys have " +
                                std::to_string(keys.rows()) + " rows; expected one target per key");
  check_finite(targets, "targets");
  OlsPrediction result;
  result.weights = hat_weights(keys, queries);
  result.predictions = mix_value_column(result.weights, targets);
  for (Eigen::Index r = 0; r < result.predictions.size(); ++r)
    if (!std::isfinite(result.predictions(r)))
      throw std::domain_error("the OLS prediction of query row " + std::to_string(r) +
                              " overflows double precision; the query lies too far from the keys");
  return result;
}

}  // namespace kernel_lens
