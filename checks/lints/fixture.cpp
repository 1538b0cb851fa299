#include "fixture.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace blis::lint {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

std::vector<std::string> split_alternatives(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t bar = s.find(" || ", start);
    out.push_back(trim(s.substr(start, bar == std::string::npos ? std::string::npos : bar - start)));
    if (bar == std::string::npos) break;
    start = bar + 4;
  }
  return out;
}

bool has_ext(const fs::path& p, std::initializer_list<const char*> exts) {
  std::string e = p.extension().string();
  return std::any_of(exts.begin(), exts.end(), [&](const char* x) { return e == x; });
}

// The comment marker for the file's language.
const char* marker_for(const fs::path& p) {
  return has_ext(p, {".py", ".sh", ".yaml", ".yml", ".txt", ".toml"}) ? "#" : "//";
}

bool read_one(const fs::path& real, std::string default_repo_path, FixtureFile& out,
              std::vector<std::string>& errors) {
  std::ifstream in(real);
  if (!in) {
    errors.push_back(real.string() + ": cannot read the fixture");
    return false;
  }
  out.real = real;
  out.repo_path = std::move(default_repo_path);
  out.is_cpp = has_ext(real, {".cpp", ".cc", ".cxx"});
  const std::string mark = marker_for(real);
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line)) {
    ++n;
    size_t at = line.find(mark + " lint-path:");
    if (at != std::string::npos && n <= 5) {
      out.repo_path = trim(line.substr(at + mark.size() + 11));
      continue;
    }
    size_t e = line.find("expect:");
    size_t c = line.find(mark);
    if (e != std::string::npos && c != std::string::npos && c < e) {
      for (auto& m : split_alternatives(line.substr(e + 7))) {
        if (m.empty()) {
          errors.push_back(real.string() + ":" + std::to_string(n) + ": empty expect: message");
          return false;
        }
        out.expected[n].insert(m);
      }
    } else if (c != std::string::npos && line.find("near-miss", c) != std::string::npos) {
      out.near_misses.insert(n);
    }
  }
  if (out.repo_path.empty()) {
    errors.push_back(real.string() + ": a single-file fixture needs a `" + mark +
                     " lint-path: <repository path>` line among its first five");
    return false;
  }
  return true;
}

}  // namespace

std::vector<FixtureFile> read_fixture(const fs::path& path, std::vector<std::string>& errors) {
  std::vector<FixtureFile> files;
  if (fs::is_directory(path)) {
    std::vector<fs::path> all;
    for (const auto& e : fs::recursive_directory_iterator(path))
      if (e.is_regular_file()) all.push_back(e.path());
    std::sort(all.begin(), all.end());
    for (const auto& p : all) {
      FixtureFile f;
      if (read_one(p, p.lexically_relative(path).generic_string(), f, errors)) files.push_back(std::move(f));
    }
  } else {
    FixtureFile f;
    if (read_one(path, "", f, errors)) files.push_back(std::move(f));
  }
  size_t expected = 0, near = 0;
  for (const auto& f : files) {
    for (const auto& [line, msgs] : f.expected) expected += msgs.size();
    near += f.near_misses.size();
  }
  if (errors.empty() && expected == 0)
    errors.push_back(path.string() + ": the fixture marks no `expect:` line, so it cannot show the lint fails");
  if (errors.empty() && near == 0)
    errors.push_back(path.string() + ": the fixture marks no `near-miss` line, so it cannot show the lint is precise");
  return files;
}

std::vector<std::string> compare_fixture(const std::vector<FixtureFile>& files, const std::set<Finding>& found) {
  std::vector<std::string> out;
  std::map<std::string, const FixtureFile*> by_path;
  for (const auto& f : files) by_path[f.repo_path] = &f;
  // What the lint found, per file and line.
  std::map<std::string, std::map<unsigned, std::multiset<std::string>>> got;
  for (const auto& f : found) got[f.path][f.line].insert(f.message);
  for (const auto& f : files) {
    const auto& g = got[f.repo_path];
    for (const auto& [line, msgs] : f.expected) {
      auto it = g.find(line);
      std::multiset<std::string> have = it == g.end() ? std::multiset<std::string>{} : it->second;
      for (const auto& m : msgs)
        if (!have.contains(m))
          out.push_back(f.repo_path + ":" + std::to_string(line) + ": expected '" + m + "', the lint " +
                        (have.empty() ? std::string("was silent") : "said '" + *have.begin() + "'"));
    }
    for (const auto& [line, msgs] : g) {
      auto it = f.expected.find(line);
      for (const auto& m : msgs)
        if (it == f.expected.end() || !it->second.contains(m))
          out.push_back(f.repo_path + ":" + std::to_string(line) + ": unexpected finding '" + m + "'" +
                        (f.near_misses.contains(line) ? " on a near-miss, which must stay silent" : ""));
    }
  }
  for (const auto& [path, lines] : got)
    if (!by_path.contains(path))
      out.push_back(path + ": findings in a file that is not part of the fixture");
  return out;
}

}  // namespace blis::lint
