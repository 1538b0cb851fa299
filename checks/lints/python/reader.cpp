#include "python/reader.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>

extern "C" const TSLanguage* tree_sitter_python();

namespace blis::pyread {

namespace {

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};
using ParserPtr = std::unique_ptr<TSParser, ParserDeleter>;
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

bool is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

std::vector<TSNode> children(TSNode n) {
  std::vector<TSNode> out;
  uint32_t count = ts_node_child_count(n);
  out.reserve(count);
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do out.push_back(ts_tree_cursor_current_node(&c));
    while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

// Named children that are code (comments may sit anywhere between tokens).
std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  for (TSNode c : children(n))
    if (ts_node_is_named(c) && !is(c, "comment")) out.push_back(c);
  return out;
}

TSNode field(TSNode n, const char* name) {
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::strlen(name)));
}

// Appends a UTF-8 encoding of a code point.
void put_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool hex_digits(std::string_view s, size_t at, size_t n, unsigned long& v) {
  if (at + n > s.size()) return false;
  v = 0;
  for (size_t i = at; i < at + n; ++i) {
    char c = s[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) return false;
    v = v * 16 + static_cast<unsigned long>(d);
  }
  return true;
}

class Walker {
 public:
  Walker(std::string_view src, Module& m) : src_(src), m_(m) {}

  void walk(TSNode n) {
    const char* type = ts_node_type(n);
    if (ts_node_is_missing(n)) {
      m_.errors.push_back({pos(n), std::string("missing `") + type + "`"});
      return;
    }
    if (std::strcmp(type, "ERROR") == 0) {
      std::string near = text(n).substr(0, 24);
      std::replace(near.begin(), near.end(), '\n', ' ');
      m_.errors.push_back({pos(n), "syntax error near `" + near + "`"});
    } else if (std::strcmp(type, "comment") == 0) {
      m_.comments.push_back({text(n), pos(n)});
      return;
    } else if (std::strcmp(type, "identifier") == 0) {
      m_.identifiers.push_back({text(n), pos(n)});
      return;
    } else if (std::strcmp(type, "string") == 0) {
      add_string(n);
    } else if (std::strcmp(type, "assignment") == 0) {
      if (!is(ts_node_parent(n), "assignment")) add_assignments(n);
    } else if (std::strcmp(type, "class_definition") == 0) {
      add_class(n);
      owners_.push_back({Assignment::Scope::kClass, text(field(n, "name"))});
      for (TSNode c : children(n)) walk(c);
      owners_.pop_back();
      return;
    } else if (std::strcmp(type, "function_definition") == 0) {
      add_function(n);
      owners_.push_back({Assignment::Scope::kFunction, text(field(n, "name"))});
      for (TSNode c : children(n)) walk(c);
      owners_.pop_back();
      return;
    } else if (std::strcmp(type, "call") == 0) {
      add_call(n);
    } else if (std::strcmp(type, "pair") == 0) {
      add_pair(n);
    }
    for (TSNode c : children(n)) walk(c);
  }

 private:
  struct Owner {
    Assignment::Scope scope;
    std::string name;
  };

  std::string text(TSNode n) const {
    if (ts_node_is_null(n)) return "";
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    return std::string(src_.substr(b, e - b));
  }
  Pos pos(TSNode n) const {
    TSPoint p = ts_node_start_point(n);
    return {p.row + 1, p.column + 1, ts_node_start_byte(n)};
  }

  // The decoded text of a `string` node, or nothing when it has a replacement field or does not decode.
  std::optional<std::string> string_value(TSNode n) const {
    for (TSNode c : children(n))
      if (is(c, "interpolation")) return std::nullopt;
    return decode_string(text(n));
  }

  Value value_of(TSNode n) const {
    Value v;
    v.text = text(n);
    v.pos = pos(n);
    v.kind = kind_of(n);
    if (is(n, "string")) {
      v.str = string_value(n);
    } else if (is(n, "concatenated_string")) {
      std::string all;
      bool ok = true;
      for (TSNode s : named_children(n)) {
        auto part = string_value(s);
        if (!part)
          ok = false;
        else
          all += *part;
      }
      if (ok) v.str = all;
    }
    return v;
  }

