#include "sim/run/scenario_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "contracts/doc/parse.h"
#include "contracts/sha256.h"

namespace blis::sim {

ScenarioFile read_scenario_text(const std::string& text, const std::string& name) {
  doc::Diagnostics d{name};
  const doc::Parsed parsed = doc::parse(text, doc::Syntax::Yaml, d);
  ScenarioFile f;
  if (d.ok() && parsed.documents.size() != 2) {
    d.add(doc::Mark{1, 1}, "", "a scenario file holds two documents (a Deployment, then a Scenario); this one holds " +
                                   std::to_string(parsed.documents.size()));
  }
  if (d.ok()) {
    if (schema::read(parsed.documents[0], "", d, f.deployment)) schema::validate(f.deployment, "", d);
    if (schema::read(parsed.documents[1], "", d, f.scenario)) schema::validate(f.scenario, "", d);
  }
  if (d.ok() && f.scenario.deployment != f.deployment.name) {
    d.add(parsed.documents[1].mark, "deployment",
          "'" + f.scenario.deployment + "' is not the file's Deployment, which is named '" + f.deployment.name + "'");
  }
  if (!d.ok()) throw ScenarioFileError(d.str());
  f.sha256 = contracts::sha256_hex(text);
  return f;
}

ScenarioFile read_scenario_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioFileError(path + ": cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  ScenarioFile f = read_scenario_text(ss.str(), path);
  f.directory = std::filesystem::path(path).parent_path().string();
  return f;
}

}  // namespace blis::sim
