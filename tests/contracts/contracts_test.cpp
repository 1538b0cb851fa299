// The plan contracts: the generated field walk, the checks of plan_checks.h (each shown failing on a bad
// input, and passing on the real schemas), the stored bytes of a quantised format, and the vocabularies
// the plan shares with the coefficient registry.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "contracts/doc/kinds.h"
#include "contracts/engine/quant_format.h"
#include "contracts/engine/results.h"
#include "json_path.h"
#include "plan_checks.h"
#include "schema/field_walk.h"
#include "schema/pool-plan.h"
#include "schema/primitive-families.h"
#include "schema/step-shape.h"
#include "schema/transfer-move.h"

namespace {

namespace pc = blis::plan_checks;
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kRoot = BLIS_SOURCE_ROOT;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::map<std::string, json> compiled() {
  std::map<std::string, json> out;
  for (const std::string& k : pc::plan_kinds()) out.emplace(k, pc::compiled_schema(k));
  return out;
}

bool any_contains(const pc::Findings& f, const std::string& text) {
  for (const std::string& s : f)
    if (s.find(text) != std::string::npos) return true;
  return false;
}

std::string joined(const pc::Findings& f) {
  std::string out;
  for (const std::string& s : f) out += s + "\n";
  return out;
}

template <class T>
T load_full(const std::string& kind) {
  const fs::path file = kRoot / "schemas" / "examples" / kind / "full.yaml";
  blis::doc::Diagnostics d{file.string()};
  auto v = blis::doc::load_as<T>(kind, read(file), file.string(), d);
  if (!v) throw std::runtime_error(d.str());
  return *v;
}

// ---- The field walk. ----

TEST(FieldWalk, VisitsEachFieldOnceInSchemaOrderWithItsName) {
  blis::schema::PoolPlanKernelImpl k;
  std::vector<std::string> names;
  for_each_field(k, [&](std::string_view name, auto&) { names.emplace_back(name); });
  EXPECT_EQ(names, (std::vector<std::string>{"library", "variant", "code_hash", "toolkit"}));
  // The reference is the member itself.
  for_each_field(k, [](std::string_view name, auto& member) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(member)>, std::optional<std::string>>)
      if (name == "toolkit") member = "changed";
  });
  EXPECT_EQ(k.toolkit, std::optional<std::string>("changed"));
}

TEST(FieldWalk, RecursesThroughPresentOptionalsListsAndNestedDocuments) {
  const auto plan = load_full<blis::schema::PoolPlan>("pool-plan");
  std::set<std::string> paths;
  blis::schema::walk_fields(plan, [&](const std::string& path, const auto&) { paths.insert(path); });
  EXPECT_TRUE(paths.contains("layers[2].kernel.code_hash"));
  EXPECT_TRUE(paths.contains("profiling_step.ranks[0].requests[0].new_tokens"));  // a nested document kind
  EXPECT_TRUE(paths.contains("graphs.buckets[1].size.tokens"));
  EXPECT_FALSE(paths.contains("layers[0].collective.group"));  // an absent optional struct is not entered
  EXPECT_TRUE(paths.contains("layers[0].collective"));         // but is reported, as absent
}

TEST(FieldWalk, FillAllMakesEveryFieldPresent) {
  blis::schema::StepShape s;
  blis::schema::fill_all(s);
  int absent = 0, fields = 0;
  blis::schema::walk_fields(s, [&](const std::string&, const auto& member) {
    ++fields;
    if constexpr (blis::schema::is_optional_v<std::remove_cvref_t<decltype(member)>>) absent += !member.has_value();
  });
  EXPECT_EQ(absent, 0);
  EXPECT_EQ(static_cast<std::size_t>(fields), pc::fields_of(pc::compiled_schema("step-shape")).size());
}

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

