// plan-schema-check: the checks of the plan documents (plan_checks.h) as one command, for the invariant
// records' ci checks and their known-bad inputs (X18).
//
// usage: plan-schema-check --check NAME --root REPO SCHEMA_DIR
//   NAME        zero-values (SUB-1) | units (SUB-16) | words (X2) | walk (X2: the field walk)
//   REPO        the repository: the engine-word list, and schemas/examples/<kind>/full.yaml for zero-values
//   SCHEMA_DIR  a directory holding pool-plan.json, step-shape.json and transfer-move.json (the committed
//               JSON Schema, schemas/json/, in the real run)
// Exit status: 0 no finding, 1 findings (printed one per line), 2 usage.
#include <cstdio>
#include <filesystem>
#include <string>

#include "plan_checks.h"

namespace pc = blis::plan_checks;

int main(int argc, char** argv) {
  std::string check, root, dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--check" && i + 1 < argc) check = argv[++i];
    else if (a == "--root" && i + 1 < argc) root = argv[++i];
    else if (dir.empty() && !a.starts_with("--")) dir = a;
    else {
      std::fprintf(stderr, "plan-schema-check: unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (check.empty() || root.empty() || dir.empty()) {
    std::fprintf(stderr, "usage: plan-schema-check --check zero-values|units|words|walk --root REPO SCHEMA_DIR\n");
    return 2;
  }
  pc::Findings findings;
  const auto schemas = pc::read_schema_dir(dir, findings);
  if (check == "zero-values") {
    for (auto& f : pc::check_required(schemas)) findings.push_back(f);
    for (auto& f : pc::check_absent_fields(std::filesystem::path(root) / "schemas" / "examples")) findings.push_back(f);
  } else if (check == "units") {
    for (auto& f : pc::check_units(schemas)) findings.push_back(f);
  } else if (check == "words") {
    for (auto& f : pc::check_words(schemas, root)) findings.push_back(f);
  } else if (check == "walk") {
    for (auto& f : pc::check_walk(schemas)) findings.push_back(f);
  } else {
    std::fprintf(stderr, "plan-schema-check: unknown check '%s'\n", check.c_str());
    return 2;
  }
  for (const std::string& f : findings) std::printf("%s\n", f.c_str());
  if (!findings.empty()) return 1;
  std::printf("plan-schema-check %s: the %zu plan schema(s) in %s pass\n", check.c_str(), schemas.size(), dir.c_str());
  return 0;
}
