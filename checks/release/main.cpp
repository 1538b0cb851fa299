// blis-release: refuses to tag while any ci invariant fails; tags once, never moves a tag (LIF-1), and
// writes generated release notes (LIF-4).
#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "check_run.h"
#include "git_repo.h"
#include "notes.h"
#include "registry_json.h"

namespace {

using namespace blis::release;

constexpr const char* kUsage =
    "usage: blis-release check [--repo DIR]\n"
    "       blis-release tag vX.Y.Z [--repo DIR] [--notes-out FILE]\n";

const char* const kRegistryPath = "docs/invariants.json";

std::optional<std::array<int, 3>> semver(const std::string& tag) {
  static const std::regex re(R"(v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*))");
  std::smatch m;
  if (!std::regex_match(tag, m, re)) return std::nullopt;
  return std::array<int, 3>{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
}

// The highest release tag that is HEAD or an ancestor of it.
std::optional<std::string> previous_tag(const GitRepo& repo, const std::string& head) {
  std::optional<std::string> best;
  std::array<int, 3> best_v{};
  for (const auto& t : repo.tags()) {
    const auto v = semver(t);
    if (!v || !repo.is_ancestor(repo.tag_commit(t), head)) continue;
    if (!best || *v > best_v) {
      best = t;
      best_v = *v;
    }
  }
  return best;
}

// Runs every ci check on a clean export of HEAD; prints each failing invariant; true when all pass.
bool run_check(const std::string& repo_path, const std::string& head) {
  GitRepo repo(repo_path);
  const auto registry_text = repo.read_file(head, kRegistryPath);
  if (!registry_text) {
    std::cerr << "blis-release: " << kRegistryPath << " is missing at " << head << "\n";
    return false;
  }
  const auto registry = parse_registry(*registry_text, std::string(kRegistryPath) + "@" + head.substr(0, 8));
  std::string dir;
  const auto log = parse_testlog(build_and_test(repo_path, head, dir));
  const auto verdict = judge(registry, log);
  for (const auto& [id, why] : verdict.failing) {
    for (const auto& w : why) std::cout << "failing invariant " << id << ": " << w << "\n";
  }
  for (const auto& w : verdict.unowned) std::cout << "failing test outside the registry: " << w << "\n";
  std::cout << "blis-release check: " << log.size() << " tests at " << head.substr(0, 12) << "; "
            << verdict.failing.size() << " failing invariant(s); logs in " << dir << "\n";
  return verdict.passed();
}

int tag_main(const std::string& repo_path, const std::string& tag, const std::string& notes_out) {
  if (!semver(tag)) {
    std::cerr << "blis-release: tag '" << tag << "' is not of the form vX.Y.Z\n";
    return 2;
  }
  GitRepo repo(repo_path);
  const auto tags = repo.tags();
  if (std::find(tags.begin(), tags.end(), tag) != tags.end()) {
    std::cerr << "blis-release: tag " << tag << " exists; a tag is never moved or re-created [LIF-1]\n";
    return 1;
  }
  const std::string head = repo.head_commit();
  if (!run_check(repo_path, head)) {
    std::cerr << "blis-release: refusing to tag " << tag << ": ci invariants fail (listed above)\n";
    return 1;
  }
  const auto prev = previous_tag(repo, head);
  std::map<std::string, RecordRef> before;
  if (prev) {
    const auto text = repo.read_file(repo.tag_commit(*prev), kRegistryPath);
    if (text) before = parse_registry(*text, std::string(kRegistryPath) + "@" + *prev);
  }
  const auto after = parse_registry(*repo.read_file(head, kRegistryPath), kRegistryPath);
  const std::string notes = release_notes(tag, head, prev, before, after);
  repo.create_tag(tag, head, notes);
  if (!notes_out.empty()) std::ofstream(notes_out) << notes;
  std::cout << notes;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string repo_path = ".";
  std::string notes_out;
  std::vector<std::string> pos;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--repo" || args[i] == "--notes-out") && i + 1 < args.size()) {
      (args[i] == "--repo" ? repo_path : notes_out) = args[i + 1];
      ++i;
    } else if (!args[i].empty() && args[i][0] == '-') {
      std::cerr << "blis-release: unknown option '" << args[i] << "'\n" << kUsage;
      return 2;
    } else {
      pos.push_back(args[i]);
    }
  }
  try {
    if (pos.size() == 1 && pos[0] == "check") {
      return run_check(repo_path, GitRepo(repo_path).head_commit()) ? 0 : 1;
    }
    if (pos.size() == 2 && pos[0] == "tag") return tag_main(repo_path, pos[1], notes_out);
  } catch (const std::exception& e) {
    std::cerr << "blis-release: " << e.what() << "\n";
    return 1;
  }
  std::cerr << kUsage;
  return 2;
}
