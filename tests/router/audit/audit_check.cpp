// Original to BLIS: the RTR-4 audit check. A plugin type is reachable from a scenario only after it is audited:
// router/audited.yaml is router/'s audited list, and the registry the start-up builds
// (runner::RegisterInTreePlugins) is the simulator's allow-list. This check fails when
//   - a registered type is not on the audited list, or an audited type is not registered
//     ("allow-list-audited": the two lists change together), or
//   - a type llm-d registers (runner::PluginSurface) that is not audited is not refused before the run, or an
//     audited type is refused ("unaudited-refused").
// usage: router-audit-check AUDITED_LIST.yaml
#include <yaml-cpp/yaml.h>

#include <exception>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "router/cmd/epp/runner/register.h"
#include "router/epp/framework/interface/plugin/registry.h"

int main(int argc, char** argv) {
  using namespace blis::router;
  if (argc != 2) {
    std::cerr << "usage: router-audit-check AUDITED_LIST.yaml\n";
    return 2;
  }
  std::map<std::string, std::string> audited;  // type -> what the audit checked
  try {
    YAML::Node doc = YAML::LoadFile(argv[1]);
    for (const auto& e : doc["audited"]) {
      const std::string type = e["type"].as<std::string>();
      const std::string audit = e["audit"] ? e["audit"].as<std::string>() : "";
      if (audit.empty()) {
        std::cout << argv[1] << ": type '" << type << "' names no audit [RTR-4]\n";
        return 1;
      }
      if (!audited.emplace(type, audit).second) {
        std::cout << argv[1] << ": type '" << type << "' is listed twice [RTR-4]\n";
        return 1;
      }
    }
  } catch (const std::exception& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 2;
  }
  fwkplugin::Registry registry;
  runner::RegisterInTreePlugins(registry);
  std::vector<std::string> findings;
  for (const auto& [type, factory] : registry.Factories) {
    if (!audited.count(type)) findings.push_back("registered plugin type '" + type + "' is not on the audited list [RTR-4]");
  }
  for (const auto& [type, audit] : audited) {
    if (!registry.Factories.count(type)) findings.push_back("audited type '" + type + "' is not registered [RTR-4]");
  }
  // Every type llm-d registers: refused before the run unless audited; never refused when audited.
  std::set<std::string> surface;
  for (const auto& entry : runner::PluginSurface(registry)) surface.insert(entry.Type);
  for (const auto& type : surface) {
    bool refused = false;
    try {
      runner::RefuseIfNotModelled(registry, "p", type);
    } catch (const std::invalid_argument&) {
      refused = true;
    }
    const bool isAudited = audited.count(type) > 0;
    if (!isAudited && !refused) findings.push_back("unaudited type '" + type + "' is not refused before the run [RTR-4]");
    if (isAudited && refused) findings.push_back("audited type '" + type + "' is refused [RTR-4]");
  }
  for (const auto& type : audited) {
    if (!surface.count(type.first)) findings.push_back("audited type '" + type.first + "' is not a type llm-d registers [RTR-4]");
  }
  for (const auto& f : findings) std::cout << f << "\n";
  if (!findings.empty()) {
    std::cout << "router-audit-check: " << findings.size() << " finding(s)\n";
    return 1;
  }
  std::cout << "router-audit-check: " << audited.size() << " audited types, all registered and only they run; "
            << surface.size() - audited.size() << " other types llm-d registers are refused before the run\n";
  return 0;
}