// Changes a leaf field's value; false for a type it cannot change.
template <class X>
bool perturb(X& x) {
  using T = std::remove_cvref_t<X>;
  if constexpr (blis::schema::is_optional_v<T>) {
    return x.has_value() && perturb(*x);
  } else if constexpr (is_vector<T>::value) {
    if (x.empty()) x.emplace_back();
    else x.push_back(x.back());
    return true;
  } else if constexpr (std::is_same_v<T, std::string>) {
    x += "x";
    return true;
  } else if constexpr (std::is_same_v<T, bool>) {
    x = !x;
    return true;
  } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double>) {
    x += 1;
    return true;
  } else if constexpr (requires { T::name(); x.value(); }) {
    x = T(x.value() + 1);  // a unit quantity
    return true;
  } else {
    return false;
  }
}

// Every present leaf of every example, changed through the walk's reference, changes exactly that field
// of the document and nothing else; together the examples reach every leaf field of the kind.
template <class T>
void perturb_every_leaf(const std::string& kind) {
  std::map<std::string, std::string> identity;  // normalized path -> field identity
  std::set<std::string> unreached;
  for (const pc::Field& f : pc::fields_of(pc::compiled_schema(kind))) {
    identity.emplace(f.path, f.identity);
    if (f.leaf) unreached.insert(f.identity);
  }
  for (const auto& entry : fs::directory_iterator(kRoot / "schemas" / "examples" / kind)) {
    const fs::path file = entry.path();
    blis::doc::Diagnostics d{file.string()};
    auto loaded = blis::doc::load_as<T>(kind, read(file), file.string(), d);
    ASSERT_TRUE(loaded.has_value()) << d.str();
    const T& original = *loaded;
    const json base = json::parse(blis::schema::to_json(original).dump());
    std::vector<std::string> leaves;
    blis::schema::walk_fields(original, [&](const std::string& path, const auto& member) {
      using M = std::remove_cvref_t<decltype(member)>;
      if constexpr (blis::schema::is_leaf_field_v<M>) {
        if constexpr (blis::schema::is_optional_v<M>) {
          if (member.has_value()) leaves.push_back(path);
        } else {
          leaves.push_back(path);
        }
      }
    });
    for (const std::string& path : leaves) {
      unreached.erase(identity[pc::normalize(path)]);
      T copy = original;
      bool changed = false;
      blis::schema::walk_fields(copy, [&](const std::string& p, auto& member) {
        if (p == path) changed = perturb(member);
      });
      ASSERT_TRUE(changed) << file << ": cannot perturb " << path;
      json after = json::parse(blis::schema::to_json(copy).dump());
      json* a = pc::json_at(after, path);
      const json* b = pc::json_at(base, path);
      ASSERT_TRUE(a != nullptr && b != nullptr) << file << ": " << path;
      EXPECT_NE(*a, *b) << file << ": perturbing " << path << " did not change it";
      *a = *b;
      EXPECT_EQ(after, base) << file << ": perturbing " << path << " changed another field";
    }
  }
  EXPECT_TRUE(unreached.empty()) << kind << ": no example sets " << *unreached.begin();
}

TEST(FieldWalk, PerturbsEveryLeafOfEachPlanDocument) {
  perturb_every_leaf<blis::schema::PoolPlan>("pool-plan");
  perturb_every_leaf<blis::schema::StepShape>("step-shape");
  perturb_every_leaf<blis::schema::TransferMove>("transfer-move");
}

// ---- The checks: each passes on the real schemas and fails on a bad one. ----

TEST(PlanChecks, PassOnTheCompiledSchemas) {
  const auto schemas = compiled();
  EXPECT_EQ(joined(pc::check_required(schemas)), "");
  EXPECT_EQ(joined(pc::check_units(schemas)), "");
  EXPECT_EQ(joined(pc::check_words(schemas, kRoot)), "");
  EXPECT_EQ(joined(pc::check_walk(schemas)), "");
  EXPECT_EQ(joined(pc::check_absent_fields(kRoot / "schemas" / "examples")), "");
}

TEST(PlanChecks, TheCommittedJsonSchemaIsTheCompiledOne) {
  pc::Findings f;
  const auto committed = pc::read_schema_dir(kRoot / "schemas" / "json", f);
  EXPECT_EQ(joined(f), "");
  for (const auto& [kind, schema] : compiled()) EXPECT_EQ(committed.at(kind), schema) << kind;
}

