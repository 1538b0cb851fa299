// Original to BLIS: the reader of the pinned SGLang tree's selectable features; see scan.h.
#include "surface/scan.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "python/reader.h"

namespace fs = std::filesystem;

namespace blis::sglang::surface {
namespace {

constexpr const char* kSrt = "python/sglang/srt";

struct Parsed {
  std::string rel;  // path relative to the checkout, '/'-separated
  pyread::Module module;
};

std::string read_text(const fs::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every .py file under python/sglang/srt, parsed, in path order.
std::vector<Parsed> parse_tree(const fs::path& checkout, std::vector<std::string>& errors) {
  std::vector<fs::path> files;
  const fs::path base = checkout / kSrt;
  if (!fs::is_directory(base)) {
    errors.push_back(base.string() + ": missing (the checkout must hold python/sglang/srt)");
    return {};
  }
  for (const auto& e : fs::recursive_directory_iterator(base))
    if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Parsed> out;
  out.reserve(files.size());
  for (const auto& f : files) {
    bool ok = false;
    std::string text = read_text(f, ok);
    out.push_back({fs::relative(f, checkout).generic_string(), pyread::parse(text)});
  }
  return out;
}

std::string last_name(const std::string& dotted) {
  auto at = dotted.rfind('.');
  return at == std::string::npos ? dotted : dotted.substr(at + 1);
}

const Parsed* find_file(const std::vector<Parsed>& tree, const std::string& rel) {
  for (const auto& p : tree)
    if (p.rel == rel) return &p;
  return nullptr;
}

// The members of an enum class of one file: (name users select, line).
void enum_members(const std::vector<Parsed>& tree, const std::string& file, const std::string& cls,
                  const std::string& category, const std::string& part, Scan& scan) {
  const std::string rel = std::string(kSrt) + "/" + file;
  const Parsed* p = find_file(tree, rel);
  if (p == nullptr || p->module.find_class(cls) == nullptr) {
    scan.errors.push_back(rel + ": no class " + cls + " (the " + category + " list is read from it)");
    return;
  }
  int n = 0;
  for (const auto& a : p->module.assignments) {
    if (a.scope != pyread::Assignment::Scope::kClass || a.owner != cls || !a.value) continue;
    if (a.target.empty() || a.target.starts_with("_")) continue;
    const std::string name = a.value->str ? *a.value->str : a.target;
    scan.items.push_back({category, name, rel, a.pos.line, part, false});
    ++n;
  }
  if (n == 0) scan.errors.push_back(rel + ": class " + cls + " has no members");
}

// Every class of the tree deriving `root` (by last dotted base name), transitively; the root itself is a
// framework item.
void subclasses(const std::vector<Parsed>& tree, const std::string& root_file, const std::string& root,
                const std::string& category, const std::string& part, Scan& scan) {
  const std::string root_rel = std::string(kSrt) + "/" + root_file;
  const Parsed* rp = find_file(tree, root_rel);
  const pyread::Class* rc = rp ? rp->module.find_class(root) : nullptr;
  if (rc == nullptr) {
    scan.errors.push_back(root_rel + ": no class " + root + " (the " + category + " list derives from it)");
    return;
  }
  scan.items.push_back({category, root, root_rel, rc->pos.line, part, true});
  std::set<std::string> in{root};
  std::set<std::pair<std::string, std::string>> seen;  // (file, class)
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& p : tree) {
      for (const auto& c : p.module.classes) {
        if (seen.contains({p.rel, c.name})) continue;
        bool derives = std::any_of(c.bases.begin(), c.bases.end(),
                                   [&](const std::string& b) { return in.contains(last_name(b)); });
        if (!derives) continue;
        seen.insert({p.rel, c.name});
        if (c.name == root) continue;
        scan.items.push_back({category, c.name, p.rel, c.pos.line, part, false});
        in.insert(c.name);
        grew = true;
      }
    }
  }
}

// The first positional string argument of every call whose callee ends in `callee`.
void registrations(const std::vector<Parsed>& tree, const std::string& callee, const std::string& category,
                   const std::string& part, Scan& scan) {
  int n = 0;
  for (const auto& p : tree) {
    for (const auto& call : p.module.calls) {
      if (call.name != callee) continue;
      auto pos = call.positional();
      if (pos.empty()) continue;  // the registering function's own definition is no call
      if (!pos.front()->value.str) {
        scan.errors.push_back(p.rel + ":" + std::to_string(call.pos.line) + ": " + callee +
                              " with a name that is not a string literal (" + pos.front()->value.text + ")");
        continue;
      }
      scan.items.push_back({category, *pos.front()->value.str, p.rel, call.pos.line, part, false});
      ++n;
    }
  }
  if (n == 0) scan.errors.push_back("no " + callee + "(...) call under " + kSrt);
}

// The decoded string literals inside one value's source span (a list or set literal of strings).
std::vector<std::pair<std::string, unsigned>> strings_in(const pyread::Module& m, const pyread::Value& v) {
  std::vector<std::pair<std::string, unsigned>> out;
  const size_t from = v.pos.offset, to = v.pos.offset + v.text.size();
  for (const auto& s : m.strings)
    if (s.pos.offset >= from && s.pos.offset < to && s.text && !s.docstring) out.push_back({*s.text, s.pos.line});
  return out;
}

// The `choices=` of a ServerArgs field's Arg(...) (server_args.py): a list literal, or a module-level name
// bound to one. Each choice is an item.
void field_choices(const std::vector<Parsed>& tree, const std::string& field, const std::string& category,
                   const std::string& part, Scan& scan) {
  const std::string rel = std::string(kSrt) + "/server_args.py";
  const Parsed* p = find_file(tree, rel);
  if (p == nullptr) {
    scan.errors.push_back(rel + ": missing (the " + category + " list is read from it)");
    return;
  }
  const auto& m = p->module;
  // The field, and where the next ServerArgs field starts: its Arg(...) call lies between the two.
  size_t from = 0, to = 0;
  for (const auto& a : m.assignments) {
    if (a.scope != pyread::Assignment::Scope::kClass || a.owner != "ServerArgs") continue;
    if (from != 0 && to == 0) to = a.pos.offset;
    if (a.target == field) from = a.pos.offset;
  }
  if (from == 0) {
    scan.errors.push_back(rel + ": no ServerArgs field " + field + " (the " + category + " list is read from it)");
    return;
  }
  if (to == 0) to = std::string::npos;
  const pyread::Argument* choices = nullptr;
  for (const auto& call : m.calls)
    if (call.name == "Arg" && call.pos.offset > from && call.pos.offset < to && call.keyword("choices")) {
      choices = call.keyword("choices");
      break;
    }
  if (choices == nullptr) {
    scan.errors.push_back(rel + ": ServerArgs." + field + " declares no choices (the " + category + " list)");
    return;
  }
  const pyread::Value* list = &choices->value;
  if (list->kind != pyread::LiteralKind::kCollection) {  // a module-level name bound to the list
    list = nullptr;
    for (const auto& a : m.assignments)
      if (a.scope == pyread::Assignment::Scope::kModule && a.target == choices->value.text && a.value &&
          a.value->kind == pyread::LiteralKind::kCollection) {
        list = &*a.value;
        break;
      }
  }
  auto names = list ? strings_in(m, *list) : std::vector<std::pair<std::string, unsigned>>{};
  if (names.empty()) {
    scan.errors.push_back(rel + ": the choices of ServerArgs." + field + " (" + choices->value.text +
                          ") are not a list of string literals");
    return;
  }
  for (const auto& [name, line] : names) scan.items.push_back({category, name, rel, line, part, false});
}

// `name="sglang:..."` keyword arguments of any call: the metric families SGLang exports.
void metric_families(const std::vector<Parsed>& tree, Scan& scan) {
  for (const auto& p : tree) {
    for (const auto& call : p.module.calls) {
      const pyread::Argument* kw = call.keyword("name");
      if (kw == nullptr) continue;
      const std::string& text = kw->value.text;
      bool sglang = text.find("sglang:") != std::string::npos;
      if (!sglang) continue;
      if (!kw->value.str) {
        scan.errors.push_back(p.rel + ":" + std::to_string(call.pos.line) +
                              ": a metric name built at run time (" + text + ")");
        continue;
      }
      if (kw->value.str->starts_with("sglang:"))
        scan.items.push_back({"metric_family", *kw->value.str, p.rel, call.pos.line, "", false});
    }
  }
}

}  // namespace

