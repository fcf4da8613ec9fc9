#include "kernel_lens/ols.hpp"

#include <Eigen/QR>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernel_lens/limits.hpp"

namespace kernel_lens {

namespace {

/// Columns of R whose pivot falls below this fraction of the largest one count as dependent.
constexpr double kRankTolerance = 1e-10;

/// \f$ \lambda \f$ is unchanged by an invertible affine map of the features (the intercept keeps
/// the column space), so keys and queries are standardised first: \f$ z = (x - \mu)/\sigma \f$.
/// Then \f$ \tilde Z P = QR \f$ and \f$ \Lambda^\top = Q R^{-\top} P^\top \tilde z \f$.
class HatWeights {
 public:
  explicit HatWeights(const MatrixRef& keys) {
    check_matrix_shape(keys, "keys");
    check_finite(keys, "keys");
    const Eigen::Index n = keys.rows();
    const Eigen::Index d = keys.cols();
    if (n < d + 1)
      throw std::domain_error("OLS needs at least d + 1 = " + std::to_string(d + 1) + " keys, got " +
                              std::to_string(n) + "; the design matrix with its intercept is rank-deficient");
    mean_ = keys.colwise().mean();
    scale_ = (keys.rowwise() - mean_).colwise().norm() / std::sqrt(static_cast<double>(n));
    for (Eigen::Index c = 0; c < d; ++c)
      if (!(scale_(c) > 0.0))
        throw std::domain_error("keys column " + std::to_string(c) +
                                " is constant; the design matrix with its intercept is rank-deficient");
    Eigen::MatrixXd design(n, d + 1);
    design.col(0).setOnes();
    design.rightCols(d) = standardize(keys);
    qr_.setThreshold(kRankTolerance);
    qr_.compute(design);
    if (qr_.rank() < d + 1)
      throw std::domain_error("the design matrix with its intercept has rank " + std::to_string(qr_.rank()) +
                              " < d + 1 = " + std::to_string(d + 1) +
                              "; the keys are duplicated or collinear (rank-deficient)");
  }

  /// Q:(m,d) -> (m,n).
  RowMatrix operator()(const MatrixRef& queries) const {
    const Eigen::Index n = qr_.rows();
    const Eigen::Index k = qr_.cols();
    Eigen::MatrixXd query_design(k, queries.rows());
    query_design.row(0).setOnes();
    query_design.bottomRows(k - 1) = standardize(queries).transpose();
    Eigen::MatrixXd padded = Eigen::MatrixXd::Zero(n, queries.rows());
    padded.topRows(k) = qr_.matrixR()
                            .topLeftCorner(k, k)
                            .triangularView<Eigen::Upper>()
                            .transpose()
                            .solve(qr_.colsPermutation().transpose() * query_design);
    padded.applyOnTheLeft(qr_.householderQ());
    for (Eigen::Index r = 0; r < padded.cols(); ++r)
      if (!padded.col(r).allFinite())
        throw std::domain_error("OLS weights of query row " + std::to_string(r) +
                                " overflow double precision; the query lies too far from the keys");
    return padded.transpose();
  }

 private:
  Eigen::MatrixXd standardize(const MatrixRef& points) const {
    return ((points.rowwise() - mean_).array().rowwise() / scale_.array()).matrix();
  }

  Eigen::RowVectorXd mean_;
  Eigen::RowVectorXd scale_;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr_;
};

void check_queries(const MatrixRef& keys, const MatrixRef& queries) {
  check_score_shapes(queries, keys);
  check_finite(queries, "queries");
}

}  // namespace

Vector ols_weights(const MatrixRef& keys, const VectorRef& query) {
  check_query(query, keys);
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
  result.predictions = result.weights * targets;
  for (Eigen::Index r = 0; r < result.predictions.size(); ++r)
    if (!std::isfinite(result.predictions(r)))
      throw std::domain_error("the OLS prediction of query row " + std::to_string(r) +
                              " overflows double precision; the query lies too far from the keys");
  return result;
}

}  // namespace kernel_lens
