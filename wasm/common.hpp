#pragma once
// Conversions shared by the binding files: whole typed arrays in, copied typed arrays out,
// C++ exceptions rethrown as JavaScript errors. No math lives here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_lens/types.hpp"

namespace kernel_lens::wasm {

using emscripten::val;

[[noreturn]] inline void throw_js(const char* type, const std::string& message) {
  val::global(type).new_(message).throw_();
  __builtin_unreachable();
}

/// Runs f(); any std::exception becomes a JS RangeError (TypeError for std::invalid_argument
/// raised on argument types is signalled by the caller with throw_js directly).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    throw_js("RangeError", e.what());
  }
}

/// True for any JS array or typed array.
inline bool is_array_like(const val& v) {
  return v.isArray() || val::global("ArrayBuffer").call<bool>("isView", v);
}

/// One bulk copy of a JS numeric array into a std::vector<double>; TypeError when `v` is no array.
inline std::vector<double> to_vector(const val& v, const char* name) {
  if (v.isUndefined() || v.isNull() || !is_array_like(v) || v.instanceof(val::global("DataView")))
    throw_js("TypeError", std::string(name) + " must be an array or a typed array of numbers");
  return emscripten::convertJSArrayToNumberVector<double>(v);
}

/// A positive integer argument (dimension, count); TypeError/RangeError otherwise.
inline std::size_t to_count(const val& v, const char* name, double min_value = 1) {
  if (!v.isNumber()) throw_js("TypeError", std::string(name) + " must be a number");
  const double x = v.as<double>();
  if (!std::isfinite(x) || x != std::floor(x) || x < min_value)
    throw_js("RangeError", std::string(name) + " must be an integer >= " +
                               std::to_string(static_cast<long long>(min_value)) + ", got " +
                               std::to_string(x));
  return static_cast<std::size_t>(x);
}

/// A number argument (finiteness is the core's check, so NaN reaches it and gets its message).
inline double to_number(const val& v, const char* name) {
  if (!v.isNumber()) throw_js("TypeError", std::string(name) + " must be a number");
  return v.as<double>();
}

/// Row-major (rows x cols) matrix from a flat array whose length must be a multiple of cols.
inline RowMatrix to_matrix(const val& v, std::size_t cols, const char* name) {
  std::vector<double> flat = to_vector(v, name);
  if (flat.size() % cols != 0)
    throw_js("RangeError", std::string(name) + " has length " + std::to_string(flat.size()) +
                               ", which is not a multiple of its row width " + std::to_string(cols));
  const auto rows = static_cast<Eigen::Index>(flat.size() / cols);
  return Eigen::Map<const RowMatrix>(flat.data(), rows, static_cast<Eigen::Index>(cols));
}

/// A copied Float64Array (a bare memory view would go stale when wasm memory grows).
inline val to_float64_array(const double* data, std::size_t count) {
  return val(emscripten::typed_memory_view(count, data)).call<val>("slice");
}
template <class Derived>
inline val to_float64_array(const Eigen::DenseBase<Derived>& m) {
  const auto& e = m.derived().eval();
  return to_float64_array(e.data(), static_cast<std::size_t>(e.size()));
}
inline val to_float64_array(const std::vector<double>& v) { return to_float64_array(v.data(), v.size()); }

}  // namespace kernel_lens::wasm