Scan scan_upstream(const fs::path& checkout) {
  Scan scan;
  std::vector<Parsed> tree = parse_tree(checkout, scan.errors);
  if (tree.empty()) return scan;
  enum_members(tree, "disaggregation/utils.py", "TransferBackend", "transfer_backend", "kv_transfer_and_tiering", scan);
  registrations(tree, "register_backend", "hicache_storage_backend", "kv_transfer_and_tiering", scan);
  subclasses(tree, "mem_cache/base_prefix_cache.py", "BasePrefixCache", "tree_cache", "kv_cache_management", scan);
  registrations(tree, "register_tree_core_backend", "tree_core", "kv_cache_management", scan);
  subclasses(tree, "mem_cache/allocator/base.py", "BaseTokenToKVPoolAllocator", "allocator", "kv_cache_management", scan);
  subclasses(tree, "mem_cache/memory_pool.py", "KVCache", "memory_pool", "kv_cache_management", scan);
  enum_members(tree, "speculative/spec_info.py", "SpeculativeAlgorithm", "speculative_algorithm", "scheduling", scan);
  field_choices(tree, "schedule_policy", "schedule_policy", "scheduling", scan);
  field_choices(tree, "radix_eviction_policy", "eviction_policy", "kv_cache_management", scan);
  field_choices(tree, "retraction_policy", "retraction_policy", "scheduling", scan);
  field_choices(tree, "attention_backend", "attention_backend", "resolution_and_lowering", scan);
  metric_families(tree, scan);
  subclasses(tree, "disaggregation/kv_events.py", "KVCacheEvent", "kv_event", "kv_cache_management", scan);
  // One item per (category, name): a name registered twice keeps its first place (path order).
  std::stable_sort(scan.items.begin(), scan.items.end(), [](const Item& a, const Item& b) {
    return std::tie(a.category, a.name) < std::tie(b.category, b.name);
  });
  scan.items.erase(std::unique(scan.items.begin(), scan.items.end(),
                               [](const Item& a, const Item& b) { return a.category == b.category && a.name == b.name; }),
                   scan.items.end());
  return scan;
}

std::vector<TestFunction> test_functions(const fs::path& file, std::string& error) {
  bool ok = false;
  std::string text = read_text(file, ok);
  if (!ok) {
    error = file.string() + ": missing";
    return {};
  }
  pyread::Module m = pyread::parse(text);
  if (!m.errors.empty()) {
    error = file.string() + ":" + std::to_string(m.errors.front().pos.line) + ": " + m.errors.front().what;
    return {};
  }
  std::vector<TestFunction> out;
  for (const auto& f : m.functions) {
    if (!f.name.starts_with("test")) continue;
    if (f.owner.empty()) out.push_back({f.name, f.pos.line});
    else if (m.find_class(f.owner) != nullptr) out.push_back({f.owner + "." + f.name, f.pos.line});
  }
  return out;
}

}  // namespace blis::sglang::surface
