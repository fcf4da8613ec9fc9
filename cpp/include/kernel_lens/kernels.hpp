#pragma once
/// Smoothing kernels, written as log-kernels so nothing is exponentiated before normalisation.
#include <string>
#include <vector>

#include "kernel_lens/types.hpp"

namespace kernel_lens {

/// Which similarity rule turns a squared distance into a score.
enum class Kernel {
  Gaussian,      ///< \f$ \log\kappa = -\|q-k\|^2 / (2h^2) \f$, positive everywhere
  Laplacian,     ///< \f$ \log\kappa = -\|q-k\| / h \f$, positive everywhere
  Epanechnikov,  ///< \f$ \kappa = \max(0, 1 - \|q-k\|^2/h^2) \f$, compact support
  Tricube,       ///< \f$ \kappa = \max(0, 1 - (\|q-k\|/h)^3)^3 \f$, compact support
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

}  // namespace kernel_lens
