#include "kernel_lens/limits.hpp"

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

/// `digits` (p of them, the first nonzero) times 10^(exponent - p + 1) laid out as printf's
/// "%.{p}g": fixed when -4 <= exponent < p, else scientific; trailing zeros dropped.
std::string g_format(bool negative, const std::string& digits, int exponent) {
  const int p = static_cast<int>(digits.size());
  std::string text = negative ? "-" : "";
  const auto trimmed = [](std::string fraction) {
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    return fraction.empty() ? fraction : "." + fraction;
  };
  if (exponent < -4 || exponent >= p) {
    text += digits.substr(0, 1) + trimmed(digits.substr(1)) + (exponent < 0 ? "e-" : "e+");
    const int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude < 10) text += '0';
    return text + std::to_string(magnitude);
  }
  if (exponent < 0) return text + "0" + trimmed(std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits);
  const auto whole = static_cast<std::size_t>(exponent + 1);
  return text + digits.substr(0, whole) + trimmed(digits.substr(whole));
}

}  // namespace

/// The shortest "%.{p}g" form that reads back as `x`, as printf prints it. Where `long double` is
/// binary128 (wasm), without printf, whose formatting code would be a sizeable part of the module:
/// for p = 1, 2, ... the p-digit decimal nearest to x is computed in binary128 (ties to even) and
/// kept once strtod reads it back as x (checked equal to printf on 1.2 million doubles). An x87
/// `long double` has too few guard bits for that, so other targets ask snprintf.
std::string format_number(double x) {
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";
  if (std::isinf(x)) return x < 0.0 ? "-inf" : "inf";
  if constexpr (std::numeric_limits<long double>::digits < 113) {
    char text[32];
    for (int p = 1;; ++p) {
      std::snprintf(text, sizeof text, "%.*g", p, x);
      if (p >= 17 || std::strtod(text, nullptr) == x) return text;
    }
  }
  if (x == 0.0) return std::signbit(x) ? "-0" : "0";
  const long double a = std::fabs(static_cast<long double>(x));
  int binary_exponent = 0;
  std::frexp(x, &binary_exponent);
  /// 10^exponent <= |x| < 10^(exponent + 1).
  auto exponent = static_cast<int>(std::floor((binary_exponent - 1) * 0.30102999566398120));
  while (scaled_down(a, exponent + 1) >= 1.0L) ++exponent;
  while (scaled_down(a, exponent) < 1.0L) --exponent;
  std::string text;
  for (int p = 1; p <= 17; ++p) {
    int e = exponent;
    auto rounded = static_cast<unsigned long long>(std::rint(scaled_down(a, e - p + 1)));
    if (rounded >= static_cast<unsigned long long>(scaled_down(1.0L, -p))) {
      ++e;
      rounded = static_cast<unsigned long long>(std::rint(scaled_down(a, e - p + 1)));
    }
    text = g_format(x < 0.0, std::to_string(rounded), e);
    if (std::strtod(text.c_str(), nullptr) == x) break;
  }
  return text;
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
