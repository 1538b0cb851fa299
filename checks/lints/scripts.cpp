#include "scripts.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

#include "python/reader.h"

namespace blis::lint {

namespace {

namespace py = blis::pyread;

constexpr const char* kWordList = "invariants/engine-words.txt";

// A value written as it stands: a literal that is not None (None leaves the setting unstated).
bool writes_value(const py::Value& v) { return v.literal() && v.kind != py::LiteralKind::kNone; }

// Byte ranges [begin, end) of the source.
class Spans {
 public:
  void add(size_t begin, size_t end) { spans_.emplace_back(begin, std::max(begin, end)); }
  bool covers(size_t at) const {
    return std::any_of(spans_.begin(), spans_.end(), [&](const auto& s) { return at >= s.first && at < s.second; });
  }

 private:
  std::vector<std::pair<size_t, size_t>> spans_;
};

// The last name of an assignment target: `self.source` -> `source`.
std::string last_name(const std::string& target) {
  size_t dot = target.rfind('.');
  return dot == std::string::npos ? target : target.substr(dot + 1);
}

std::string default_message(const std::string& word) { return "script writes an engine default ('" + word + "')"; }

}  // namespace

bool ScriptsLint::wants_file(const std::string& repo_path) const {
  if (!Context::in_scope(spec(), repo_path) || Context::in_tests(repo_path)) return false;
  return repo_path.ends_with(".py") || repo_path.ends_with(".sh");
}

void ScriptsLint::load_words(Context& ctx) {
  if (loaded_) return;
  loaded_ = true;
  words_ = EngineWords::load_with_pins(ctx.root() / kWordList, versions_file(ctx.root(), ctx.fixture_root()),
                                       list_errors_);
}

std::string ScriptsLint::word_in(std::string_view name) const {
  auto found = words_.find(name);
  return found.empty() ? "" : found.front().word;
}

void ScriptsLint::scan_file(const std::string& repo_path, const std::string& text, Context& ctx) {
  load_words(ctx);
  // The list is outside this lint's scope, so an unusable list is reported on each file it leaves unjudged.
  for (const auto& e : list_errors_) ctx.report(spec(), repo_path, 1, 1, "the engine-word list is unusable: " + e);
  if (repo_path.ends_with(".py"))
    scan_python(repo_path, text, ctx);
  else
    scan_shell(repo_path, text, ctx);
}

void ScriptsLint::scan_python(const std::string& path, const std::string& text, Context& ctx) {
  const py::Module m = py::parse(text);
  for (const auto& e : m.errors)
    ctx.report(spec(), path, e.pos.line, e.pos.col, "script does not parse (" + e.what + "): the lint cannot read it");

  Spans claimed;  // names already reported as an engine default: not reported again as a word
  Spans cited;    // values of citation keys
  auto on_default = [&](const std::string& word, const py::Pos& at, size_t name_end) {
    ctx.report(spec(), path, at.line, at.col, default_message(word));
    claimed.add(at.offset, name_end);
  };

  for (const auto& a : m.assignments) {
    if (!a.value) continue;
    if (citation_keys().contains(last_name(a.target)))
      cited.add(a.value->pos.offset, a.value->pos.offset + a.value->text.size());
    std::string w = word_in(a.target);
    if (!w.empty() && writes_value(*a.value)) on_default(w, a.pos, a.pos.offset + a.target.size());
  }
  for (const auto& f : m.functions)
    for (const auto& p : f.params) {
      std::string w = word_in(p.name);
      if (!w.empty() && p.default_value && writes_value(*p.default_value))
        on_default(w, p.pos, p.default_value->pos.offset);
    }
  for (const auto& c : m.calls) {
    for (const auto& a : c.args) {
      if (a.keyword.empty() || a.keyword.starts_with("*")) continue;
      if (citation_keys().contains(a.keyword)) cited.add(a.value.pos.offset, a.value.pos.offset + a.value.text.size());
      std::string w = word_in(a.keyword);
      if (!w.empty() && writes_value(a.value)) on_default(w, a.pos, a.value.pos.offset);
    }
    // argparse: the option's names are its leading string arguments, its default the `default=` keyword.
    const py::Argument* def = c.keyword("default");
    if ((c.name != "add_argument" && c.name != "add_option") || !def || !writes_value(def->value)) continue;
    for (const py::Argument* opt : c.positional()) {
      std::string w = opt->value.str ? word_in(*opt->value.str) : "";
      if (w.empty()) continue;
      on_default(w, def->pos, def->pos.offset);
      claimed.add(opt->pos.offset, opt->pos.offset + opt->value.text.size());
    }
  }
  for (const auto& e : m.dict_entries) {
    if (citation_keys().contains(e.key)) cited.add(e.value.pos.offset, e.value.pos.offset + e.value.text.size());
    std::string w = word_in(e.key);
    if (!w.empty() && writes_value(e.value)) on_default(w, e.key_pos, e.value.pos.offset);
  }

  for (const auto& id : m.identifiers) {
    if (claimed.covers(id.pos.offset)) continue;
    for (const WordMatch& w : words_.find(id.name))
      ctx.report(spec(), path, id.pos.line, id.pos.col + static_cast<unsigned>(w.offset),
                 "engine word '" + w.word + "' in a script identifier");
  }
  for (const auto& s : m.strings) {
    if (s.docstring || claimed.covers(s.pos.offset) || cited.covers(s.pos.offset)) continue;
    for (const WordMatch& w : words_.find(s.masked)) {
      py::Pos at = m.pos_at(s.pos.offset + w.offset);
      ctx.report(spec(), path, at.line, at.col, "engine word '" + w.word + "' in a script string");
    }
  }
}

namespace {

struct ShellToken {
  size_t begin = 0, end = 0;  // the raw span, quotes included
  std::string value;          // without quotes
  unsigned line = 0;
  bool quoted = false;
};

// Shell words, line by line: quotes ('...', "..."), backslash escapes, `#` comments at a word's start
// outside quotes, and the operators ; | & ( ) < > as separators. Enough to find words and NAME=value.
std::vector<ShellToken> shell_tokens(std::string_view s) {
  std::vector<ShellToken> out;
  ShellToken cur;
  bool in_token = false;
  char quote = 0;
  unsigned line = 1;
  auto flush = [&](size_t at) {
    if (in_token) {
      cur.end = at;
      out.push_back(cur);
    }
    in_token = false;
    cur = ShellToken{};
  };
  auto start = [&](size_t at) {
    if (in_token) return;
    cur = ShellToken{at, 0, "", line, false};
    in_token = true;
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < s.size())
        cur.value += s[++i];
      else
        cur.value += c;
      if (c == '\n') ++line;
      continue;
    }
    if (c == '\\' && i + 1 < s.size()) {
      if (s[i + 1] == '\n') {  // a line continuation: the command goes on
        flush(i);
        ++i;
        ++line;
        continue;
      }
      start(i);
      cur.value += s[++i];
      continue;
    }
    if (c == '#' && !in_token) {
      while (i < s.size() && s[i] != '\n') ++i;
      flush(i);
      ++line;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) || std::string_view(";|&()<>").find(c) != std::string_view::npos) {
      flush(i);
      if (c == '\n') ++line;
      continue;
    }
    start(i);
    if (c == '"' || c == '\'') {
      quote = c;
      cur.quoted = true;
    } else {
      cur.value += c;
    }
  }
  flush(s.size());
  return out;
}

