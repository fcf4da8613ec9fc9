#pragma once
// The argument rules of the JavaScript boundary in plain C++ (no Emscripten headers): a JS number
// as a count, size or seed (never wrapped to 32 bits) and a flat array's row count. (The JS names
// of the core's terms in messages are mapped in boundary.js.) The bindings (common.cpp, config.cpp) and the native fuzz target
// tests/fuzz/fuzz_bindings.cpp use the same code.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernel_lens/limits.hpp"
#include "kernel_lens/numpy_random.hpp"

namespace kernel_lens::wasm {

/// A wrong argument type; it reaches JavaScript as a TypeError (any other failure as a RangeError).
class ArgumentTypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The largest value any size field of a config may have (the largest cap in Limits); the core
/// checks each field's own cap after that.
constexpr std::size_t max_size = Limits::max_cells;

/// A JS number as a count in [min_value, max_value]. The check is made on the double, before any
/// conversion, so 2^32 + 3 is refused instead of becoming 3. std::invalid_argument "<name> must be
/// an integer >= <min>, got <x>" for NaN, ±Infinity, fractions and values below the minimum;
/// std::length_error "<name> is <x>; the limit is <max>" above the maximum.
std::size_t count_from_number(double x, const char* name, std::size_t min_value, std::size_t max_value);

/// A JS number as a seed: an integer in [0, 2^53 - 1].
std::uint64_t seed_from_number(double x, const char* name);

/// The rows of a flat array of `length` numbers with `cols` numbers per row; std::invalid_argument
/// when `length` is not a multiple of `cols` (`cols` >= 1).
std::size_t rows_from_length(std::size_t length, std::size_t cols, const char* name);

}  // namespace kernel_lens::wasm
