#include "cli/invariants_cmd.h"

#include <cstdio>
#include <string>

#include "invariants/query.h"
#include "invariants/registry.h"

namespace blis::cli {
namespace {

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "blis invariants: %s\nusage: blis invariants [--json] [--status S] [--family F] [ID]\n"
                       "       blis invariants status\n", msg.c_str());
  return 2;
}

}  // namespace

int invariants_main(std::span<const std::string_view> args) {
  namespace inv = blis::invariants;
  if (args.size() == 1 && args[0] == "status") {
    const auto rep = inv::status(inv::table());
    std::fputs(rep.text.c_str(), stdout);
    return rep.problems == 0 ? 0 : 1;
  }
  inv::Filter f;
  bool json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--status" || a == "--family") {
      if (i + 1 >= args.size()) return usage_error(std::string(a) + " needs a value");
      (a == "--status" ? f.status : f.family) = args[++i];
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option '" + std::string(a) + "'");
    } else if (f.id.empty()) {
      f.id = a;
    } else {
      return usage_error("more than one ID given");
    }
  }
  const auto rows = inv::select(inv::table(), f);
  if (rows.empty() && !f.id.empty()) {
    std::fprintf(stderr, "blis invariants: no invariant '%.*s'\n", static_cast<int>(f.id.size()), f.id.data());
    return 1;
  }
  std::fputs((json ? inv::to_json(rows) : inv::to_text(rows)).c_str(), stdout);
  return 0;
}

}  // namespace blis::cli
