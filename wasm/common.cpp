// The shared conversions and the C++ half of the JavaScript boundary of common.hpp.
#include "common.hpp"

#include <emscripten/stack.h>
#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace kernel_lens::wasm {
namespace {

struct Signature {
  const char* owner;
  const char* name;
  const char* parameters;
};

std::vector<Signature>& signatures() {
  static std::vector<Signature> table;
  return table;
}

/// [[owner or null, name, parameters], ...] of every guarded binding: read once by boundary.js.
val signatures_js() {
  val out = val::array();
  for (const Signature& s : signatures()) {
    val row = val::array();
    row.call<void>("push", s.owner ? val(s.owner) : val::null());
    row.call<void>("push", val(s.name));
    row.call<void>("push", val(s.parameters));
    out.call<void>("push", row);
  }
  return out;
}

}  // namespace

void add_signature(const char* owner, const char* name, const char* parameters, std::size_t arity) {
  std::size_t words = 0;
  for (const char* c = parameters; *c; ++c)
    if (*c != ' ' && (c == parameters || c[-1] == ' ')) ++words;
  if (words != arity) std::abort();
  signatures().push_back({owner, name, parameters});
}

val error_value(const std::exception& error) {
  const bool type_error = dynamic_cast<const ArgumentTypeError*>(&error) != nullptr;
  return val::module_property("kernelLensFailure").new_(val(type_error), val(std::string(error.what())));
}

val guarded_call(Thunk thunk, void* self, Arguments arguments) {
  return at_boundary([&] { return thunk(self, arguments); });
}

bool is_array_like(const val& v) { return v.isArray() || val::global("ArrayBuffer").call<bool>("isView", v); }

void check_array_like(const val& v, const char* name) {
  if (v.isUndefined() || v.isNull() || !is_array_like(v) || v.instanceof (val::global("DataView")))
    throw ArgumentTypeError(std::string(name) + " must be an array or a typed array of numbers");
}

std::vector<double> to_vector(const val& v, const char* name) {
  check_array_like(v, name);
  return emscripten::convertJSArrayToNumberVector<double>(v);
}

Vector to_eigen_vector(const val& v, const char* name) {
  check_array_like(v, name);
  Vector out(v["length"].as<Eigen::Index>());
  if (out.size() > 0) val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", v);
  return out;
}

std::size_t to_count(const val& v, const char* name, std::size_t min_value, std::size_t max_value) {
  return count_from_number(to_number(v, name), name, min_value, max_value);
}

std::size_t to_dimension(const val& v, const char* name) { return to_count(v, name, 1, Limits::max_dimension); }

double to_number(const val& v, const char* name) {
  if (!v.isNumber()) throw ArgumentTypeError(std::string(name) + " must be a number");
  return v.as<double>();
}

std::string to_optional_string(const val& v, const char* name, const char* fallback) {
  if (v.isUndefined()) return fallback;
  if (!v.isString()) throw ArgumentTypeError(std::string(name) + " must be a string");
  return v.as<std::string>();
}

RowMatrix to_matrix(const val& v, std::size_t cols, const char* name) {
  check_array_like(v, name);
  const auto length = v["length"].as<std::size_t>();
  RowMatrix m(static_cast<Eigen::Index>(rows_from_length(length, cols, name)), static_cast<Eigen::Index>(cols));
  if (length > 0) val(emscripten::typed_memory_view(length, m.data())).call<void>("set", v);
  return m;
}

val to_float64_array(const double* data, std::size_t count) {
  return val(emscripten::typed_memory_view(count, data)).call<val>("slice");
}

void set_array(val& object, const char* key, const double* data, std::size_t count) {
  object.set(key, to_float64_array(data, count));
}

val string_array(const std::vector<std::string>& items) {
  val out = val::array();
  for (const auto& item : items) out.call<void>("push", val(item));
  return out;
}

void set(val& object, const char* key, const val& value) { object.set(key, value); }

void set(val& object, const char* key, double value) { object.set(key, val(value)); }

void set(val& object, const char* key, bool value) { object.set(key, val(value)); }

double heap_bytes() { return static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0; }

val memory_usage() {
  const struct mallinfo info = mallinfo();
  const val count = val::module_property("count_emval_handles");
  val out = val::object();
  set(out, "heapBytes", heap_bytes());
  set(out, "allocatedBytes", static_cast<double>(info.uordblks));
  set(out, "liveHandles", count.typeOf().as<std::string>() == "function" ? count() : val::null());
  set(out, "stackPointer", static_cast<double>(emscripten_stack_get_current()));
  return out;
}

}  // namespace kernel_lens::wasm

EMSCRIPTEN_BINDINGS(kernel_lens_boundary) {
  emscripten::function("kernelLensSignatures", &kernel_lens::wasm::signatures_js);
}