  LiteralKind kind_of(TSNode n) const {
    const char* t = ts_node_type(n);
    auto eq = [&](const char* s) { return std::strcmp(t, s) == 0; };
    if (eq("string") || eq("concatenated_string")) return LiteralKind::kString;
    if (eq("integer")) return LiteralKind::kInteger;
    if (eq("float")) return LiteralKind::kFloat;
    if (eq("true") || eq("false")) return LiteralKind::kBool;
    if (eq("none")) return LiteralKind::kNone;
    if (eq("unary_operator")) {
      std::string op = text(field(n, "operator"));
      LiteralKind k = kind_of(field(n, "argument"));
      bool number = k == LiteralKind::kInteger || k == LiteralKind::kFloat;
      return (op == "-" || op == "+") && number ? k : LiteralKind::kNotLiteral;
    }
    if (eq("parenthesized_expression")) {
      auto inner = named_children(n);
      return inner.size() == 1 ? kind_of(inner[0]) : LiteralKind::kNotLiteral;
    }
    if (eq("list") || eq("tuple") || eq("set") || eq("dictionary")) {
      for (TSNode c : named_children(n)) {
        if (is(c, "pair")) {
          if (kind_of(field(c, "key")) == LiteralKind::kNotLiteral ||
              kind_of(field(c, "value")) == LiteralKind::kNotLiteral)
            return LiteralKind::kNotLiteral;
        } else if (kind_of(c) == LiteralKind::kNotLiteral) {
          return LiteralKind::kNotLiteral;
        }
      }
      return LiteralKind::kCollection;
    }
    return LiteralKind::kNotLiteral;
  }

  void add_string(TSNode n) {
    StringLit s;
    s.raw = text(n);
    s.masked = s.raw;
    const uint32_t base = ts_node_start_byte(n);
    for (TSNode c : children(n))
      if (is(c, "interpolation"))
        for (uint32_t i = ts_node_start_byte(c); i < ts_node_end_byte(c); ++i)
          if (s.masked[i - base] != '\n') s.masked[i - base] = ' ';
    s.text = string_value(n);
    TSNode holder = ts_node_parent(n);
    if (is(holder, "concatenated_string")) holder = ts_node_parent(holder);
    s.docstring = is(holder, "expression_statement") && named_children(holder).size() == 1;
    s.pos = pos(n);
    m_.strings.push_back(std::move(s));
  }

  Assignment::Scope scope() const { return owners_.empty() ? Assignment::Scope::kModule : owners_.back().scope; }
  std::string owner() const { return owners_.empty() ? "" : owners_.back().name; }

  // `a = b = value`: the chain nests to the right; every target gets the final value.
  void add_assignments(TSNode n) {
    std::vector<TSNode> links = {n};
    while (is(field(links.back(), "right"), "assignment")) links.push_back(field(links.back(), "right"));
    TSNode last = field(links.back(), "right");
    for (TSNode a : links) {
      Assignment as;
      as.target = text(field(a, "left"));
      as.annotation = text(field(a, "type"));
      if (!ts_node_is_null(last)) as.value = value_of(last);
      as.scope = scope();
      as.owner = owner();
      as.pos = pos(a);
      m_.assignments.push_back(as);
    }
  }

  std::vector<std::string> decorators_of(TSNode def) const {
    std::vector<std::string> out;
    TSNode parent = ts_node_parent(def);
    if (!is(parent, "decorated_definition")) return out;
    for (TSNode d : named_children(parent))
      if (is(d, "decorator")) {
        auto e = named_children(d);
        if (!e.empty()) out.push_back(text(e[0]));
      }
    return out;
  }

  void add_class(TSNode n) {
    Class c;
    c.name = text(field(n, "name"));
    c.pos = pos(n);
    c.decorators = decorators_of(n);
    TSNode bases = field(n, "superclasses");
    if (!ts_node_is_null(bases))
      for (TSNode b : named_children(bases)) c.bases.push_back(text(b));
    TSNode body = field(n, "body");
    for (TSNode stmt : named_children(body)) {
      if (!is(stmt, "expression_statement")) continue;
      auto inner = named_children(stmt);
      if (inner.size() != 1 || !is(inner[0], "assignment") || ts_node_is_null(field(inner[0], "type"))) continue;
      Assignment f;
      f.target = text(field(inner[0], "left"));
      f.annotation = text(field(inner[0], "type"));
      TSNode v = field(inner[0], "right");
      if (!ts_node_is_null(v)) f.value = value_of(v);
      f.scope = Assignment::Scope::kClass;
      f.owner = c.name;
      f.pos = pos(inner[0]);
      c.fields.push_back(std::move(f));
    }
    m_.classes.push_back(std::move(c));
  }

