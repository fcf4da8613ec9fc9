#include "kernel_lens/kernels.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "kernel_lens/cold.hpp"
#include "kernel_lens/detail/vector_math.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/softmax.hpp"

namespace kernel_lens {

namespace {

struct KernelEntry {
  Kernel kernel;
  const char* name;
  bool compact;
};

constexpr KernelEntry kKernels[] = {
    {Kernel::Gaussian, "gaussian", false},
    {Kernel::Laplacian, "laplacian", false},
    {Kernel::Epanechnikov, "epanechnikov", true},
    {Kernel::Tricube, "tricube", true},
};

const KernelEntry& entry(Kernel kernel) {
  for (const auto& e : kKernels)
    if (e.kernel == kernel) return e;
  throw std::invalid_argument("kernel must be one of the kernel_names()");
}

}  // namespace

KERNEL_LENS_COLD Kernel parse_kernel(const std::string& name) {
  for (const auto& e : kKernels)
    if (name == e.name) return e.kernel;
  throw std::invalid_argument(
      "kernel must be one of \"gaussian\", \"laplacian\", \"epanechnikov\", \"tricube\", got \"" + name +
      "\"");
}

std::string kernel_name(Kernel kernel) { return entry(kernel).name; }

KERNEL_LENS_COLD std::vector<std::string> kernel_names() {
  std::vector<std::string> names;
  for (const auto& e : kKernels) names.emplace_back(e.name);
  return names;
}

bool has_compact_support(Kernel kernel) { return entry(kernel).compact; }

void squared_distance_row(const RowVectorRef& query, const MatrixRef& keys_transposed,
                          RowVectorOut distances) {
  const auto n = static_cast<std::size_t>(keys_transposed.cols());
  for (Eigen::Index c = 0; c < keys_transposed.rows(); ++c)
    detail::add_squared_differences(keys_transposed.row(c).data(), query(c), distances.data(), n, c == 0);
}

void log_kernel_inplace(RowVectorOut squared_distances, double bandwidth, Kernel kernel) {
  constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
  auto row = squared_distances.array();
  const double h2 = bandwidth * bandwidth;
  if (h2 == 0.0)
    throw std::invalid_argument("bandwidth " + format_number(bandwidth) +
                                " is too small: 2h^2 underflows to 0 and the scores become 0/0");
  switch (kernel) {
    case Kernel::Gaussian:
      if (std::isnormal(2.0 * h2)) {
        row = -row / (2.0 * h2);
        break;
      }
      // 2h^2 overflows, or is subnormal and has lost precision: -(sqrt(D)/h)^2 / 2 stays exact.
      for (auto& x : row) {
        if (!std::isfinite(x)) {
          if (!std::isfinite(2.0 * h2))
            throw std::domain_error("a squared distance and 2h^2 both overflow double precision (bandwidth " +
                                    format_number(bandwidth) + "), so their ratio is undefined; rescale the inputs");
          x = minus_infinity;
          continue;
        }
        const double u = std::sqrt(x) / bandwidth;
        x = -0.5 * u * u;
      }
      break;
    case Kernel::Laplacian:
      row = -row.sqrt() / bandwidth;
      break;
    case Kernel::Epanechnikov:
      if (std::isnormal(h2)) {
        for (auto& x : row) {
          const double u2 = x / h2;
          x = u2 < 1.0 ? std::log1p(-u2) : minus_infinity;
        }
        break;
      }
      for (auto& x : row) {
        const double u = std::sqrt(x) / bandwidth;
        x = u < 1.0 ? std::log1p(-u * u) : minus_infinity;
      }
      break;
    case Kernel::Tricube:
      for (auto& x : row) {
        const double u = std::sqrt(x) / bandwidth;
        x = u < 1.0 ? 3.0 * std::log1p(-u * u * u) : minus_infinity;
      }
      break;
  }
}

KERNEL_LENS_COLD void relative_log_kernel_inplace(RowVectorOut squared_distances, double bandwidth, Kernel kernel,
                                 Eigen::Index left_out) {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  auto row = squared_distances.array();
  if (left_out >= 0) row(left_out) = infinity;
  if (has_compact_support(kernel)) {
    log_kernel_inplace(squared_distances, bandwidth, kernel);
    return;
  }
  const double nearest = row.minCoeff();
  if (!std::isfinite(nearest))
    throw std::domain_error("every squared distance overflows double precision (the points lie more than about "
                            "1e154 apart); rescale the inputs");
  if (kernel == Kernel::Gaussian) {
    for (auto& x : row) {
      const double u = std::sqrt(x - nearest) / bandwidth;
      x = -0.5 * u * u;
    }
  } else {
    const double root = std::sqrt(nearest);
    for (auto& x : row) x = -(std::sqrt(x) - root) / bandwidth;
  }
  if (left_out >= 0) row(left_out) = -infinity;
}

bool kernel_weights_row(const RowVectorRef& squared_distances, double bandwidth, Kernel kernel,
                        RowVectorOut weights, Eigen::Index left_out) {
  weights = squared_distances;
  log_kernel_inplace(weights, bandwidth, kernel);
  if (left_out >= 0) weights(left_out) = -std::numeric_limits<double>::infinity();
  if (softmax_row_inplace(weights)) return true;
  if (has_compact_support(kernel)) return false;
  weights = squared_distances;
  relative_log_kernel_inplace(weights, bandwidth, kernel, left_out);
  return softmax_row_inplace(weights);
}

RowMatrix squared_distances(const MatrixRef& queries, const MatrixRef& keys) {
  check_score_shapes(queries, keys);
  check_finite(queries, "queries");
  check_finite(keys, "keys");
  const RowMatrix keys_transposed = keys.transpose();
  RowMatrix distances(queries.rows(), keys.rows());
  for (Eigen::Index r = 0; r < queries.rows(); ++r)
    squared_distance_row(queries.row(r), keys_transposed, distances.row(r));
  return distances;
}

RowMatrix log_scores(const MatrixRef& queries, const MatrixRef& keys, double bandwidth, Kernel kernel) {
  check_bandwidth(bandwidth);
  RowMatrix scores = squared_distances(queries, keys);
  for (Eigen::Index r = 0; r < scores.rows(); ++r) log_kernel_inplace(scores.row(r), bandwidth, kernel);
  return scores;
}

}  // namespace kernel_lens
