// Original to BLIS: the field-list generator's reader of the pinned vLLM tree (VLM-3); it ports no upstream code.
#include "upstream_fields.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "python/reader.h"
#include "python/python_literal.h"

namespace blis::vllm::fields {

namespace fs = std::filesystem;
using blis::pyread::python_literal;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string collapse(std::string_view t) {
  std::string out;
  bool space = false;
  for (char c : t) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space && c != ')' && c != ']' && out.back() != '(' && out.back() != '[') out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string dashed(std::string s) {
  std::replace(s.begin(), s.end(), '_', '-');
  return s;
}

bool is_env_name(std::string_view s) {
  if (s.size() < 2 || !(std::isupper(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

struct Source {
  std::string path;  // relative to the checkout, e.g. vllm/config/cache.py
  std::string text;
  pyread::Module mod;
};

struct ConfigClass {
  const Source* src = nullptr;
  const pyread::Class* cls = nullptr;
  const pyread::Assignment* field(std::string_view name) const {
    for (const auto& f : cls->fields)
      if (f.target == name) return &f;
    return nullptr;
  }
};

class Reader {
 public:
  Reader(fs::path root, std::string commit) : root_(std::move(root)), c8_(commit.substr(0, 8)) {}

  std::vector<UpstreamField> run() {
    for (const auto& e : fs::directory_iterator(root_ / "vllm" / "config"))
      if (e.path().extension() == ".py") load("vllm/config/" + e.path().filename().string());
    for (auto& [path, src] : sources_)
      for (const auto& c : src.mod.classes)
        if (is_config_class(c)) configs_[c.name] = {&src, &c};
    index_tree();
    const Source& args = load("vllm/engine/arg_utils.py");
    read_arguments(args);
    read_environment(load("vllm/envs.py"));
    std::vector<UpstreamField> out;
    for (auto& [key, f] : fields_) out.push_back(std::move(f));
    return out;
  }

 private:
  std::string cite(const std::string& path, unsigned line = 0) const {
    return path + "@" + c8_ + (line ? ":" + std::to_string(line) : "");
  }

  const Source& load(const std::string& rel) {
    auto it = sources_.find(rel);
    if (it != sources_.end()) return it->second;
    Source s;
    s.path = rel;
    s.text = read_text(root_ / rel);
    s.mod = pyread::parse(s.text);
    if (!s.mod.errors.empty())
      throw std::runtime_error(rel + ":" + std::to_string(s.mod.errors.front().pos.line) + ": " +
                               s.mod.errors.front().what + " (the reader refuses a file that does not parse)");
    return sources_.emplace(rel, std::move(s)).first->second;
  }

  static bool is_config_class(const pyread::Class& c) {
    return c.decorated_with("config") || c.decorated_with("dataclass");
  }

  // Every .py file under vllm/: attribute reads on a config or args object, upper-case names and strings
  // (variables), and the literal names getenv / environ.get read.
  void index_tree() {
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(root_ / "vllm"))
      if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& p : files) {
      const std::string rel = fs::relative(p, root_).generic_string();
      const std::string text = read_text(p);
      const pyread::Module m = pyread::parse(text);
      for (const auto& id : m.identifiers) {
        if (is_env_name(id.name)) upper_reads_[id.name].insert(rel);
        size_t o = id.pos.offset;
        if (o == 0 || text[o - 1] != '.') continue;
        size_t b = o - 1;
        while (b > 0 && (std::isalnum(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '_')) --b;
        std::string obj = text.substr(b, o - 1 - b);
        for (auto& c : obj) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (obj.ends_with("config") || obj.ends_with("args")) attr_reads_[id.name].insert(rel);
      }
      for (const auto& s : m.strings)
        if (!s.docstring && s.text && is_env_name(*s.text)) upper_reads_[*s.text].insert(rel);
      for (const auto& c : m.calls) {
        if (!(c.callee.ends_with("getenv") || c.callee.ends_with("environ.get"))) continue;
        auto pos = c.positional();
        if (pos.empty() || !pos[0]->value.str || !is_env_name(*pos[0]->value.str)) continue;
        EnvRead r;
        r.at = cite(rel, c.pos.line);
        if (pos.size() > 1) {
          r.default_text = pos[1]->value.literal() ? pos[1]->value.text : "";
          r.literal = pos[1]->value.literal();
        } else {
          r.default_text = "None";
          r.literal = true;
        }
        getenv_reads_[*pos[0]->value.str].push_back(r);
      }
    }
  }

  // A module- or class-level constant's literal value, by name.
  std::optional<doc::Node> constant(const Source& src, const pyread::Class* cls, const std::string& name) const {
    if (cls)
      for (const auto& f : cls->fields)
        if (f.target == name && f.value && f.value->literal()) return python_literal(f.value->text);
    for (const auto& a : src.mod.assignments)
      if (a.scope == pyread::Assignment::Scope::kModule && a.target == name && a.value && a.value->literal())
        return python_literal(a.value->text);
    return std::nullopt;
  }

  const pyread::Call* call_at(const Source& src, size_t offset) const {
    for (const auto& c : src.mod.calls)
      if (c.pos.offset == offset) return &c;
    return nullptr;
  }

  // Whether a config field is an init field a user can set.
  bool settable(const ConfigClass& cc, const pyread::Assignment& f) const {
    if (f.target.empty() || f.target[0] == '_' || f.annotation.starts_with("ClassVar") ||
        f.annotation.starts_with("InitVar"))
      return false;
    if (f.value && !f.value->literal()) {
      const pyread::Call* c = call_at(*cc.src, f.value->pos.offset);
      if (c && (c->name == "field" || c->name == "Field" || c->name == "PydanticField")) {
        const pyread::Argument* init = c->keyword("init");
        if (init && init->value.text == "False") return false;
      }
    }
    return true;
  }

  UpstreamDefault config_default(const ConfigClass& cc, const pyread::Assignment& f) const {
    UpstreamDefault d;
    const std::string at = cite(cc.src->path, f.pos.line);
    if (!f.value) return d;  // no default: null
    auto literal_or_constant = [&](const pyread::Value& v) -> std::optional<doc::Node> {
      if (v.literal()) return python_literal(v.text);
      static const std::regex name(R"([A-Za-z_][A-Za-z0-9_]*)");
      if (std::regex_match(v.text, name)) return constant(*cc.src, cc.cls, v.text);
      return std::nullopt;
    };
    std::optional<doc::Node> v;
    const pyread::Call* c = f.value->literal() ? nullptr : call_at(*cc.src, f.value->pos.offset);
    if (c && (c->name == "field" || c->name == "Field" || c->name == "PydanticField")) {
      if (const pyread::Argument* def = c->keyword("default")) v = literal_or_constant(def->value);
    } else {
      v = literal_or_constant(*f.value);
    }
    if (v) {
      d.value = *v;
    } else {
      d.computed = true;
      d.at = at;
    }
    return d;
  }

  // The config dataclass a type annotation holds directly (`X`, `X | None`, "X | None").
  const ConfigClass* dataclass_of(std::string annotation) const {
    annotation.erase(std::remove(annotation.begin(), annotation.end(), '"'), annotation.end());
    std::string part;
    std::stringstream ss(annotation);
    while (std::getline(ss, part, '|')) {
      std::string t = collapse(part);
      auto it = configs_.find(t);
      if (it != configs_.end()) return &it->second;
    }
    return nullptr;
  }

  void add(UpstreamField f) {
    const std::string key = f.kind + "\n" + f.name;
    if (fields_.count(key)) throw std::runtime_error("two fields named '" + f.name + "'");
    fields_.emplace(key, std::move(f));
  }

  // Cites a file that reads the field, unless it is already cited at a line.
  void add_file(UpstreamField& u, const std::string& path) const {
    for (const auto& r : u.read_at)
      if (r.starts_with(path + "@")) return;
    u.read_at.insert(cite(path));
  }

  void add_reads(UpstreamField& f, const std::string& attr) const {
    auto it = attr_reads_.find(attr);
    if (it != attr_reads_.end())
      for (const auto& p : it->second) add_file(f, p);
  }

  // The init fields of a config dataclass an argument holds, as `<parent>.<field>`, recursively.
  void expand(const std::string& parent, const ConfigClass& cc, std::set<std::string> seen) {
    if (!seen.insert(cc.cls->name).second) return;
    for (const auto& f : cc.cls->fields) {
      if (!settable(cc, f)) continue;
      UpstreamField u;
      u.name = parent + "." + f.target;
      u.kind = "argument";
      u.group = cc.cls->name;
      u.value_type = collapse(f.annotation);
      u.upstream_default = config_default(cc, f);
      u.py_name = f.target;
      u.read_at.insert(cite(cc.src->path, f.pos.line));
      add_reads(u, f.target);
      const ConfigClass* inner = dataclass_of(f.annotation);
      std::string child = u.name;
      add(std::move(u));
      if (inner) expand(child, *inner, seen);
    }
  }

  struct Flag {
    std::string flag;        // --max-num-seqs
    std::string cls;         // SchedulerConfig, or "" for a plain argparse argument
    std::string cfg_field;   // max_num_seqs
  };

  std::map<std::string, Flag> flags_of(const Source& args) const {
    // kwargs variables: `cache_kwargs = get_kwargs(CacheConfig)`; `moe_backend_kwargs = kernel_kwargs["moe_backend"]`.
    std::map<std::string, std::string> kw_class;
    std::map<std::string, std::pair<std::string, std::string>> kw_alias;
    static const std::regex get_kwargs(R"(get_kwargs\(\s*(\w+)\s*\))");
    static const std::regex subscript(R"((\w+)\[\s*["'](\w+)["']\s*\])");
    std::smatch m;
    for (const auto& a : args.mod.assignments) {
      if (!a.value) continue;
      if (std::regex_match(a.value->text, m, get_kwargs)) kw_class[a.target] = m[1];
      else if (std::regex_match(a.value->text, m, subscript)) kw_alias[a.target] = {m[1], m[2]};
    }
    std::map<std::string, Flag> out;
    for (const pyread::Call* c : args.mod.calls_named("add_argument")) {
      Flag f;
      for (const auto* p : c->positional())
        if (p->value.str && p->value.str->starts_with("--") && f.flag.empty()) f.flag = *p->value.str;
      if (f.flag.empty()) continue;
      std::string dest = f.flag.substr(2);
      std::replace(dest.begin(), dest.end(), '-', '_');
      if (const auto* d = c->keyword("dest"); d && d->value.str) dest = *d->value.str;
      if (const auto* s = c->keyword("**")) {
        // `**cache_kwargs["block_size"]`, `**{**scheduler_kwargs["max_num_seqs"], "default": None}`, or a
        // variable holding one (`**moe_backend_kwargs`).
        static const std::regex inner(R"((\w+)\[\s*["'](\w+)["']\s*\])");
        const std::string& t = s->value.text;
        for (std::sregex_iterator it(t.begin(), t.end(), inner), end; it != end && f.cls.empty(); ++it)
          if (auto k = kw_class.find((*it)[1]); k != kw_class.end()) {
            f.cls = k->second;
            f.cfg_field = (*it)[2];
          }
        if (auto al = kw_alias.find(t); f.cls.empty() && al != kw_alias.end())
          if (auto k = kw_class.find(al->second.first); k != kw_class.end()) {
            f.cls = k->second;
            f.cfg_field = al->second.second;
          }
      }
      out.emplace(dest, f);
    }
    return out;
  }

