// Original to BLIS: the field-list generator's reader of the pinned SGLang tree (SGL-3); it ports no upstream code.
#include "upstream_fields.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "python/reader.h"
#include "python/python_literal.h"

namespace blis::sglang::fields {

namespace fs = std::filesystem;
using blis::pyread::python_literal;

namespace {

constexpr const char* kServerArgs = "python/sglang/srt/server_args.py";
constexpr const char* kEnviron = "python/sglang/srt/environ.py";
constexpr const char* kTree = "python/sglang/srt";

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
    if (space && c != ')' && c != ']' && c != ',' && out.back() != '(' && out.back() != '[') out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > 1 && out[out.size() - 1] == ']' && out[out.size() - 2] == ',') out.erase(out.size() - 2, 1);
  return out;
}

std::string dashed(std::string s) {
  std::replace(s.begin(), s.end(), '_', '-');
  return s;
}

std::string undashed(std::string s) {
  while (!s.empty() && s[0] == '-') s.erase(0, 1);
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

bool is_env_name(std::string_view s) {
  if (s.size() < 2 || !(std::isupper(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

// The top-level comma-separated elements of a bracketed text `X[a, b(c, d), "e,f"]`, after its opener.
std::vector<std::string> split_elements(std::string_view t) {
  std::vector<std::string> out;
  size_t open = t.find('[');
  if (open == std::string_view::npos || t.empty() || t.back() != ']') return out;
  int depth = 0;
  std::string cur;
  char quote = 0;
  for (size_t i = open + 1; i + 1 < t.size(); ++i) {
    char c = t[i];
    if (quote) {
      cur += c;
      if (c == '\\' && i + 2 < t.size()) cur += t[++i];
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '#') {  // a comment inside the brackets
      while (i + 1 < t.size() && t[i] != '\n') ++i;
      continue;
    } else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (collapse(cur) != "") out.push_back(cur);
  for (auto& e : out) {
    size_t b = e.find_first_not_of(" \t\r\n"), x = e.find_last_not_of(" \t\r\n");
    e = b == std::string::npos ? "" : e.substr(b, x - b + 1);
  }
  return out;
}

// A string literal's text (adjacent pieces concatenated, parentheses allowed), or nullopt (an f-string, a call).
std::optional<std::string> string_text(std::string_view text) {
  auto v = python_literal(text);
  if (!v || !v->is_scalar() || v->style != doc::Style::Quoted) return std::nullopt;
  return v->scalar;
}

struct Source {
  std::string path;
  std::string text;
  pyread::Module mod;
};

class Reader {
 public:
  Reader(fs::path root, std::string commit) : root_(std::move(root)), c8_(commit.substr(0, 8)) {}

  std::vector<UpstreamField> run() {
    index_tree();
    read_arguments(load(kServerArgs));
    read_environment(load(kEnviron));
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

  // Every .py file under python/sglang/srt/: attribute reads on a server-args object (`server_args.x`,
  // `self.server_args.x`, `get_global_server_args().x`), `envs.X` and upper-case names and strings
  // (variables), and the literal names getenv / environ.get read.
  void index_tree() {
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(root_ / kTree))
      if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& p : files) {
      const std::string rel = fs::relative(p, root_).generic_string();
      const std::string text = read_text(p);
      const pyread::Module m = pyread::parse(text);
      for (const auto& id : m.identifiers) {
        if (is_env_name(id.name)) upper_reads_[id.name].insert(rel);
        size_t o = id.pos.offset;
        if (o < 2 || text[o - 1] != '.') continue;
        // The dotted chain before `.x`: names, dots and empty calls (`self.server_args`,
        // `get_global_server_args()`, `get_exec().graph`: RuntimeContext's per-NS views of ServerArgs).
        size_t b = o - 1;
        while (b > 0) {
          const char c = text[b - 1];
          if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') --b;
          else if (c == ')' && b >= 2 && text[b - 2] == '(') b -= 2;
          else break;
        }
        std::string chain = text.substr(b, o - 1 - b);
        for (auto& c : chain) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        static const std::regex reader(R"((^|\.)([a-z_]*args|get_[a-z_]+\(\))($|\.))");
        if (std::regex_search(chain, reader)) attr_reads_[id.name].insert(rel);
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

  // A module-level constant's literal value, by name.
  std::optional<doc::Node> constant(const Source& src, const std::string& name) const {
    for (const auto& a : src.mod.assignments)
      if (a.scope == pyread::Assignment::Scope::kModule && a.target == name && a.value)
        if (auto v = python_literal(a.value->text)) return v;
    return std::nullopt;
  }

  // The calls whose start lies in [lo, hi) of a source.
  static std::vector<const pyread::Call*> calls_in(const Source& src, size_t lo, size_t hi, std::string_view name) {
    std::vector<const pyread::Call*> out;
    for (const auto& c : src.mod.calls)
      if (c.pos.offset >= lo && c.pos.offset < hi && c.name == name) out.push_back(&c);
    return out;
  }

  // A default as written: a literal, a module constant, dataclasses.field(default=... | default_factory=
  // list/dict/set/tuple), else computed at the declaration.
  UpstreamDefault default_of(const Source& src, const std::optional<pyread::Value>& value, unsigned line) const {
    UpstreamDefault d;
    if (!value) return d;  // no default: null
    const std::string text = collapse(value->text);
    static const std::regex name(R"([A-Za-z_][A-Za-z0-9_]*)");
    static const std::regex field(R"((?:dataclasses\.)?field\(\s*(default|default_factory)\s*=\s*(.*)\))");
    static const std::map<std::string, std::string> empties = {
        {"list", "[]"}, {"dict", "{}"}, {"set", "[]"}, {"tuple", "()"},
        {"list()", "[]"}, {"dict()", "{}"}, {"set()", "[]"}, {"tuple()", "()"}};
    std::optional<doc::Node> v = python_literal(text);
    std::smatch m;
    if (!v && std::regex_match(text, m, name)) v = constant(src, text);
    if (!v && empties.count(text) && text.ends_with("()")) v = python_literal(empties.at(text));
    if (!v && std::regex_match(text, m, field)) {
      const std::string arg = collapse(m[2].str());
      if (m[1] == "default") {
        v = python_literal(arg);
        if (!v && std::regex_match(arg, name)) v = constant(src, arg);
      } else if (auto e = empties.find(arg); e != empties.end()) {
        v = python_literal(e->second);
      }
    }
    if (v) {
      d.value = *v;
    } else {
      d.computed = true;
      d.at = cite(src.path, line);
    }
    return d;
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

  void add_reads(UpstreamField& f, const std::map<std::string, std::set<std::string>>& index, const std::string& key) const {
    auto it = index.find(key);
    if (it != index.end())
      for (const auto& p : it->second) add_file(f, p);
  }

  struct Declared {
    UpstreamField field;
    bool has_primary = false;
  };

  void read_arguments(const Source& src) {
    const pyread::Class* sa = src.mod.find_class("ServerArgs");
    if (!sa) throw std::runtime_error(std::string(kServerArgs) + ": no class ServerArgs");
    std::map<std::string, Declared> by_attr;
    std::vector<std::string> order;
    for (const auto& f : sa->fields) {
      if (f.annotation.starts_with("ClassVar") || f.annotation.starts_with("InitVar") || f.target.empty()) continue;
      const size_t a_lo = src.text.find(f.annotation, f.pos.offset);
      if (a_lo == std::string::npos) throw std::runtime_error(cite(src.path, f.pos.line) + ": cannot place the annotation");
      const size_t a_hi = a_lo + f.annotation.size();
      Declared d;
      UpstreamField& u = d.field;
      u.kind = "argument";
      u.py_name = f.target;
      u.group = "ServerArgs";
      u.declared_at = cite(src.path, f.pos.line);
      u.read_at.insert(u.declared_at);
      const bool annotated = f.annotation.starts_with("A[") || f.annotation.starts_with("Annotated[") ||
                             f.annotation.starts_with("typing.Annotated[");
      std::vector<std::string> el = annotated ? split_elements(f.annotation) : std::vector<std::string>{f.annotation};
      if (el.empty()) throw std::runtime_error(cite(src.path, f.pos.line) + ": cannot read the annotation");
      u.value_type = collapse(el[0]);
      bool has_meta = false, no_cli = false;
      std::string cli_name;
      std::vector<std::string> aliases;
      for (size_t i = 1; i < el.size(); ++i)
        if (auto s = string_text(el[i])) {
          has_meta = true;
          if (u.help.empty()) u.help = *s;
        }
      for (const pyread::Call* c : calls_in(src, a_lo, a_hi, "NS")) {
        auto pos = c->positional();
        if (!pos.empty() && pos[0]->value.str) u.group = *pos[0]->value.str;
      }
      for (const pyread::Call* c : calls_in(src, a_lo, a_hi, "Arg")) {
        if (c->callee != "Arg") continue;
        has_meta = true;
        if (const auto* h = c->keyword("help"))
          if (auto s = string_text(h->value.text)) u.help = *s;
        if (const auto* n = c->keyword("cli_name"); n && n->value.str) cli_name = *n->value.str;
        if (const auto* n = c->keyword("no_cli"); n && n->value.text == "True") no_cli = true;
        if (const auto* al = c->keyword("aliases"))
          if (auto v = python_literal(al->value.text); v && v->is_sequence())
            for (const auto& it : v->items) aliases.push_back(it.scalar);
      }
      // add_cli_args_from_dataclass skips a field without Arg or help metadata, and one marked no_cli.
      if (has_meta && !no_cli) {
        u.flags.push_back(cli_name.empty() ? "--" + dashed(f.target) : cli_name);
        for (const auto& a : aliases) u.flags.push_back(a);
        d.has_primary = true;
      }
      u.upstream_default = default_of(src, f.value, f.pos.line);
      if (!by_attr.emplace(f.target, std::move(d)).second)
        throw std::runtime_error(cite(src.path, f.pos.line) + ": ServerArgs declares '" + f.target + "' twice");
      order.push_back(f.target);
    }
    if (by_attr.empty()) throw std::runtime_error(std::string(kServerArgs) + ": ServerArgs declares no field");

    // ServerArgs.add_cli_args: its hand-written add_argument calls, up to the next method of the file.
    const pyread::Function* aca = nullptr;
    const pyread::Function* next = nullptr;
    for (const auto& fn : src.mod.functions)
      if (fn.owner == "ServerArgs" && fn.name == "add_cli_args") aca = &fn;
    if (!aca) throw std::runtime_error(std::string(kServerArgs) + ": no ServerArgs.add_cli_args");
    for (const auto& fn : src.mod.functions)
      if (fn.pos.offset > aca->pos.offset && (!next || fn.pos.offset < next->pos.offset)) next = &fn;
    const size_t hi = next ? next->pos.offset : src.text.size();
    bool saw_dataclass_call = false;
    for (const pyread::Call* c : calls_in(src, aca->pos.offset, hi, "add_cli_args_from_dataclass")) {
      auto pos = c->positional();
      if (pos.size() >= 2 && pos[1]->value.text == "ServerArgs") saw_dataclass_call = true;
    }
    if (!saw_dataclass_call)
      throw std::runtime_error(cite(src.path, aca->pos.line) +
                               ": add_cli_args no longer calls add_cli_args_from_dataclass(parser, ServerArgs); the "
                               "reader's model of how flags are declared is out of date");
    for (const pyread::Call* c : calls_in(src, aca->pos.offset, hi, "add_argument")) {
      std::vector<std::string> flags;
      for (const auto* p : c->positional())
        if (p->value.str && p->value.str->starts_with("-")) flags.push_back(*p->value.str);
      if (flags.empty()) continue;
      std::string longest = flags.front();
      for (const auto& fl : flags)
        if (fl.starts_with("--")) {
          longest = fl;
          break;
        }
      std::string dest = undashed(longest);
      if (const auto* d = c->keyword("dest"); d && d->value.str) dest = *d->value.str;
      std::string help;
      if (const auto* h = c->keyword("help"))
        if (auto s = string_text(h->value.text)) help = *s;
      auto it = by_attr.find(dest);
      if (it != by_attr.end()) {
        Declared& d = it->second;
        // A flag named after the field (`--reasoning-parser` for reasoning_parser) is its primary one.
        const bool own = undashed(flags.front()) == dest;
        if (!d.has_primary && own) {
          d.field.flags.insert(d.field.flags.begin(), flags.begin(), flags.end());
          d.has_primary = true;
          if (d.field.help.empty()) d.field.help = help;
        } else {
          d.field.flags.insert(d.field.flags.end(), flags.begin(), flags.end());
        }
        d.field.read_at.insert(cite(src.path, c->pos.line));
        continue;
      }
      // A flag that sets no field: --config, or a removed flag upstream refuses itself.
      UpstreamField u;
      u.kind = "argument";
      u.group = "add_cli_args";
      u.py_name = dest;
      u.flags = flags;
      u.name = longest.substr(longest.find_first_not_of('-'));
      u.help = help;
      u.declared_at = cite(src.path, c->pos.line);
      u.read_at.insert(u.declared_at);
      if (const auto* t = c->keyword("type")) u.value_type = collapse(t->value.text);
      else if (const auto* a = c->keyword("action")) u.value_type = "action=" + collapse(a->value.text);
      else u.value_type = "str";
      std::optional<pyread::Value> dv;
      if (const auto* d = c->keyword("default")) dv = d->value;
      u.upstream_default = default_of(src, dv, c->pos.line);
      add_reads(u, attr_reads_, dest);
      add(std::move(u));
    }
    for (const auto& attr : order) {
      Declared& d = by_attr.at(attr);
      UpstreamField& u = d.field;
      u.name = !u.flags.empty() && d.has_primary ? u.flags.front().substr(u.flags.front().find_first_not_of('-'))
               : attr[0] == '_'                 ? "_" + dashed(attr.substr(1))
                                                : dashed(attr);
      add_reads(u, attr_reads_, attr);
      add(std::move(u));
    }
  }

  // The Envs section titles: a comment between two `# ====` rules, by line.
  std::map<unsigned, std::string> sections(const Source& src) const {
    std::map<unsigned, std::string> out;
    const auto& cs = src.mod.comments;
    for (size_t i = 0; i + 2 < cs.size(); ++i)
      if (cs[i].text.starts_with("# ===") && cs[i + 2].text.starts_with("# ===") &&
          cs[i + 1].pos.line == cs[i].pos.line + 1 && cs[i + 2].pos.line == cs[i].pos.line + 2) {
        std::string t = cs[i + 1].text.substr(1);
        size_t b = t.find_first_not_of(' ');
        out[cs[i].pos.line] = b == std::string::npos ? "" : t.substr(b);
      }
    return out;
  }

  // The comment lines right above a line, joined (an Envs variable's explanation).
  std::string comment_above(const Source& src, unsigned line) const {
    std::vector<std::string> parts;
    unsigned want = line - 1;
    for (auto it = src.mod.comments.rbegin(); it != src.mod.comments.rend(); ++it) {
      if (it->pos.line > want) continue;
      if (it->pos.line < want || it->text.starts_with("# ===")) break;
      std::string t = it->text.substr(1);
      size_t b = t.find_first_not_of(' ');
      parts.insert(parts.begin(), b == std::string::npos ? "" : t.substr(b));
      --want;
    }
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : " ") + p;
    return out;
  }

  void read_environment(const Source& src) {
    const pyread::Class* envs = src.mod.find_class("Envs");
    if (!envs) throw std::runtime_error(std::string(kEnviron) + ": no class Envs");
    const auto titles = sections(src);
    std::set<std::string> names;
    size_t n_declared = 0;
    for (const auto& a : src.mod.assignments) {
      if (a.scope != pyread::Assignment::Scope::kClass || a.owner != "Envs" || !a.value || !is_env_name(a.target)) continue;
      const pyread::Call* c = nullptr;
      for (const auto& call : src.mod.calls)
        if (call.pos.offset == a.value->pos.offset) c = &call;
      if (!c || !c->name.starts_with("Env")) continue;
      ++n_declared;
      UpstreamField u;
      u.name = a.target;
      u.kind = "environment_variable";
      u.py_name = a.target;
      u.value_type = c->name;
      u.help = comment_above(src, a.pos.line);
      for (const auto& [line, title] : titles)
        if (line < a.pos.line) u.group = title;
      if (u.group.empty()) u.group = "Envs";
      u.declared_at = cite(src.path, a.pos.line);
      u.read_at.insert(u.declared_at);
      std::optional<pyread::Value> dv;
      auto pos = c->positional();
      if (!pos.empty()) dv = pos[0]->value;
      else if (const auto* k = c->keyword("default")) dv = k->value;
      u.upstream_default = default_of(src, dv, a.pos.line);
      if (!dv) {  // EnvField requires a default; none written means the reader lost it
        u.upstream_default.computed = true;
        u.upstream_default.at = cite(src.path, a.pos.line);
      }
      add_env_reads(u);
      if (const auto* dn = c->keyword("deprecated_name"); dn && dn->value.str && is_env_name(*dn->value.str)) {
        UpstreamField alias;
        alias.name = *dn->value.str;
        alias.kind = "environment_variable";
        alias.py_name = alias.name;
        alias.group = "deprecated alias of " + a.target;
        alias.value_type = c->name;
        alias.help = "Deprecated name of " + a.target + ", read when " + a.target + " is unset.";
        alias.declared_at = cite(src.path, a.pos.line);
        alias.read_at.insert(alias.declared_at);
        add_env_reads(alias);
        names.insert(alias.name);
        add(std::move(alias));
      }
      names.insert(u.name);
      add(std::move(u));
    }
    if (n_declared == 0) throw std::runtime_error(std::string(kEnviron) + ": Envs declares no variable");
    // _DEPRECATED_ENVS: names upstream still reads, to warn and forward them.
    const pyread::Assignment* table = nullptr;
    for (const auto& a : src.mod.assignments)
      if (a.scope == pyread::Assignment::Scope::kModule && a.target == "_DEPRECATED_ENVS" && a.value) table = &a;
    if (!table) throw std::runtime_error(std::string(kEnviron) + ": no _DEPRECATED_ENVS");
    const size_t lo = table->value->pos.offset, hi = lo + table->value->text.size();
    for (const auto& e : src.mod.dict_entries) {
      if (!e.key_is_string || e.key_pos.offset <= lo || e.key_pos.offset >= hi || !is_env_name(e.key)) continue;
      if (names.count(e.key)) continue;
      UpstreamField u;
      u.name = e.key;
      u.kind = "environment_variable";
      u.py_name = e.key;
      u.group = "_DEPRECATED_ENVS";
      u.value_type = "str";
      u.declared_at = cite(src.path, e.key_pos.line);
      u.read_at.insert(u.declared_at);
      const pyread::Call* c = nullptr;
      for (const auto& call : src.mod.calls)
        if (call.pos.offset == e.value.pos.offset) c = &call;
      if (c)
        if (const auto* r = c->keyword("replacement"); r && r->value.str)
          u.help = "Deprecated: forwarded to " + *r->value.str + ".";
      if (u.help.empty()) u.help = "Deprecated: a warning when set.";
      add_env_reads(u);
      names.insert(u.name);
      add(std::move(u));
    }
    // Variables read outside the registry by a literal getenv / environ.get.
    for (const auto& [n, reads] : getenv_reads_) {
      if (names.count(n)) continue;
      UpstreamField u;
      u.name = n;
      u.kind = "environment_variable";
      u.py_name = n;
      u.group = "getenv";
      u.value_type = "str";
      std::set<std::string> defaults;
      for (const auto& r : reads) {
        u.read_at.insert(r.at);
        defaults.insert(r.literal ? r.default_text : "\n");
      }
      u.declared_at = *u.read_at.begin();
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

  void add_env_reads(UpstreamField& u) { add_reads(u, upper_reads_, u.name); }

  struct EnvRead {
    std::string at;
    std::string default_text;
    bool literal = false;
  };

  fs::path root_;
  std::string c8_;
  std::map<std::string, Source> sources_;
  std::map<std::string, std::set<std::string>> attr_reads_;
  std::map<std::string, std::set<std::string>> upper_reads_;
  std::map<std::string, std::vector<EnvRead>> getenv_reads_;
  std::map<std::string, UpstreamField> fields_;  // by kind, then name
};

}  // namespace

std::vector<UpstreamField> read_upstream(const fs::path& checkout, const std::string& commit) {
  if (commit.size() != 40) throw std::runtime_error("the pin must be a 40-digit commit, got '" + commit + "'");
  if (!fs::is_directory(checkout / kTree))
    throw std::runtime_error(checkout.string() + " holds no python/sglang/srt/ directory");
  return Reader(checkout, commit).run();
}

}  // namespace blis::sglang::fields