TEST(PlanChecks, ANewRequiredFieldIsRefused) {
  auto schemas = compiled();
  json& root = schemas.at("transfer-move");
  root["properties"]["zz_new"] = {{"type", "boolean"}};
  root["required"] = json::array({"zz_new"});
  const auto f = pc::check_required(schemas);
  EXPECT_TRUE(any_contains(f, "field 'zz_new' (transfer-move.zz_new) is required")) << joined(f);
}

TEST(PlanChecks, AnEssentialEntryThatIsNoLongerRequiredIsStale) {
  auto schemas = compiled();
  schemas.at("pool-plan")["$defs"]["KVTier"].erase("required");
  const auto f = pc::check_required(schemas);
  EXPECT_TRUE(any_contains(f, "essential list: KVTier.device is not a required field")) << joined(f);
}

TEST(PlanChecks, ANumberWithoutAUnitIsRefused) {
  auto schemas = compiled();
  schemas.at("step-shape")["$defs"]["DraftShape"]["properties"]["depth"] = {{"type", "integer"}};
  auto f = pc::check_units(schemas);
  EXPECT_TRUE(any_contains(f, "numeric field 'drafts.depth' (DraftShape.depth) states no unit")) << joined(f);
  // Inside a list too.
  schemas = compiled();
  schemas.at("pool-plan")["$defs"]["ResidentTensor"]["properties"]["shape"]["items"].erase("x-unit");
  f = pc::check_units(schemas);
  EXPECT_TRUE(any_contains(f, "'weights[].shape' (ResidentTensor.shape) states no unit")) << joined(f);
}

TEST(PlanChecks, AnEngineWordInAFieldNameOrEnumValueIsRefused) {
  auto schemas = compiled();
  schemas.at("pool-plan")["$defs"]["HostPlan"]["properties"]["max_num_seqs"] = {{"type", "integer"}};
  schemas.at("step-shape")["$defs"]["StepMode"]["enum"].push_back("vllm_async");
  const auto f = pc::check_words(schemas, kRoot);
  EXPECT_TRUE(any_contains(f, "engine word 'max_num_seqs' in the name 'max_num_seqs'")) << joined(f);
  EXPECT_TRUE(any_contains(f, "engine word 'vllm' in the name 'vllm_async'")) << joined(f);
}

TEST(PlanChecks, AFieldTheWalkDoesNotReachIsRefused) {
  auto schemas = compiled();
  schemas.at("pool-plan")["$defs"]["Layout"]["properties"]["zz_new"] = {{"type", "boolean"}};
  schemas.at("transfer-move")["properties"].erase("pages");
  const auto f = pc::check_walk(schemas);
  EXPECT_TRUE(any_contains(f, "pool-plan: the field walk does not reach field 'layout.zz_new'")) << joined(f);
  EXPECT_TRUE(any_contains(f, "transfer-move: the field walk reaches 'pages', which the JSON Schema does not list"))
      << joined(f);
}

TEST(PlanChecks, ALeafNoExampleSetsIsRefused) {
  const fs::path dir = fs::temp_directory_path() / ("blis-plan-examples-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  for (const std::string& k : pc::plan_kinds()) {
    fs::create_directories(dir / k);
    std::string text = read(kRoot / "schemas" / "examples" / k / "full.yaml");
    if (k == "transfer-move") text.replace(text.find("pages: 32\n"), 10, "");
    std::ofstream(dir / k / "full.yaml") << text;
  }
  const auto f = pc::check_absent_fields(dir);
  fs::remove_all(dir);
  EXPECT_TRUE(any_contains(f, "no example sets transfer-move.pages, so its absence is not tested")) << joined(f);
}

