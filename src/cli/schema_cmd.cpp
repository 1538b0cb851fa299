#include "cli/schema_cmd.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "contracts/doc/kinds.h"
#include "contracts/doc/parse.h"
#include "sim/run/scenario_file.h"

namespace blis::cli {
namespace {

constexpr std::string_view kUsage =
    "usage: blis schema                           list the document kinds\n"
    "       blis schema NAME                      print NAME's JSON Schema\n"
    "       blis schema validate [--kind NAME] FILE...\n"
    "                                             check documents with the compiled validators; without\n"
    "                                             --kind, each document's own `kind:` names it, or the\n"
    "                                             file lies under schemas/examples/NAME/\n";

// The kind a document names itself with (`kind: Deployment` → "deployment"), if it names one.
const doc::KindInfo* kind_from_document(const doc::Node& n) {
  if (!n.is_map()) return nullptr;
  const doc::Node* k = n.find("kind");
  if (k == nullptr || !k->is_scalar()) return nullptr;
  std::string name;
  for (char c : k->scalar) {  // CamelCase → camel-case
    if (std::isupper(static_cast<unsigned char>(c)) && !name.empty()) name += '-';
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return doc::find_kind(name);
}

const doc::KindInfo* kind_from_path(std::string_view path) {
  const std::string_view marker = "schemas/examples/";
  const auto at = path.find(marker);
  if (at == std::string_view::npos) return nullptr;
  auto rest = path.substr(at + marker.size());
  return doc::find_kind(rest.substr(0, rest.find('/')));
}

int validate(std::span<const std::string_view> args) {
  const doc::KindInfo* forced = nullptr;
  std::vector<std::string_view> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--kind" && i + 1 < args.size()) {
      forced = doc::find_kind(args[++i]);
      if (forced == nullptr) {
        std::fprintf(stderr, "blis schema validate: no document kind '%.*s' (see: blis schema)\n",
                     static_cast<int>(args[i].size()), args[i].data());
        return 2;
      }
    } else {
      files.push_back(args[i]);
    }
  }
  if (files.empty()) {
    std::fputs(kUsage.data(), stderr);
    return 2;
  }
  int refused = 0;
  for (auto path : files) {
    std::ifstream in{std::string(path), std::ios::binary};
    if (!in) {
      std::fprintf(stderr, "%.*s: cannot be read\n", static_cast<int>(path.size()), path.data());
      ++refused;
      continue;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    doc::Diagnostics d{std::string(path)};
    bool ok = true;
    std::string kinds_seen;
    const doc::KindInfo* by_path = forced != nullptr ? forced : kind_from_path(path);
    if (by_path != nullptr) {
      ok = doc::check_text(*by_path, text, path, d);
      kinds_seen = std::string(by_path->name);
    } else {
      // Each document names its kind (a scenario file holds a Deployment and a Scenario).
      const doc::Parsed parsed = doc::parse(text, doc::syntax_of(path), d);
      ok = d.ok();
      if (ok && parsed.documents.empty()) {
        d.add(doc::Mark{1, 1}, "", "the file holds no document");
        ok = false;
      }
      for (std::size_t i = 0; ok && i < parsed.documents.size(); ++i) {
        const auto& node = parsed.documents[i];
        const doc::KindInfo* kind = kind_from_document(node);
        if (kind == nullptr) {
          d.add(node.mark, "kind", "the document does not name a known kind: give --kind NAME (see: blis schema)");
          ok = false;
          break;
        }
        if (!doc::aliases_allowed_here(*kind, parsed, d)) {
          ok = false;
          break;
        }
        ok = kind->check(node, d) && ok;
        kinds_seen += (kinds_seen.empty() ? "" : "+") + std::string(kind->name);
      }
      // A scenario file (a Deployment, then a Scenario) is valid only as `blis run` reads it: the Scenario's
      // `deployment` names the file's Deployment (sim/run/scenario_file.cpp holds the rule).
      if (ok && d.ok() && kinds_seen == "deployment+scenario") {
        try {
          sim::read_scenario_text(text, std::string(path));
        } catch (const sim::ScenarioFileError& e) {
          std::fputs(e.what(), stderr);
          if (std::string_view(e.what()).back() != '\n') std::fputc('\n', stderr);
          ++refused;
          continue;
        }
      }
    }
    if (ok && d.ok()) {
      std::printf("%.*s: valid %s\n", static_cast<int>(path.size()), path.data(), kinds_seen.c_str());
    } else {
      std::fputs(d.str().c_str(), stderr);
      ++refused;
    }
  }
  return refused == 0 ? 0 : 1;
}

}  // namespace

int schema_main(std::span<const std::string_view> args) {
  if (args.empty()) {
    for (const auto& k : doc::kinds())
      std::printf("%-20.*s %.*s\n", static_cast<int>(k.name.size()), k.name.data(), static_cast<int>(k.doc.size()),
                  k.doc.data());
    return 0;
  }
  if (args[0] == "-h" || args[0] == "--help") {
    std::fputs(kUsage.data(), stdout);
    return 0;
  }
  if (args[0] == "validate") return validate(args.subspan(1));
  if (args.size() == 1) {
    if (const auto* k = doc::find_kind(args[0])) {
      std::fwrite(k->json_schema.data(), 1, k->json_schema.size(), stdout);
      return 0;
    }
    std::fprintf(stderr, "blis schema: no document kind '%.*s' (see: blis schema)\n",
                 static_cast<int>(args[0].size()), args[0].data());
    return 2;
  }
  std::fputs(kUsage.data(), stderr);
  return 2;
}

}  // namespace blis::cli
