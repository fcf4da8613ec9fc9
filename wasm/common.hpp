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
//   frame has returned. Every list's length is checked against its limit before it is copied
//   into wasm memory. Should JavaScript code still throw while a binding runs (a page that
//   replaced a built-in such as %TypedArray%.prototype.set), boundary.js restores the wasm stack
//   pointer and throws a TypeError naming the argument being read (reading(), below), so a failed
//   call leaves the wasm stack pointer, the heap and embind's handles where they were.
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

/// Records the argument the binding reads now (nullptr: none, the result is being made): when
/// JavaScript code throws inside a binding, boundary.js names it (kernelLensArgument).
void reading(const char* name);

// Lists reach a binding as Float64Arrays of the built-in kind (boundary.js copies any other array
// or typed array into one), and the bindings read, copy and slice them through boundary.js's
// kernelLensListLength / kernelLensCopy / kernelLensSlice, which hold the built-ins as they were
// when the module started: a page that replaces %TypedArray%.prototype.set or ArrayBuffer.isView
// later changes nothing inside a call.

/// The length of `v` when it is a Float64Array, else -1.
double float64_length(const val& v);
/// True for a list (a Float64Array, after boundary.js).
bool is_array_like(const val& v);
/// TypeError unless `v` is an array or a typed array (a DataView is neither).
void check_array_like(const val& v, const char* name);
/// target.set(source, offset) with the built-in set.
void copy_into(const val& target, const val& source, double offset);
/// A copy of the typed array `view` (a memory view of wasm memory), made with the built-ins.
val copy_out(const val& view);
/// The length of the list `v` (check_array_like), checked against `cap` before anything is
/// copied: std::length_error "<name> has N entries; the limit is <cap>".
std::size_t list_length(const val& v, const char* name, std::size_t cap);
/// One bulk copy of a JS numeric array of at most `cap` entries into a std::vector<double>.
std::vector<double> to_vector(const val& v, const char* name, std::size_t cap = Limits::max_cells);
/// A JS numeric array of at most `cap` entries as an Eigen vector, one bulk copy.
Vector to_eigen_vector(const val& v, const char* name, std::size_t cap = Limits::max_cells);
/// An integer argument in [min_value, max_value] (count_from_number on the JS number).
std::size_t to_count(const val& v, const char* name, std::size_t min_value, std::size_t max_value);
/// A feature or value dimension: an integer in [1, Limits::max_dimension].
std::size_t to_dimension(const val& v, const char* name);
/// A number argument (finiteness is the core's check, so NaN reaches it and gets its message).
double to_number(const val& v, const char* name);
/// A string argument as UTF-8, read as UTF-16 code units so that a lone surrogate stays itself
/// (its WTF-8 form, see utf8_from_utf16) and is shown as \uXXXX in a message; TypeError when
/// `v` is not a string.
std::string to_text(const val& v, const char* name);
/// An optional string argument: `fallback` when undefined, TypeError when not a string.
std::string to_optional_string(const val& v, const char* name, const char* fallback);
/// The shape of a flat array of rows of `cols` numbers, read from its length alone (nothing is
/// copied): a binding checks the shapes of all its matrices before it copies the first.
Shape list_shape(const val& v, std::size_t cols, const char* name);
/// Row-major (rows x cols) matrix from a flat array whose length must be a multiple of cols and
/// whose rows are within Limits::max_rows (checked before the copy); one bulk copy straight into
/// the matrix.
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
