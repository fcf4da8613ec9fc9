// The shared conversions and the JavaScript boundary of common.hpp.
#include "common.hpp"

#include <emscripten/emscripten.h>
#include <malloc.h>

#include <cmath>
#include <cstring>

EM_JS(void, kernel_lens_throw_error, (const char* type, const char* message),
      { throw new globalThis[UTF8ToString(type)](UTF8ToString(message)); });

namespace kernel_lens::wasm {
namespace {

/// The message of the failure on its way out (thrown after the C++ exception is destroyed).
char remembered_message[2048];

}  // namespace

const char* remember_error(const std::exception& error) {
  std::strncpy(remembered_message, error.what(), sizeof remembered_message - 1);
  return dynamic_cast<const ArgumentTypeError*>(&error) ? "TypeError" : "RangeError";
}

void throw_remembered(const char* type) {
  kernel_lens_throw_error(type, remembered_message);
  __builtin_unreachable();
}

Arguments pad_arguments(Arguments given, std::size_t count, std::size_t arity,
                        std::array<const val*, max_arity>& padded) {
  static const val undefined = val::undefined();
  if (count > arity)
    throw ArgumentTypeError("expected at most " + std::to_string(arity) + " arguments, got " + std::to_string(count));
  for (std::size_t i = 0; i < arity; ++i) padded[i] = i < count ? given[i] : &undefined;
  return padded.data();
}

val call_entry(Entry entry, void* self, Arguments given, std::size_t count) {
  return at_boundary([&] { return entry(self, given, count); });
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

std::size_t to_count(const val& v, const char* name, double min_value) {
  const double x = to_number(v, name);
  if (!std::isfinite(x) || x != std::floor(x) || x < min_value)
    throw std::invalid_argument(std::string(name) + " must be an integer >= " + format_number(min_value) + ", got " +
                                format_number(x));
  return static_cast<std::size_t>(x);
}

std::size_t to_dimension(const val& v, const char* name) {
  const std::size_t dimension = to_count(v, name);
  if (dimension > Limits::max_dimension)
    throw std::length_error(std::string(name) + " is " + std::to_string(dimension) + "; the limit is " +
                            std::to_string(Limits::max_dimension));
  return dimension;
}

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
  if (length % cols != 0)
    throw std::invalid_argument(std::string(name) + " has length " + std::to_string(length) +
                                ", which is not a multiple of its row width " + std::to_string(cols));
  RowMatrix m(static_cast<Eigen::Index>(length / cols), static_cast<Eigen::Index>(cols));
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
  return out;
}

}  // namespace kernel_lens::wasm
