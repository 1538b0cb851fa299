#include "lint.h"

#include <clang/Basic/SourceManager.h>
#include <fnmatch.h>

#include <system_error>

namespace blis::lint {

namespace fs = std::filesystem;

std::string Finding::text() const {
  return path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + message + " [" + lint + "; " +
         record + "]";
}

namespace {
fs::path canonical_or_self(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

// The path of `p` relative to `base` when p lies under base, else "".
std::string relative_under(const fs::path& p, const fs::path& base) {
  if (base.empty()) return "";
  fs::path rel = p.lexically_relative(base);
  if (rel.empty()) return "";
  std::string s = rel.generic_string();
  if (s == "." || s.starts_with("../") || s == "..") return "";
  return s;
}
}  // namespace

Context::Context(fs::path root, fs::path build)
    : root_(canonical_or_self(root)), build_(canonical_or_self(build)) {}

// Canonical, because the tool changes directory per unit: a relative fixture path would match nothing.
void Context::set_fixture_root(const fs::path& dir) { fixture_root_ = canonical_or_self(fs::absolute(dir)); }

void Context::pretend(const fs::path& real, std::string repo_path) {
  pretend_[canonical_or_self(real).string()] = std::move(repo_path);
}

std::string Context::repo_path(const fs::path& file) const {
  fs::path c = canonical_or_self(file);
  if (auto it = pretend_.find(c.string()); it != pretend_.end()) return it->second;
  if (!fixture_root_.empty()) {
    // Inside a fixture run only the fixture's own files are the "repository".
    return relative_under(c, canonical_or_self(fixture_root_));
  }
  return relative_under(c, root_);
}

std::string Context::repo_path(const clang::SourceManager& sm, clang::SourceLocation loc) const {
  if (loc.isInvalid()) return "";
  clang::SourceLocation file_loc = sm.getFileLoc(loc);
  clang::FileID id = sm.getFileID(file_loc);
  auto entry = sm.getFileEntryRefForID(id);
  if (!entry) return "";
  llvm::StringRef real = entry->getFileEntry().tryGetRealPathName();
  return repo_path(fs::path(real.empty() ? entry->getName().str() : real.str()));
}

bool Context::under(const std::string& repo_path, const std::string& entry) {
  if (entry.find('*') != std::string::npos) {
    // A '*' stands for one path component (engines/*/lowering/): compare component by component.
    std::vector<std::string> want, have;
    auto split = [](const std::string& s, std::vector<std::string>& out) {
      size_t start = 0;
      for (size_t slash; (slash = s.find('/', start)) != std::string::npos; start = slash + 1)
        out.push_back(s.substr(start, slash - start));
      out.push_back(s.substr(start));
    };
    split(entry, want);
    split(repo_path, have);
    bool dir = entry.ends_with('/');
    if (dir) want.pop_back();  // the empty component after the trailing '/'
    if (dir ? have.size() <= want.size() : have.size() != want.size()) return false;
    for (size_t i = 0; i < want.size(); ++i)
      if (fnmatch(want[i].c_str(), have[i].c_str(), 0) != 0) return false;
    return true;
  }
  if (entry.ends_with('/')) return repo_path.starts_with(entry);
  return repo_path == entry;
}

bool Context::in_tests(const std::string& p) {
  return p.starts_with("test/") || p.starts_with("tests/") || p.find("/test/") != std::string::npos ||
         p.find("/tests/") != std::string::npos;
}

bool Context::in_scope(const LintSpec& spec, const std::string& repo_path) {
  if (repo_path.empty()) return false;
  bool in = false;
  for (const auto& s : spec.scope) in = in || under(repo_path, s);
  if (!in) return false;
  for (const auto& a : spec.allow)
    if (under(repo_path, a.path)) return false;
  return true;
}

void Context::report(const LintSpec& spec, const std::string& repo_path, unsigned line, unsigned col,
                     std::string message) {
  if (!in_scope(spec, repo_path)) return;
  findings_.insert(Finding{repo_path, line, col, std::move(message), spec.name, spec.record});
}

void Context::report(const LintSpec& spec, const clang::SourceManager& sm, clang::SourceLocation loc,
                     std::string message) {
  std::string path = repo_path(sm, loc);
  if (path.empty()) return;
  clang::SourceLocation file_loc = sm.getFileLoc(loc);
  clang::PresumedLoc p = sm.getPresumedLoc(file_loc, /*UseLineDirectives=*/false);
  if (p.isInvalid()) return;
  report(spec, path, p.getLine(), p.getColumn(), std::move(message));
}

void Context::report_once_per_line(const LintSpec& spec, const clang::SourceManager& sm, clang::SourceLocation loc,
                                   std::string message) {
  std::string path = repo_path(sm, loc);
  if (path.empty()) return;
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getFileLoc(loc), /*UseLineDirectives=*/false);
  if (p.isInvalid() || !lines_.emplace(spec.name, path, p.getLine(), message).second) return;
  report(spec, sm, loc, std::move(message));
}

const std::vector<ListEntry>& LintSpec::list(const std::string& list_name) const {
  static const std::vector<ListEntry> none;
  auto it = lists.find(list_name);
  return it == lists.end() ? none : it->second;
}

std::map<std::string, Factory>& lint_factories() {
  static std::map<std::string, Factory> factories;
  return factories;
}

bool register_lint(const char* name, Factory factory) {
  return lint_factories().emplace(name, factory).second;
}

}  // namespace blis::lint
