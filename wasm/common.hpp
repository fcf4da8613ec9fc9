#pragma once
// Conversions shared by the binding files (whole typed arrays in, copied typed arrays out) and
// the JavaScript boundary, on embind's public API only (emscripten::function, class_, val).
//
// The boundary, in two halves:
// - C++ (here): every binding is registered through bind_function() / bind_method(), which wrap
//   it in a guard that catches a std::exception and *returns* a failure value (TypeError for an
//   ArgumentTypeError, RangeError otherwise, and the message) instead of throwing across wasm
//   frames. Each registration also records the binding's
//   parameter names.
// - JavaScript (boundary.js, linked with --post-js): replaces each registered function and method
//   by a wrapper that checks the number of arguments against those names (a short TypeError),
//   pads missing trailing arguments with undefined (so optional arguments take their defaults),
//   copies arguments that could run the caller's code (array-likes, config objects, typed-array
//   subclasses) into plain values, calls the binding and, when it returned a failure, throws the
//   Error (its message in JavaScript's terms: key_seed -> keySeed, inf -> Infinity) once the wasm
//   frame has returned. No JavaScript exception ever unwinds a wasm frame, so a failed call
//   leaves the wasm stack pointer, the heap and embind's handles where they were.
// No math lives here. The helpers are defined once in common.cpp, so every binding calls the
// same copy instead of inlining its own.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "kernel_lens/limits.hpp"
#include "kernel_lens/types.hpp"
#include "rules.hpp"

namespace kernel_lens::wasm {

using emscripten::val;

/// A failure on its way out: a `Module.kernelLensFailure` object (boundary.js) saying whether it
/// is a TypeError (an ArgumentTypeError) or a RangeError (anything else) and the core's message.
/// boundary.js puts the message in JavaScript's terms and makes the Error from it once the wasm
/// frame has returned, so the Error's stack shows the caller, not wasm frames (and is cheaper).
val error_value(const std::exception& error);

/// Runs f() at a JavaScript entry point: its value, or the failure value of the std::exception it
/// threw (returned, not thrown; boundary.js throws the Error).
template <class F>
val at_boundary(F&& f) {
  try {
    return f();
  } catch (const std::exception& error) {
    return error_value(error);
  }
}

/// True for any JS array or typed array.
bool is_array_like(const val& v);
/// TypeError unless `v` is an array or a typed array (a DataView is neither).
void check_array_like(const val& v, const char* name);
/// One bulk copy of a JS numeric array into a std::vector<double>; TypeError when `v` is no array.
std::vector<double> to_vector(const val& v, const char* name);
/// A JS numeric array as an Eigen vector, one bulk copy.
Vector to_eigen_vector(const val& v, const char* name);
/// An integer argument in [min_value, max_value] (count_from_number on the JS number).
std::size_t to_count(const val& v, const char* name, std::size_t min_value, std::size_t max_value);
/// A feature or value dimension: an integer in [1, Limits::max_dimension].
std::size_t to_dimension(const val& v, const char* name);
/// A number argument (finiteness is the core's check, so NaN reaches it and gets its message).
double to_number(const val& v, const char* name);
/// An optional string argument: `fallback` when undefined, TypeError when not a string.
std::string to_optional_string(const val& v, const char* name, const char* fallback);
/// Row-major (rows x cols) matrix from a flat array whose length must be a multiple of cols;
/// one bulk copy straight into the matrix.
RowMatrix to_matrix(const val& v, std::size_t cols, const char* name);

/// A copied Float64Array (a bare memory view would go stale when wasm memory grows).
val to_float64_array(const double* data, std::size_t count);
/// The same for a plain matrix, vector or std::vector, in its storage order.
template <class Plain>
val to_float64_array(const Plain& m) {
  return to_float64_array(m.data(), static_cast<std::size_t>(m.size()));
}
/// object[key] = a copied Float64Array of `count` doubles from `data`.
void set_array(val& object, const char* key, const double* data, std::size_t count);
/// The same for a plain matrix, vector or std::vector, in its storage order.
template <class Plain>
void set_array(val& object, const char* key, const Plain& m) {
  set_array(object, key, m.data(), static_cast<std::size_t>(m.size()));
}
/// A JS array of strings.
val string_array(const std::vector<std::string>& items);

/// This module's wasm linear memory in bytes (it only grows).
double heap_bytes();
/// { heapBytes, allocatedBytes (malloc'd and not freed), liveHandles (embind's emval handles),
/// stackPointer (the wasm stack pointer, as seen one call deep from JavaScript) } of this module:
/// the core exports it as memoryUsage, the laboratory as labMemoryUsage.
val memory_usage();

/// object[key] = value.
void set(val& object, const char* key, const val& value);
void set(val& object, const char* key, double value);
void set(val& object, const char* key, bool value);

/// Records the parameter names of a binding ("queries keys values d p bandwidth kernel? emptyRows?",
/// a trailing `?` marks an optional one) for boundary.js; `owner` is the class of a method (or
/// nullptr). Aborts when the names do not match the binding's arity (a mistake in a binding file).
void add_signature(const char* owner, const char* name, const char* parameters, std::size_t arity);

/// The arguments of one call, as addresses, and a binding behind one signature (`self` is the
/// bound object of a method, else null).
using Arguments = const val* const*;
using Thunk = val (*)(void* self, Arguments arguments);

/// thunk(self, arguments) inside the one try/catch of at_boundary: every binding shares it, so the
/// module carries one exception landing pad instead of one per binding.
val guarded_call(Thunk thunk, void* self, Arguments arguments);

template <auto Function>
struct Guarded;
/// A free function `val F(const val&...)` behind the guard.
template <class... A, val (*Function)(A...)>
struct Guarded<Function> {
  static constexpr std::size_t arity = sizeof...(A);
  template <std::size_t... I>
  static val spread(Arguments arguments, std::index_sequence<I...>) {
    return Function(*arguments[I]...);
  }
  static val thunk(void*, Arguments arguments) { return spread(arguments, std::index_sequence_for<A...>{}); }
  static val call(A... arguments) {
    const val* list[] = {&arguments..., nullptr};
    return guarded_call(&thunk, nullptr, list);
  }
};

template <auto Function>
struct GuardedMethod;
/// A method `val F(Self&, const val&...)` behind the guard.
template <class Self, class... A, val (*Function)(Self&, A...)>
struct GuardedMethod<Function> {
  static constexpr std::size_t arity = sizeof...(A);
  template <std::size_t... I>
  static val spread(void* self, Arguments arguments, std::index_sequence<I...>) {
    return Function(*static_cast<Self*>(self), *arguments[I]...);
  }
  static val thunk(void* self, Arguments arguments) {
    return spread(self, arguments, std::index_sequence_for<A...>{});
  }
  static val call(Self& self, A... arguments) {
    const val* list[] = {&arguments..., nullptr};
    return guarded_call(&thunk, &self, list);
  }
};

/// Registers `Function` under `name` with its parameter names (see add_signature).
template <auto Function>
void bind_function(const char* name, const char* parameters) {
  add_signature(nullptr, name, parameters, Guarded<Function>::arity);
  emscripten::function(name, &Guarded<Function>::call);
}

/// Registers `Function` as the method `name` of the class `owner`.
template <auto Function, class Self>
void bind_method(emscripten::class_<Self>& cls, const char* owner, const char* name, const char* parameters) {
  add_signature(owner, name, parameters, GuardedMethod<Function>::arity);
  cls.function(name, &GuardedMethod<Function>::call);
}

}  // namespace kernel_lens::wasm
