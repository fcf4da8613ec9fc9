// The reader's CSV: what is accepted, and a specific row/column message for every kind of junk.
#include <catch2/catch.hpp>
#include <string>

#include "kernel_lens/csv.hpp"

using kernel_lens::CsvError;
using kernel_lens::CsvLimits;
using kernel_lens::parse_csv;

namespace {

/// The CsvError thrown for `text` (fails the test when nothing is thrown).
CsvError refusal(const std::string& text) {
  try {
    parse_csv(text);
  } catch (const CsvError& error) {
    return error;
  }
  FAIL("expected a CsvError for: " << text.substr(0, 80));
  return CsvError("");
}

void require_refused(const std::string& text, const std::string& message, std::size_t row, std::size_t column) {
  const CsvError error = refusal(text);
  INFO(error.what());
  REQUIRE(std::string(error.what()) == message);
  REQUIRE(error.row == row);
  REQUIRE(error.column == column);
}

}  // namespace

TEST_CASE("the chapter's three observations read as keys and values", "[csv]") {
  const auto table = parse_csv("location,response\n1,1.5\n3,2.8\n5,1.8\n");
  REQUIRE(table.has_header);
  REQUIRE(table.delimiter == ',');
  REQUIRE(table.header == std::vector<std::string>{"location", "response"});
  REQUIRE(table.keys.rows() == 3);
  REQUIRE(table.keys.cols() == 1);
  REQUIRE(table.keys(2, 0) == 5.0);
  REQUIRE(table.values(1) == 2.8);
  REQUIRE(table.warnings.empty());
}

TEST_CASE("tabs, semicolons with decimal commas, quotes, CRLF, BOM and blank lines", "[csv]") {
  const auto tabs = parse_csv("1\t2\t10\n3\t4\t20\n");
  REQUIRE(tabs.delimiter == '\t');
  REQUIRE_FALSE(tabs.has_header);
  REQUIRE(tabs.header == std::vector<std::string>{"x1", "x2", "y"});
  REQUIRE(tabs.keys(1, 1) == 4.0);
  REQUIRE(tabs.values(1) == 20.0);

  const auto semicolons = parse_csv("\xEF\xBB\xBFx;y\r\n1,5;2\r\n\r\n  \r\n-0,25;3e2\r\n");
  REQUIRE(semicolons.delimiter == ';');
  REQUIRE(semicolons.keys(0, 0) == 1.5);
  REQUIRE(semicolons.keys(1, 0) == -0.25);
  REQUIRE(semicolons.values(1) == 300.0);
  REQUIRE(semicolons.warnings.size() == 1);
  REQUIRE(semicolons.warnings[0] == "semicolon-separated with decimal commas: 1,5 reads as 1.5");

  const auto quoted = parse_csv("\"dose, mg\",\"say \"\"y\"\"\"\n\" 1 \",2\n3,\"4\"\n");
  REQUIRE(quoted.header == std::vector<std::string>{"dose, mg", "say \"y\""});
  REQUIRE(quoted.keys(0, 0) == 1.0);
  REQUIRE(quoted.values(1) == 4.0);
}

TEST_CASE("text, NaN, infinities and formulas in number cells name the row and column", "[csv]") {
  require_refused("x,y\n1,2\n3,abc\n", "row 3, column 2 (\"y\"): \"abc\" is not a number", 3, 2);
  require_refused("1,2\n3,abc\n", "row 2, column 2: \"abc\" is not a number", 2, 2);
  require_refused("x,y\n1,2\nNaN,3\n",
                  "row 3, column 1 (\"x\"): \"NaN\" is NaN (not a number); every cell must be a finite number", 3, 1);
  require_refused("x,y\n1,inf\n2,3\n",
                  "row 2, column 2 (\"y\"): \"inf\" is infinite; every cell must be a finite number", 2, 2);
  require_refused("x,y\n1,2\n-Infinity,3\n",
                  "row 3, column 1 (\"x\"): \"-Infinity\" is minus infinity; every cell must be a finite number", 3, 1);
  require_refused("x,y\n1,2\n=cmd|' /C calc'!A0,3\n",
                  "row 3, column 1 (\"x\"): \"=cmd|' /C calc'!A0\" looks like a spreadsheet formula; only plain "
                  "numbers are accepted",
                  3, 1);
  require_refused("1,2\n3,@SUM(A1:A2)\n",
                  "row 2, column 2: \"@SUM(A1:A2)\" looks like a spreadsheet formula; only plain numbers are "
                  "accepted",
                  2, 2);
  require_refused("1,2\n3,+A1\n",
                  "row 2, column 2: \"+A1\" looks like a spreadsheet formula; only plain numbers are accepted", 2, 2);
  require_refused("1,2\n3,-\n",
                  "row 2, column 2: \"-\" looks like a spreadsheet formula; only plain numbers are accepted", 2, 2);
  require_refused("x,=HYPERLINK(\"http://x\")\n1,2\n3,4\n",
                  "row 1, column 2: the column name \"=HYPERLINK(\"http://x\")\" looks like a spreadsheet formula; "
                  "names must not start with = + - @",
                  1, 2);
  require_refused("1,2\n3,\n", "row 2, column 2 is empty; expected a number", 2, 2);
  require_refused("1,2\n3,1e13\n", "row 2, column 2: \"1e13\" is too large; numbers must lie within ±1000000000000", 2, 2);
  require_refused("1,2\n3,1e999\n", "row 2, column 2: \"1e999\" is too large; numbers must lie within ±1000000000000", 2, 2);
  require_refused("1,2\n0x10,4\n", "row 2, column 1: \"0x10\" is not a number", 2, 1);
}

