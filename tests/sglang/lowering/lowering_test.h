// Original to BLIS: shared fixtures of the SGLang lowering tests: the embedded catalog's graphs and chips, read
// with the generated readers, and the default server arguments of a model on a chip.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "contracts/doc/diagnostics.h"
#include "data/loader.h"
#include "data/validators.h"
#include "srt/model_executor/lowering.h"

namespace blis::sglang::model_executor::test {

struct Catalog {
  std::map<std::string, schema::Graph> graphs;
  std::map<std::string, schema::Chip> chips;
};

inline const Catalog& catalog() {
  static const Catalog c = [] {
    data::LoadOutcome out = data::load({}, data::standard_validators());
    if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
    Catalog cat;
    for (const auto& f : out.data->catalog.of_kind("graph")) {
      doc::Diagnostics d{f->location()};
      auto g = schema::load_graph(f->bytes, f->path, d);
      if (!g) throw std::runtime_error(d.str());
      cat.graphs.emplace(g->model, std::move(*g));
    }
    for (const auto& f : out.data->catalog.of_kind("chip")) {
      doc::Diagnostics d{f->location()};
      auto ch = schema::load_chip(f->bytes, f->path, d);
      if (!ch) throw std::runtime_error(d.str());
      cat.chips.emplace(ch->name, std::move(*ch));
    }
    return cat;
  }();
  return c;
}

inline const schema::Graph& graph(const std::string& model) {
  const auto it = catalog().graphs.find(model);
  if (it == catalog().graphs.end()) throw std::runtime_error("no graph " + model);
  return it->second;
}

inline const schema::Chip& chip(const std::string& name) {
  const auto it = catalog().chips.find(name);
  if (it == catalog().chips.end()) throw std::runtime_error("no chip " + name);
  return it->second;
}

// The compute capability torch reports on each catalog chip (Ampere 8.0, Ada Lovelace 8.9, Hopper 9.0, Blackwell
// 10.0, Blackwell Ultra 10.3); the catalog does not state it, so the tests give it with the configuration.
inline DeviceCapability capability_of(const std::string& chip_name) {
  static const std::map<std::string, DeviceCapability> table = {
      {"A100-SXM-80GB", {8, 0}}, {"L40S", {8, 9}},          {"H100-SXM", {9, 0}},     {"H200-SXM", {9, 0}},
      {"B200", {10, 0}},         {"GB200-NVL72", {10, 0}}, {"B300", {10, 3}},        {"GB300-NVL72", {10, 3}}};
  const auto it = table.find(chip_name);
  if (it == table.end()) throw std::runtime_error("no capability for chip " + chip_name);
  return it->second;
}

inline LoweringConfig config(const std::string& model, const std::string& chip_name, std::int64_t tp = 1) {
  LoweringConfig c;
  c.model = model;
  c.chip = chip_name;
  c.tp = tp;
  c.capability = capability_of(chip_name);
  return c;
}

inline const char* kLlama8B = "meta-llama/Meta-Llama-3.1-8B";
inline const char* kLlama70B = "meta-llama/Meta-Llama-3.1-70B";
inline const char* kLlama2 = "meta-llama/Llama-2-7b-hf";

}  // namespace blis::sglang::model_executor::test
