// JavaScript surface of the reader's own data (parseCsv) and of the module's memory use.
#include <emscripten/emscripten.h>
#include <emscripten/em_js.h>
#include <malloc.h>

#include "common.hpp"
#include "kernel_lens/csv.hpp"

EM_JS(void, kernel_lens_throw_error, (const char* type, const char* message),
      { throw new globalThis[UTF8ToString(type)](UTF8ToString(message)); });

namespace kernel_lens::wasm {
namespace {

val string_array(const std::vector<std::string>& items) {
  val out = val::array();
  for (const auto& item : items) out.call<void>("push", val(item));
  return out;
}

/// { keys (n·d), values (n), d, n, header, hasHeader, delimiter, warnings } or a RangeError naming
/// the row and column. Text longer than the byte cap is refused before it is copied into wasm memory.
val parse_csv_js(val text) {
  return guarded([&] {
    if (!text.isString()) throw ArgumentTypeError("text must be a string");
    check_csv_size(text["length"].as<std::size_t>(), true);
    const CsvTable table = parse_csv(text.as<std::string>());
    val out = val::object();
    out.set("keys", to_float64_array(table.keys));
    out.set("values", to_float64_array(table.values));
    out.set("d", val(static_cast<double>(table.keys.cols())));
    out.set("n", val(static_cast<double>(table.keys.rows())));
    out.set("header", string_array(table.header));
    out.set("hasHeader", val(table.has_header));
    out.set("delimiter", val(std::string(1, table.delimiter)));
    out.set("warnings", string_array(table.warnings));
    return out;
  });
}

val csv_limits_js() {
  val out = val::object();
  out.set("maxBytes", val(static_cast<double>(CsvLimits::max_bytes)));
  out.set("maxRows", val(static_cast<double>(CsvLimits::max_rows)));
  out.set("maxKeyColumns", val(static_cast<double>(CsvLimits::max_key_columns)));
  out.set("maxMagnitude", val(CsvLimits::max_magnitude));
  return out;
}

/// The wasm linear memory in bytes (it only grows).
double heap_bytes() { return static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0; }

/// { heapBytes, allocatedBytes (malloc'd and not freed), liveHandles (embind's emval handles) }.
val memory_usage_js() {
  const struct mallinfo info = mallinfo();
  const val count = val::module_property("count_emval_handles");
  val out = val::object();
  out.set("heapBytes", val(heap_bytes()));
  out.set("allocatedBytes", val(static_cast<double>(info.uordblks)));
  out.set("liveHandles", count.typeOf().as<std::string>() == "function" ? count() : val::null());
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(kernel_lens_data) {
  function_with_optional_arguments<1, parse_csv_js>("parseCsv");
  emscripten::function("csvLimits", &csv_limits_js);
  emscripten::function("heapBytes", &heap_bytes);
  emscripten::function("memoryUsage", &memory_usage_js);
}

}  // namespace kernel_lens::wasm
