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
void log_kernel_inplace(RowVectorOut squared_distances, double bandwidth, Kernel kernel);

}  // namespace kernel_lens