// A value written as it stands: no expansion, command substitution or option in it.
bool shell_literal(const std::string& v) {
  if (v.empty() || v.find_first_of("$`") != std::string::npos) return false;
  return v[0] != '-' || (v.size() > 1 && std::isdigit(static_cast<unsigned char>(v[1])));
}

bool shell_name(std::string_view n) {
  return !n.empty() && !std::isdigit(static_cast<unsigned char>(n[0])) &&
         std::all_of(n.begin(), n.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

}  // namespace

void ScriptsLint::scan_shell(const std::string& path, const std::string& text, Context& ctx) {
  std::vector<size_t> line_starts = {0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts.push_back(i + 1);
  auto report_at = [&](size_t offset, std::string message) {
    auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
    size_t line = static_cast<size_t>(it - line_starts.begin());
    ctx.report(spec(), path, static_cast<unsigned>(line), static_cast<unsigned>(offset - line_starts[line - 1] + 1),
               std::move(message));
  };
  const auto tokens = shell_tokens(text);
  std::vector<bool> claimed(tokens.size(), false);
  for (size_t i = 0; i < tokens.size(); ++i) {
    const ShellToken& t = tokens[i];
    const std::string& v = t.value;
    size_t eq = v.find('=');
    std::string name, value;
    bool next_is_value = false;
    if (v.starts_with("--")) {
      name = v.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (eq != std::string::npos)
        value = v.substr(eq + 1);
      else if (i + 1 < tokens.size() && tokens[i + 1].line == t.line)
        value = tokens[i + 1].value, next_is_value = true;
    } else if (eq != std::string::npos && !t.quoted && shell_name(std::string_view(v).substr(0, eq))) {
      name = v.substr(0, eq);  // NAME=value
      value = v.substr(eq + 1);
    }
    std::string w = name.empty() ? "" : word_in(name);
    if (w.empty() || !shell_literal(value)) continue;
    report_at(t.begin, default_message(w));
    claimed[i] = true;
    if (next_is_value) claimed[i + 1] = true;
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (claimed[i]) continue;
    std::string_view raw = std::string_view(text).substr(tokens[i].begin, tokens[i].end - tokens[i].begin);
    for (const WordMatch& w : words_.find(raw))
      report_at(tokens[i].begin + w.offset, "engine word '" + w.word + "' in a shell script");
  }
}

}  // namespace blis::lint

BLIS_LINT("blis-scripts", blis::lint::ScriptsLint)
