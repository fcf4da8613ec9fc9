#pragma once
/// Loads tests/fixtures/core.json (written by scripts/gen_fixtures_core.py with NumPy).
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernel_lens/types.hpp"

/// The exception's type and its message, both asserted.
#define REQUIRE_THROWS_AS_WITH(expression, exception_type, message_matcher) \
  do {                                                                     \
    REQUIRE_THROWS_AS(expression, exception_type);                         \
    REQUIRE_THROWS_WITH(expression, message_matcher);                      \
  } while (false)

namespace kernel_lens::testing {

/// tests/fixtures/<name>, parsed.
inline nlohmann::json load_fixture(const char* name) {
  std::ifstream in(std::string(KERNEL_LENS_FIXTURE_DIR) + "/" + name);
  return nlohmann::json::parse(in);
}

inline const nlohmann::json& core_fixture() {
  static const nlohmann::json fixture = load_fixture("core.json");
  return fixture;
}

inline std::vector<double> numbers(const nlohmann::json& j) { return j.get<std::vector<double>>(); }

/// A flat row-major JSON array as a (size / cols, cols) matrix.
inline RowMatrix matrix(const nlohmann::json& j, Eigen::Index cols) {
  const std::vector<double> flat = numbers(j);
  return Eigen::Map<const RowMatrix>(flat.data(), static_cast<Eigen::Index>(flat.size()) / cols, cols);
}

inline Vector vector(const nlohmann::json& j) {
  const std::vector<double> flat = numbers(j);
  return Eigen::Map<const Vector>(flat.data(), static_cast<Eigen::Index>(flat.size()));
}

/// The chapter prints with four decimals ("{:.4f}"); compare printed text, not a tolerance.
inline std::string fixed4(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", x);
  return text;
}

inline double max_abs_difference(const RowMatrix& a, const RowMatrix& b) {
  return (a - b).cwiseAbs().maxCoeff();
}

}  // namespace kernel_lens::testing
