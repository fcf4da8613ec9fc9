// The reader's CSV: any bytes. Accepted tables must satisfy every documented limit.
#include <string_view>

#include "fuzz_input.hpp"
#include "kernel_lens/csv.hpp"

using namespace kernel_lens;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::refusal_allowed([&] {
    const CsvTable table = parse_csv(text);
    const auto n = static_cast<std::size_t>(table.keys.rows());
    const auto d = static_cast<std::size_t>(table.keys.cols());
    if (n < 2 || n > CsvLimits::max_rows || d < 1 || d > CsvLimits::max_key_columns) std::abort();
    if (static_cast<std::size_t>(table.values.size()) != n || table.header.size() != d + 1) std::abort();
    fuzz::require_finite(table.keys);
    fuzz::require_finite(table.values);
    if ((table.keys.array().abs() > CsvLimits::max_magnitude).any()) std::abort();
    if ((table.values.array().abs() > CsvLimits::max_magnitude).any()) std::abort();
    for (const auto& name : table.header)
      if (name.empty() || name[0] == '=' || name[0] == '+' || name[0] == '-' || name[0] == '@') std::abort();
  });
  return 0;
}
