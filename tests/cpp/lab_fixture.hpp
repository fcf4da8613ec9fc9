#pragma once
/// Loads tests/fixtures/random.json and laboratory.json (scripts/gen_fixtures_lab.py, NumPy) and
/// decodes their hex-encoded doubles (16 hex digits each, big-endian IEEE-754 bit patterns).
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core_fixture.hpp"
#include "kernel_lens/types.hpp"

namespace kernel_lens::testing {

inline const nlohmann::json& random_fixture() {
  static const nlohmann::json fixture = load_fixture("random.json");
  return fixture;
}

inline const nlohmann::json& laboratory_fixture() {
  static const nlohmann::json fixture = load_fixture("laboratory.json");
  return fixture;
}

inline std::uint64_t bits_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

/// The bit patterns of a hex string of doubles.
inline std::vector<std::uint64_t> hex_bits(const std::string& hex) {
  std::vector<std::uint64_t> out(hex.size() / 16);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::stoull(hex.substr(16 * i, 16), nullptr, 16);
  return out;
}

inline Vector hex_vector(const std::string& hex) {
  const std::vector<std::uint64_t> bits = hex_bits(hex);
  Vector out(static_cast<Eigen::Index>(bits.size()));
  for (std::size_t i = 0; i < bits.size(); ++i) std::memcpy(&out(static_cast<Eigen::Index>(i)), &bits[i], 8);
  return out;
}

inline RowMatrix hex_matrix(const std::string& hex, Eigen::Index cols) {
  const Vector flat = hex_vector(hex);
  return Eigen::Map<const RowMatrix>(flat.data(), flat.size() / cols, cols);
}

/// |a - b| <= tolerance * max(|a|, |b|), or both tiny.
inline bool relative_close(double a, double b, double tolerance = 1e-9) {
  const double scale = std::max(std::abs(a), std::abs(b));
  return std::abs(a - b) <= tolerance * scale || std::abs(a - b) < 1e-300;
}

}  // namespace kernel_lens::testing
