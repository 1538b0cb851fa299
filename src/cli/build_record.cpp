#include <sstream>
#include <string>

#include "cli/build_info.h"
#include "cli/version.h"

namespace blis::cli {

schema::ResultBuild build_record() {
  schema::ResultBuild b;
  b.kind = "unreleased";
  const std::string_view line = build_commit_line();
  b.commit = std::string(line.substr(0, 40));
  b.modified = line.size() > 41 && line[41] == '1';
  std::istringstream in(version_text());
  std::string entry;
  while (std::getline(in, entry)) {
    const auto tab = entry.find('\t');
    if (tab == std::string::npos) continue;
    const std::string key = entry.substr(0, tab), value = entry.substr(tab + 1);
    if (key == "blis") {
      b.version = value;
    } else if (key.starts_with("upstreams.")) {
      schema::ResultUpstream u;
      u.name = key.substr(10);
      const auto at = value.find(" @ ");
      u.release = value.substr(0, at);
      u.commit = at == std::string::npos ? "" : value.substr(at + 3);
      b.upstreams.push_back(std::move(u));
    } else {
      b.toolchain[key] = value;
    }
  }
  return b;
}

}  // namespace blis::cli
