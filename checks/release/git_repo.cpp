#include "git_repo.h"

#include <algorithm>
#include <memory>

namespace blis::release {
namespace {

void ok(int rc, const std::string& what) {
  if (rc >= 0) return;
  const git_error* e = git_error_last();
  throw GitError(what + ": " + (e != nullptr && e->message != nullptr ? e->message : "unknown libgit2 error"));
}

template <typename T, void (*Free)(T*)>
struct Owned {
  T* p = nullptr;
  ~Owned() {
    if (p != nullptr) Free(p);
  }
};

git_oid parse_oid(const std::string& hex) {
  git_oid oid;
  ok(git_oid_fromstr(&oid, hex.c_str()), "not a commit id '" + hex + "'");
  return oid;
}

std::string oid_str(const git_oid* oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, oid);
  return buf;
}

}  // namespace

GitRepo::GitRepo(const std::string& path) {
  git_libgit2_init();
  ok(git_repository_open(&repo_, path.c_str()), "cannot open git repository '" + path + "'");
}

GitRepo::~GitRepo() {
  git_repository_free(repo_);
  git_libgit2_shutdown();
}

std::string GitRepo::head_commit() const {
  git_oid oid;
  ok(git_reference_name_to_id(&oid, repo_, "HEAD"), "HEAD names no commit");
  return oid_str(&oid);
}

void GitRepo::export_tree(const std::string& commit, const std::string& dir) const {
  const git_oid oid = parse_oid(commit);
  Owned<git_commit, git_commit_free> c;
  ok(git_commit_lookup(&c.p, repo_, &oid), "no commit " + commit);
  git_checkout_options opts;
  ok(git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION), "checkout options");
  opts.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX;
  opts.target_directory = dir.c_str();
  ok(git_checkout_tree(repo_, reinterpret_cast<const git_object*>(c.p), &opts), "cannot export " + commit);
}

std::optional<std::string> GitRepo::read_file(const std::string& commit, const std::string& path) const {
  const git_oid oid = parse_oid(commit);
  Owned<git_commit, git_commit_free> c;
  ok(git_commit_lookup(&c.p, repo_, &oid), "no commit " + commit);
  Owned<git_tree, git_tree_free> tree;
  ok(git_commit_tree(&tree.p, c.p), "no tree for " + commit);
  Owned<git_tree_entry, git_tree_entry_free> entry;
  const int rc = git_tree_entry_bypath(&entry.p, tree.p, path.c_str());
  if (rc == GIT_ENOTFOUND) return std::nullopt;
  ok(rc, "cannot read " + path + " in " + commit);
  Owned<git_blob, git_blob_free> blob;
  ok(git_blob_lookup(&blob.p, repo_, git_tree_entry_id(entry.p)), path + " is not a file in " + commit);
  const auto* data = static_cast<const char*>(git_blob_rawcontent(blob.p));
  return std::string(data, static_cast<std::size_t>(git_blob_rawsize(blob.p)));
}

std::vector<std::string> GitRepo::tags() const {
  git_strarray names{};
  ok(git_tag_list(&names, repo_), "cannot list tags");
  std::vector<std::string> out(names.strings, names.strings + names.count);
  git_strarray_dispose(&names);
  std::sort(out.begin(), out.end());
  return out;
}

std::string GitRepo::tag_commit(const std::string& tag) const {
  Owned<git_object, git_object_free> obj;
  ok(git_revparse_single(&obj.p, repo_, ("refs/tags/" + tag + "^{commit}").c_str()), "no tag " + tag);
  return oid_str(git_object_id(obj.p));
}

bool GitRepo::is_ancestor(const std::string& ancestor, const std::string& commit) const {
  if (ancestor == commit) return true;
  const git_oid a = parse_oid(ancestor);
  const git_oid c = parse_oid(commit);
  const int rc = git_graph_descendant_of(repo_, &c, &a);
  ok(rc, "cannot compare " + ancestor + " and " + commit);
  return rc == 1;
}

void GitRepo::create_tag(const std::string& name, const std::string& commit, const std::string& message) const {
  const git_oid oid = parse_oid(commit);
  Owned<git_object, git_object_free> target;
  ok(git_object_lookup(&target.p, repo_, &oid, GIT_OBJECT_COMMIT), "no commit " + commit);
  Owned<git_signature, git_signature_free> sig;
  if (git_signature_default(&sig.p, repo_) < 0) {
    ok(git_signature_now(&sig.p, "blis-release", "blis-release@invalid"), "cannot make a signature");
  }
  git_oid tag_oid;
  // force = 0: libgit2 refuses an existing name, so a tag is never moved or re-created (LIF-1).
  ok(git_tag_create(&tag_oid, repo_, name.c_str(), target.p, sig.p, message.c_str(), 0),
     "cannot create tag " + name);
}

}  // namespace blis::release
