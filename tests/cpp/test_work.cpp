// The work formulas (work.hpp): their values, and the refusals of the functions that check them,
// which must name exactly the number the formula gives (the engine places calls by the same one).
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "kernel_lens/exercises.hpp"
#include "kernel_lens/laboratory.hpp"
#include "kernel_lens/limits.hpp"
#include "kernel_lens/work.hpp"

using namespace kernel_lens;

TEST_CASE("the work formulas count what their headers say", "[work]") {
  REQUIRE(work::attention(2048, 2048, 8, 1) == 2048.0 * 2048.0 * 10.0);
  REQUIRE(work::scores(3, 5, 2) == 45.0);
  REQUIRE(work::ols(60, 1, 241) == 60.0 * 4.0 + 241.0 * 60.0 * 2.0);
  REQUIRE(work::local_linear(10, 60, 1, 1) == work::attention(10, 60, 1, 1) + 10.0 * 60.0 * 4.0 + 10.0 * 16.0 * 8.0);
  REQUIRE(work::smoother_audit(10, 60, 1) == work::local_linear(10, 60, 1, 1) + work::attention(10, 60, 1, 1));
  REQUIRE(work::loo(1000, 1, 4096) == 1000.0 * 1000.0 * 4097.0);
  REQUIRE(work::loo_descent(500, 2, 9) == 10.0 * work::loo(500, 2, 1));
  REQUIRE(work::linear(7) == 7.0);
  const LabConfig chapter;
  REQUIRE(work::dataset(chapter) == 60.0 + 241.0);
  REQUIRE(work::sweep(chapter) == 60.0 * 60.0 * 1000.0 / 2.0 + 8.0 * 241.0 * 60.0 * 62.0);
  REQUIRE(work::audit_worlds(chapter, 30) == 1000.0 * 60.0 + 31.0 * 241.0 * 60.0);
  REQUIRE(work::exact_risk(chapter) == 8.0 * 241.0 * 60.0);
  const SelectionConfig selection;
  REQUIRE(work::selection(selection) == 8.0 * 60.0 * 140.0 + work::loo(60, 1, 8) + 3.0 * 241.0 * 60.0 + work::sweep(chapter));
  const StandardizeConfig standardize;
  REQUIRE(work::standardize(standardize) == 2.0 * work::scores(91, 60, 2));
  // Products of large counts do not wrap.
  REQUIRE(work::attention(4294967296.0, 4294967296.0, 64, 64) > 1e20);
}

TEST_CASE("a call over the budget is refused with its formula's number", "[work][budget]") {
  LabConfig risk;
  risk.keys = 4000;
  risk.queries = 4000;
  risk.bandwidths = std::vector<double>(100, 0.3);
  REQUIRE(work::exact_risk(risk) == 1.6e9);
  REQUIRE_THROWS_WITH(exact_risk(risk), Catch::Contains("would take 1,600,000,000 kernel evaluations"));

  LabConfig sweep;
  sweep.keys = 160;
  sweep.worlds = 100000;
  REQUIRE(work::sweep(sweep) == 160.0 * 160.0 * 100000.0 / 2.0 + 8.0 * 241.0 * 160.0 * 162.0);
  REQUIRE(work::sweep(sweep) > Limits::max_work);
  REQUIRE_THROWS_WITH(bias_variance_sweep(sweep), Catch::Contains("would take 1,329,973,760 kernel evaluations"));

  LabConfig worlds;
  worlds.keys = 4000;
  worlds.queries = 4000;
  worlds.worlds = 200;
  REQUIRE(work::audit_worlds(worlds, 100) == 200.0 * 4000.0 + 101.0 * 4000.0 * 4000.0);
  REQUIRE_THROWS_WITH(audit_worlds(worlds, 0.3, 100, 0.0), Catch::Contains("would take 1,616,800,000 kernel evaluations"));

  SelectionConfig selection;
  selection.train = 4000;
  selection.bandwidths = std::vector<double>(100, 0.3);
  LabConfig audit;
  audit.bandwidths = selection.bandwidths;
  const double expected = 100.0 * 4000.0 * 4080.0 + work::loo(4000, 1, 100) + 3.0 * 241.0 * 4000.0 + work::sweep(audit);
  REQUIRE(work::selection(selection) == expected);
  REQUIRE_THROWS_WITH(bandwidth_selection(selection), Catch::Contains("would take 3,342,344,000 kernel evaluations"));
}
