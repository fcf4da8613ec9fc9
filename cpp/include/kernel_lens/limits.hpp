#pragma once
/// Validation shared by every public function, and the documented size caps.
/// Every failure throws std::invalid_argument (bad value/shape) or std::length_error (too big)
/// with a message that names the argument and the expected value.
#include <cstddef>
#include <string>

#include "kernel_lens/types.hpp"

namespace kernel_lens {

struct Limits {
  static constexpr std::size_t max_cells = 16'777'216;    ///< m*n of one weight matrix (128 MiB)
  static constexpr std::size_t max_rows = 4'194'304;      ///< rows of queries / keys
  static constexpr std::size_t max_dimension = 64;        ///< d and p
  static constexpr std::size_t max_worlds = 100'000;      ///< Monte-Carlo worlds
  static constexpr std::size_t max_draws = 16'777'216;    ///< random draws in one call
  static constexpr std::size_t max_bandwidths = 4'096;    ///< bandwidths in one sweep
};

/// h must be positive and finite.
void check_bandwidth(double bandwidth, const char* name = "bandwidth");
/// Every entry finite.
void check_finite(const MatrixRef& matrix, const char* name);
void check_finite(const VectorRef& vector, const char* name);
/// count <= cap, else std::length_error "<name> has <count> ...; the limit is <cap>".
void check_size(std::size_t count, std::size_t cap, const char* name);
/// Q/K feature dimensions and K/V row counts agree; at least one key.
void check_attention_shapes(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values);

}  // namespace kernel_lens
