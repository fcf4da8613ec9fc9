#include "kernel_lens/limits.hpp"

#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace kernel_lens {

/// The shortest "%.{p}g" form that reads back as `x` (printf, not iostreams: the streams and
/// locale machinery would more than double the size of the wasm module).
std::string format_number(double x) {
  char text[32];
  for (int precision = 1;; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, x);
    if (precision >= 17 || !std::isfinite(x) || std::strtod(text, nullptr) == x) return text;
  }
}

void check_bandwidth(double bandwidth, const char* name) {
  if (!std::isfinite(bandwidth) || bandwidth <= 0.0)
    throw std::invalid_argument(std::string(name) + " must be positive and finite, got " +
                                format_number(bandwidth));
}

void check_finite(const MatrixRef& matrix, const char* name) {
  for (Eigen::Index r = 0; r < matrix.rows(); ++r)
    for (Eigen::Index c = 0; c < matrix.cols(); ++c)
      if (!std::isfinite(matrix(r, c)))
        throw std::invalid_argument(std::string(name) + "[" + std::to_string(r) + ", " +
                                    std::to_string(c) + "] must be finite, got " +
                                    format_number(matrix(r, c)));
}

void check_finite(const VectorRef& vector, const char* name) {
  for (Eigen::Index i = 0; i < vector.size(); ++i)
    if (!std::isfinite(vector(i)))
      throw std::invalid_argument(std::string(name) + "[" + std::to_string(i) +
                                  "] must be finite, got " + format_number(vector(i)));
}

void check_size(std::size_t count, std::size_t cap, const char* name) {
  if (count > cap)
    throw std::length_error(std::string(name) + " has " + std::to_string(count) +
                            " entries; the limit is " + std::to_string(cap));
}

void check_cells(std::size_t rows, std::size_t cols, const char* name) {
  if (cols != 0 && rows > Limits::max_cells / cols)
    throw std::length_error(std::string(name) + " would have " + std::to_string(rows) + " x " +
                            std::to_string(cols) + " cells; the limit is " +
                            std::to_string(Limits::max_cells));
}

void check_matrix_shape(const MatrixRef& matrix, const char* name) {
  if (matrix.rows() == 0) throw std::invalid_argument(std::string(name) + " must have at least one row");
  if (matrix.cols() == 0)
    throw std::invalid_argument(std::string(name) + " must have at least one column");
  if (static_cast<std::size_t>(matrix.rows()) > Limits::max_rows)
    throw std::length_error(std::string(name) + " has " + std::to_string(matrix.rows()) +
                            " rows; the limit is " + std::to_string(Limits::max_rows));
  if (static_cast<std::size_t>(matrix.cols()) > Limits::max_dimension)
    throw std::length_error(std::string(name) + " has " + std::to_string(matrix.cols()) +
                            " columns; the limit is " + std::to_string(Limits::max_dimension));
}

void check_score_shapes(const MatrixRef& queries, const MatrixRef& keys) {
  check_matrix_shape(queries, "queries");
  check_matrix_shape(keys, "keys");
  if (queries.cols() != keys.cols())
    throw std::invalid_argument("queries have dimension d = " + std::to_string(queries.cols()) +
                                " but keys have d = " + std::to_string(keys.cols()) +
                                "; the feature dimensions must agree");
  check_cells(static_cast<std::size_t>(queries.rows()), static_cast<std::size_t>(keys.rows()),
              "the weight matrix");
}

void check_query(const VectorRef& query, const MatrixRef& keys) {
  check_matrix_shape(keys, "keys");
  if (query.size() != keys.cols())
    throw std::invalid_argument("query has " + std::to_string(query.size()) + " entries but keys have d = " +
                                std::to_string(keys.cols()) + "; expected one entry per feature");
  check_finite(query, "query");
  check_finite(keys, "keys");
}

void check_attention_shapes(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values) {
  check_score_shapes(queries, keys);
  check_matrix_shape(values, "values");
  if (values.rows() != keys.rows())
    throw std::invalid_argument("values have " + std::to_string(values.rows()) + " rows but keys have " +
                                std::to_string(keys.rows()) + "; expected one value row per key");
  check_cells(static_cast<std::size_t>(queries.rows()), static_cast<std::size_t>(values.cols()),
              "the output matrix");
}

}  // namespace kernel_lens
