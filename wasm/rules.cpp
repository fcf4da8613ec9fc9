// The argument rules of rules.hpp.
#include "rules.hpp"

#include <cmath>

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

}  // namespace kernel_lens::wasm