TEST_CASE("ragged rows, empty input, a single row, too few and too many columns", "[csv]") {
  require_refused("x,y\n1,2\n3,4,5\n", "row 3 has 3 columns but row 1 has 2; column 3 is extra", 3, 3);
  require_refused("a,b,c\n1,2,3\n\n4,5\n", "row 4 has 2 columns but row 1 has 3; column 3 is missing", 4, 3);
  require_refused("", "the data is empty; paste or upload at least two rows of numbers", 0, 0);
  require_refused(" \r\n\t\n", "the data is empty; paste or upload at least two rows of numbers", 0, 0);
  require_refused("x,y\n1,2\n", "only one data row (row 2); smoothing and leave-one-out need at least 2 rows", 2, 0);
  require_refused("x,y\n", "the header (row 1) has no data rows below it; at least 2 rows of numbers are needed", 0, 0);
  require_refused("1\n2\n3\n",
                  "row 1 has only one column; expected 1 to 8 key columns and then one value column, separated by "
                  "commas, tabs or semicolons",
                  1, 1);
  require_refused("1,2,3,4,5,6,7,8,9,10\n",
                  "row 1 has more than 9 columns; the limit is 8 key columns and one value column", 1, 10);
  require_refused("x,y\n\"1,2\n3,4\n", "row 2, column 1: the quote opened here is never closed", 2, 1);
  require_refused("x,y\n\"1\"2,3\n", "row 2, column 1: unexpected text after the closing quote", 2, 1);
}

TEST_CASE("binary bytes are refused with the row and column where they appear", "[csv]") {
  require_refused(std::string("x,y\n1,2\n3,4\0\n", 14),
                  "row 3, column 2: byte 0x00 is a control character; the data looks binary, and only plain text "
                  "tables are accepted",
                  3, 2);
  require_refused("x,y\n1,\x89PNG\n",
                  "row 2, column 2: a byte is not valid UTF-8; the data looks binary, and only plain text tables "
                  "are accepted",
                  2, 2);
  require_refused("x,y\n1,2\n\xEF\xBF\xBD,3\n",
                  "row 3, column 1: it contains U+FFFD, a replaced byte; the data looks binary, and only plain text "
                  "tables are accepted",
                  3, 1);
}

TEST_CASE("size caps: bytes before parsing, then data rows", "[csv]") {
  require_refused(std::string(CsvLimits::max_bytes + 1, '1'),
                  "the data is 4,194,305 bytes; the limit is 4,194,304 bytes (4 MiB)", 0, 0);
  std::string rows;
  for (std::size_t i = 0; i < 1'000'000; ++i) rows += "1,2\n";
  REQUIRE(rows.size() <= CsvLimits::max_bytes);
  require_refused(rows, "row 5001 is data row 5,001; the limit is 5,000 data rows", 5001, 0);

  std::string at_cap = "x,y\n";
  for (std::size_t i = 0; i < CsvLimits::max_rows; ++i) at_cap += std::to_string(i) + ",1\n";
  REQUIRE(parse_csv(at_cap).keys.rows() == static_cast<Eigen::Index>(CsvLimits::max_rows));
}

TEST_CASE("duplicate keys are kept and reported once with the first pair of rows", "[csv]") {
  const auto table = parse_csv("x1,x2,y\n1,2,5\n0,0,1\n1,2,6\n0,0,2\n1,2,7\n");
  REQUIRE(table.keys.rows() == 5);
  REQUIRE(table.warnings.size() == 1);
  REQUIRE(table.warnings[0] ==
          "rows 2 and 4 have the same key (1, 2); 3 rows repeat an earlier key. They are kept: the estimator "
          "averages their values.");
}

TEST_CASE("text from JavaScript: lone surrogates are named and never swallow a delimiter", "[csv]") {
  using kernel_lens::utf8_from_utf16;
  // A proper pair is one character (U+1F600, 4 bytes); a lone half is kept as itself.
  REQUIRE(utf8_from_utf16(u"x\U0001F600,1") == "x\xF0\x9F\x98\x80,1");
  REQUIRE(utf8_from_utf16(std::u16string(u"a\xD800,b")) == "a\xED\xA0\x80,b");
  REQUIRE(utf8_from_utf16(std::u16string(u"\xDC00")) == "\xED\xB0\x80");
  REQUIRE(utf8_from_utf16(u"caf\u00e9") == "caf\xC3\xA9");
  // Before a comma: the comma still separates the cells; the message names the cell and the unit.
  require_refused(utf8_from_utf16(std::u16string(u"x,y\n1,2\n3\xD83D,4\n")),
                  "row 3, column 1: U+D83D is a lone surrogate, half of a UTF-16 pair and not a character (the text "
                  "was cut inside a character); only plain text tables are accepted",
                  3, 1);
  require_refused(utf8_from_utf16(std::u16string(u"x,y\n1,2\n3,\xDE00\n")),
                  "row 3, column 2: U+DE00 is a lone surrogate, half of a UTF-16 pair and not a character (the text "
                  "was cut inside a character); only plain text tables are accepted",
                  3, 2);
  // In a header name as well (a header cell passes through the same reader).
  require_refused(utf8_from_utf16(std::u16string(u"x\xD800,y\n1,2\n3,4\n")),
                  "row 1, column 1: U+D800 is a lone surrogate, half of a UTF-16 pair and not a character (the text "
                  "was cut inside a character); only plain text tables are accepted",
                  1, 1);
}
