#pragma once
// Conversions shared by the binding files: whole typed arrays in, copied typed arrays out,
// C++ exceptions rethrown as JavaScript errors. No math lives here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernel_lens/limits.hpp"
#include "kernel_lens/types.hpp"

namespace kernel_lens::wasm {

using emscripten::val;

/// A wrong argument type; guarded() turns it into a JavaScript TypeError.
class ArgumentTypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A JavaScript error on its way out, carried as a C++ exception so that every frame between the
/// failure and the JavaScript boundary unwinds (releasing its val handles and heap memory) before
/// at_boundary() throws it. A JS throw from deeper down would skip those destructors.
struct JsErrorInFlight {
  const char* type;  ///< "TypeError" or "RangeError" (a string literal)
  std::string message;
};

/// `throw new globalThis[type](message)` in JavaScript (defined with EM_JS in bind_data.cpp).
extern "C" void kernel_lens_throw_error(const char* type, const char* message);

/// Runs f() at a JavaScript entry point: a JsErrorInFlight becomes the JS error it names, thrown
/// when no C++ object is left alive in this frame (the message waits in a static buffer).
template <class F>
auto at_boundary(F&& f) -> decltype(f()) {
  static char message[2048];
  const char* type = "Error";
  try {
    return f();
  } catch (const JsErrorInFlight& error) {
    type = error.type;
    std::snprintf(message, sizeof message, "%s", error.message.c_str());
  }
  kernel_lens_throw_error(type, message);
  __builtin_unreachable();
}

[[noreturn]] inline void throw_js(const char* type, const std::string& message) {
  throw JsErrorInFlight{type, message};
}

/// Runs f(); ArgumentTypeError becomes a JS TypeError, any other std::exception a RangeError,
/// thrown by the enclosing at_boundary() (every exported entry point has one).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const JsErrorInFlight&) {
    throw;
  } catch (const ArgumentTypeError& e) {
    throw JsErrorInFlight{"TypeError", e.what()};
  } catch (const std::exception& e) {
    throw JsErrorInFlight{"RangeError", e.what()};
  }
}

/// True for any JS array or typed array.
inline bool is_array_like(const val& v) {
  return v.isArray() || val::global("ArrayBuffer").call<bool>("isView", v);
}

inline void check_array_like(const val& v, const char* name) {
  if (v.isUndefined() || v.isNull() || !is_array_like(v) || v.instanceof(val::global("DataView")))
    throw ArgumentTypeError(std::string(name) + " must be an array or a typed array of numbers");
}

/// One bulk copy of a JS numeric array into a std::vector<double>; TypeError when `v` is no array.
inline std::vector<double> to_vector(const val& v, const char* name) {
  check_array_like(v, name);
  return emscripten::convertJSArrayToNumberVector<double>(v);
}

/// A JS numeric array as an Eigen vector, one bulk copy.
inline Vector to_eigen_vector(const val& v, const char* name) {
  check_array_like(v, name);
  Vector out(v["length"].as<Eigen::Index>());
  if (out.size() > 0) val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", v);
  return out;
}

/// A positive integer argument (dimension, count); TypeError/RangeError otherwise.
inline std::size_t to_count(const val& v, const char* name, double min_value = 1) {
  if (!v.isNumber()) throw ArgumentTypeError(std::string(name) + " must be a number");
  const double x = v.as<double>();
  if (!std::isfinite(x) || x != std::floor(x) || x < min_value)
    throw std::invalid_argument(std::string(name) + " must be an integer >= " + format_number(min_value) +
                                ", got " + format_number(x));
  return static_cast<std::size_t>(x);
}

/// A feature or value dimension: an integer in [1, Limits::max_dimension].
inline std::size_t to_dimension(const val& v, const char* name) {
  const std::size_t dimension = to_count(v, name);
  if (dimension > Limits::max_dimension)
    throw std::length_error(std::string(name) + " is " + std::to_string(dimension) + "; the limit is " +
                            std::to_string(Limits::max_dimension));
  return dimension;
}

/// A number argument (finiteness is the core's check, so NaN reaches it and gets its message).
inline double to_number(const val& v, const char* name) {
  if (!v.isNumber()) throw ArgumentTypeError(std::string(name) + " must be a number");
  return v.as<double>();
}

/// An optional string argument: `fallback` when undefined, TypeError when not a string.
inline std::string to_optional_string(const val& v, const char* name, const char* fallback) {
  if (v.isUndefined()) return fallback;
  if (!v.isString()) throw ArgumentTypeError(std::string(name) + " must be a string");
  return v.as<std::string>();
}

/// Row-major (rows x cols) matrix from a flat array whose length must be a multiple of cols;
/// one bulk copy straight into the matrix.
inline RowMatrix to_matrix(const val& v, std::size_t cols, const char* name) {
  check_array_like(v, name);
  const auto length = v["length"].as<std::size_t>();
  if (length % cols != 0)
    throw std::invalid_argument(std::string(name) + " has length " + std::to_string(length) +
                                ", which is not a multiple of its row width " + std::to_string(cols));
  RowMatrix m(static_cast<Eigen::Index>(length / cols), static_cast<Eigen::Index>(cols));
  if (length > 0) val(emscripten::typed_memory_view(length, m.data())).call<void>("set", v);
  return m;
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

template <std::size_t>
using ValArgument = val;

template <auto Function, class Given, class Missing>
struct PaddedCall;
template <auto Function, std::size_t... G, std::size_t... M>
struct PaddedCall<Function, std::index_sequence<G...>, std::index_sequence<M...>> {
  static val call(ValArgument<G>... given) {
    return at_boundary([&] { return Function(std::move(given)..., ((void)M, val::undefined())...); });
  }
};

/// A call with more arguments than the function takes: a TypeError, not an embind arity error.
template <std::size_t Arity, class Given>
struct TooManyArguments;
template <std::size_t Arity, std::size_t... G>
struct TooManyArguments<Arity, std::index_sequence<G...>> {
  static val call(ValArgument<G>...) {
    return at_boundary([] {
      return guarded([]() -> val {
        throw ArgumentTypeError("expected at most " + std::to_string(Arity) + " arguments, got " +
                                std::to_string(sizeof...(G)));
      });
    });
  }
};

template <std::size_t Arity, auto Function, std::size_t... Given>
void bind_every_arity(const char* name, std::index_sequence<Given...>) {
  (emscripten::function(
       name, &PaddedCall<Function, std::make_index_sequence<Given>, std::make_index_sequence<Arity - Given>>::call),
   ...);
  emscripten::function(name, &TooManyArguments<Arity, std::make_index_sequence<Arity + 1>>::call);
  emscripten::function(name, &TooManyArguments<Arity, std::make_index_sequence<Arity + 2>>::call);
}

/// Registers `Function` (Arity parameters, all `val`) for every call length 0..Arity: missing
/// trailing arguments arrive as undefined, so optional arguments take their defaults and missing
/// required ones get the function's own TypeError instead of an embind arity error. One or two
/// extra arguments throw a TypeError too.
template <std::size_t Arity, auto Function>
void function_with_optional_arguments(const char* name) {
  bind_every_arity<Arity, Function>(name, std::make_index_sequence<Arity + 1>{});
}

}  // namespace kernel_lens::wasm
