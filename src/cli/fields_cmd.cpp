#include "cli/fields_cmd.h"

#include <cstdio>
#include <iostream>
#include <string>

#include "contracts/doc/diagnostics.h"
#include "schema/fields-list.h"

namespace blis::cli {

extern const char* const kVllmFieldsJson;  // engines/vllm/fields.json (gen/embed_text.py)

namespace {

constexpr const char* kUsage = "usage: blis fields vllm [--json]\n";

// The status's name and its one-line reason.
std::pair<std::string, std::string> status_line(const schema::FieldsListField& f) {
  const auto& s = f.status;
  if (s.modelled) {
    std::string ev;
    for (const auto& e : s.modelled->evidence) ev += (ev.empty() ? "" : ", ") + e.name;
    return {"modelled", "evidence: " + ev};
  }
  if (s.proven_inert) return {"proven_inert", s.proven_inert->proof + " proof"};
  if (s.not_modelled) return {"not_modelled", s.not_modelled->issue + ": " + s.not_modelled->why};
  if (s.inert_unproven) return {"inert_unproven", s.inert_unproven->plan + " until " + s.inert_unproven->until};
  return {"?", ""};
}

}  // namespace

int fields_main(std::span<const std::string_view> args) {
  bool json = false;
  std::string_view engine;
  for (auto a : args) {
    if (a == "--json") json = true;
    else if (a == "-h" || a == "--help") return std::fputs(kUsage, stdout), 0;
    else if (engine.empty()) engine = a;
    else return std::fputs(kUsage, stderr), 2;
  }
  if (engine != "vllm") {
    std::fprintf(stderr, "blis fields: unknown engine '%.*s' (engines: vllm)\n%s", static_cast<int>(engine.size()),
                 engine.data(), kUsage);
    return 2;
  }
  const std::string text = kVllmFieldsJson;
  if (json) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  doc::Diagnostics d("engines/vllm/fields.json");
  auto list = schema::load_fields_list(text, "engines/vllm/fields.json", d);
  if (!list) {
    std::cerr << d.str() << "blis fields: the embedded list does not load\n";
    return 1;
  }
  std::cout << list->engine.kind << " " << list->engine.release << " (" << list->engine.commit << "): "
            << list->fields.size() << " fields\n";
  for (const auto& f : list->fields) {
    auto [status, reason] = status_line(f);
    std::cout << f.name << "\t" << (f.group ? *f.group : f.kind) << "\t" << status << "\t" << reason << "\n";
  }
  return 0;
}

}  // namespace blis::cli
