#include "kernel_lens/csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <optional>

#include "kernel_lens/limits.hpp"

namespace kernel_lens {
namespace {

constexpr std::size_t max_columns = CsvLimits::max_key_columns + 1;
constexpr std::size_t max_name_bytes = 64;

std::string with_commas(std::size_t count) {
  std::string digits = std::to_string(count);
  for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

std::string at(std::size_t row, std::size_t column) {
  return "row " + std::to_string(row) + ", column " + std::to_string(column);
}

/// The cell as the reader typed it, quoted and cut to a readable length (cut on a UTF-8 boundary).
std::string shown(std::string_view cell) {
  constexpr std::size_t max_shown = 24;
  if (cell.size() <= max_shown) return "\"" + std::string(cell) + "\"";
  std::size_t cut = max_shown;
  while (cut > 0 && (static_cast<unsigned char>(cell[cut]) & 0xC0) == 0x80) --cut;
  return "\"" + std::string(cell.substr(0, cut)) + "…\"";
}

/// Splits the text into lines of cells, checking every byte is text.
class Tokenizer {
 public:
  Tokenizer(std::string_view text, char delimiter) : text_(text), delimiter_(delimiter) {}

  /// The next non-blank line's cells and its 1-based row; false at the end of the text.
  bool next(std::vector<std::string>& cells, std::size_t& row) {
    skip_blank_lines();
    if (pos_ >= text_.size()) return false;
    cells.clear();
    row = row_;
    for (;;) {
      if (cells.size() == max_columns)
        throw CsvError("row " + std::to_string(row) + " has more than " + std::to_string(max_columns) +
                           " columns; the limit is " + std::to_string(CsvLimits::max_key_columns) +
                           " key columns and one value column",
                       row, max_columns + 1);
      cells.push_back(read_cell(row, cells.size() + 1));
      if (pos_ < text_.size() && text_[pos_] == delimiter_) {
        ++pos_;
        continue;
      }
      end_line();
      return true;
    }
  }

 private:
  bool at_line_end() const { return pos_ >= text_.size() || text_[pos_] == '\n' || text_[pos_] == '\r'; }
  bool is_space(char c) const { return c == ' ' || (c == '\t' && delimiter_ != '\t'); }

  void end_line() {
    if (pos_ < text_.size() && text_[pos_] == '\r') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
    ++row_;
  }

  void skip_blank_lines() {
    while (pos_ < text_.size()) {
      std::size_t look = pos_;
      while (look < text_.size() && (text_[look] == ' ' || text_[look] == '\t')) ++look;
      if (look < text_.size() && text_[look] != '\n' && text_[look] != '\r') return;
      pos_ = look;
      if (pos_ >= text_.size()) return;
      end_line();
    }
  }

  [[noreturn]] void binary(std::size_t row, std::size_t column, const std::string& what) const {
    throw CsvError(at(row, column) + ": " + what + "; the data looks binary, and only plain text tables are accepted",
                   row, column);
  }

  /// Appends the character at pos_ (one UTF-8 sequence) to `cell`, refusing control bytes,
  /// malformed UTF-8 and U+FFFD (what a decoder leaves in place of bytes that were not text).
  void take(std::string& cell, std::size_t row, std::size_t column) {
    const auto lead = static_cast<unsigned char>(text_[pos_]);
    if ((lead < 0x20 && lead != '\t') || lead == 0x7F) {
      constexpr char hex_digits[] = "0123456789ABCDEF";
      const std::string hex = {'0', 'x', hex_digits[lead >> 4], hex_digits[lead & 0xF]};
      binary(row, column, "byte " + hex + " is a control character");
    }
    std::size_t length = 1;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0x80) {
      if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
      else if (lead >= 0xE0 && lead <= 0xEF)
        length = 3;
      else if (lead >= 0xF0 && lead <= 0xF4)
        length = 4;
      else
        binary(row, column, "a byte is not valid UTF-8");
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    }
    if (lead == 0xED && pos_ + 2 < text_.size()) {
      const auto second = static_cast<unsigned char>(text_[pos_ + 1]);
      const auto third = static_cast<unsigned char>(text_[pos_ + 2]);
      if (second >= 0xA0 && second <= 0xBF && third >= 0x80 && third <= 0xBF) {
        constexpr char hex_digits[] = "0123456789ABCDEF";
        const unsigned unit = 0xD000u | ((second & 0x3Fu) << 6) | (third & 0x3Fu);
        std::string code = "U+";
        for (int shift = 12; shift >= 0; shift -= 4) code += hex_digits[(unit >> shift) & 0xF];
        throw CsvError(at(row, column) + ": " + code +
                           " is a lone surrogate, half of a UTF-16 pair and not a character (the text was cut "
                           "inside a character); only plain text tables are accepted",
                       row, column);
      }
    }
    if (pos_ + length > text_.size()) binary(row, column, "a byte is not valid UTF-8");
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text_[pos_ + k]);
      if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF))
        binary(row, column, "a byte is not valid UTF-8");
    }
    if (text_.substr(pos_, length) == "\xEF\xBF\xBD") binary(row, column, "it contains U+FFFD, a replaced byte");
    cell.append(text_.substr(pos_, length));
    pos_ += length;
  }

  std::string read_cell(std::size_t row, std::size_t column) {
    std::string cell;
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '"') {
      const std::size_t opened = row_;
      ++pos_;
      for (;;) {
        if (pos_ >= text_.size())
          throw CsvError(at(opened, column) + ": the quote opened here is never closed", opened, column);
        const char c = text_[pos_];
        if (c == '"') {
          if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
            cell.push_back('"');
            pos_ += 2;
            continue;
          }
          ++pos_;
          break;
        }
        if (c == '\n' || c == '\r') {
          if (c == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ++pos_;
          ++pos_;
          ++row_;
          cell.push_back('\n');
          continue;
        }
        take(cell, row, column);
      }
      while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
      if (!at_line_end() && text_[pos_] != delimiter_)
        throw CsvError(at(row_, column) + ": unexpected text after the closing quote", row_, column);
      return cell;
    }
    while (!at_line_end() && text_[pos_] != delimiter_) take(cell, row, column);
    while (!cell.empty() && is_space(cell.back())) cell.pop_back();
    return cell;
  }

  std::string_view text_;
  char delimiter_;
  std::size_t pos_ = 0;
  std::size_t row_ = 1;
};

