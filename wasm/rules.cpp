// The argument rules of rules.hpp.
#include "rules.hpp"

#include <cmath>
#include <cstring>

namespace kernel_lens::wasm {

std::size_t count_from_number(double x, const char* name, std::size_t min_value, std::size_t max_value) {
  if (!std::isfinite(x) || x != std::floor(x) || x < static_cast<double>(min_value))
    throw std::invalid_argument(std::string(name) + " must be an integer >= " + std::to_string(min_value) +
                                ", got " + format_number(x));
  if (x > static_cast<double>(max_value))
    throw std::length_error(std::string(name) + " is " + format_number(x) + "; the limit is " +
                            std::to_string(max_value));
  return static_cast<std::size_t>(x);
}

std::uint64_t seed_from_number(double x, const char* name) {
  if (!std::isfinite(x) || x != std::floor(x) || x < 0.0 || x > static_cast<double>(max_seed))
    throw std::invalid_argument(std::string(name) + " must be an integer from 0 to 2^53 - 1, got " + format_number(x));
  return static_cast<std::uint64_t>(x);
}

std::size_t rows_from_length(std::size_t length, std::size_t cols, const char* name) {
  if (cols == 0) throw std::invalid_argument(std::string(name) + " needs a row width of at least 1");
  if (length % cols != 0)
    throw std::invalid_argument(std::string(name) + " has length " + std::to_string(length) +
                                ", which is not a multiple of its row width " + std::to_string(cols));
  return length / cols;
}

namespace {

/// Core term -> JavaScript term.
constexpr const char* names[][2] = {
    {"curve_points", "curvePoints"},   {"empty_rows", "emptyRows"},         {"feature_scales", "featureScales"},
    {"inf", "Infinity"},               {"key_high", "keyHigh"},             {"key_low", "keyLow"},
    {"key_seed", "keySeed"},           {"monte_carlo_seed", "monteCarloSeed"}, {"nan", "NaN"},
    {"observed_seed", "observedSeed"}, {"query_high", "queryHigh"},         {"query_low", "queryLow"},
};

bool is_word_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string javascript_message(const std::string& message) {
  std::string out;
  out.reserve(message.size() + 16);
  bool quoted = false;
  std::size_t i = 0;
  while (i < message.size()) {
    const char c = message[i];
    if (c == '"') quoted = !quoted;
    if (quoted || !is_word_character(c)) {
      out += c;
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < message.size() && is_word_character(message[end])) ++end;
    const std::string word = message.substr(i, end - i);
    const char* replacement = nullptr;
    for (const auto& pair : names)
      if (word == pair[0]) replacement = pair[1];
    if (replacement && word == "nan" && !out.empty() && out.back() == '-') out.pop_back();  // "-nan" is NaN
    out += replacement ? replacement : word;
    i = end;
  }
  return out;
}

}  // namespace kernel_lens::wasm
