#include "cost_data.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "sim/wiring/cost_data.h"
#include "data/validators.h"

namespace blis::cost::testing {

std::string source_root() {
  const char* r = std::getenv("BLIS_SOURCE_ROOT");
  if (r == nullptr || *r == '\0') throw std::runtime_error("BLIS_SOURCE_ROOT is not set (meson sets it)");
  return r;
}

data::DataSet load_data(const data::LoadOptions& options) {
  data::LoadOutcome out = data::load(options, data::standard_validators());
  if (!out.ok()) throw std::runtime_error("the data was refused:\n" + out.diagnostics.text());
  return std::move(*out.data);
}

data::LoadOptions options_for_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": not a directory");
  data::LoadOptions o;
  if (fs::is_directory(dir + "/catalog")) o.catalog_dir = dir + "/catalog";
  if (fs::is_directory(dir + "/registry")) o.registry_dir = dir + "/registry";
  if (fs::is_directory(dir + "/registry-overlay")) o.registry_overlays.push_back(dir + "/registry-overlay");
  return o;
}

RegistryInput registry_input(const data::DataSet& ds) { return sim::registry_input(ds); }

Coefficients coefficients(const data::DataSet& data) { return sim::coefficients(data); }

Coefficients floor_coefficients(const data::DataSet& data) {
  data::DataSet floor;
  for (const data::Coefficient& c : data.coefficients)
    if (c.id.set != "measured" && c.id.set != "transferred") floor.coefficients.push_back(c);
  return sim::coefficients(floor);
}

std::map<std::string, schema::Chip> chips(const data::DataSet& data) {
  std::map<std::string, schema::Chip> out;
  for (const auto& f : data.catalog.of_kind("chip")) {
    doc::Diagnostics d{f->location()};
    auto chip = schema::load_chip(f->bytes, f->path, d);
    if (!chip) throw std::runtime_error(f->location() + ": the chip reader refused it:\n" + d.str());
    out.emplace(chip->name, std::move(*chip));
  }
  return out;
}

std::vector<std::string> chip_dtypes(const schema::Chip& c) {
  std::vector<std::string> out;
  const auto& p = c.dense_peak;
  if (p.bf16) out.push_back("bf16");
  if (p.fp16) out.push_back("fp16");
  if (p.tf32) out.push_back("tf32");
  if (p.fp8) out.push_back("fp8");
  if (p.fp4) out.push_back("fp4");
  if (p.int8) out.push_back("int8");
  return out;
}

double dense_peak(const schema::Chip& c, const std::string& dtype) {
  const auto& p = c.dense_peak;
  const std::optional<schema::ChipCitedFlopsPerS>* v = dtype == "bf16"   ? &p.bf16
                                                     : dtype == "fp16" ? &p.fp16
                                                     : dtype == "tf32" ? &p.tf32
                                                     : dtype == "fp8"  ? &p.fp8
                                                     : dtype == "fp4"  ? &p.fp4
                                                     : dtype == "int8" ? &p.int8
                                                                       : nullptr;
  if (v == nullptr || !*v) throw std::runtime_error(c.name + " states no dense peak for " + dtype);
  return (*v)->value.value();
}

}  // namespace blis::cost::testing
