#include "check_run.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "git_repo.h"

namespace blis::release {
namespace {

// A suite named after an invariant ID ("X7", "T-E1").
const std::regex kIdSuite(R"(((?:X|SUB-|VLM-|SGL-|RTR-|SIM-|CFG-|FID-|DEV-|VAL-|COV-|LIF-|D)[0-9]+|T-[A-Z]+[0-9]+))");

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

void run_step(const std::string& what, const std::string& cmd) {
  const int rc = std::system(cmd.c_str());
  if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
    // A failing meson test run is judged from its log, not here; only set-up and build steps throw.
    throw std::runtime_error(what + " failed: " + cmd);
  }
}

}  // namespace

std::vector<TestResult> parse_testlog(const std::string& text) {
  std::vector<TestResult> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto j = nlohmann::json::parse(line);
    // Meson writes "project:suite1+suite2 / name".
    const auto full = j.at("name").get<std::string>();
    const auto slash = full.find(" / ");
    TestResult t{slash == std::string::npos ? full : full.substr(slash + 3), j.at("result").get<std::string>(), {}};
    if (slash != std::string::npos) {
      std::string suites = full.substr(0, slash);
      const auto colon = suites.find(':');
      if (colon != std::string::npos) suites = suites.substr(colon + 1);
      std::size_t start = 0;
      while (start <= suites.size()) {
        const auto plus = suites.find('+', start);
        t.suites.push_back(suites.substr(start, plus == std::string::npos ? std::string::npos : plus - start));
        if (plus == std::string::npos) break;
        start = plus + 1;
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

Verdict judge(const std::map<std::string, RecordRef>& registry, const std::vector<TestResult>& log) {
  Verdict v;
  // The tests each ci check must have run: its real run (when Meson makes it) and its known-bad run.
  std::map<std::string, std::string> owner;  // test name -> invariant ID
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> wanted;  // ID -> (check, test)
  for (const auto& [id, rec] : registry) {
    if (rec.status != "ci" && rec.status != "partial") continue;
    for (const auto& c : rec.checks) {
      if (c.status != "ci") continue;
      wanted[id].emplace_back(c.name, "known-bad/" + id + "/" + c.name);
      if (c.runner == "meson") wanted[id].emplace_back(c.name, c.target);
      for (const auto& [check, test] : wanted[id]) owner.emplace(test, id);
    }
  }
  std::map<std::string, const TestResult*> by_name;
  for (const auto& t : log) by_name[t.name] = &t;
  for (const auto& t : log) {
    if (t.result == "OK" || t.result == "EXPECTEDFAIL") continue;
    const std::string why = "test '" + t.name + "' ended " + t.result;
    std::set<std::string> ids;
    if (const auto it = owner.find(t.name); it != owner.end()) ids.insert(it->second);
    for (const auto& s : t.suites) {
      std::smatch m;
      if (std::regex_match(s, m, kIdSuite) && registry.count(m[1].str()) != 0) ids.insert(m[1].str());
    }
    for (const auto& id : ids) v.failing[id].push_back(why);
    if (ids.empty()) v.unowned.push_back(why);
  }
  for (const auto& [id, tests] : wanted) {
    for (const auto& [check, test] : tests) {
      if (by_name.count(test) == 0) v.failing[id].push_back("check '" + check + "': test '" + test + "' did not run");
    }
  }
  return v;
}

std::string build_and_test(const std::string& repo_path, const std::string& commit, std::string& export_dir) {
  namespace fs = std::filesystem;
  std::string tmpl = (fs::temp_directory_path() / "blis-release-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("cannot make a temporary directory");
  export_dir = tmpl;
  const std::string src = tmpl + "/src";
  const std::string build = tmpl + "/build";
  fs::create_directories(src);
  GitRepo(repo_path).export_tree(commit, src);
  // The tree's own set-up, as CI runs it: packages and the fetched sources git does not hold.
  if (fs::exists(src + "/scripts/setup.sh")) {
    run_step("scripts/setup.sh", "bash " + shell_quote(src + "/scripts/setup.sh") + " >" +
                                     shell_quote(tmpl + "/setup-deps.log") + " 2>&1");
  }
  run_step("meson setup", "meson setup " + shell_quote(build) + " " + shell_quote(src) + " >" +
                              shell_quote(tmpl + "/setup.log") + " 2>&1");
  run_step("build", "meson compile -C " + shell_quote(build) + " >" + shell_quote(tmpl + "/compile.log") + " 2>&1");
  // Its exit status is not the verdict: judge() reads every test's result from the log.
  const std::string test_cmd = "meson test -C " + shell_quote(build) + " --setup release --no-rebuild >" +
                               shell_quote(tmpl + "/test.log") + " 2>&1";
  const int rc = std::system(test_cmd.c_str());
  if (rc == -1 || !WIFEXITED(rc)) throw std::runtime_error("meson test did not run: " + test_cmd);
  std::ifstream in(build + "/meson-logs/testlog-release.json");
  if (!in) throw std::runtime_error("meson test wrote no log (see " + tmpl + "/test.log)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace blis::release
