// Original to BLIS: reads the registration tables of a pinned vLLM checkout (see scan.h). What each table
// is, and where the release keeps it, is written in the tables below; anything that looks like a
// registration table and is in neither the read nor the ignored list stops the generator, so a table a
// new release adds cannot be missed (§12, T-G1).
#include "surface/scan.h"

#include "python/reader.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace blis::vllm::surface {

namespace fs = std::filesystem;
using pyread::Module;

namespace {

// `<Factory>.register_*("name", "module.path", "ClassName")` tables, by the factory and method that
// register into them.
struct FactoryTable {
  const char* factory;
  const char* method;
  const char* category;
  const char* part;
};
constexpr FactoryTable kFactories[] = {
    {"KVConnectorFactory", "register_connector", "kv_connector", "kv_transfer_and_tiering"},
    {"ECConnectorFactory", "register_connector", "ec_connector", "kv_transfer_and_tiering"},
    {"OffloadingSpecFactory", "register_spec", "offload_spec", "kv_transfer_and_tiering"},
    {"SecondaryTierFactory", "register_tier", "offload_tier", "kv_transfer_and_tiering"},
    {"CachePolicyFactory", "register_cache_policy", "offload_cache_policy", "kv_transfer_and_tiering"},
};
// Factories whose tables register nothing the surface list covers (X9 lists connectors, tiers, KV-cache
// managers, speculative methods, policies, metrics and event types), each with why.
struct IgnoredFactory {
  const char* factory;
  const char* why;
};
constexpr IgnoredFactory kIgnored[] = {
    {"SleepModeBackendFactory", "sleep mode frees GPU memory between runs; no serving decision"},
    {"WeightTransferEngineFactory", "weight updates from an RL trainer; no serving decision"},
    {"WeightTransferTrainerFactory", "weight updates from an RL trainer; no serving decision"},
};

// The shared frameworks (§7.6, FID-5): the base class each table's entries implement.
struct Framework {
  const char* category;
  const char* cls;
  const char* file;
  const char* part;
};
constexpr Framework kFrameworks[] = {
    {"kv_connector", "KVConnectorBase_V1", "vllm/distributed/kv_transfer/kv_connector/v1/base.py",
     "kv_transfer_and_tiering"},
    {"ec_connector", "ECConnectorBase", "vllm/distributed/ec_transfer/ec_connector/base.py",
     "kv_transfer_and_tiering"},
    {"offload_spec", "OffloadingSpec", "vllm/v1/kv_offload/base.py", "kv_transfer_and_tiering"},
    {"offload_tier", "SecondaryTierManager", "vllm/v1/kv_offload/tiering/base.py", "kv_transfer_and_tiering"},
    {"offload_cache_policy", "CachePolicy", "vllm/v1/kv_offload/cpu/policies/base.py", "kv_transfer_and_tiering"},
    {"kv_cache_manager", "SingleTypeKVCacheManager", "vllm/v1/core/single_type_kv_cache_manager.py",
     "kv_cache_management"},
};

constexpr const char* kSpecFile = "vllm/v1/kv_cache_interface.py";
constexpr const char* kManagerFile = "vllm/v1/core/single_type_kv_cache_manager.py";
constexpr const char* kSpeculativeFile = "vllm/config/speculative.py";
constexpr const char* kSchedulerConfigFile = "vllm/config/scheduler.py";
constexpr const char* kRequestQueueFile = "vllm/v1/core/sched/request_queue.py";
constexpr const char* kEventsFile = "vllm/distributed/kv_events.py";

std::string read_text(const fs::path& p, bool& ok) {
  std::ifstream in(p, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The last dotted name of a base-class or callee expression: `enum.Enum` -> Enum, `Foo[int]` -> Foo.
std::string last_name(std::string_view text) {
  size_t end = text.find_first_of("([");
  std::string_view head = text.substr(0, end);
  while (!head.empty() && std::isspace(static_cast<unsigned char>(head.back()))) head.remove_suffix(1);
  size_t dot = head.rfind('.');
  return std::string(dot == std::string_view::npos ? head : head.substr(dot + 1));
}

// Splits the text inside one bracket pair at its top-level commas (quotes and nested brackets kept).
std::vector<std::string> split_top(std::string_view inner) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < inner.size(); ++i) {
    char c = inner[i];
    if (quote) {
      cur += c;
      if (c == '\\' && i + 1 < inner.size()) cur += inner[++i];
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '[' || c == '(' || c == '{') ++depth;
    if (c == ']' || c == ')' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  for (auto& s : out) {
    size_t a = s.find_first_not_of(" \t\r\n");
    size_t b = s.find_last_not_of(" \t\r\n");
    s = a == std::string::npos ? "" : s.substr(a, b - a + 1);
  }
  std::erase(out, std::string());
  return out;
}

class Reader {
 public:
  explicit Reader(fs::path checkout) : root_(std::move(checkout)) {}

  // The parsed module at a checkout-relative path; nullptr (and an error) when it is missing.
  const Module* module(const std::string& rel, std::vector<std::string>& errors) {
    auto it = cache_.find(rel);
    if (it != cache_.end()) return &it->second;
    bool ok = false;
    std::string text = read_text(root_ / rel, ok);
    if (!ok) {
      errors.push_back(rel + ": missing from the checkout");
      return nullptr;
    }
    return &cache_.emplace(rel, pyread::parse(text)).first->second;
  }

  // Every .py file under vllm/, sorted, with its text.
  const std::vector<std::pair<std::string, std::string>>& sources() {
    if (sources_.empty()) {
      std::vector<std::string> rels;
      for (const auto& e : fs::recursive_directory_iterator(root_ / "vllm"))
        if (e.is_regular_file() && e.path().extension() == ".py")
          rels.push_back(fs::relative(e.path(), root_).generic_string());
      std::sort(rels.begin(), rels.end());
      for (const auto& r : rels) {
        bool ok = false;
        sources_.emplace_back(r, read_text(root_ / r, ok));
      }
    }
    return sources_;
  }

 private:
  fs::path root_;
  std::map<std::string, Module> cache_;
  std::vector<std::pair<std::string, std::string>> sources_;
};

// The string value of a call argument: a literal, or a name the same module binds to a literal.
std::optional<std::string> string_arg(const pyread::Value& v, const Module& m) {
  if (v.str) return v.str;
  for (const auto& a : m.assignments)
    if (a.target == v.text && a.scope == pyread::Assignment::Scope::kModule && a.value && a.value->str)
      return a.value->str;
  return std::nullopt;
}

// Registration-table calls (`<Factory>.register_*(name, module, class)`).
void scan_factories(Reader& r, Scan& out) {
  static const std::regex kCallee(R"(([A-Z]\w*Factory)\.(register\w*))");
  struct Reg {
    std::string name, module, cls, path;
    unsigned line;
  };
  std::map<std::string, std::vector<Reg>> by_category;
  for (const auto& [rel, text] : r.sources()) {
    if (text.find("Factory.register") == std::string::npos) continue;
    const Module* m = r.module(rel, out.errors);
    for (const auto& c : m->calls) {
      std::smatch mm;
      if (!std::regex_match(c.callee, mm, kCallee)) continue;
      const std::string factory = mm[1], method = mm[2];
      const FactoryTable* t = nullptr;
      for (const auto& f : kFactories)
        if (factory == f.factory && method == f.method) t = &f;
      bool ignored = std::any_of(std::begin(kIgnored), std::end(kIgnored),
                                 [&](const IgnoredFactory& i) { return factory == i.factory; });
      if (ignored) continue;
      if (!t) {
        out.errors.push_back(rel + ":" + std::to_string(c.pos.line) + ": " + c.callee +
                             " registers into a table the generator does not know; add it to kFactories "
                             "(or kIgnored, with why) in engines/vllm/surface/scan.cpp");
        continue;
      }
      auto pos = c.positional();
      auto arg = [&](size_t i, const char* kw) -> std::optional<std::string> {
        if (const auto* k = c.keyword(kw)) return string_arg(k->value, *m);
        if (i < pos.size()) return string_arg(pos[i]->value, *m);
        return std::nullopt;
      };
      auto name = arg(0, "name"), module = arg(1, "module_path"), cls = arg(2, "class_name");
      if (!name || !module || !cls) {
        out.errors.push_back(rel + ":" + std::to_string(c.pos.line) + ": " + c.callee +
                             " call whose name, module or class is not a string the generator can read");
        continue;
      }
      by_category[t->category].push_back({*name, *module, *cls, rel, c.pos.line});
    }
  }
  for (const auto& t : kFactories) {
    const auto& regs = by_category[t.category];
    if (regs.empty()) out.errors.push_back(std::string("no ") + t.factory + "." + t.method + " call found");
    // Names registered to one (module, class) share code (VLM-6): the name equal to the class (else the
    // first registered) is the entry; the others map to it.
    std::map<std::pair<std::string, std::string>, std::string> canonical;
    for (const auto& g : regs) {
      auto key = std::make_pair(g.module, g.cls);
      auto it = canonical.find(key);
      if (it == canonical.end() || g.name == g.cls) canonical[key] = g.name;
    }
    for (const auto& g : regs) {
      Item it{t.category, g.name, {}, "", g.path, g.line, t.part, {}, false};
      const std::string& canon = canonical[{g.module, g.cls}];
      if (canon != g.name) it.maps_to = canon;
      for (const auto& o : regs)
        if (o.name != g.name && canon == g.name && o.module == g.module && o.cls == g.cls)
          it.aliases.push_back(o.name);
      out.items.push_back(std::move(it));
    }
  }
  for (const auto& f : kFrameworks) {
    const Module* m = r.module(f.file, out.errors);
    const pyread::Class* c = m ? m->find_class(f.cls) : nullptr;
    if (!c) {
      out.errors.push_back(std::string(f.file) + ": no class " + f.cls + " (the " + f.category + " framework)");
      continue;
    }
    out.items.push_back({f.category, f.cls, {}, "", f.file, c->pos.line, f.part, {}, true});
  }
}

// Classes of `m` that derive, directly or through others of `m`, from `base`.
std::vector<const pyread::Class*> subclasses(const Module& m, const std::string& base) {
  std::map<std::string, const pyread::Class*> by_name;
  for (const auto& c : m.classes) by_name[c.name] = &c;
  std::function<bool(const pyread::Class&, int)> derives = [&](const pyread::Class& c, int depth) {
    if (depth > 32) return false;
    for (const auto& b : c.bases) {
      std::string n = last_name(b);
      if (n == base) return true;
      auto it = by_name.find(n);
      if (it != by_name.end() && it->second != &c && derives(*it->second, depth + 1)) return true;
    }
    return false;
  };
  std::vector<const pyread::Class*> out;
  for (const auto& c : m.classes)
    if (derives(c, 0)) out.push_back(&c);
  return out;
}

// KV-cache spec types and their managers, as KVCacheSpecRegistry holds them after
// register_all_kvcache_specs runs (and any @register_kv_cache_spec class).
void scan_kv_cache_specs(Reader& r, Scan& out) {
  const Module* specs = r.module(kSpecFile, out.errors);
  const Module* mgrs = r.module(kManagerFile, out.errors);
  if (!specs || !mgrs) return;
  std::map<std::string, std::pair<std::string, unsigned>> manager_of;  // spec -> (manager, line)
  const pyread::Function* reg_all = mgrs->find_function("register_all_kvcache_specs");
  if (!reg_all) out.errors.push_back(std::string(kManagerFile) + ": no register_all_kvcache_specs");
  for (const auto& c : mgrs->calls) {
    if (c.callee != "KVCacheSpecRegistry.register") continue;
    auto pos = c.positional();
    const pyread::Argument* mgr = c.keyword("manager_class");
    if (pos.empty() || (!mgr && pos.size() < 2)) {
      out.errors.push_back(std::string(kManagerFile) + ":" + std::to_string(c.pos.line) +
                           ": KVCacheSpecRegistry.register without a spec and a manager");
      continue;
    }
    manager_of[pos[0]->value.text] = {mgr ? mgr->value.text : pos[1]->value.text, c.pos.line};
  }
  std::map<std::string, std::string> base_of;
  for (const auto& c : specs->classes)
    if (!c.bases.empty()) base_of[c.name] = last_name(c.bases.front());
  for (const auto& [rel, text] : r.sources()) {  // out-of-tree style registrations inside the release
    if (text.find("@register_kv_cache_spec") == std::string::npos) continue;
    const Module* m = r.module(rel, out.errors);
    for (const auto& c : m->classes)
      for (const auto& d : c.decorators) {
        if (!d.starts_with("register_kv_cache_spec")) continue;
        static const std::regex kMgr(R"(manager_class\s*=\s*([A-Za-z_]\w*))");
        std::smatch mm;
        if (std::regex_search(d, mm, kMgr)) manager_of[c.name] = {mm[1], c.pos.line};
        else out.errors.push_back(rel + ":" + std::to_string(c.pos.line) + ": @register_kv_cache_spec without manager_class");
      }
  }
  if (manager_of.empty()) out.errors.push_back("no KVCacheSpecRegistry registration found");
  auto spec_classes = subclasses(*specs, "KVCacheSpec");
  std::set<std::string> spec_names;
  for (const auto* c : spec_classes) spec_names.insert(c->name);
  // The manager a spec type gets: its own registration, else the first registered class up its bases
  // (KVCacheSpecRegistry.get_manager_class walks the MRO).
  auto manager = [&](std::string n) -> std::string {
    for (int i = 0; i < 32 && !n.empty(); ++i) {
      auto it = manager_of.find(n);
      if (it != manager_of.end()) return it->second.first;
      auto b = base_of.find(n);
      n = b == base_of.end() ? "" : b->second;
    }
    return "";
  };
  // A base with registered descendants is the framework's own (AttentionSpec): it is listed through
  // them. Every registered spec, and every spec type no registered type derives from, is an item.
  auto has_registered_descendant = [&](const std::string& n) {
    for (const auto& [spec, _] : manager_of)
      for (std::string s = spec; !s.empty();) {
        auto b = base_of.find(s);
        s = b == base_of.end() ? "" : b->second;
        if (s == n) return true;
      }
    return false;
  };
  for (const auto* c : spec_classes) {
    bool registered = manager_of.contains(c->name);
    if (!registered && has_registered_descendant(c->name)) continue;
    Item it{"kv_cache_spec", c->name, {}, manager(c->name), kSpecFile, c->pos.line, "kv_cache_management", {}, false};
    if (registered && reg_all) {
      it.path = kManagerFile;  // where KVCacheSpecRegistry learns it
      it.line = manager_of[c->name].second;
    }
    out.items.push_back(std::move(it));
  }
  for (const auto& [spec, m] : manager_of)
    if (!spec_names.contains(spec) && !std::any_of(out.items.begin(), out.items.end(), [&](const Item& i) {
          return i.category == "kv_cache_spec" && i.name == spec;
        }))
      out.errors.push_back("registered spec " + spec + " is not a KVCacheSpec subclass of " + kSpecFile);
  for (const auto* c : subclasses(*mgrs, "SingleTypeKVCacheManager"))
    out.items.push_back({"kv_cache_manager", c->name, {}, "", kManagerFile, c->pos.line, "kv_cache_management", {}, false});
  std::set<std::string> manager_names;
  for (const auto& i : out.items)
    if (i.category == "kv_cache_manager") manager_names.insert(i.name);
  for (const auto& [spec, m] : manager_of)
    if (!manager_names.contains(m.first))
      out.errors.push_back("spec " + spec + " is registered to " + m.first + ", which is no SingleTypeKVCacheManager");
}

// The members of a `Name = Literal[...]` alias of module `m`, nested aliases expanded, each with the
// line its string sits on.
struct Member {
  std::string value;
  unsigned line;
  std::string alias;  // the alias that holds it directly
};
bool literal_members(const Module& m, const std::string& alias, std::vector<Member>& out, int depth = 0) {
  if (depth > 8) return false;
  for (const auto& a : m.assignments) {
    if (a.target != alias || a.scope != pyread::Assignment::Scope::kModule || !a.value) continue;
    std::string_view t = a.value->text;
    size_t open = t.find('['), close = t.rfind(']');
    if (!t.starts_with("Literal[") || close == std::string_view::npos) return false;
    size_t base = a.value->pos.offset + open + 1;
    std::string_view inner = t.substr(open + 1, close - open - 1);
    for (const auto& e : split_top(inner)) {
      if (auto s = pyread::decode_string(e)) {
        size_t at = inner.find(e);
        out.push_back({*s, m.pos_at(base + (at == std::string_view::npos ? 0 : at)).line, alias});
      } else if (!literal_members(m, e, out, depth + 1)) {
        return false;
      }
    }
    return true;
  }
  return false;
}

void scan_literal_table(Reader& r, Scan& out, const char* file, const char* alias, const char* category,
                        const char* part, std::vector<std::string> touches, std::vector<Member>* members_out) {
  const Module* m = r.module(file, out.errors);
  if (!m) return;
  std::vector<Member> members;
  if (!literal_members(*m, alias, members) || members.empty()) {
    out.errors.push_back(std::string(file) + ": " + alias + " is not a Literal[...] the generator can read");
    return;
  }
  for (const auto& mem : members)
    out.items.push_back({category, mem.value, {}, "", file, mem.line, part, touches, false});
  if (members_out) *members_out = members;
}

// A speculative method the release renames on sight: `if self.method in get_args(Alias) ...` followed
// within a few lines by `self.method = "<member>"` maps every other member of Alias to that member.
void speculative_aliases(Reader& r, Scan& out, const std::vector<Member>& members) {
  const Module* m = r.module(kSpeculativeFile, out.errors);
  if (!m) return;
  for (const auto& c : m->calls) {
    if (c.callee != "get_args" || c.args.size() != 1) continue;
    const std::string alias = c.args[0].value.text;
    for (const auto& a : m->assignments) {
      if (a.target != "self.method" || !a.value || !a.value->str) continue;
      if (a.pos.line <= c.pos.line || a.pos.line > c.pos.line + 4) continue;
      const std::string target = *a.value->str;
      bool in_alias = std::any_of(members.begin(), members.end(),
                                  [&](const Member& x) { return x.alias == alias && x.value == target; });
      if (!in_alias) continue;
      for (auto& it : out.items)
        if (it.category == "speculative_method" && it.name != target &&
            std::any_of(members.begin(), members.end(),
                        [&](const Member& x) { return x.alias == alias && x.value == it.name; }))
          it.maps_to = target;
    }
  }
}

// Scheduler policies: the config's Literal, checked against the SchedulingPolicy enum the queues use.
void scan_policies(Reader& r, Scan& out) {
  scan_literal_table(r, out, kSchedulerConfigFile, "SchedulerPolicy", "scheduler_policy", "scheduling", {}, nullptr);
  const Module* q = r.module(kRequestQueueFile, out.errors);
  const pyread::Class* e = q ? q->find_class("SchedulingPolicy") : nullptr;
  if (!e) {
    out.errors.push_back(std::string(kRequestQueueFile) + ": no SchedulingPolicy enum");
    return;
  }
  std::set<std::string> enum_values, config_values;
  for (const auto& a : q->assignments)
    if (a.scope == pyread::Assignment::Scope::kClass && a.owner == "SchedulingPolicy" && a.value && a.value->str)
      enum_values.insert(*a.value->str);
  for (const auto& it : out.items)
    if (it.category == "scheduler_policy") config_values.insert(it.name);
  if (enum_values != config_values)
    out.errors.push_back("SchedulerPolicy's values and the SchedulingPolicy enum's differ");
}

void scan_kv_events(Reader& r, Scan& out) {
  const Module* m = r.module(kEventsFile, out.errors);
  if (!m) return;
  auto events = subclasses(*m, "KVCacheEvent");
  if (events.empty()) out.errors.push_back(std::string(kEventsFile) + ": no KVCacheEvent subclass");
  for (const auto* c : events)
    out.items.push_back({"kv_event", c->name, {}, "", kEventsFile, c->pos.line, "kv_cache_management", {}, false});
}

// Metric families: the name of every Prometheus metric constructor in the release (prometheus_client's
// Gauge, Counter, Histogram, Summary, Info and Enum, and the `_gauge_cls`-style class attributes the
// loggers construct through), plus every "vllm:<name>" string, which is how the release names the
// families it builds from tables.
void scan_metrics(Reader& r, Scan& out) {
  static const std::set<std::string> kProm = {"Gauge", "Counter", "Histogram", "Summary", "Info", "Enum"};
  static const std::set<std::string> kCls = {"_gauge_cls", "_counter_cls", "_histogram_cls"};
  static const std::regex kFamily(R"(vllm:[a-z][a-z0-9_]*)");
  std::map<std::string, std::pair<std::string, unsigned>> found;  // name -> first (path, line)
  auto add = [&](const std::string& name, const std::string& rel, unsigned line) {
    auto it = found.find(name);
    if (it == found.end()) found[name] = {rel, line};
  };
  for (const auto& [rel, text] : r.sources()) {
    bool prom = text.find("prometheus_client") != std::string::npos;
    bool cls = text.find("_cls(") != std::string::npos;
    bool named = text.find("vllm:") != std::string::npos;
    if (!prom && !cls && !named) continue;
    const Module* m = r.module(rel, out.errors);
    for (const auto& c : m->calls) {
      bool ctor = (prom && kProm.contains(c.name) && c.callee.find('.') == std::string::npos) ||
                  (prom && c.callee.starts_with("prometheus_client.") && kProm.contains(c.name)) ||
                  kCls.contains(c.name);
      if (!ctor) continue;
      const pyread::Argument* a = c.keyword("name");
      auto pos = c.positional();
      if (!a && !pos.empty()) a = pos[0];
      std::optional<std::string> n = a ? string_arg(a->value, *m) : std::nullopt;
      if (n) {
        add(*n, rel, c.pos.line);
      } else if (!(a && a->value.text.find("vllm:") != std::string::npos)) {
        // Not a literal: the name is built elsewhere. It counts only if a "vllm:" string names it, which
        // the literal scan below collects; a constructor naming neither is a gap in this generator.
        if (!named)
          out.errors.push_back(rel + ":" + std::to_string(c.pos.line) + ": a " + c.name +
                               " whose name the generator cannot read, in a file naming no vllm: family");
      }
    }
    if (!named) continue;
    // A prefix test (`line.startswith("vllm:spec_decode")`, in the benchmark client) names no family.
    std::set<size_t> prefix_tests;
    for (const auto& c : m->calls)
      if (c.name == "startswith" || c.name == "endswith" || c.name == "removeprefix")
        for (const auto& a : c.args) prefix_tests.insert(a.value.pos.offset);
    for (const auto& s : m->strings)
      if (s.text && !s.docstring && !prefix_tests.contains(s.pos.offset) && std::regex_match(*s.text, kFamily))
        add(*s.text, rel, s.pos.line);
  }
  for (const auto& [name, where] : found)
    out.items.push_back({"metric_family", name, {}, "", where.first, where.second, "", {}, false});
}

}  // namespace

Scan scan_upstream(const fs::path& checkout) {
  Scan out;
  if (!fs::is_directory(checkout / "vllm")) {
    out.errors.push_back(checkout.string() + " holds no vllm/ directory");
    return out;
  }
  Reader r(checkout);
  scan_factories(r, out);
  scan_kv_cache_specs(r, out);
  std::vector<Member> methods;
  scan_literal_table(r, out, kSpeculativeFile, "SpeculativeMethod", "speculative_method", "scheduling",
                     {"kv_cache_management", "resolution_and_lowering"}, &methods);
  speculative_aliases(r, out, methods);
  scan_policies(r, out);
  scan_kv_events(r, out);
  scan_metrics(r, out);
  // Aliases point both ways: an entry lists the names that map to it.
  for (auto& it : out.items) {
    if (it.maps_to.empty()) continue;
    for (auto& target : out.items)
      if (target.category == it.category && target.name == it.maps_to &&
          std::find(target.aliases.begin(), target.aliases.end(), it.name) == target.aliases.end() &&
          it.category != "kv_cache_spec")
        target.aliases.push_back(it.name);
  }
  std::sort(out.items.begin(), out.items.end(), [](const Item& a, const Item& b) {
    return std::tie(a.category, a.name) < std::tie(b.category, b.name);
  });
  for (size_t i = 1; i < out.items.size(); ++i)
    if (out.items[i].category == out.items[i - 1].category && out.items[i].name == out.items[i - 1].name)
      out.errors.push_back("registered twice: " + out.items[i].category + " " + out.items[i].name);
  for (auto& it : out.items) std::sort(it.aliases.begin(), it.aliases.end());
  return out;
}

std::vector<TestFunction> top_level_tests(const fs::path& file, std::string& error) {
  bool ok = false;
  std::string text = read_text(file, ok);
  if (!ok) {
    error = file.string() + ": missing";
    return {};
  }
  Module m = pyread::parse(text);
  if (!m.errors.empty()) {
    error = file.string() + ":" + std::to_string(m.errors.front().pos.line) + ": " + m.errors.front().what;
    return {};
  }
  std::vector<TestFunction> out;
  for (const auto& f : m.functions)
    if (f.owner.empty() && f.name.starts_with("test")) out.push_back({f.name, f.pos.line});
  return out;
}

}  // namespace blis::vllm::surface
