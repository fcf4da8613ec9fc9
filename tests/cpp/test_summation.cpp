// Pairwise summation in NumPy's order, and the two roundoff-level figures the chapter prints,
// which depend on that order (NumPy fixtures for np.sum; the chapter's own printed digits).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core_fixture.hpp"
#include "kernel_lens/attention.hpp"
#include "kernel_lens/summation.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

namespace {
double from_hex(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

std::string scientific2(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2e", x);
  return buffer;
}
}  // namespace

TEST_CASE("pairwise_sum adds in NumPy's order, bit for bit", "[summation]") {
  for (const auto& item : core_fixture()["sums"]) {
    std::vector<double> values;
    for (const auto& v : item["values"]) values.push_back(from_hex(v.get<std::string>()));
    INFO("n = " << values.size());
    REQUIRE(pairwise_sum(values.data(), values.size()) == from_hex(item["sum"].get<std::string>()));
  }
}

TEST_CASE("the chapter's printed roundoff figures: 2.78e-17 and 2.22e-16", "[summation]") {
  const auto& chapter = core_fixture()["chapter"];
  const RowMatrix keys = matrix(chapter["chapter_keys"], 1);

  const auto& identity = chapter["identity"];
  const Vector query = Vector::Constant(1, identity["query"].get<double>());
  const auto report = underflow_report(query, keys, identity["bandwidth"].get<double>());
  REQUIRE(report.max_abs_difference.has_value());
  CHECK(scientific2(*report.max_abs_difference) == "2.78e-17");

  const auto& map = chapter["map"];
  const auto weights = attention_weights(matrix(map["queries"], 1), keys, map["bandwidth"].get<double>());
  CHECK(scientific2(max_row_sum_error(weights)) == "2.22e-16");
}