TEST(PlanChecks, FieldsCarryPathIdentityRequirednessAndOneOf) {
  std::map<std::string, pc::Field> by_path;
  for (const pc::Field& f : pc::fields_of(pc::compiled_schema("pool-plan"))) by_path.emplace(f.path, f);
  ASSERT_TRUE(by_path.contains("draft_layers[].kernel.library"));
  const pc::Field& lib = by_path.at("draft_layers[].kernel.library");
  EXPECT_EQ(lib.identity, "KernelImpl.library");
  EXPECT_TRUE(lib.required);
  EXPECT_TRUE(lib.leaf);
  EXPECT_TRUE(by_path.at("graphs.buckets[].size.tokens").one_of);
  EXPECT_EQ(by_path.at("graphs.buckets[].size.tokens").unit, "tokens");
  EXPECT_EQ(by_path.at("kv_budget").unit, "bytes/rank");
  EXPECT_EQ(by_path.at("profiling_step.mode").identity, "step-shape.mode");
  EXPECT_EQ(by_path.at("profiling_step.mode").type, "enum");
  EXPECT_FALSE(by_path.at("layout").leaf);
}

// ---- Stored bytes of a quantised format (SUB-16). ----

using blis::engine::QuantFormat;
using blis::engine::stored_bytes;
using blis::units::Bytes;
using blis::units::Count;

QuantFormat format(std::int64_t payload, std::optional<std::int64_t> scale = std::nullopt,
                   std::vector<std::int64_t> block = {}) {
  QuantFormat f;
  f.payload_bits = Count{payload};
  if (scale) f.scale_bits = Count{*scale};
  if (!block.empty()) {
    f.block.emplace();
    for (auto b : block) f.block->push_back(Count{b});
  }
  return f;
}

std::vector<Count> shape(std::vector<std::int64_t> dims) {
  std::vector<Count> out;
  for (auto d : dims) out.push_back(Count{d});
  return out;
}

TEST(StoredBytes, PayloadAndBlockScalesEachRoundedUpToWholeBytes) {
  EXPECT_EQ(stored_bytes(format(16), shape({4096, 4096})), Bytes{33554432});
  EXPECT_EQ(stored_bytes(format(4), shape({3})), Bytes{2});  // 12 bits
  EXPECT_EQ(stored_bytes(format(8), {}), Bytes{1});           // a scalar
  // 128x128 blocks with 32-bit scales: ceil(2112/128) * (4096/128) = 17 * 32 scales.
  EXPECT_EQ(stored_bytes(format(8, 32, {128, 128}), shape({2112, 4096})), Bytes{2112 * 4096 + 17 * 32 * 4});
  // Blocks over the trailing dimensions only: 8 experts x 2816 rows x 128 blocks of 32, 8-bit scales.
  EXPECT_EQ(stored_bytes(format(4, 8, {1, 32}), shape({8, 2816, 4096})), Bytes{8LL * 2816 * 4096 / 2 + 8LL * 2816 * 128});
  // Scales without a block: one for the tensor.
  EXPECT_EQ(stored_bytes(format(8, 32), shape({10})), Bytes{14});
  // Six 4-bit scales take three bytes.
  EXPECT_EQ(stored_bytes(format(8, 4, {2}), shape({11})), Bytes{11 + 3});
}

