#include "kernel_lens/limits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

namespace kernel_lens {

namespace {

/// \f$ a / 10^k \f$ in binary128 (`long double` in wasm): exact for |k| <= 48, otherwise within
/// about |k| 2^-113 relative.
long double scaled_down(long double a, int k) {
  long double power = 1.0L;
  for (int i = 0; i < (k < 0 ? -k : k); ++i) power *= 10.0L;
  return k < 0 ? a * power : a / power;
}

/// `digits` (the first nonzero) times 10^(exponent - digits + 1) laid out as JavaScript's
/// Number.prototype.toString lays out a number: fixed when 1e-7 <= |x| < 1e21 ("-300",
/// "0.000001", "123456.789"), else d.ddde+n ("1e+21", "-2.5e-7").
std::string js_layout(bool negative, std::string digits, int exponent) {
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;
  std::string text = negative ? "-" : "";
  if (k <= n && n <= 21) return text + digits + std::string(static_cast<std::size_t>(n - k), '0');
  if (0 < n && n <= 21) return text + digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  if (-6 < n && n <= 0) return text + "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  text += digits.substr(0, 1) + (k > 1 ? "." + digits.substr(1) : "");
  return text + (n - 1 < 0 ? "e-" : "e+") + std::to_string(n - 1 < 0 ? 1 - n : n - 1);
}

}  // namespace

/// The shortest decimal that reads back as `x`, laid out as JavaScript prints it (js_layout), so
/// a message shows the number as the caller wrote it: -300, not -3e+02. Where `long double` is
/// binary128 (wasm), without printf, whose formatting code would be a sizeable part of the module:
/// for p = 1, 2, ... the p-digit decimal nearest to x is computed in binary128 (ties to even) and
/// kept once strtod reads it back as x (checked equal to printf on 1.2 million doubles). An x87
/// `long double` has too few guard bits for that, so other targets ask snprintf for the digits.
std::string format_number(double x) {
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";
  if (std::isinf(x)) return x < 0.0 ? "-inf" : "inf";
  if (x == 0.0) return std::signbit(x) ? "-0" : "0";
  if constexpr (std::numeric_limits<long double>::digits < 113) {
    char text[40];
    for (int p = 1;; ++p) {
      std::snprintf(text, sizeof text, "%.*e", p - 1, std::fabs(x));
      if (p >= 17 || std::strtod(text, nullptr) == std::fabs(x)) break;
    }
    const std::string scientific = text;
    const std::size_t e = scientific.find('e');
    std::string digits = scientific.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    return js_layout(x < 0.0, digits, std::atoi(scientific.c_str() + e + 1));
  }
  const long double a = std::fabs(static_cast<long double>(x));
  int binary_exponent = 0;
  std::frexp(x, &binary_exponent);
  /// 10^exponent <= |x| < 10^(exponent + 1).
  auto exponent = static_cast<int>(std::floor((binary_exponent - 1) * 0.30102999566398120));
  while (scaled_down(a, exponent + 1) >= 1.0L) ++exponent;
  while (scaled_down(a, exponent) < 1.0L) --exponent;
  std::string digits;
  int e = exponent;
  for (int p = 1; p <= 17; ++p) {
    e = exponent;
    auto rounded = static_cast<unsigned long long>(std::rint(scaled_down(a, e - p + 1)));
    if (rounded >= static_cast<unsigned long long>(scaled_down(1.0L, -p))) {
      ++e;
      rounded = static_cast<unsigned long long>(std::rint(scaled_down(a, e - p + 1)));
    }
    digits = std::to_string(rounded);
    const std::string text = digits + "e" + std::to_string(e - p + 1);
    if (std::strtod(text.c_str(), nullptr) == std::fabs(x)) break;
  }
  return js_layout(x < 0.0, digits, e);
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

void check_rows(std::size_t rows, const char* name) {
  if (rows > Limits::max_rows)
    throw std::length_error(std::string(name) + " has " + std::to_string(rows) + " rows; the limit is " +
                            std::to_string(Limits::max_rows));
}

void check_cells(std::size_t rows, std::size_t cols, const char* name) {
  if (cols != 0 && rows > Limits::max_cells / cols)
    throw std::length_error(std::string(name) + " would have " + std::to_string(rows) + " x " +
                            std::to_string(cols) + " cells; the limit is " +
                            std::to_string(Limits::max_cells));
}

namespace {

/// 1234567 -> "1,234,567"; above 2^53 in scientific notation.
std::string grouped(double count) {
  if (!(count < 9007199254740992.0)) return format_number(count);
  std::string digits = std::to_string(static_cast<unsigned long long>(count));
  for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

}  // namespace

void refuse_work(double cost, const char* what, const std::string& formula) {
  throw std::length_error(std::string(what) + " would take " + grouped(cost) +
                          " kernel evaluations and multiply-adds (" + formula + "); the budget is " +
                          grouped(Limits::max_work) + " per call");
}

void check_matrix_shape(Shape shape, const char* name) {
  if (shape.rows == 0) throw std::invalid_argument(std::string(name) + " must have at least one row");
  if (shape.cols == 0) throw std::invalid_argument(std::string(name) + " must have at least one column");
  check_rows(shape.rows, name);
  if (shape.cols > Limits::max_dimension)
    throw std::length_error(std::string(name) + " has " + std::to_string(shape.cols) + " columns; the limit is " +
                            std::to_string(Limits::max_dimension));
}

void check_matrix_shape(const MatrixRef& matrix, const char* name) { check_matrix_shape(shape_of(matrix), name); }

void check_score_shapes(Shape queries, Shape keys) {
  check_matrix_shape(queries, "queries");
  check_matrix_shape(keys, "keys");
  if (queries.cols != keys.cols)
    throw std::invalid_argument("queries have dimension d = " + std::to_string(queries.cols) +
                                " but keys have d = " + std::to_string(keys.cols) +
                                "; the feature dimensions must agree");
  check_cells(queries.rows, keys.rows, "the weight matrix");
}

void check_score_shapes(const MatrixRef& queries, const MatrixRef& keys) {
  check_score_shapes(shape_of(queries), shape_of(keys));
}

void check_query(const VectorRef& query, const MatrixRef& keys) {
  check_matrix_shape(keys, "keys");
  if (query.size() != keys.cols())
    throw std::invalid_argument("query has " + std::to_string(query.size()) + " entries but keys have d = " +
                                std::to_string(keys.cols()) + "; expected one entry per feature");
  check_finite(query, "query");
  check_finite(keys, "keys");
}

void check_attention_shapes(Shape queries, Shape keys, Shape values) {
  check_score_shapes(queries, keys);
  check_matrix_shape(values, "values");
  if (values.rows != keys.rows)
    throw std::invalid_argument("values have " + std::to_string(values.rows) + " rows but keys have " +
                                std::to_string(keys.rows) + "; expected one value row per key");
  check_cells(queries.rows, values.cols, "the output matrix");
}

void check_attention_shapes(const MatrixRef& queries, const MatrixRef& keys, const MatrixRef& values) {
  check_attention_shapes(shape_of(queries), shape_of(keys), shape_of(values));
}

}  // namespace kernel_lens