  void add_function(TSNode n) {
    Function f;
    f.name = text(field(n, "name"));
    f.owner = owner();
    f.pos = pos(n);
    f.decorators = decorators_of(n);
    f.return_type = text(field(n, "return_type"));
    for (TSNode p : named_children(field(n, "parameters"))) {
      Parameter par;
      par.pos = pos(p);
      TSNode name = p;
      if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
        name = field(p, "name");
        par.default_value = value_of(field(p, "value"));
      } else if (is(p, "typed_parameter")) {
        auto inner = named_children(p);
        name = inner.empty() ? p : inner[0];
      } else if (!is(p, "identifier") && !is(p, "list_splat_pattern") && !is(p, "dictionary_splat_pattern")) {
        continue;  // the bare `*` and `/` separators
      }
      par.annotation = text(field(p, "type"));
      if (is(name, "list_splat_pattern") || is(name, "dictionary_splat_pattern")) {
        par.kind = is(name, "list_splat_pattern") ? Parameter::Kind::kArgs : Parameter::Kind::kKwargs;
        auto inner = named_children(name);
        name = inner.empty() ? name : inner[0];
      }
      par.name = text(name);
      f.params.push_back(std::move(par));
    }
    m_.functions.push_back(std::move(f));
  }

  void add_call(TSNode n) {
    Call c;
    TSNode fn = field(n, "function");
    c.callee = text(fn);
    c.name = is(fn, "attribute") ? text(field(fn, "attribute")) : c.callee;
    c.pos = pos(n);
    TSNode args = field(n, "arguments");
    if (is(args, "generator_expression")) {
      c.args.push_back({"", value_of(args), pos(args)});
    } else {
      for (TSNode a : named_children(args)) {
        if (is(a, "keyword_argument")) {
          c.args.push_back({text(field(a, "name")), value_of(field(a, "value")), pos(a)});
        } else if (is(a, "list_splat") || is(a, "dictionary_splat")) {
          auto inner = named_children(a);
          c.args.push_back({is(a, "list_splat") ? "*" : "**", value_of(inner.empty() ? a : inner[0]), pos(a)});
        } else {
          c.args.push_back({"", value_of(a), pos(a)});
        }
      }
    }
    m_.calls.push_back(std::move(c));
  }

  void add_pair(TSNode n) {
    DictEntry e;
    TSNode key = field(n, "key");
    Value k = value_of(key);
    e.key_is_string = k.str.has_value();
    e.key = k.str ? *k.str : k.text;
    e.key_pos = pos(key);
    e.value = value_of(field(n, "value"));
    m_.dict_entries.push_back(std::move(e));
  }

  std::string_view src_;
  Module& m_;
  std::vector<Owner> owners_;
};

}  // namespace

const char* to_string(LiteralKind k) {
  switch (k) {
    case LiteralKind::kNotLiteral:
      return "not-literal";
    case LiteralKind::kString:
      return "string";
    case LiteralKind::kInteger:
      return "integer";
    case LiteralKind::kFloat:
      return "float";
    case LiteralKind::kBool:
      return "bool";
    case LiteralKind::kNone:
      return "none";
    case LiteralKind::kCollection:
      return "collection";
  }
  return "?";
}

