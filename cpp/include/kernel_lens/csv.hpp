#pragma once
/// The reader's own data: a small CSV table of 1-8 key columns followed by one value column.
/// Every refusal throws CsvError with a message naming the row and column (rows and columns are
/// counted from 1 as the reader sees them, the header line included).
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_lens/types.hpp"

namespace kernel_lens {

struct CsvLimits {
  static constexpr std::size_t max_bytes = 4'194'304;  ///< 4 MiB of text, refused before parsing
  static constexpr std::size_t max_rows = 5'000;       ///< data rows (the header not counted)
  static constexpr std::size_t max_key_columns = 8;    ///< d; one value column follows the keys
  static constexpr double max_magnitude = 1e12;        ///< |x| of every key and value
};

/// A refused table. `row` and `column` are 1-based; 0 when the problem is not one cell's.
class CsvError : public std::invalid_argument {
 public:
  CsvError(const std::string& message, std::size_t row = 0, std::size_t column = 0)
      : std::invalid_argument(message), row(row), column(column) {}
  std::size_t row;
  std::size_t column;
};

struct CsvTable {
  RowMatrix keys;                   ///< K, (n, d)
  Vector values;                    ///< v, (n)
  std::vector<std::string> header;  ///< d + 1 column names ("x", "y" or "x1".."xd", "y" when absent)
  bool has_header = false;
  char delimiter = ',';               ///< ',', '\t' or ';'
  std::vector<std::string> warnings;  ///< accepted but worth saying (duplicate keys, decimal commas)
};

/// bytes <= CsvLimits::max_bytes, else CsvError "the data is [at least] N bytes; the limit is ...".
/// `at_least` when `bytes` is a lower bound (a text's length counted before encoding it).
void check_csv_size(std::size_t bytes, bool at_least = false);

/// JavaScript text (UTF-16 code units, as a page or a file reader holds it) -> UTF-8 for
/// parse_csv, code unit by code unit. A lone surrogate (half of a UTF-16 pair, not a character)
/// is kept as its 3-byte generalised UTF-8 form (WTF-8), which parse_csv refuses naming its row,
/// column and code unit; it is never merged with the code unit after it, nor replaced.
std::string utf8_from_utf16(std::u16string_view text);

/// Parses comma-, tab- or semicolon-separated text (the delimiter is the first of tab, semicolon,
/// comma found outside quotes on the first non-blank line). The first row is a header when none of
/// its cells is a number. Quoted cells ("a, b", "say ""x""") and CRLF line ends are accepted;
/// blank lines are skipped; a UTF-8 byte-order mark is ignored. With ';' a decimal comma (1,5) reads
/// as 1.5. Refused (CsvError): empty input, more than max_bytes, control bytes or U+FFFD (binary
/// data), lone UTF-16 surrogates (see utf8_from_utf16), fewer than 2 or more than max_key_columns + 1 columns, ragged rows, cells that are not
/// plain decimal numbers (text, NaN, +-Inf, spreadsheet formulas starting with = + - @), |x| above
/// max_magnitude, fewer than 2 or more than max_rows data rows. Duplicate keys are accepted (the
/// estimator averages their values) and reported once in `warnings`.
CsvTable parse_csv(std::string_view text);

}  // namespace kernel_lens
