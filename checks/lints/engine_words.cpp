#include "engine_words.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace blis::lint {

using namespace clang::ast_matchers;

namespace {

constexpr const char* kWordList = "invariants/engine-words.txt";
constexpr const char* kRatchet = "invariants/engine-words-ratchet.txt";

// INTERFACES.md "Lint allowances": the engines' own kernel libraries (design §6.2) are not engine words.
// '-' here stands for '-' or '_'.
constexpr const char* kKernelLibraries[] = {"vllm-csrc", "sglang-kernel"};

std::string ext_of(const std::string& path) {
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot + 1);
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string unquote(std::string s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) return s.substr(1, s.size() - 2);
  return s;
}

// The line without its YAML comment: a '#' at the start or after a blank, outside quotes.
std::string_view strip_comment(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      if (i == 0 || line[i - 1] == ' ' || line[i - 1] == '{' || line[i - 1] == '[' || line[i - 1] == ',' ||
          line[i - 1] == ':')
        quote = c;
    } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return line.substr(0, i);
    }
  }
  return line;
}

// `key: rest` at the start of s (a plain or quoted key): the key's length, or npos.
size_t key_end(std::string_view s) {
  if (s.empty() || s[0] == '{' || s[0] == '[') return std::string_view::npos;
  size_t i = 0;
  if (s[0] == '"' || s[0] == '\'') {
    size_t close = s.find(s[0], 1);
    if (close == std::string_view::npos) return std::string_view::npos;
    i = close + 1;
    return i < s.size() && s[i] == ':' && (i + 1 == s.size() || s[i + 1] == ' ') ? i : std::string_view::npos;
  }
  for (; i < s.size(); ++i) {
    if (s[i] == ':' && (i + 1 == s.size() || s[i + 1] == ' ' || s[i + 1] == '\t')) return i;
    if (s[i] == ',' || s[i] == '{' || s[i] == '}' || s[i] == '[' || s[i] == ']') return std::string_view::npos;
  }
  return std::string_view::npos;
}

}  // namespace

void EngineWordsLint::load_words(Context& ctx) {
  if (loaded_) return;
  loaded_ = true;
  ctx_ = &ctx;
  words_ = EngineWords::load_with_pins(ctx.root() / kWordList, versions_file(ctx.root(), ctx.fixture_root()),
                                       list_errors_);
}

void EngineWordsLint::add_matchers(MatchFinder& finder, Context& ctx) {
  load_words(ctx);
  // Every declared name (not the compiler's implicit ones) and every string literal of our code; the
  // scope filter in run() keeps those of the engine-neutral directories.
  finder.addMatcher(namedDecl(unless(isImplicit())).bind("decl"), this);
  finder.addMatcher(stringLiteral().bind("str"), this);
}

std::vector<std::pair<size_t, std::string>> EngineWordsLint::words_in(std::string_view text) const {
  std::vector<std::pair<size_t, std::string>> out;
  for (const WordMatch& m : words_.find(text)) {
    // A token that names a kernel library is allowed unless it holds another engine word besides.
    std::string token(text.substr(m.offset, m.length));
    std::string lower = token;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    bool had_kernel = false;
    for (std::string_view k : kKernelLibraries)
      for (size_t i = 0; i + k.size() <= lower.size(); ++i) {
        bool same = true;
        for (size_t j = 0; j < k.size() && same; ++j)
          same = k[j] == '-' ? (lower[i + j] == '-' || lower[i + j] == '_') : lower[i + j] == k[j];
        if (same) {
          std::fill(token.begin() + i, token.begin() + i + k.size(), ' ');
          had_kernel = true;
        }
      }
    if (had_kernel) {
      auto rest = words_.find(token);
      if (rest.empty()) continue;
      out.emplace_back(m.offset, rest.front().word);
      continue;
    }
    out.emplace_back(m.offset, m.word);
  }
  return out;
}

void EngineWordsLint::add(const std::string& path, unsigned line, unsigned col, const std::string& word,
                          const char* where) {
  found_.insert(Occurrence{path, line, col, "engine word '" + word + "' in " + where});
}

