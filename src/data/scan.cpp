#include "data/scan.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <system_error>

#include "data/embedded.h"

namespace blis::data {
namespace fs = std::filesystem;
namespace {

// Word for word as gen/embed_data.py writes them (the parity test compares).
constexpr std::string_view kRootMissing = "no such directory";
constexpr std::string_view kRootNotDir = "is not a directory";
constexpr std::string_view kSymlink = "is a symbolic link; data must be regular files in real directories [SUB-9]";
constexpr std::string_view kNotRegular = "is neither a regular file nor a directory [SUB-9]";
constexpr std::string_view kLedger = "is ledger data; an overlay may not contain ledger files [SUB-9]";

std::string dir_is_file(std::string_view name, Tree tree) {
  return std::string("is not a directory, but ") + std::string(name) + "/ is a data directory of the " +
         std::string(tree_name(tree)) + " [SUB-9]";
}

std::string unmatched(const PatternTable& t, Tree tree, std::string_view dir) {
  return std::string("matches no data-file pattern of the ") + std::string(tree_name(tree)) + "; a file under " +
         std::string(dir) + "/ must match " + t.patterns_under(tree, dir) +
         ", and one the loader skipped would silently drop a change [SUB-9]";
}

std::string carriage_return(std::size_t line) {
  return "holds a carriage return (line " + std::to_string(line) +
         "); data files end lines with a line feed only [SUB-9]";
}

std::string ascii_fold(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::vector<std::string> sorted_names(const fs::path& dir, std::error_code& ec) {
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool read_bytes(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

class DirectoryScan {
 public:
  DirectoryScan(const PatternTable& t, Tree tree, fs::path root) : t_(t), tree_(tree), root_(std::move(root)) {}

  void add(const std::string& rel, const PatternRow* row) {
    ScannedFile f{rel, row, {}};
    if (!read_bytes(root_ / rel, f.bytes)) {
      out.problems.push_back({rel, "cannot be read"});
      return;
    }
    out.files.push_back(std::move(f));
  }

  void walk(const std::string& rel) {
    std::error_code ec;
    const auto names = sorted_names(root_ / rel, ec);
    if (ec) {
      out.problems.push_back({rel, "cannot be listed: " + ec.message()});
      return;
    }
    for (const auto& name : names) {
      const std::string p = rel + "/" + name;
      const auto st = fs::symlink_status(root_ / p, ec);
      if (fs::is_symlink(st)) {
        out.problems.push_back({p, std::string(kSymlink)});
      } else if (fs::is_directory(st)) {
        walk(p);
      } else if (fs::is_regular_file(st)) {
        const auto c = t_.classify(tree_, p);
        if (c.what == Classification::What::data) {
          add(p, c.row);
        } else if (c.what == Classification::What::unmatched) {
          out.problems.push_back({p, unmatched(t_, tree_, rel.substr(0, rel.find('/')))});
        }
      } else {
        out.problems.push_back({p, std::string(kNotRegular)});
      }
    }
  }

  void top(bool overlay) {
    std::error_code ec;
    const auto st = fs::status(root_, ec);
    if (!fs::exists(st)) {
      out.problems.push_back({"", std::string(kRootMissing)});
      return;
    }
    if (!fs::is_directory(st)) {
      out.problems.push_back({"", std::string(kRootNotDir)});
      return;
    }
    const auto names = sorted_names(root_, ec);
    if (ec) {
      out.problems.push_back({"", "cannot be listed: " + ec.message()});
      return;
    }
    for (const auto& name : names) {
      const auto lst = fs::symlink_status(root_ / name, ec);
      if (overlay && name == "ledger") {
        out.problems.push_back({name, std::string(kLedger)});
      } else if (t_.is_data_directory(tree_, name)) {
        if (fs::is_symlink(lst)) {
          out.problems.push_back({name, std::string(kSymlink)});
        } else if (!fs::is_directory(lst)) {
          out.problems.push_back({name, dir_is_file(name, tree_)});
        } else {
          walk(name);
        }
      } else {
        const auto c = t_.classify(tree_, name);
        if (c.what != Classification::What::data) continue;  // outside the data: never read
        if (fs::is_symlink(lst)) {
          out.problems.push_back({name, std::string(kSymlink)});
        } else if (!fs::is_regular_file(lst)) {
          out.problems.push_back({name, std::string(kNotRegular)});
        } else {
          add(name, c.row);
        }
      }
    }
  }

  Scan out;

 private:
  const PatternTable& t_;
  Tree tree_;
  fs::path root_;
};

}  // namespace

std::string case_collision_message(const std::string& other) {
  return "differs only in letter case from " + other + " [SUB-9]";
}

std::vector<Problem> case_collisions(const std::vector<std::string>& paths) {
  std::set<std::string> names;  // every path and every directory above it
  for (const auto& p : paths) {
    for (std::size_t i = p.find('/'); i != std::string::npos; i = p.find('/', i + 1)) names.insert(p.substr(0, i));
    names.insert(p);
  }
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& n : names) groups[ascii_fold(n)].push_back(n);  // each group stays sorted: names is
  std::vector<Problem> out;
  for (const auto& [folded, members] : groups) {
    for (std::size_t i = 1; i < members.size(); ++i) out.push_back({members[i], case_collision_message(members[0])});
  }
  return out;
}

void finish_scan(Scan& scan) {
  std::sort(scan.files.begin(), scan.files.end(),
            [](const ScannedFile& a, const ScannedFile& b) { return a.path < b.path; });
  std::vector<std::string> paths;
  for (const auto& f : scan.files) {
    paths.push_back(f.path);
    const auto cr = f.bytes.find('\r');
    if (cr != std::string::npos) {
      const auto line = static_cast<std::size_t>(std::count(f.bytes.begin(), f.bytes.begin() + cr, '\n')) + 1;
      scan.problems.push_back({f.path, carriage_return(line)});
    }
  }
  for (auto& p : case_collisions(paths)) scan.problems.push_back(std::move(p));
  std::sort(scan.problems.begin(), scan.problems.end());
}

Scan scan_directory(const PatternTable& table, Tree tree, const fs::path& root, bool overlay) {
  DirectoryScan s(table, tree, root);
  s.top(overlay);
  finish_scan(s.out);
  return std::move(s.out);
}

Scan scan_embedded(const PatternTable& table, Tree tree) {
  Scan out;
  for (const auto& f : generated::files()) {
    if (f.tree != tree) continue;
    const auto c = table.classify(tree, f.path);
    if (c.what != Classification::What::data || c.row->kind != f.kind) {
      out.problems.push_back({std::string(f.path), "was embedded as kind '" + std::string(f.kind) +
                                                       "' but the loader's patterns do not give that kind "
                                                       "(the build is inconsistent: rebuild) [SUB-9]"});
      continue;
    }
    out.files.push_back({std::string(f.path), c.row, std::string(f.bytes)});
  }
  finish_scan(out);
  return out;
}

}  // namespace blis::data
