// The few libgit2 operations the release tool needs, with errors as exceptions carrying git's message.
#pragma once

#include <git2.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace blis::release {

struct GitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class GitRepo {
 public:
  explicit GitRepo(const std::string& path);
  ~GitRepo();
  GitRepo(const GitRepo&) = delete;
  GitRepo& operator=(const GitRepo&) = delete;

  // The commit HEAD names, as 40 hex digits.
  std::string head_commit() const;
  // Writes the tree of `commit` into `dir` (which must exist), leaving the repository and index untouched.
  void export_tree(const std::string& commit, const std::string& dir) const;
  // The content of `path` in `commit`'s tree, or nothing when the path is absent there.
  std::optional<std::string> read_file(const std::string& commit, const std::string& path) const;
  // Tag names, sorted.
  std::vector<std::string> tags() const;
  // The commit a tag points at (peeled).
  std::string tag_commit(const std::string& tag) const;
  // Whether `ancestor` is `commit` or one of its ancestors.
  bool is_ancestor(const std::string& ancestor, const std::string& commit) const;
  // Creates an annotated tag on `commit`; refuses (throws) if the name exists: tags never move.
  void create_tag(const std::string& name, const std::string& commit, const std::string& message) const;

 private:
  git_repository* repo_ = nullptr;
};

}  // namespace blis::release