void EngineWordsLint::run(const MatchFinder::MatchResult& result) {
  const clang::SourceManager& sm = *result.SourceManager;
  auto place = [&](clang::SourceLocation loc, std::string& path, unsigned& line, unsigned& col) {
    path = ctx_->repo_path(sm, loc);
    if (!Context::in_scope(spec(), path) || Context::in_tests(path)) return false;
    clang::PresumedLoc p = sm.getPresumedLoc(sm.getFileLoc(loc), /*UseLineDirectives=*/false);
    if (p.isInvalid()) return false;
    line = p.getLine();
    col = p.getColumn();
    return true;
  };
  std::string path;
  unsigned line = 0, col = 0;
  if (const auto* d = result.Nodes.getNodeAs<clang::NamedDecl>("decl")) {
    const clang::IdentifierInfo* id = d->getIdentifier();  // constructors, operators: no name of their own
    if (!id || !place(d->getLocation(), path, line, col)) return;
    for (const auto& [off, word] : words_in(id->getName())) add(path, line, col, word, "an identifier");
    return;
  }
  if (const auto* s = result.Nodes.getNodeAs<clang::StringLiteral>("str")) {
    if (s->getCharByteWidth() != 1 || !place(s->getBeginLoc(), path, line, col)) return;
    for (const auto& [off, word] : words_in(s->getString())) add(path, line, col, word, "a string literal");
  }
}

bool EngineWordsLint::wants_file(const std::string& repo_path) const {
  if (repo_path == kRatchet) return true;
  if (!Context::in_scope(spec(), repo_path) || Context::in_tests(repo_path)) return false;
  std::string ext = ext_of(repo_path);
  return ext == "yaml" || ext == "yml" || ext == "json" || ext == "txt" || ext == "csv";
}

void EngineWordsLint::scan_file(const std::string& repo_path, const std::string& text, Context& ctx) {
  load_words(ctx);
  if (repo_path == kRatchet) scan_ratchet(repo_path, text);
  else if (repo_path != kWordList) scan_data(repo_path, text);
}

// Keys and values of a YAML (or pretty-printed JSON) file, line by line. Nesting follows indentation, so
// a value is a citation when its key, or any key it is nested under, is a citation key.
void EngineWordsLint::scan_data(const std::string& path, const std::string& text) {
  struct Frame {
    size_t indent;
    bool cite;
  };
  std::vector<Frame> stack;
  bool in_block = false, block_cite = false;
  size_t block_indent = 0;
  const bool plain_text = ext_of(path) == "txt" || ext_of(path) == "csv";
  auto check = [&](std::string_view s, size_t col0, unsigned line, bool cite) {
    if (cite) return;
    for (const auto& [off, word] : words_in(s))
      add(path, line, static_cast<unsigned>(col0 + off + 1), word, "a data key or value");
  };
  std::istringstream in(text);
  std::string raw;
  unsigned n = 0;
  while (std::getline(in, raw)) {
    ++n;
    std::string_view line = strip_comment(raw);
    if (plain_text) {
      check(line, 0, n, false);
      continue;
    }
    size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string_view::npos) continue;
    if (in_block) {
      if (indent > block_indent) {
        check(line.substr(indent), indent, n, block_cite);
        continue;
      }
      in_block = false;
    }
    size_t at = indent;
    while (line.substr(at).starts_with("- ")) at = line.find_first_not_of(' ', at + 2);
    if (at == std::string_view::npos) continue;
    std::string_view content = line.substr(at);
    while (!stack.empty() && stack.back().indent >= at) stack.pop_back();
    const bool parent_cite = !stack.empty() && stack.back().cite;
    size_t k = key_end(content);
    if (k == std::string_view::npos) {  // a list item's scalar, a flow collection, a continuation line
      check(content, at, n, parent_cite);
      continue;
    }
    std::string key = unquote(trim(content.substr(0, k)));
    const bool cite = parent_cite || citation_keys().contains(key);
    check(content.substr(0, k), at, n, parent_cite);
    stack.push_back({at, cite});
    size_t vstart = content.find_first_not_of(" \t", k + 1);
    if (vstart == std::string_view::npos) continue;
    std::string_view value = content.substr(vstart);
    if (value[0] == '|' || value[0] == '>') {
      in_block = true;
      block_cite = cite;
      block_indent = at;
      continue;
    }
    if (value[0] != '{') {
      check(value, at + vstart, n, cite);
      continue;
    }
    // A flow mapping {a: x, b: y}: each pair on its own (nested collections are read as text).
    size_t pos = 1;
    while (pos < value.size()) {
      size_t comma = value.find(',', pos);
      size_t end = std::min(comma == std::string_view::npos ? value.size() : comma, value.find('}', pos));
      if (end == std::string_view::npos) end = value.size();
      std::string_view pair = value.substr(pos, end - pos);
      size_t lead = pair.find_first_not_of(' ');
      if (lead != std::string_view::npos) {
        std::string_view p = pair.substr(lead);
        size_t pk = key_end(p);
        size_t col0 = at + vstart + pos + lead;
        if (pk == std::string_view::npos) {
          check(p, col0, n, cite);
        } else {
          check(p.substr(0, pk), col0, n, cite);
          bool pcite = cite || citation_keys().contains(unquote(trim(p.substr(0, pk))));
          check(p.substr(pk + 1), col0 + pk + 1, n, pcite);
        }
      }
      pos = end + 1;
    }
  }
}