  void read_arguments(const Source& args) {
    const auto flags = flags_of(args);
    static const std::regex attr_default(R"(\(?\s*(\w+)\.(\w+)\s*\)?)");
    static const std::regex get_field(R"(get_field\(\s*(\w+)\s*,\s*["'](\w+)["']\s*\))");
    for (const char* holder : {"EngineArgs", "AsyncEngineArgs"}) {
      const pyread::Class* ea = args.mod.find_class(holder);
      if (!ea) throw std::runtime_error(args.path + ": no class " + holder);
      for (const auto& f : ea->fields) {
        if (f.annotation.starts_with("ClassVar")) continue;
        UpstreamField u;
        u.kind = "argument";
        u.py_name = f.target;
        u.value_type = collapse(f.annotation);
        u.read_at.insert(cite(args.path, f.pos.line));
        std::string cls, cfg;
        auto fl = flags.find(f.target);
        // No flag (set through the Python API only): the attribute's name with dashes, a leading _ kept.
        u.name = fl != flags.end() ? fl->second.flag.substr(2)
                                   : (f.target[0] == '_' ? "_" + dashed(f.target.substr(1)) : dashed(f.target));
        if (fl != flags.end() && !fl->second.cls.empty()) {
          cls = fl->second.cls;
          cfg = fl->second.cfg_field;
        }
        std::smatch m;
        const std::string dtext = f.value ? collapse(f.value->text) : "";
        if (cls.empty() && (std::regex_match(dtext, m, get_field) || std::regex_match(dtext, m, attr_default)) &&
            configs_.count(m[1])) {
          cls = m[1];
          cfg = m[2];
        }
        const ConfigClass* cc = nullptr;
        const pyread::Assignment* cf = nullptr;
        if (auto it = configs_.find(cls); it != configs_.end()) {
          cc = &it->second;
          cf = cc->field(cfg);
        }
        u.group = cc ? cls : holder;
        // The default: EngineArgs' own literal, unless it is None and the config class declares another
        // (then create_engine_config resolves it); a config attribute's default; else computed here.
        UpstreamDefault cfg_default;
        if (cf) cfg_default = config_default(*cc, *cf);
        std::optional<doc::Node> lit = f.value && f.value->literal() ? python_literal(f.value->text) : std::nullopt;
        if (lit && !(lit->is_null() && cf && (cfg_default.computed || !cfg_default.value.is_null()))) {
          u.upstream_default.value = *lit;
        } else if (cf && !lit && std::regex_match(dtext, m, attr_default) && m[2] == cfg) {
          u.upstream_default = cfg_default;
        } else if (f.value) {
          u.upstream_default.computed = true;
          u.upstream_default.at = cite(args.path, f.pos.line);
        }
        if (cf) u.read_at.insert(cite(cc->src->path, cf->pos.line));
        add_reads(u, f.target);
        if (!cfg.empty() && cfg != f.target) add_reads(u, cfg);
        const ConfigClass* inner = cf ? dataclass_of(cf->annotation) : nullptr;
        if (!inner) inner = dataclass_of(f.annotation);
        const std::string parent = u.name;
        add(std::move(u));
        if (inner) expand(parent, *inner, {});
      }
    }
  }

  void read_environment(const Source& envs) {
    std::map<std::string, const pyread::Assignment*> declared;
    for (const auto& a : envs.mod.assignments)
      if (a.scope == pyread::Assignment::Scope::kModule && !a.annotation.empty() && is_env_name(a.target))
        declared.emplace(a.target, &a);
    const pyread::Assignment* table = nullptr;
    for (const auto& a : envs.mod.assignments)
      if (a.scope == pyread::Assignment::Scope::kModule && a.target == "environment_variables" && a.value) table = &a;
    if (!table) throw std::runtime_error(envs.path + ": no environment_variables");
    const size_t lo = table->value->pos.offset, hi = lo + table->value->text.size();
    std::map<std::string, unsigned> keyed;
    for (const auto& e : envs.mod.dict_entries)
      if (e.key_is_string && e.key_pos.offset > lo && e.key_pos.offset < hi && is_env_name(e.key))
        keyed.emplace(e.key, e.key_pos.line);
    std::set<std::string> names;
    for (const auto& [n, a] : declared) names.insert(n);
    for (const auto& [n, l] : keyed) names.insert(n);
    for (const auto& n : names) {
      UpstreamField u;
      u.name = n;
      u.kind = "environment_variable";
      u.py_name = n;
      auto d = declared.find(n);
      auto k = keyed.find(n);
      u.value_type = d != declared.end() ? collapse(d->second->annotation) : "str";
      const unsigned line = k != keyed.end() ? k->second : d->second->pos.line;
      u.read_at.insert(cite(envs.path, line));
      std::optional<doc::Node> lit;
      if (d != declared.end() && d->second->value && d->second->value->literal()) lit = python_literal(d->second->value->text);
      if (lit) {
        u.upstream_default.value = *lit;
      } else {
        u.upstream_default.computed = true;
        u.upstream_default.at = cite(envs.path, line);
      }
      add_env_reads(u);
      add(std::move(u));
    }
    // Variables read outside envs.py by a literal getenv / environ.get.
    for (const auto& [n, reads] : getenv_reads_) {
      if (names.count(n)) continue;
      UpstreamField u;
      u.name = n;
      u.kind = "environment_variable";
      u.py_name = n;
      u.value_type = "str";
      std::set<std::string> defaults;
      for (const auto& r : reads) {
        u.read_at.insert(r.at);
        defaults.insert(r.literal ? r.default_text : "\n");
      }
      std::optional<doc::Node> lit;
      if (defaults.size() == 1 && *defaults.begin() != "\n") lit = python_literal(*defaults.begin());
      if (lit) {
        u.upstream_default.value = *lit;
      } else {
        u.upstream_default.computed = true;
        u.upstream_default.at = *u.read_at.begin();
      }
      add_env_reads(u);
      add(std::move(u));
    }
  }

  void add_env_reads(UpstreamField& u) {
    auto it = upper_reads_.find(u.name);
    if (it == upper_reads_.end()) return;
    for (const auto& p : it->second) add_file(u, p);
  }

  struct EnvRead {
    std::string at;
    std::string default_text;
    bool literal = false;
  };

  fs::path root_;
  std::string c8_;
  std::map<std::string, Source> sources_;
  std::map<std::string, ConfigClass> configs_;
  std::map<std::string, std::set<std::string>> attr_reads_;
  std::map<std::string, std::set<std::string>> upper_reads_;
  std::map<std::string, std::vector<EnvRead>> getenv_reads_;
  std::map<std::string, UpstreamField> fields_;  // by kind, then name
};

}  // namespace

std::vector<UpstreamField> read_upstream(const fs::path& checkout, const std::string& commit) {
  if (commit.size() != 40) throw std::runtime_error("the pin must be a 40-digit commit, got '" + commit + "'");
  if (!fs::is_directory(checkout / "vllm")) throw std::runtime_error(checkout.string() + " holds no vllm/ directory");
  return Reader(checkout, commit).run();
}

}  // namespace blis::vllm::fields
