// JavaScript surface of the reader's own data (parseCsv) and of the module's memory use.
#include "common.hpp"
#include "kernel_lens/csv.hpp"

namespace kernel_lens::wasm {
namespace {

/// { keys (n·d), values (n), d, n, header, hasHeader, delimiter, warnings } or a RangeError naming
/// the row and column. Text longer than the byte cap is refused before it is copied into wasm memory.
val parse_csv_js(const val& text) {
  if (!text.isString()) throw ArgumentTypeError("text must be a string");
  check_csv_size(text["length"].as<std::size_t>(), true);
  // As UTF-16 code units, so a lone surrogate reaches the reader as itself (see utf8_from_utf16).
  const CsvTable table = parse_csv(utf8_from_utf16(text.as<std::u16string>()));
  val out = val::object();
  set_array(out, "keys", table.keys);
  set_array(out, "values", table.values);
  set(out, "d", static_cast<double>(table.keys.cols()));
  set(out, "n", static_cast<double>(table.keys.rows()));
  set(out, "header", string_array(table.header));
  set(out, "hasHeader", table.has_header);
  set(out, "delimiter", val(std::string(1, table.delimiter)));
  set(out, "warnings", string_array(table.warnings));
  return out;
}

val heap_bytes_js() { return val(heap_bytes()); }

val csv_limits_js() {
  val out = val::object();
  set(out, "maxBytes", static_cast<double>(CsvLimits::max_bytes));
  set(out, "maxRows", static_cast<double>(CsvLimits::max_rows));
  set(out, "maxKeyColumns", static_cast<double>(CsvLimits::max_key_columns));
  set(out, "maxMagnitude", CsvLimits::max_magnitude);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(kernel_lens_data) {
  bind_function<parse_csv_js>("parseCsv", "text");
  bind_function<csv_limits_js>("csvLimits", "");
  bind_function<heap_bytes_js>("heapBytes", "");
  bind_function<memory_usage>("memoryUsage", "");
}

}  // namespace kernel_lens::wasm