/// Tab, else semicolon, else comma: whichever appears first in that order outside quotes on the
/// first non-blank line.
char detect_delimiter(std::string_view text) {
  bool tab = false, semicolon = false, quoted = false, seen_text = false;
  for (const char c : text) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '\n' || c == '\r') {
      if (seen_text) break;
      continue;
    }
    if (c != ' ' && c != '\t') seen_text = true;
    if (c == '\t') tab = true;
    if (c == ';') semicolon = true;
  }
  return tab ? '\t' : semicolon ? ';' : ',';
}

/// A plain decimal number: [+-] digits [. digits] [e [+-] digits] (at least one digit before the exponent).
bool is_decimal(std::string_view cell) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < cell.size() && cell[i] >= '0' && cell[i] <= '9') ++i;
    return i - start;
  };
  if (i < cell.size() && (cell[i] == '+' || cell[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < cell.size() && cell[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < cell.size() && (cell[i] == 'e' || cell[i] == 'E')) {
    ++i;
    if (i < cell.size() && (cell[i] == '+' || cell[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == cell.size();
}

std::string lower(std::string_view cell) {
  std::string out(cell);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

/// "nan", "inf", "infinity", "∞" with an optional sign: not numbers, but named as such.
std::optional<std::string> non_finite_word(std::string_view cell) {
  std::string_view body = cell;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) body.remove_prefix(1);
  const std::string word = lower(body);
  if (word == "nan") return std::string("is NaN (not a number)");
  if (word == "inf" || word == "infinity" || word == "\xE2\x88\x9E")
    return std::string(cell[0] == '-' ? "is minus infinity" : "is infinite");
  return std::nullopt;
}

bool looks_like_formula(std::string_view cell) {
  return !cell.empty() && (cell[0] == '=' || cell[0] == '+' || cell[0] == '-' || cell[0] == '@');
}

struct Columns {
  const std::vector<std::string>* names = nullptr;  ///< header names, when there is a header
  std::string where(std::size_t row, std::size_t column) const {
    std::string out = at(row, column);
    if (names && column >= 1 && column <= names->size()) out += " (\"" + (*names)[column - 1] + "\")";
    return out;
  }
};

/// One number cell, or a CsvError naming the row and column and what is wrong with it.
double read_number(const std::string& cell_text, std::size_t row, std::size_t column, const Columns& columns,
                   bool decimal_comma, bool& used_decimal_comma) {
  const std::string here = columns.where(row, column);
  const auto first = cell_text.find_first_not_of(' ');
  const std::string raw =
      first == std::string::npos ? std::string() : cell_text.substr(first, cell_text.find_last_not_of(' ') - first + 1);
  if (raw.empty()) throw CsvError(here + " is empty; expected a number", row, column);
  std::string cell = raw;
  if (decimal_comma && cell.find(',') != std::string::npos && cell.find('.') == std::string::npos) {
    std::replace(cell.begin(), cell.end(), ',', '.');
    if (is_decimal(cell)) used_decimal_comma = true;
  }
  if (!is_decimal(cell)) {
    if (auto word = non_finite_word(raw))
      throw CsvError(here + ": " + shown(raw) + " " + *word + "; every cell must be a finite number", row, column);
    if (looks_like_formula(raw))
      throw CsvError(here + ": " + shown(raw) + " looks like a spreadsheet formula; only plain numbers are accepted",
                     row, column);
    throw CsvError(here + ": " + shown(raw) + " is not a number", row, column);
  }
  const double x = std::strtod(cell.c_str(), nullptr);
  if (!std::isfinite(x) || std::abs(x) > CsvLimits::max_magnitude)
    throw CsvError(
        here + ": " + shown(raw) + " is too large; numbers must lie within ±" + format_number(CsvLimits::max_magnitude),
        row, column);
  return x;
}

/// The first row is a header when none of its cells is a number (nor NaN/Inf, which are bad numbers).
bool is_header(const std::vector<std::string>& cells, bool decimal_comma) {
  return std::none_of(cells.begin(), cells.end(), [&](const std::string& cell) {
    std::string probe = cell;
    if (decimal_comma) std::replace(probe.begin(), probe.end(), ',', '.');
    return is_decimal(probe) || non_finite_word(cell).has_value();
  });
}

std::vector<std::string> header_names(const std::vector<std::string>& cells, std::size_t row) {
  std::vector<std::string> names;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const std::string& name = cells[c];
    if (looks_like_formula(name))
      throw CsvError(at(row, c + 1) + ": the column name " + shown(name) +
                         " looks like a spreadsheet formula; names must not start with = + - @",
                     row, c + 1);
    if (name.size() > max_name_bytes)
      throw CsvError(at(row, c + 1) + ": the column name is longer than " + std::to_string(max_name_bytes) + " bytes",
                     row, c + 1);
    names.push_back(name.empty() ? "column " + std::to_string(c + 1) : name);
  }
  return names;
}

std::vector<std::string> default_names(std::size_t d) {
  std::vector<std::string> names;
  for (std::size_t c = 0; c < d; ++c) names.push_back(d == 1 ? "x" : "x" + std::to_string(c + 1));
  names.emplace_back("y");
  return names;
}

/// One warning naming the first pair of rows with equal keys and how many rows repeat a key.
std::optional<std::string> duplicate_warning(const RowMatrix& keys, const std::vector<std::size_t>& rows) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(keys.rows()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  const auto less = [&](Eigen::Index a, Eigen::Index b) {
    for (Eigen::Index c = 0; c < keys.cols(); ++c)
      if (keys(a, c) != keys(b, c)) return keys(a, c) < keys(b, c);
    return a < b;
  };
  std::sort(order.begin(), order.end(), less);
  std::size_t repeats = 0;
  std::optional<std::pair<Eigen::Index, Eigen::Index>> first;
  Eigen::Index run_start = order.front();
  for (std::size_t k = 1; k < order.size(); ++k) {
    const Eigen::Index b = order[k];
    if (keys.row(order[k - 1]) != keys.row(b)) {
      run_start = b;
      continue;
    }
    ++repeats;
    if (!first || b < first->second) first = std::make_pair(run_start, b);
  }
  if (!first) return std::nullopt;
  std::string key;
  for (Eigen::Index c = 0; c < keys.cols(); ++c) key += (c ? ", " : "") + format_number(keys(first->first, c));
  return "rows " + std::to_string(rows[static_cast<std::size_t>(first->first)]) + " and " +
         std::to_string(rows[static_cast<std::size_t>(first->second)]) + " have the same key (" + key + "); " +
         std::to_string(repeats) + (repeats == 1 ? " row repeats" : " rows repeat") +
         " an earlier key. They are kept: the estimator averages their values.";
}

}  // namespace

std::string utf8_from_utf16(std::u16string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto put = [&](unsigned code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned unit = text[i];
    const bool high = unit >= 0xD800 && unit <= 0xDBFF;
    if (high && i + 1 < text.size() && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
      put(0x10000 + ((unit - 0xD800) << 10) + (static_cast<unsigned>(text[i + 1]) - 0xDC00));
      ++i;
      continue;
    }
    put(unit);  // a lone surrogate included: its WTF-8 form
  }
  return out;
}

void check_csv_size(std::size_t bytes, bool at_least) {
  if (bytes > CsvLimits::max_bytes)
    throw CsvError(std::string("the data is ") + (at_least ? "at least " : "") + with_commas(bytes) +
                   " bytes; the limit is " + with_commas(CsvLimits::max_bytes) + " bytes (4 MiB)");
}

CsvTable parse_csv(std::string_view text) {
  check_csv_size(text.size());
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw CsvError("the data is empty; paste or upload at least two rows of numbers");

  CsvTable table;
  table.delimiter = detect_delimiter(text);
  const bool decimal_comma = table.delimiter == ';';
  Tokenizer lines(text, table.delimiter);
  std::vector<std::string> cells;
  std::size_t row = 0;
  lines.next(cells, row);
  const std::size_t width = cells.size();
  if (width < 2)
    throw CsvError("row " + std::to_string(row) +
                       " has only one column; expected 1 to 8 key columns and then one value column, separated by "
                       "commas, tabs or semicolons",
                   row, 1);
  const std::size_t d = width - 1;
  const std::size_t header_row = row;

  std::vector<std::string> names;
  Columns columns;
  std::vector<double> numbers;
  std::vector<std::size_t> rows;
  bool used_decimal_comma = false;
  const auto add_row = [&](std::size_t at_row) {
    if (cells.size() != width) {
      const std::size_t column = std::min(cells.size(), width) + 1;
      throw CsvError("row " + std::to_string(at_row) + " has " + std::to_string(cells.size()) +
                         (cells.size() == 1 ? " column" : " columns") + " but row " + std::to_string(header_row) +
                         " has " + std::to_string(width) + "; column " + std::to_string(column) +
                         (cells.size() > width ? " is extra" : " is missing"),
                     at_row, column);
    }
    if (rows.size() == CsvLimits::max_rows)
      throw CsvError("row " + std::to_string(at_row) + " is data row " + with_commas(rows.size() + 1) +
                         "; the limit is " + with_commas(CsvLimits::max_rows) + " data rows",
                     at_row);
    for (std::size_t c = 0; c < width; ++c)
      numbers.push_back(read_number(cells[c], at_row, c + 1, columns, decimal_comma, used_decimal_comma));
    rows.push_back(at_row);
  };

  if (is_header(cells, decimal_comma)) {
    names = header_names(cells, row);
    table.has_header = true;
    columns.names = &names;
  } else {
    add_row(row);
  }
  while (lines.next(cells, row)) add_row(row);

  if (rows.empty())
    throw CsvError("the header (row " + std::to_string(header_row) +
                   ") has no data rows below it; at least 2 rows of numbers are needed");
  if (rows.size() == 1)
    throw CsvError("only one data row (row " + std::to_string(rows.front()) +
                       "); smoothing and leave-one-out need at least 2 rows",
                   rows.front());

  const auto n = static_cast<Eigen::Index>(rows.size());
  const Eigen::Map<const RowMatrix> all(numbers.data(), n, static_cast<Eigen::Index>(width));
  table.keys = all.leftCols(static_cast<Eigen::Index>(d));
  table.values = all.col(static_cast<Eigen::Index>(d));
  table.header = table.has_header ? names : default_names(d);
  if (used_decimal_comma) table.warnings.emplace_back("semicolon-separated with decimal commas: 1,5 reads as 1.5");
  if (auto duplicates = duplicate_warning(table.keys, rows)) table.warnings.push_back(*duplicates);
  return table;
}

}  // namespace kernel_lens
