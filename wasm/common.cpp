// The shared conversions and the C++ half of the JavaScript boundary of common.hpp.
#include "common.hpp"

#include <emscripten/stack.h>
#include <malloc.h>

#include <cstdlib>
#include <cstring>

#include "kernel_lens/csv.hpp"

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

/// { signatures: [[owner or null, name, parameters], ...] of every guarded binding, maxEntries:
/// the most numbers any list argument may hold }: read once by boundary.js.
val boundary_js() {
  val rows = val::array();
  for (const Signature& s : signatures()) {
    val row = val::array();
    row.call<void>("push", s.owner ? val(s.owner) : val::null());
    row.call<void>("push", val(s.name));
    row.call<void>("push", val(s.parameters));
    rows.call<void>("push", row);
  }
  val out = val::object();
  out.set("signatures", rows);
  out.set("maxEntries", val(static_cast<double>(Limits::max_cells)));
  return out;
}

const char* current_argument = nullptr;

/// The argument a binding was reading when JavaScript code threw (or null): see reading().
val argument_js() { return current_argument ? val(std::string(current_argument)) : val::null(); }

/// `text` with every lone surrogate (its 3-byte WTF-8 form, ED A0..BF xx) written as \uXXXX, so
/// that it reaches JavaScript as itself instead of as a replacement character.
std::string escape_lone_surrogates(const std::string& text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    if (byte(i) == 0xED && i + 2 < text.size() && byte(i + 1) >= 0xA0 && byte(i + 1) <= 0xBF &&
        (byte(i + 2) & 0xC0) == 0x80) {
      const unsigned unit = 0xD000u | ((byte(i + 1) & 0x3Fu) << 6) | (byte(i + 2) & 0x3Fu);
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex[(unit >> shift) & 0xF];
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

void reading(const char* name) { current_argument = name; }

void add_signature(const char* owner, const char* name, const char* parameters, std::size_t arity) {
  std::size_t words = 0;
  for (const char* c = parameters; *c; ++c)
    if (*c != ' ' && (c == parameters || c[-1] == ' ')) ++words;
  if (words != arity) std::abort();
  signatures().push_back({owner, name, parameters});
}

val error_value(const std::exception& error) {
  const bool type_error = dynamic_cast<const ArgumentTypeError*>(&error) != nullptr;
  return val::module_property("kernelLensFailure").new_(val(type_error), val(escape_lone_surrogates(error.what())));
}

val guarded_call(Thunk thunk, void* self, Arguments arguments) {
  current_argument = nullptr;
  return at_boundary([&] { return thunk(self, arguments); });
}

double float64_length(const val& v) { return val::module_property("kernelLensListLength")(v).as<double>(); }

bool is_array_like(const val& v) { return float64_length(v) >= 0.0; }

void check_array_like(const val& v, const char* name) {
  reading(name);
  if (!is_array_like(v)) throw ArgumentTypeError(std::string(name) + " must be an array or a typed array of numbers");
}

std::size_t list_length(const val& v, const char* name, std::size_t cap) {
  reading(name);
  const double length = float64_length(v);
  if (length < 0.0) throw ArgumentTypeError(std::string(name) + " must be an array or a typed array of numbers");
  check_size(static_cast<std::size_t>(length), cap, name);
  return static_cast<std::size_t>(length);
}

void copy_into(const val& target, const val& source, double offset) {
  val::module_property("kernelLensCopy")(target, source, offset);
}

namespace {

/// Copies the `length` numbers of the list `v` into `out` (one bulk copy).
void copy_numbers(const val& v, double* out, std::size_t length) {
  if (length > 0) copy_into(val(emscripten::typed_memory_view(length, out)), v, 0.0);
}

}  // namespace

std::vector<double> to_vector(const val& v, const char* name, std::size_t cap) {
  std::vector<double> out(list_length(v, name, cap));
  copy_numbers(v, out.data(), out.size());
  return out;
}

Vector to_eigen_vector(const val& v, const char* name, std::size_t cap) {
  Vector out(static_cast<Eigen::Index>(list_length(v, name, cap)));
  copy_numbers(v, out.data(), static_cast<std::size_t>(out.size()));
  return out;
}

std::size_t to_count(const val& v, const char* name, std::size_t min_value, std::size_t max_value) {
  return count_from_number(to_number(v, name), name, min_value, max_value);
}

std::size_t to_dimension(const val& v, const char* name) { return to_count(v, name, 1, Limits::max_dimension); }

double to_number(const val& v, const char* name) {
  reading(name);
  if (!v.isNumber()) throw ArgumentTypeError(std::string(name) + " must be a number");
  return v.as<double>();
}

std::string to_text(const val& v, const char* name) {
  reading(name);
  if (!v.isString()) throw ArgumentTypeError(std::string(name) + " must be a string");
  return utf8_from_utf16(v.as<std::u16string>());
}

std::string to_optional_string(const val& v, const char* name, const char* fallback) {
  return v.isUndefined() ? std::string(fallback) : to_text(v, name);
}

Shape list_shape(const val& v, std::size_t cols, const char* name) {
  return {rows_from_length(list_length(v, name, Limits::max_cells), cols, name), cols};
}

RowMatrix to_matrix(const val& v, std::size_t cols, const char* name) {
  const Shape shape = list_shape(v, cols, name);
  check_rows(shape.rows, name);
  RowMatrix m(static_cast<Eigen::Index>(shape.rows), static_cast<Eigen::Index>(cols));
  copy_numbers(v, m.data(), shape.rows * cols);
  return m;
}

val copy_out(const val& view) {
  reading(nullptr);
  return val::module_property("kernelLensSlice")(view);
}

val to_float64_array(const double* data, std::size_t count) {
  reading(nullptr);
  return copy_out(val(emscripten::typed_memory_view(count, data)));
}

void set_array(val& object, const char* key, const double* data, std::size_t count) {
  object.set(key, to_float64_array(data, count));
}

val string_array(const std::vector<std::string>& items) {
  val out = val::array();
  for (const auto& item : items) out.call<void>("push", val(item));
  return out;
}

void set(val& object, const char* key, const val& value) {
  reading(nullptr);
  object.set(key, value);
}

void set(val& object, const char* key, double value) { set(object, key, val(value)); }

void set(val& object, const char* key, bool value) { set(object, key, val(value)); }

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
  emscripten::function("kernelLensBoundary", &kernel_lens::wasm::boundary_js);
  emscripten::function("kernelLensArgument", &kernel_lens::wasm::argument_js);
}
