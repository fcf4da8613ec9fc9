#include <catch2/catch.hpp>

#include <fstream>
#include <limits>
#include <stdexcept>

#include "core_fixture.hpp"
#include "kernel_lens/interpolation.hpp"

using namespace kernel_lens;
using namespace kernel_lens::testing;

namespace {

const nlohmann::json& interpolation_fixture() {
  static const nlohmann::json fixture = [] {
    std::ifstream in(std::string(KERNEL_LENS_FIXTURE_DIR) + "/interpolation.json");
    return nlohmann::json::parse(in);
  }();
  return fixture;
}

}  // namespace

TEST_CASE("The k = q trace of Figure 12.3 matches np.interp(queries, keys, arange(n))", "[interpolation][chapter]") {
  for (const auto& trace : interpolation_fixture()["traces"]) {
    const Vector queries = vector(trace["queries"]);
    const Vector keys = vector(trace["keys"]);
    const Vector expected = vector(trace["positions"]);
    INFO("queries: " << queries.size());
    const Vector positions = sorted_key_position(queries, keys);
    REQUIRE(positions.size() == expected.size());
    CHECK((positions - expected).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("interp agrees with numpy.interp inside, outside and on repeated points", "[interpolation][random]") {
  for (const auto& example : interpolation_fixture()["cases"]) {
    const Vector xp = vector(example["xp"]);
    INFO("n = " << xp.size());
    const Vector result = interp(vector(example["x"]), xp, vector(example["fp"]));
    CHECK((result - vector(example["expected"])).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("interp refuses bad input with a message naming the argument", "[interpolation][validation]") {
  const Vector x = Vector::Constant(1, 0.5);
  const Vector xp = (Vector(3) << 0.0, 1.0, 2.0).finished();
  const Vector fp = (Vector(3) << 0.0, 10.0, 20.0).finished();
  CHECK(interp(x, xp, fp)(0) == 5.0);
  REQUIRE_THROWS_AS_WITH(interp(x, Vector(0), Vector(0)), std::invalid_argument, Catch::Contains("xp"));
  REQUIRE_THROWS_AS_WITH(interp(x, xp, fp.head(2)), std::invalid_argument, Catch::Contains("same length"));
  const Vector decreasing = (Vector(3) << 0.0, 2.0, 1.0).finished();
  REQUIRE_THROWS_AS_WITH(interp(x, decreasing, fp), std::invalid_argument, Catch::Contains("nondecreasing"));
  const Vector bad = Vector::Constant(1, std::numeric_limits<double>::quiet_NaN());
  REQUIRE_THROWS_AS_WITH(interp(bad, xp, fp), std::invalid_argument, Catch::Contains("x[0]"));
}

TEST_CASE("sorted_key_position names the keys when they are empty or unsorted", "[interpolation][validation]") {
  const Vector queries = Vector::Constant(1, 0.0);
  REQUIRE_THROWS_AS_WITH(sorted_key_position(queries, Vector(0)), std::invalid_argument,
                         Catch::Contains("keys must hold"));
  const Vector unsorted = (Vector(2) << 1.0, 0.0).finished();
  REQUIRE_THROWS_AS_WITH(sorted_key_position(queries, unsorted), std::invalid_argument,
                         Catch::Contains("keys must be nondecreasing"));
}