std::optional<std::string> decode_string(std::string_view raw) {
  size_t i = 0;
  bool is_raw = false, is_f = false, is_bytes = false;
  for (; i < raw.size() && std::isalpha(static_cast<unsigned char>(raw[i])); ++i) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(raw[i])));
    if (c == 'r')
      is_raw = true;
    else if (c == 'f')
      is_f = true;
    else if (c == 'b')
      is_bytes = true;
    else if (c != 'u')
      return std::nullopt;
  }
  if (i >= raw.size() || (raw[i] != '"' && raw[i] != '\'')) return std::nullopt;
  size_t q = raw.substr(i).starts_with(std::string(3, raw[i])) ? 3 : 1;
  if (raw.size() < i + 2 * q) return std::nullopt;
  std::string_view body = raw.substr(i + q, raw.size() - i - 2 * q);
  std::string out;
  for (size_t k = 0; k < body.size(); ++k) {
    char c = body[k];
    if (is_f && (c == '{' || c == '}')) {
      if (k + 1 < body.size() && body[k + 1] == c) {
        out += c;
        ++k;
        continue;
      }
      return std::nullopt;  // a replacement field: its value is not in the text
    }
    if (c != '\\' || is_raw) {
      out += c;
      continue;
    }
    if (++k >= body.size()) return std::nullopt;
    char e = body[k];
    unsigned long v = 0;
    switch (e) {
      case '\n':
        break;  // a line continuation
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
        if (!hex_digits(body, k + 1, 2, v)) return std::nullopt;
        if (is_bytes)
          out += static_cast<char>(v);
        else
          put_utf8(out, v);
        k += 2;
        break;
      case 'u':
      case 'U': {
        size_t n = e == 'u' ? 4 : 8;
        if (is_bytes) {
          out += '\\';
          out += e;
          break;
        }
        if (!hex_digits(body, k + 1, n, v) || v > 0x10FFFF) return std::nullopt;
        put_utf8(out, v);
        k += n;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          size_t n = 0;
          while (n < 3 && k + n < body.size() && body[k + n] >= '0' && body[k + n] <= '7')
            v = v * 8 + (body[k + n++] - '0');
          if (is_bytes)
            out += static_cast<char>(v & 0xFF);
          else
            put_utf8(out, v);
          k += n - 1;
        } else if (e == 'N') {
          return std::nullopt;  // \N{NAME}: needs the Unicode name table
        } else {
          out += '\\';  // Python keeps an unknown escape as written
          out += e;
        }
    }
  }
  return out;
}

bool Class::decorated_with(std::string_view decorator) const {
  for (const auto& d : decorators) {
    std::string_view base = d;
    base = base.substr(0, base.find('('));
    if (base == decorator || (base.size() > decorator.size() && base.ends_with(decorator) &&
                              base[base.size() - decorator.size() - 1] == '.'))
      return true;
  }
  return false;
}

const Argument* Call::keyword(std::string_view kw) const {
  for (const auto& a : args)
    if (a.keyword == kw) return &a;
  return nullptr;
}

std::vector<const Argument*> Call::positional() const {
  std::vector<const Argument*> out;
  for (const auto& a : args)
    if (a.keyword.empty()) out.push_back(&a);
  return out;
}

const Class* Module::find_class(std::string_view name) const {
  for (const auto& c : classes)
    if (c.name == name) return &c;
  return nullptr;
}

const Function* Module::find_function(std::string_view name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<const Call*> Module::calls_named(std::string_view name) const {
  std::vector<const Call*> out;
  for (const auto& c : calls)
    if (c.name == name) out.push_back(&c);
  return out;
}

Pos Module::pos_at(size_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  size_t line = static_cast<size_t>(it - line_starts.begin());  // >= 1: line_starts[0] is 0
  return {static_cast<unsigned>(line), static_cast<unsigned>(offset - line_starts[line - 1] + 1), offset};
}

Module parse(std::string_view source) {
  Module m;
  m.line_starts.push_back(0);
  for (size_t i = 0; i < source.size(); ++i)
    if (source[i] == '\n') m.line_starts.push_back(i + 1);
  ParserPtr parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), tree_sitter_python())) {
    m.errors.push_back({{1, 1, 0}, "the Python grammar's ABI is not one this tree-sitter library accepts"});
    return m;
  }
  TreePtr tree(ts_parser_parse_string(parser.get(), nullptr, source.data(), static_cast<uint32_t>(source.size())));
  if (!tree) {
    m.errors.push_back({{1, 1, 0}, "tree-sitter could not parse the file"});
    return m;
  }
  Walker(source, m).walk(ts_tree_root_node(tree.get()));
  return m;
}

}  // namespace blis::pyread
