#pragma once
/// Smoothing kernels, written as log-kernels so nothing is exponentiated before normalisation.
#include <string>
#include <vector>

#include "kernel_lens/types.hpp"

namespace kernel_lens {

/// Which similarity rule turns a squared distance \f$ D = \|q-k\|^2 \f$ into a score.
enum class Kernel {
  Gaussian,      ///< \f$ \log\kappa = -D / (2h^2) \f$, positive everywhere
  Laplacian,     ///< \f$ \log\kappa = -\sqrt{D} / h \f$, positive everywhere
  Epanechnikov,  ///< \f$ \kappa = \max(0, 1 - D/h^2) \f$, compact support
  Tricube,       ///< \f$ \kappa = \max(0, 1 - (\sqrt{D}/h)^3)^3 \f$, compact support
};

/// Parses "gaussian", "laplacian", "epanechnikov", "tricube"; throws std::invalid_argument otherwise.
Kernel parse_kernel(const std::string& name);
std::string kernel_name(Kernel kernel);
std::vector<std::string> kernel_names();
/// True when the kernel can be exactly zero (a query may then see no key at all).
bool has_compact_support(Kernel kernel);

/// Squared Euclidean distances \f$ D_{ri} = \|q_r - k_i\|^2 \f$, Q:(m,d), K:(n,d) -> (m,n).
RowMatrix squared_distances(const MatrixRef& queries, const MatrixRef& keys);

/// Log-kernel scores \f$ S_{ri} = \log\kappa_h(q_r, k_i) \f$ -> (m,n); -inf outside a compact support.
RowMatrix log_scores(const MatrixRef& queries, const MatrixRef& keys, double bandwidth,
                     Kernel kernel = Kernel::Gaussian);

/// One row of distances \f$ D_i = \sum_c (q_c - K^\top_{ci})^2 \f$ from keys stored transposed,
/// K^T:(d,n), so each feature is one contiguous, vectorisable pass. No validation.
void squared_distance_row(const RowVectorRef& query, const MatrixRef& keys_transposed,
                          RowVectorOut distances);

/// In place, squared distances -> log-kernel scores \f$ \log\kappa_h \f$. No validation.
/// Throws std::invalid_argument when h^2 underflows to 0 (the bandwidth is too small to represent).
void log_kernel_inplace(RowVectorOut squared_distances, double bandwidth, Kernel kernel);

/// In place, squared distances D:(n) -> scores relative to the nearest key, which scores 0:
/// Gaussian \f$ -(D_i - D_{min})/(2h^2) \f$, Laplacian \f$ -(\sqrt{D_i} - \sqrt{D_{min}})/h \f$
/// (compact kernels: the plain log-kernel). Softmax is unchanged by the shift, and it stays finite
/// where \f$ D_{min}/(2h^2) \f$ itself overflows. Entry `left_out` (when >= 0) becomes -inf and is
/// not a candidate for the nearest key. Throws std::domain_error when every squared distance overflows.
void relative_log_kernel_inplace(RowVectorOut squared_distances, double bandwidth, Kernel kernel,
                                 Eigen::Index left_out = -1);

/// One row of normalised kernel weights softmax(log kappa_h(D)) from squared distances D:(n), with
/// entry `left_out` (when >= 0) given weight 0. When every score of the Gaussian or Laplacian kernel
/// is -inf (D/(2h^2) overflows for every key: a bandwidth far below the distances), the softmax is
/// taken of the scores relative to the nearest key instead, which is the same softmax computed
/// without overflow. Returns false when no key lies inside a compact kernel's support.
bool kernel_weights_row(const RowVectorRef& squared_distances, double bandwidth, Kernel kernel,
                        RowVectorOut weights, Eigen::Index left_out = -1);

}  // namespace kernel_lens