// `<directory>: <count>` lines; the directories are the lint's scope directories.
void EngineWordsLint::scan_ratchet(const std::string& path, const std::string& text) {
  std::istringstream in(text);
  std::string raw;
  unsigned n = 0;
  while (std::getline(in, raw)) {
    ++n;
    std::string line = trim(strip_comment(raw));
    if (line.empty()) continue;
    size_t colon = line.rfind(':');
    std::string dir = colon == std::string::npos ? line : unquote(trim(line.substr(0, colon)));
    std::string count = colon == std::string::npos ? "" : trim(line.substr(colon + 1));
    bool known = std::find(spec().scope.begin(), spec().scope.end(), dir) != spec().scope.end() && dir.ends_with('/');
    if (!known) {
      ratchet_errors_.push_back({path, n, 1, "ratchet entry " + dir + " names no directory of the lint's scope"});
      continue;
    }
    if (count.empty() || !std::all_of(count.begin(), count.end(), [](unsigned char c) { return std::isdigit(c); })) {
      ratchet_errors_.push_back({path, n, 1, "ratchet entry " + dir + " needs a whole count"});
      continue;
    }
    if (ratchet_.contains(dir)) {
      ratchet_errors_.push_back({path, n, 1, "ratchet entry " + dir + " is given twice"});
      continue;
    }
    ratchet_[dir] = {std::stol(count), n};
  }
}

std::string EngineWordsLint::ratchet_dir(const std::string& path) const {
  std::string best;
  for (const auto& s : spec().scope)
    if (s.ends_with('/') && Context::under(path, s) && s.size() > best.size()) best = s;
  return best;
}

void EngineWordsLint::finish(Context& ctx) {
  for (const auto& e : list_errors_) {
    // EngineWords::load says `<file>:<line>: <why>`.
    std::string file = (ctx.root() / kWordList).string() + ":";
    unsigned line = 1;
    std::string why = e;
    if (e.starts_with(file)) {
      size_t colon = e.find(':', file.size());
      if (colon != std::string::npos) {
        line = static_cast<unsigned>(std::stoul(e.substr(file.size(), colon - file.size())));
        why = trim(e.substr(colon + 1));
      }
    }
    ctx.report(spec(), kWordList, line, 1, "the engine-word list is unusable: " + why);
  }
  for (const auto& e : ratchet_errors_) ctx.report(spec(), e.path, e.line, e.col, e.message);
  std::map<std::string, long> count;
  for (const auto& o : found_) ++count[ratchet_dir(o.path)];
  for (const auto& o : found_) {
    auto r = ratchet_.find(ratchet_dir(o.path));
    long allowed = r == ratchet_.end() ? 0 : r->second.allowed;
    if (count[ratchet_dir(o.path)] > allowed) ctx.report(spec(), o.path, o.line, o.col, o.message);
  }
  for (const auto& [dir, r] : ratchet_) {
    long have = count.contains(dir) ? count[dir] : 0;
    if (r.allowed > have)
      ctx.report(spec(), kRatchet, r.line, 1,
                 "the ratchet allows " + std::to_string(r.allowed) + " engine words in " + dir + " but " +
                     std::to_string(have) + " remain: lower the ratchet to " + std::to_string(have));
  }
}

}  // namespace blis::lint

BLIS_LINT("blis-engine-words", blis::lint::EngineWordsLint)