TEST(StoredBytes, RefusesWhatItCannotSize) {
  auto refusal = [](const QuantFormat& f, const std::vector<Count>& s) -> std::string {
    try {
      stored_bytes(f, s);
    } catch (const blis::engine::ContractError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  EXPECT_NE(refusal(QuantFormat{}, shape({4})).find("payload_bits is not stated"), std::string::npos);
  EXPECT_NE(refusal(format(8), shape({4, 0})).find("shape[1] is 0"), std::string::npos);
  EXPECT_NE(refusal(format(8, 8, {2, 2, 2}), shape({4, 4})).find("block has 3 extents, but the shape has 2"),
            std::string::npos);
  EXPECT_NE(refusal(format(8, 8, {0}), shape({4})).find("block[0] is 0"), std::string::npos);
  QuantFormat no_scales = format(8, std::nullopt, {32});
  EXPECT_NE(refusal(no_scales, shape({64})).find("block is stated without scale_bits"), std::string::npos);
  EXPECT_THROW(stored_bytes(format(64), shape({1LL << 40, 1LL << 30})), std::overflow_error);
}

// ---- Vocabularies shared with the coefficient registry and the family list. ----

std::vector<std::string> enum_at(const json& schema, const std::string& def, const std::string& field = "") {
  const json& d = schema.at("$defs").at(def);
  const json& e = field.empty() ? d.at("enum") : d.at("properties").at(field).at("enum");
  return e.get<std::vector<std::string>>();
}

TEST(Vocabulary, MethodNamesAndRanksAreTheCoefficientEntrysMethods) {
  std::vector<std::string> methods = enum_at(pc::compiled_schema("coefficient-set"), "EntryRef", "method");
  ASSERT_EQ(methods.size(), 8U);
  EXPECT_EQ(methods.back(), "not_charged");
  for (int r = 1; r <= 7; ++r) {
    const auto m = static_cast<blis::engine::Method>(r);
    EXPECT_EQ(blis::engine::method_name(m), methods[static_cast<std::size_t>(r - 1)]) << r;
    EXPECT_EQ(blis::engine::method_from_name(methods[static_cast<std::size_t>(r - 1)]), m);
  }
  EXPECT_EQ(blis::engine::method_from_name("not_charged"), std::nullopt);
  EXPECT_EQ(blis::engine::method_name(static_cast<blis::engine::Method>(9)), "");
}

TEST(Vocabulary, EffectiveRankFollowsVal3) {
  using blis::engine::effective_rank;
  using M = blis::engine::Method;
  EXPECT_EQ(effective_rank(M::kMeasured, false, false), 1);
  EXPECT_EQ(effective_rank(M::kMeasured, true, false), 3);     // extrapolated ranks with transferred
  EXPECT_EQ(effective_rank(M::kRoofline, true, false), 6);     // already less trusted than transferred
  EXPECT_EQ(effective_rank(M::kCalibrated, false, true), 7);   // unidentified ranks with assumed
  EXPECT_EQ(effective_rank(M::kCalibrated, true, true), 7);
}

TEST(Vocabulary, BasisNames) {
  EXPECT_EQ(blis::engine::basis_name(blis::units::BytesPerRank{1}), "rank");
  EXPECT_EQ(blis::engine::basis_name(blis::units::BytesPerNode{1}), "node");
  EXPECT_EQ(blis::engine::basis_name(blis::units::BytesPerGroup{1}), "group");
  EXPECT_EQ(blis::engine::basis_name(blis::engine::MemoryTerm{}.bytes), "rank");
}

TEST(Vocabulary, DataTypesAndSpansAreTheRegistrysScopeValues) {
  const json plan = pc::compiled_schema("pool-plan");
  const json coeff = pc::compiled_schema("coefficient-set");
  EXPECT_EQ(enum_at(plan, "DataType"), enum_at(coeff, "Scope", "dtype"));
  EXPECT_EQ(enum_at(plan, "Collective", "span"), enum_at(coeff, "Scope", "span"));
}

TEST(Vocabulary, PrimitiveFamiliesAreTheFamilyList) {
  const fs::path file = kRoot / "registry" / "families.yaml";
  blis::doc::Diagnostics d{file.string()};
  auto families = blis::schema::load_primitive_families(read(file), file.string(), d);
  ASSERT_TRUE(families.has_value()) << d.str();
  // A footprint family is memory held for the pool's life (the memory breakdown reads it), never a
  // lowered layer's primitive.
  std::set<std::string> listed;
  for (const auto& [name, family] : families->families)
    if (family.kind != "footprint") listed.insert(name);
  const auto in_plan = enum_at(pc::compiled_schema("pool-plan"), "Family");
  EXPECT_EQ(std::set<std::string>(in_plan.begin(), in_plan.end()), listed)
      << "schemas/plan/pool-plan.yaml Family and registry/families.yaml list different families";
}

}  // namespace
