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
  /// The work budget of one call: kernel evaluations plus multiply-adds, about 2^30. Every call
  /// whose cost grows faster than its output (leave-one-out, the laboratory's sweeps, the
  /// exercises) checks its cost before it starts; at a few nanoseconds each, a call within the
  /// budget returns in a few seconds (see check_work).
  static constexpr double max_work = 1'073'741'824.0;
};

/// The shortest text that reads back as the same double, laid out as JavaScript prints numbers
/// ("-300", "0.1", "1e-7", "1e+21"), for error messages.
std::string format_number(double x);

/// h must be positive and finite.
void check_bandwidth(double bandwidth, const char* name = "bandwidth");
/// Every entry finite; the message names the first offending entry as name[row, column].
void check_finite(const MatrixRef& matrix, const char* name);
void check_finite(const VectorRef& vector, const char* name);
/// count <= cap, else std::length_error "<name> has <count> ...; the limit is <cap>".
void check_size(std::size_t count, std::size_t cap, const char* name);
/// rows <= Limits::max_rows, else std::length_error "<name> has <rows> rows; the limit is ...".
void check_rows(std::size_t rows, const char* name);
/// rows * cols <= Limits::max_cells (overflow-safe), else std::length_error.
void check_cells(std::size_t rows, std::size_t cols, const char* name);
/// cost <= Limits::max_work, else std::length_error
/// "<what> would take <cost> kernel evaluations and multiply-adds (<formula>); the budget is ...".
/// The cost is counted in double precision, so products of large counts cannot wrap. `formula()`
/// (a callable answering the cost's formula with the call's sizes, as text) runs only on refusal.
[[noreturn]] void refuse_work(double cost, const char* what, const std::string& formula);
template <class Formula>
void check_work(double cost, const char* what, Formula&& formula) {
  if (cost > Limits::max_work) refuse_work(cost, what, formula());
}
/// The rows and columns of a matrix: the shape checks below take one, so that a caller can refuse
/// a call on its sizes alone, before it copies any data.
struct Shape {
  std::size_t rows;
  std::size_t cols;
};
inline Shape shape_of(const MatrixRef& matrix) {
  return {static_cast<std::size_t>(matrix.rows()), static_cast<std::size_t>(matrix.cols())};
}

/// At least one row, at most Limits::max_rows rows, between 1 and Limits::max_dimension columns.
void check_matrix_shape(Shape shape, const char* name);
void check_matrix_shape(const MatrixRef& matrix, const char* name);
/// Q/K feature dimensions agree; at least one query and one key; m*n within the cell cap.
void check_score_shapes(Shape queries, Shape keys);
void check_score_shapes(const MatrixRef& queries, const MatrixRef& keys);
/// One query q:(d) against keys K:(n,d): at least one key, matching d, every entry finite.
void check_query(const VectorRef& query, const MatrixRef& keys);
/// check_score_shapes, plus K/V row counts agree and m*p within the cell cap.
void check_attention_shapes(Shape queries, Shape keys, Shape values);
void check_attention_shapes(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values);

}  // namespace kernel_lens
