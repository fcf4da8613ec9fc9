// The config readers of config.hpp.
#include "config.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernel_lens/numpy_random.hpp"

namespace kernel_lens::wasm {

std::uint64_t to_seed(const val& v, const char* name) { return seed_from_number(to_number(v, name), name); }

std::vector<double> to_numbers(const val& v, const char* name, std::size_t cap) { return to_vector(v, name, cap); }

void Field::read(const val& value) const {
  switch (kind_) {
    case Kind::Seed:
      *static_cast<std::uint64_t*>(target_) = to_seed(value, name);
      break;
    case Kind::Size:
      // Checked on the JS number: 2^32 + 1000 worlds is refused, not read as 1000.
      *static_cast<std::size_t*>(target_) = to_count(value, name, 0, max_size);
      break;
    case Kind::Number: {
      const double x = to_number(value, name);
      if (!std::isfinite(x)) throw std::invalid_argument(std::string(name) + " must be a finite number, got " + format_number(x));
      *static_cast<double*>(target_) = x;
      break;
    }
    case Kind::Numbers:
      *static_cast<std::vector<double>*>(target_) = to_numbers(value, name, cap_);
      break;
    case Kind::Pair: {
      const std::size_t length = list_length(value, name, Limits::max_cells);
      if (length != 2)
        throw std::invalid_argument(std::string(name) + " must have 2 entries, got " + std::to_string(length));
      const std::vector<double> pair = to_numbers(value, name, 2);
      *static_cast<std::array<double, 2>*>(target_) = {pair[0], pair[1]};
      break;
    }
    case Kind::Text:
      *static_cast<std::string*>(target_) = to_text(value, name);
      break;
  }
}

void read_fields(const val& object, std::initializer_list<Field> fields, const char* what) {
  if (object.isUndefined()) return;
  if (object.isNull() || object.typeOf().as<std::string>() != "object" || object.isArray())
    throw ArgumentTypeError(std::string(what) + " must be a plain object");
  const val names = val::global("Object").call<val>("keys", object);
  const auto count = names["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = to_text(names[i], what);
    const auto field = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return name == f.name; });
    if (field == fields.end()) {
      std::string known;
      for (const Field& f : fields) known += (known.empty() ? "" : ", ") + std::string(f.name);
      throw ArgumentTypeError(std::string(what) + " has an unknown field \"" + name + "\"; expected one of " + known);
    }
    field->read(object[names[i]]);
  }
}

LabConfig to_lab_config(const val& object) {
  LabConfig c;
  read_fields(object,
              {{"bandwidths", &c.bandwidths, Limits::max_bandwidths},
               {"keyHigh", &c.key_high},
               {"keyLow", &c.key_low},
               {"keySeed", &c.key_seed},
               {"keys", &c.keys},
               {"monteCarloSeed", &c.monte_carlo_seed},
               {"noise", &c.noise},
               {"observedSeed", &c.observed_seed},
               {"queries", &c.queries},
               {"queryHigh", &c.query_high},
               {"queryLow", &c.query_low},
               {"worlds", &c.worlds}},
              "config");
  c.check();
  return c;
}

SelectionConfig to_selection_config(const val& object) {
  SelectionConfig c;
  read_fields(object,
              {{"bandwidths", &c.bandwidths, Limits::max_bandwidths},
               {"curvePoints", &c.curve_points},
               {"keyHigh", &c.key_high},
               {"keyLow", &c.key_low},
               {"noise", &c.noise},
               {"queryHigh", &c.query_high},
               {"queryLow", &c.query_low},
               {"seed", &c.seed},
               {"test", &c.test},
               {"train", &c.train},
               {"validation", &c.validation}},
              "config");
  return c;
}

StandardizeConfig to_standardize_config(const val& object) {
  StandardizeConfig c;
  read_fields(object,
              {{"bandwidth", &c.bandwidth},
               {"featureScales", &c.feature_scales},
               {"keys", &c.keys},
               {"noise", &c.noise},
               {"queries", &c.queries},
               {"seed", &c.seed}},
              "config");
  return c;
}

}  // namespace kernel_lens::wasm
