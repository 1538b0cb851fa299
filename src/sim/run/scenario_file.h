// A scenario file (SCENARIO.md): two YAML documents, the Deployment and the Scenario that names it, read
// with the generated strict readers and validators. A file that breaks either is refused with every
// diagnostic (file:line:col, field, cause).
#pragma once

#include <stdexcept>
#include <string>

#include "schema/deployment.h"
#include "schema/scenario.h"

namespace blis::sim {

class ScenarioFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ScenarioFile {
  schema::Deployment deployment;
  schema::Scenario scenario;
  std::string sha256;     // of the file's bytes (both documents)
  std::string directory;  // the file's directory, for paths the scenario states relative to it
};

ScenarioFile read_scenario_text(const std::string& text, const std::string& name);
ScenarioFile read_scenario_file(const std::string& path);

}  // namespace blis::sim
