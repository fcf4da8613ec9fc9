#pragma once
// Conversions shared by the binding files: whole typed arrays in, copied typed arrays out,
// C++ exceptions rethrown as JavaScript errors. No math lives here. The helpers are defined once
// in common.cpp, so every binding calls the same copy instead of inlining its own.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernel_lens/limits.hpp"
#include "kernel_lens/types.hpp"

namespace kernel_lens::wasm {

using emscripten::val;

/// A wrong argument type; it reaches JavaScript as a TypeError (any other failure as a RangeError).
class ArgumentTypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Keeps a copy of the failure's message for throw_remembered(); returns its JavaScript type,
/// "TypeError" for an ArgumentTypeError and "RangeError" otherwise.
const char* remember_error(const std::exception& error);

/// `throw new globalThis[type](message)` in JavaScript with the remembered message.
[[noreturn]] void throw_remembered(const char* type);

/// Runs f() at a JavaScript entry point. A std::exception becomes the JavaScript error named by
/// remember_error(), thrown once the exception is destroyed and no C++ object of the call is left
/// alive (a JavaScript throw from deeper down would skip their destructors).
template <class F>
auto at_boundary(F&& f) -> decltype(f()) {
  const char* type = nullptr;
  try {
    return f();
  } catch (const std::exception& error) {
    type = remember_error(error);
  }
  throw_remembered(type);
}

/// True for any JS array or typed array.
bool is_array_like(const val& v);
/// TypeError unless `v` is an array or a typed array (a DataView is neither).
void check_array_like(const val& v, const char* name);
/// One bulk copy of a JS numeric array into a std::vector<double>; TypeError when `v` is no array.
std::vector<double> to_vector(const val& v, const char* name);
/// A JS numeric array as an Eigen vector, one bulk copy.
Vector to_eigen_vector(const val& v, const char* name);
/// An integer argument >= min_value (dimension, count); TypeError/RangeError otherwise.
std::size_t to_count(const val& v, const char* name, double min_value = 1);
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

/// object[key] = value.
/// This module's wasm linear memory in bytes (it only grows).
double heap_bytes();
/// { heapBytes, allocatedBytes (malloc'd and not freed), liveHandles (embind's emval handles) } of
/// this module: the core exports it as memoryUsage, the laboratory as labMemoryUsage.
val memory_usage();

void set(val& object, const char* key, const val& value);
void set(val& object, const char* key, double value);
void set(val& object, const char* key, bool value);

/// The arguments of one call, as addresses.
using Arguments = const val* const*;
/// Every binding behind one signature: the `count` arguments of the call; `self` is the bound
/// object of a method, else null.
using Entry = val (*)(void* self, Arguments given, std::size_t count);
/// The longest parameter list a binding may have.
constexpr std::size_t max_arity = 8;

/// The given arguments padded with undefined up to `arity` (in `padded`); more than `arity`
/// arguments is a TypeError.
Arguments pad_arguments(Arguments given, std::size_t count, std::size_t arity,
                        std::array<const val*, max_arity>& padded);

/// entry(self, given, count) at the JavaScript boundary.
val call_entry(Entry entry, void* self, Arguments given, std::size_t count);

template <std::size_t>
using ValArgument = val;
template <std::size_t>
using ValWireType = emscripten::internal::BindingType<val>::WireType;

/// `Function(arguments[0], ..., arguments[Arity - 1])` behind the Entry signature, missing
/// trailing arguments undefined; a method's function takes the bound object first.
template <auto Function, class Self, class Indices>
struct Spread;
template <auto Function, std::size_t... I>
struct Spread<Function, void, std::index_sequence<I...>> {
  static val call(void*, Arguments given, std::size_t count) {
    std::array<const val*, max_arity> padded;
    [[maybe_unused]] const Arguments arguments = pad_arguments(given, count, sizeof...(I), padded);
    return Function(*arguments[I]...);
  }
};
template <auto Function, class Self, std::size_t... I>
struct Spread<Function, Self, std::index_sequence<I...>> {
  static val call(void* self, Arguments given, std::size_t count) {
    std::array<const val*, max_arity> padded;
    [[maybe_unused]] const Arguments arguments = pad_arguments(given, count, sizeof...(I), padded);
    return Function(*static_cast<Self*>(self), *arguments[I]...);
  }
};

/// What embind calls for a free function with `sizeof...(G)` arguments. The binding's Entry
/// arrives in embind's function-pointer slot, so one invoker per call length serves every binding.
template <class Given>
struct EntryInvoker;
template <std::size_t... G>
struct EntryInvoker<std::index_sequence<G...>> {
  static ValWireType<0> invoke(Entry entry, ValWireType<G>... handles) {
    const val arguments[] = {val::take_ownership(handles)..., val::undefined()};
    const val* addresses[] = {&arguments[G]..., nullptr};
    return emscripten::internal::BindingType<val>::toWireType(call_entry(entry, nullptr, addresses, sizeof...(G)));
  }
};

/// Registers `entry` under `name` for calls with `sizeof...(G)` arguments. This is what
/// emscripten::function() does, minus its one wrapper function per binding and call length.
template <std::size_t... G>
void bind_call_length(const char* name, Entry entry, std::index_sequence<G...>) {
  using namespace emscripten::internal;
  WithPolicies<>::ArgTypeList<val, ValArgument<G>...> types;
  const auto invoker = &EntryInvoker<std::index_sequence<G...>>::invoke;
  _embind_register_function(name, types.getCount(), types.getTypes(), getSignature(invoker),
                            reinterpret_cast<GenericFunction>(invoker), reinterpret_cast<GenericFunction>(entry));
}

template <std::size_t... Count>
void bind_every_count(const char* name, Entry entry, std::index_sequence<Count...>) {
  (bind_call_length(name, entry, std::make_index_sequence<Count>{}), ...);
}

/// Registers `Function` (Arity parameters, all `const val&`) for every call length 0..Arity + 2:
/// missing trailing arguments arrive as undefined, so optional arguments take their defaults and
/// missing required ones get the function's own TypeError instead of an embind arity error; one
/// or two extra arguments are a TypeError too.
template <std::size_t Arity, auto Function>
void function_with_optional_arguments(const char* name) {
  static_assert(Arity <= max_arity);
  bind_every_count(name, &Spread<Function, void, std::make_index_sequence<Arity>>::call,
                   std::make_index_sequence<Arity + 3>{});
}

/// The function embind calls for a method with `sizeof...(G)` arguments.
template <Entry E, class Given>
struct MethodThunk;
template <Entry E, std::size_t... G>
struct MethodThunk<E, std::index_sequence<G...>> {
  template <class Self>
  static val call(Self& self, ValArgument<G>... given) {
    const val* arguments[] = {&given..., nullptr};
    return call_entry(E, &self, arguments, sizeof...(G));
  }
};

template <Entry E, class Self, std::size_t... Count>
void bind_every_method_count(emscripten::class_<Self>& cls, const char* name, std::index_sequence<Count...>) {
  (cls.function(name, &MethodThunk<E, std::make_index_sequence<Count>>::template call<Self>), ...);
}

/// The same for a method: `Function(Self&, const val&...)` with Arity value parameters, for every
/// call length 0..Arity.
template <std::size_t Arity, auto Function, class Self>
void method_with_optional_arguments(emscripten::class_<Self>& cls, const char* name) {
  static_assert(Arity <= max_arity);
  bind_every_method_count<&Spread<Function, Self, std::make_index_sequence<Arity>>::call>(
      cls, name, std::make_index_sequence<Arity + 1>{});
}

}  // namespace kernel_lens::wasm
