#pragma once
// Config objects shared by both modules: plain JavaScript objects read field by field into the
// core's config structs (the chapter's dataset in the core module, the laboratory in the other).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "common.hpp"
#include "kernel_lens/exercises.hpp"
#include "kernel_lens/laboratory.hpp"

namespace kernel_lens::wasm {

/// A seed: an integer from 0 to 2^53 - 1 (seed_from_number on the JS number).
std::uint64_t to_seed(const val& v, const char* name);

/// A JS array or typed array of at most `cap` numbers (boundary.js has checked every entry).
std::vector<double> to_numbers(const val& v, const char* name, std::size_t cap);

/// One field of a config object: its JavaScript name and the member it sets, read as the
/// member's type says (a seed, a size, a number, a list of numbers, a pair of numbers or a string).
class Field {
 public:
  Field(const char* name, std::uint64_t* seed) : name(name), kind_(Kind::Seed), target_(seed) {}
  Field(const char* name, std::size_t* size) : name(name), kind_(Kind::Size), target_(size) {}
  Field(const char* name, double* number) : name(name), kind_(Kind::Number), target_(number) {}
  /// A list of at most `cap` numbers (checked before it is copied).
  Field(const char* name, std::vector<double>* numbers, std::size_t cap)
      : name(name), kind_(Kind::Numbers), target_(numbers), cap_(cap) {}
  Field(const char* name, std::array<double, 2>* pair) : name(name), kind_(Kind::Pair), target_(pair) {}
  Field(const char* name, std::string* text) : name(name), kind_(Kind::Text), target_(text) {}

  void read(const val& value) const;

  const char* name;

 private:
  enum class Kind { Seed, Size, Number, Numbers, Pair, Text };
  Kind kind_;
  void* target_;
  std::size_t cap_ = 2;
};

/// Reads each own field of `object` into its member; TypeError for a non-object or an unknown
/// field, whose message lists `fields` in their order (alphabetical in every table). A number
/// field must be finite (RangeError "<name> must be a finite number, got Infinity").
/// `undefined` means "all defaults".
void read_fields(const val& object, std::initializer_list<Field> fields, const char* what);

/// The laboratory's config (chapterDataset, biasVarianceSweep, exactRisk), checked.
LabConfig to_lab_config(const val& object);
/// Exercise 3's config (bandwidthSelection) and exercise 5's (standardizeExercise), read field by
/// field; the core checks them when the exercise runs.
SelectionConfig to_selection_config(const val& object);
StandardizeConfig to_standardize_config(const val& object);

}  // namespace kernel_lens::wasm
