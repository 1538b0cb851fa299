#include "data/registry_checks.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "contracts/doc/kinds.h"
#include "schema/acceptance-profile.h"
#include "schema/chip.h"
#include "schema/coefficient-set.h"
#include "schema/primitive-families.h"

namespace blis::data {
namespace {

namespace s = blis::schema;

constexpr std::string_view kFamilies = "registry/families.yaml";

std::string num(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// --- an entry, read with the generated reader -------------------------------------------------------

std::string method_of(const s::CoefficientSetMethod& m) {
  if (m.measured) return "measured";
  if (m.calibrated) return "calibrated";
  if (m.transferred) return "transferred";
  if (m.literature) return "literature";
  if (m.vendor_spec) return "vendor_spec";
  if (m.roofline) return "roofline";
  if (m.assumed) return "assumed";
  if (m.not_charged) return "not_charged";
  return "";
}

// The scope's keys in VAL-4's order, each with its value as text; the kernel as library/variant with its
// sorted code hashes when `hashes`.
std::vector<std::pair<std::string, std::string>> scope_items(const s::CoefficientSetScope& sc, bool hashes) {
  std::vector<std::pair<std::string, std::string>> out;
  if (sc.kernel) {
    std::string k = sc.kernel->library + "/" + sc.kernel->variant;
    if (hashes) {
      auto h = sc.kernel->code_hashes;
      std::sort(h.begin(), h.end());
      h.erase(std::unique(h.begin(), h.end()), h.end());
      for (const auto& x : h) k += " " + x;
    }
    out.emplace_back("kernel", k);
  }
  auto str = [&](const char* key, const std::optional<std::string>& v) {
    if (v) out.emplace_back(key, *v);
  };
  auto int_ = [&](const char* key, const std::optional<std::int64_t>& v) {
    if (v) out.emplace_back(key, std::to_string(*v));
  };
  str("chip", sc.chip);
  str("dtype", sc.dtype);
  str("model", sc.model);
  str("workload", sc.workload);
  str("fabric", sc.fabric);
  str("span", sc.span);
  int_("group_size", sc.group_size);
  int_("tp", sc.tp);
  int_("ep", sc.ep);
  int_("pp", sc.pp);
  int_("dp", sc.dp);
  int_("cp", sc.cp);
  return out;
}

std::string scope_text(const s::CoefficientSetScope& sc) {
  std::string out = "{";
  for (const auto& [k, v] : scope_items(sc, false)) out += (out.size() > 1 ? ", " : "") + k + "=" + v;
  return out + "}";
}

// (set, name, scope, method) as one comparable text; kernel hash lists compare as sets.
std::string identity_key(const std::string& set, const std::string& name, const s::CoefficientSetScope& sc,
                         const std::string& method) {
  std::string out = set + "\n" + name + "\n" + method + "\n";
  for (const auto& [k, v] : scope_items(sc, true)) out += k + "=" + v + "\n";
  return out;
}

struct Entry {
  const Coefficient* coefficient = nullptr;
  const s::CoefficientSet* doc = nullptr;
  const s::CoefficientSetEntry* e = nullptr;
  std::string method;

  const LoadedFile& file() const { return *coefficient->file; }
  int line() const { return e->mark_.line; }
  int col() const { return e->mark_.col; }
  std::string describe() const {
    return e->name + " " + scope_text(e->scope) + " (" + method + ", set " + coefficient->id.set + ")";
  }
};

// The combined registry read with the generated readers: the families list and every entry in use (after
// overlays). A file its reader refuses is left out: the kind validator of the same load names its problem.
class Registry {
 public:
  explicit Registry(const DataSet& data) {
    if (const FileRef f = data.registry.find("families.yaml")) {
      families_file = f;
      blis::doc::Diagnostics ignored{f->path};
      families = s::load_primitive_families(f->bytes, f->path, ignored);
    }
    for (const auto& c : data.coefficients) {
      const s::CoefficientSet* set = coefficient_set(c.file);
      if (set == nullptr || c.entry >= set->entries.size()) continue;
      const s::CoefficientSetEntry& e = set->entries[c.entry];
      entries.push_back({&c, set, &e, method_of(e.method)});
    }
  }

  const s::CoefficientSet* coefficient_set(const FileRef& f) {
    auto it = sets_.find(f.get());
    if (it == sets_.end()) {
      blis::doc::Diagnostics ignored{f->path};
      auto loaded = s::load_coefficient_set(f->bytes, f->path, ignored);
      it = sets_.emplace(f.get(), loaded ? std::make_unique<s::CoefficientSet>(std::move(*loaded)) : nullptr).first;
    }
    return it->second.get();
  }

  const s::PrimitiveFamiliesFamily* family(const std::string& name) const {
    if (!families) return nullptr;
    const auto it = families->families.find(name);
    return it == families->families.end() ? nullptr : &it->second;
  }

  FileRef families_file;
  std::optional<s::PrimitiveFamilies> families;
  std::vector<Entry> entries;

 private:
  std::map<const LoadedFile*, std::unique_ptr<s::CoefficientSet>> sets_;
};

// The declared coefficient an entry names, or nullptr.
const s::PrimitiveFamiliesCoefficient* declared(const s::PrimitiveFamiliesFamily& fam, const std::string& family,
                                                const std::string& name) {
  const std::string prefix = family + ".";
  if (!name.starts_with(prefix)) return nullptr;
  const auto it = fam.coefficients.find(name.substr(prefix.size()));
  return it == fam.coefficients.end() ? nullptr : &it->second;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& x : items) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// --- roofline facts ---------------------------------------------------------------------------------

// A catalog file's typed value as JSON (its generated reader's round trip), by its path in the catalog.
class CatalogJson {
 public:
  explicit CatalogJson(const DataSet& data) : data_(data) {}

  // nullptr when the file is not in the catalog or its reader refuses it.
  const nlohmann::ordered_json* get(const std::string& rel) {
    auto it = cache_.find(rel);
    if (it != cache_.end()) return it->second ? &*it->second : nullptr;
    std::optional<nlohmann::ordered_json> out;
    constexpr std::string_view kPrefix = "catalog/";
    if (rel.starts_with(kPrefix)) {
      if (const FileRef f = data_.catalog.find(std::string_view(rel).substr(kPrefix.size()))) {
        if (const blis::doc::KindInfo* kind = blis::doc::find_kind(f->kind)) {
          blis::doc::Diagnostics ignored{f->path};
          auto parsed = blis::doc::parse_as(*kind, f->bytes, f->path, ignored);
          nlohmann::ordered_json j;
          if (parsed && kind->round_trip(parsed->documents.front(), ignored, j)) out = std::move(j);
        }
      }
    }
    it = cache_.emplace(rel, std::move(out)).first;
    return it->second ? &*it->second : nullptr;
  }

 private:
  const DataSet& data_;
  std::map<std::string, std::optional<nlohmann::ordered_json>> cache_;
};

// A dotted field path with [i] list indexes, as check_registry.py's resolve_field reads it; nullptr when
// it does not resolve.
const nlohmann::ordered_json* resolve_field(const nlohmann::ordered_json& root, const std::string& path) {
  const nlohmann::ordered_json* cur = &root;
  std::string spaced;
  for (char ch : path) {
    if (ch == '[') spaced += '.';
    spaced += ch;
  }
  std::size_t start = 0;
  while (start <= spaced.size()) {
    std::size_t dot = spaced.find('.', start);
    if (dot == std::string::npos) dot = spaced.size();
    const std::string part = spaced.substr(start, dot - start);
    start = dot + 1;
    if (part.empty()) continue;
    if (part.front() == '[') {
      if (part.back() != ']' || !cur->is_array()) return nullptr;
      std::size_t idx = 0;
      const auto r = std::from_chars(part.data() + 1, part.data() + part.size() - 1, idx);
      if (r.ec != std::errc() || r.ptr != part.data() + part.size() - 1 || idx >= cur->size()) return nullptr;
      cur = &(*cur)[idx];
    } else {
      if (!cur->is_object() || !cur->contains(part)) return nullptr;
      cur = &(*cur)[part];
    }
  }
  return cur;
}

// --- floor lookups (VAL-2) ----------------------------------------------------------------------------

std::vector<std::string> dtypes_of(const s::Chip& chip) {
  std::vector<std::string> out;
  const auto& p = chip.dense_peak;
  if (p.bf16) out.emplace_back("bf16");
  if (p.fp16) out.emplace_back("fp16");
  if (p.tf32) out.emplace_back("tf32");
  if (p.fp8) out.emplace_back("fp8");
  if (p.fp4) out.emplace_back("fp4");
  if (p.int8) out.emplace_back("int8");
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> spans_of(const s::Chip& chip) {
  std::vector<std::string> out{"node"};
  if (chip.rack) out.emplace_back("rack");
  if (chip.nic) out.emplace_back("fabric");
  return out;
}

using Lookup = std::vector<std::pair<std::string, std::string>>;  // chip, then dtype or span

// True when an entry of this scope answers the lookup: every key it states, the lookup has equal.
bool answers(const s::CoefficientSetScope& sc, const Lookup& lookup) {
  for (const auto& [k, v] : scope_items(sc, true)) {
    const auto it = std::find_if(lookup.begin(), lookup.end(), [&](const auto& x) { return x.first == k; });
    if (it == lookup.end() || it->second != v) return false;
  }
  return true;
}

std::string lookup_text(const Lookup& l) {
  std::string out = "{";
  for (const auto& [k, v] : l) out += (out.size() > 1 ? ", " : "") + k + "=" + v;
  return out + "}";
}

std::string stem(const std::string& path) {
  const std::string base = path.substr(path.rfind('/') + 1);
  return base.substr(0, base.rfind('.'));
}

bool fitted(const std::string& method) { return method == "measured" || method == "calibrated"; }

const s::CoefficientSetFit* fit_of(const s::CoefficientSetMethod& m) {
  if (m.measured) return &*m.measured;
  if (m.calibrated) return &*m.calibrated;
  return nullptr;
}

}  // namespace

void check_registry_provenance(const DataSet& data, Diagnostics& diags) {
  auto header = [&](const LoadedFile& f, const std::string& written_by) {
    const std::string want =
        "# written by registry/scripts/" + written_by.substr(written_by.rfind('/') + 1) + "; do not edit";
    const std::string first = f.bytes.substr(0, f.bytes.find('\n'));
    if (first != want)
      diags.error(f, 1, 1,
                  "the first line is '" + first + "', not '" + want +
                      "': every registry file is written by its writer script, never by hand [SUB-4]");
  };
  for (const auto& f : data.registry.of_kind("coefficient-set")) {
    blis::doc::Diagnostics ignored{f->path};
    if (auto set = s::load_coefficient_set(f->bytes, f->path, ignored)) header(*f, set->written_by);
  }
  for (const auto& f : data.registry.of_kind("acceptance-profile")) {
    blis::doc::Diagnostics ignored{f->path};
    auto set = s::load_acceptance_profile(f->bytes, f->path, ignored);
    if (!set) continue;
    header(*f, set->written_by);
    const std::string want = "acceptance/" + set->set + ".yaml";
    if (f->path != want)
      diags.error(*f, 1, 1, "profile set '" + set->set + "' belongs at " + want + ", not " + f->path + " [SUB-4]");
  }
}

static void check_registry_families_with(const DataSet& data, Registry& reg, Diagnostics& diags) {
  if (!reg.families) return;  // the families file's own validator names its problem
  for (const auto& f : data.registry.of_kind("coefficient-set")) {
    const s::CoefficientSet* set = reg.coefficient_set(f);
    if (set != nullptr && reg.family(set->family) == nullptr)
      diags.error(*f, set->mark_.line, set->mark_.col,
                  "family '" + set->family + "' is not in " + std::string(kFamilies) +
                      ": every coefficient belongs to a declared primitive family [VAL-2]");
  }
  for (const auto& e : reg.entries) {
    const s::PrimitiveFamiliesFamily* fam = reg.family(e.doc->family);
    if (fam == nullptr) continue;
    const s::PrimitiveFamiliesCoefficient* decl = declared(*fam, e.doc->family, e.e->name);
    if (decl == nullptr) {
      std::vector<std::string> names;
      for (const auto& [c, _] : fam->coefficients) names.push_back(e.doc->family + "." + c);
      diags.error(e.file(), e.line(), e.col(),
                  e.e->name + " is not a coefficient of family " + e.doc->family + " in " + std::string(kFamilies) +
                      " (declared: " + joined(names) + ") [VAL-2]");
      continue;
    }
    if (e.e->unit != decl->unit)
      diags.error(
          e.file(), e.line(), e.col(),
          e.e->name + " is in " + e.e->unit + "; " + std::string(kFamilies) + " declares " + decl->unit + " [VAL-1]");
  }
}

static void check_registry_boundaries_with([[maybe_unused]] const DataSet& data, Registry& reg, Diagnostics& diags) {
  for (const auto& e : reg.entries) {
    const s::PrimitiveFamiliesFamily* fam = reg.family(e.doc->family);
    const s::PrimitiveFamiliesCoefficient* decl = fam ? declared(*fam, e.doc->family, e.e->name) : nullptr;
    if (decl == nullptr) continue;  // registry-families names it
    const auto& b = e.e->boundary;
    const auto& want = decl->boundary;
    if (b.time != want.time || (b.execution != want.execution && b.execution != "independent"))
      diags.error(e.file(), e.line(), e.col(),
                  e.e->name + " states boundary time=" + b.time + ", execution=" + b.execution +
                      "; its formula reads time=" + want.time + ", execution=" + want.execution +
                      " (a value measured otherwise is read by another coefficient) [VAL-9]");
  }
}

static void check_registry_sources_with(const DataSet& data, Registry& reg, Diagnostics& diags) {
  CatalogJson catalog(data);
  std::set<std::string> ids;
  for (const auto& e : reg.entries) ids.insert(identity_key(e.coefficient->id.set, e.e->name, e.e->scope, e.method));
  for (const auto& e : reg.entries) {
    const auto& m = e.e->method;
    if (e.method == "not_charged" && e.e->value)
      diags.error(e.file(), e.line(), e.col(),
                  e.e->name + " is not_charged and so has no value, but states " + num(*e.e->value) + " [VAL-1]");
    if (e.method != "not_charged" && !e.e->value)
      diags.error(e.file(), e.line(), e.col(), e.e->name + " (" + e.method + ") has no value [VAL-1]");
    // A cited source is a key of the file's sources, of a kind the method allows.
    const s::CoefficientSetCitation* cite = m.literature ? &*m.literature : m.vendor_spec ? &*m.vendor_spec : nullptr;
    if (cite != nullptr) {
      const auto& sources = e.doc->sources;
      const auto it = sources ? sources->find(cite->cite.source) : std::map<std::string, s::Source>::const_iterator{};
      if (!sources || it == sources->end()) {
        diags.error(
            e.file(), e.line(), e.col(),
            e.e->name + " cites source '" + cite->cite.source + "', which is not a key of the file's sources [VAL-1]");
      } else {
        const bool literature = e.method == "literature";
        const std::set<std::string> allowed = literature ? std::set<std::string>{"paper", "whitepaper", "published"}
                                                         : std::set<std::string>{"datasheet", "whitepaper"};
        if (!allowed.count(it->second.kind))
          diags.error(e.file(), e.line(), e.col(),
                      e.e->name + " is " + e.method + " but cites a source of kind " + it->second.kind +
                          " (allowed: " + joined({allowed.begin(), allowed.end()}) + ") [VAL-1]");
      }
    }
    // A roofline fact equals the catalog's value.
    if (m.roofline) {
      for (const auto& fact : m.roofline->facts) {
        const nlohmann::ordered_json* file = catalog.get(fact.file);
        if (file == nullptr) {
          diags.error(e.file(), fact.mark_.line, fact.mark_.col,
                      e.e->name + ": roofline fact file " + fact.file + " is not in the catalog in use [VAL-1]");
          continue;
        }
        const nlohmann::ordered_json* got = resolve_field(*file, fact.field);
        if (got == nullptr) {
          diags.error(e.file(), fact.mark_.line, fact.mark_.col,
                      e.e->name + ": roofline fact " + fact.field + " is not in " + fact.file + " [VAL-1]");
          continue;
        }
        if (!got->is_number() || got->get<double>() != fact.value)
          diags.error(e.file(), fact.mark_.line, fact.mark_.col,
                      e.e->name + ": roofline fact " + fact.file + ":" + fact.field + " is " + got->dump() +
                          " in the catalog, not " + num(fact.value) + ": rerun the writer [VAL-1]");
      }
    }
    // A transfer moves a measured or calibrated entry of the registry.
    if (m.transferred) {
      const auto& ref = m.transferred->from;
      if (!fitted(ref.method)) {
        diags.error(e.file(), e.line(), e.col(),
                    e.e->name + " is transferred from a " + ref.method +
                        " entry; a transfer moves a measured or calibrated value [VAL-1]");
      } else if (!ids.count(identity_key(ref.set, ref.name, ref.scope, ref.method))) {
        diags.error(e.file(), e.line(), e.col(),
                    e.e->name + " is transferred from " + ref.name + " " + scope_text(ref.scope) + " (" + ref.method +
                        ", set " + ref.set + "), which is not in the registry [VAL-1]");
      }
    }
  }
}

static void check_registry_intervals_with([[maybe_unused]] const DataSet& data, Registry& reg, Diagnostics& diags) {
  for (const auto& e : reg.entries) {
    const s::CoefficientSetFit* fit = fit_of(e.e->method);
    if (fit == nullptr) continue;
    const auto& iv = fit->interval_95;
    if (e.e->value) {
      const double v = *e.e->value;
      if (iv.low && iv.high && *iv.low > *iv.high) {
        diags.error(e.file(), iv.mark_.line, iv.mark_.col,
                    e.e->name + ": interval_95 low " + num(*iv.low) + " is above high " + num(*iv.high) + " [VAL-10]");
      } else if ((iv.low && v < *iv.low) || (iv.high && v > *iv.high)) {
        diags.error(e.file(), iv.mark_.line, iv.mark_.col,
                    e.e->name + ": value " + num(v) + " lies outside its own interval_95 [" +
                        (iv.low ? num(*iv.low) : "null") + ", " + (iv.high ? num(*iv.high) : "null") + "] [VAL-10]");
      }
    }
    const s::PrimitiveFamiliesFamily* fam = reg.family(e.doc->family);
    for (const auto& [key, range] : fit->input_range) {
      if (fam != nullptr && std::find(fam->inputs.begin(), fam->inputs.end(), key) == fam->inputs.end())
        diags.error(e.file(), fit->mark_.line, fit->mark_.col,
                    e.e->name + ": input_range names '" + key + "', not an input of " + e.doc->family +
                        " (inputs: " + joined(fam->inputs) + ") [VAL-10]");
      if (range.min > range.max)
        diags.error(e.file(), range.mark_.line, range.mark_.col,
                    e.e->name + ": input_range " + key + " has min " + num(range.min) + " above max " + num(range.max) +
                        " [VAL-10]");
    }
  }
}

// SUB-5: an efficiency is a fraction of the chip's datasheet peak, so no value or curve value exceeds 1
// (nor is zero or less: the price would be infinite or negative).
static void check_registry_physics_with([[maybe_unused]] const DataSet& data, Registry& reg, Diagnostics& diags) {
  for (const auto& e : reg.entries) {
    // A time (a per-call latency, a host time) below zero: a primitive faster than doing nothing.
    if (e.e->unit == "seconds") {
      if (e.e->value && *e.e->value < 0.0)
        diags.error(e.file(), e.line(), e.col(),
                    e.e->name + ": value " + num(*e.e->value) + " s is negative: no primitive takes less than no time [SUB-5]");
      continue;
    }
    if (!e.e->name.ends_with("_efficiency")) continue;
    const auto bad = [](double v) { return !(v > 0.0 && v <= 1.0); };
    if (e.e->value && bad(*e.e->value))
      diags.error(e.file(), e.line(), e.col(),
                  e.e->name + ": value " + num(*e.e->value) +
                      " is not in (0, 1]: an efficiency above 1 implies more than the chip's datasheet peak [SUB-5]");
    if (!e.e->curve) continue;
    const auto& vals = e.e->curve->values;
    for (std::size_t i = 0; i < vals.size(); ++i) {
      if (!bad(vals[i])) continue;
      diags.error(e.file(), e.e->curve->mark_.line, e.e->curve->mark_.col,
                  e.e->name + ": curve value " + std::to_string(i) + " = " + num(vals[i]) +
                      " is not in (0, 1]: an efficiency above 1 implies more than the chip's datasheet peak [SUB-5]");
      break;  // one finding per curve
    }
  }
}

static void registry_notices_with([[maybe_unused]] const DataSet& data, Registry& reg, Diagnostics& notices) {
  for (const auto& e : reg.entries) {
    const s::CoefficientSetFit* fit = fit_of(e.e->method);
    if (fit == nullptr || !e.e->value) continue;
    const auto& iv = fit->interval_95;
    const double v = *e.e->value;
    if (iv.low && iv.high && *iv.low > *iv.high) continue;               // refused
    if ((iv.low && v < *iv.low) || (iv.high && v > *iv.high)) continue;  // refused
    if (!iv.low || !iv.high) {
      notices.error(e.file(), e.line(), e.col(),
                    e.e->name +
                        " is unidentified: its interval_95 is unbounded; it ranks with assumed for VAL-3 "
                        "[VAL-10]");
    } else if (*iv.high - *iv.low > std::abs(v) / 2) {
      notices.error(e.file(), e.line(), e.col(),
                    e.e->name + " is unidentified: its interval_95 [" + num(*iv.low) + ", " + num(*iv.high) +
                        "] is wider than half its value " + num(v) + "; it ranks with assumed for VAL-3 [VAL-10]");
    }
  }
}

static void check_registry_scopes_with([[maybe_unused]] const DataSet& data, Registry& reg, Diagnostics& diags) {
  for (const auto& e : reg.entries) {
    const auto& sc = e.e->scope;
    if (fitted(e.method) && (!sc.chip || !sc.kernel)) {
      std::string missing = !sc.chip && !sc.kernel ? "chip and kernel" : !sc.chip ? "chip" : "kernel";
      diags.error(e.file(), e.line(), e.col(),
                  e.e->name + " is " + e.method + " but its scope leaves out " + missing +
                      ": a fitted value is keyed by the chip and kernel implementation its data exercised "
                      "(otherwise it is transferred, with its rule) [D5]");
    }
    if (sc.model && (!e.e->missing_form || e.e->missing_form->empty()))
      diags.error(e.file(), e.line(), e.col(),
                  e.e->name + " is scoped to model " + *sc.model +
                      " and must name the missing general form (missing_form) [VAL-7]");
  }
}

static void check_registry_workload_with([[maybe_unused]] const DataSet& data, Registry& reg, Diagnostics& diags) {
  for (const auto& e : reg.entries) {
    const s::PrimitiveFamiliesFamily* fam = reg.family(e.doc->family);
    if (fam == nullptr) continue;
    const bool states = e.e->scope.workload.has_value();
    const bool unscoped_bound =
        (e.method == "assumed" || e.method == "not_charged") && scope_items(e.e->scope, false).empty();
    if (fam->workload_keyed && !states && !unscoped_bound)
      diags.error(e.file(), e.line(), e.col(),
                  e.e->name + " " + scope_text(e.e->scope) + " is a workload property (family " + e.doc->family +
                      " is workload-keyed): its scope states a workload; only an assumed or not_charged entry with "
                      "an empty scope may leave it out [D8]");
    if (!fam->workload_keyed && states)
      diags.error(e.file(), e.line(), e.col(),
                  e.e->name + " states workload " + *e.e->scope.workload + ", but family " + e.doc->family +
                      " is not workload-keyed in " + std::string(kFamilies) + " [D8]");
  }
}

void check_acceptance_profiles(const DataSet& data, Diagnostics& diags) {
  using Key = std::tuple<std::string, std::optional<std::string>, std::optional<std::string>,
                         std::optional<std::string>, std::string, std::int64_t, std::string, std::string, double,
                         std::optional<double>, std::optional<std::int64_t>, std::string>;
  std::map<Key, std::pair<std::string, std::string>> seen;  // key -> (set, location)
  for (const auto& f : data.registry.of_kind("acceptance-profile")) {
    blis::doc::Diagnostics ignored{f->path};
    auto set = s::load_acceptance_profile(f->bytes, f->path, ignored);
    if (!set) continue;
    for (const auto& p : set->profiles) {
      const int line = p.mark_.line;
      const int col = p.mark_.col;
      const std::int64_t k = p.k.value();
      const double al = p.mean_acceptance_length;
      if (al > static_cast<double>(k + 1))
        diags.error(*f, line, col,
                    "mean_acceptance_length " + num(al) + " exceeds K + 1 = " + std::to_string(k + 1) + " [D8]");
      if (p.position_rates) {
        const auto& r = *p.position_rates;
        if (static_cast<std::int64_t>(r.size()) != k)
          diags.error(*f, line, col,
                      "position_rates has " + std::to_string(r.size()) + " rates for K = " + std::to_string(k) +
                          " positions [D8]");
        for (std::size_t i = 1; i < r.size(); ++i) {
          if (r[i].value() > r[i - 1].value()) {
            diags.error(*f, line, col,
                        "position_rates increase with position (" + num(r[i - 1].value()) + " then " +
                            num(r[i].value()) + "): a token is accepted only after every earlier one [D8]");
            break;
          }
        }
      }
      const Key key{
          p.target,   p.drafter.in_graph, p.drafter.checkpoint,   p.drafter.none,   p.method,         k,
          p.category, p.thinking,         p.sampling.temperature, p.sampling.top_p, p.sampling.top_k, p.rejection};
      const std::string here = f->location() + ":" + std::to_string(line);
      const auto [it, fresh] = seen.emplace(key, std::make_pair(set->set, here));
      if (fresh) continue;
      const std::string what = it->second.first == set->set
                                   ? std::string("twice in one set")
                                   : "in two sets (" + it->second.first + ", " + set->set + ")";
      diags.error(*f, line, col,
                  "the exact key of this profile (target " + p.target + ", method " + p.method + ", k " +
                      std::to_string(k) + ", category " + p.category + ") is held " + what + ", first at " +
                      it->second.second + ": the lookup would be ambiguous [D8]");
    }
  }
}

static void check_registry_complete_with(const DataSet& data, Registry& reg, Diagnostics& diags) {
  if (!reg.families) return;
  const auto chip_files = data.catalog.of_kind("chip");
  if (chip_files.empty()) {
    if (!reg.families->families.empty())
      diags.error("the catalog in use has no chip (hardware/*.yaml), so completeness cannot be judged [VAL-2]");
    return;
  }
  std::map<std::string, std::vector<const Entry*>> by_name;
  for (const auto& e : reg.entries) by_name[e.e->name].push_back(&e);
  std::map<std::string, std::pair<FileRef, s::Chip>> chips;  // by name, in byte order
  for (const auto& f : chip_files) {
    blis::doc::Diagnostics ignored{f->path};
    if (auto c = s::load_chip(f->bytes, f->path, ignored)) chips.emplace(stem(f->path), std::make_pair(f, *c));
  }
  for (const auto& [fam_name, fam] : reg.families->families) {
    for (const auto& [coef_name, coef] : fam.coefficients) {
      const std::string name = fam_name + "." + coef_name;
      const auto& varies = coef.varies_by ? *coef.varies_by : std::vector<std::string>{};
      const auto& found = by_name[name];
      for (const auto& [chip, fc] : chips) {
        std::vector<Lookup> lookups;
        if (std::find(varies.begin(), varies.end(), "dtype") != varies.end()) {
          for (const auto& d : dtypes_of(fc.second)) lookups.push_back({{"chip", chip}, {"dtype", d}});
        } else if (std::find(varies.begin(), varies.end(), "span") != varies.end()) {
          for (const auto& sp : spans_of(fc.second)) lookups.push_back({{"chip", chip}, {"span", sp}});
        } else {
          lookups.push_back({{"chip", chip}});
        }
        for (const auto& l : lookups) {
          if (std::any_of(found.begin(), found.end(), [&](const Entry* e) { return answers(e->e->scope, l); }))
            continue;
          diags.error(*fc.first, "no entry answers " + name + " " + lookup_text(l) +
                                     ": every family has a value on every catalog chip (rerun "
                                     "registry/scripts/write_floor.py) [VAL-2]");
        }
      }
    }
  }
}

// A rule run on its own reading of the registry (the per-rule entry points tests call).
using Rule = void (*)(const DataSet&, Registry&, Diagnostics&);
template <Rule R>
void on_own_reading(const DataSet& data, Diagnostics& diags) {
  Registry reg(data);
  R(data, reg, diags);
}

void check_registry_families(const DataSet& data, Diagnostics& diags) {
  on_own_reading<check_registry_families_with>(data, diags);
}
void check_registry_boundaries(const DataSet& data, Diagnostics& diags) {
  on_own_reading<check_registry_boundaries_with>(data, diags);
}
void check_registry_sources(const DataSet& data, Diagnostics& diags) {
  on_own_reading<check_registry_sources_with>(data, diags);
}
void check_registry_intervals(const DataSet& data, Diagnostics& diags) {
  on_own_reading<check_registry_intervals_with>(data, diags);
}
void registry_notices(const DataSet& data, Diagnostics& diags) { on_own_reading<registry_notices_with>(data, diags); }
void check_registry_scopes(const DataSet& data, Diagnostics& diags) {
  on_own_reading<check_registry_scopes_with>(data, diags);
}
void check_registry_workload(const DataSet& data, Diagnostics& diags) {
  on_own_reading<check_registry_workload_with>(data, diags);
}
void check_registry_complete(const DataSet& data, Diagnostics& diags) {
  on_own_reading<check_registry_complete_with>(data, diags);
}

// Every rule above on one reading of the registry (a load parses each coefficient set once here).
static void check_registry_all(const DataSet& data, Diagnostics& diags) {
  static constexpr Rule kRules[] = {&check_registry_families_with, &check_registry_boundaries_with,
                                    &check_registry_sources_with,  &check_registry_intervals_with,
                                    &check_registry_scopes_with,   &check_registry_workload_with,
                                    &check_registry_complete_with, &check_registry_physics_with};
  Registry reg(data);
  for (const Rule rule : kRules) rule(data, reg, diags);
}

void add_registry_checks(ValidatorTable& table) {
  table.add_cross_check("registry-acceptance", check_acceptance_profiles);
  table.add_cross_check("registry-provenance", check_registry_provenance);
  table.add_cross_check("registry-rules", check_registry_all);
}

}  // namespace blis::data
