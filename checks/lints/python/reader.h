// A reader of Python source (X19, X2): tree-sitter-python (the grammar pinned by TOOLCHAIN.md) parses
// the text into a small owned model, so no tree-sitter type escapes this header.
//
// Users: the blis-scripts lint (engine words and literal engine defaults in the project's scripts), and
// later the generators of field and surface lists from pinned upstream source, which read config
// dataclasses (`max_num_seqs: int = 128` under `@dataclass` / `@config`) and argparse declarations
// (`parser.add_argument("--max-num-seqs", type=int, default=256)`).
//
// The model is syntax, not semantics: names are as written (no import or alias resolution), values are
// source text with a literal kind. A file that does not parse still yields what tree-sitter recovered,
// and every ERROR or MISSING node is listed in `errors` with its place, so a reader can refuse it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blis::pyread {

// A place in the source: 1-based line, 1-based column in bytes, and the byte offset.
struct Pos {
  unsigned line = 0;
  unsigned col = 0;
  size_t offset = 0;
  auto operator<=>(const Pos&) const = default;
};

// What a value is when it is a literal. Collections count as literals when every element (and, for a
// dict, every key) is one. A negated number (-1) is a literal. `None` is its own kind: a setting left
// unset is not a value written.
enum class LiteralKind { kNotLiteral, kString, kInteger, kFloat, kBool, kNone, kCollection };
const char* to_string(LiteralKind k);

struct Value {
  std::string text;  // the expression's source text
  LiteralKind kind = LiteralKind::kNotLiteral;
  std::optional<std::string> str;  // a string literal's decoded text, when it decodes simply
  Pos pos;
  bool literal() const { return kind != LiteralKind::kNotLiteral; }
};

// `target = value`, `target: annotation = value` or `target: annotation`. A chained `a = b = 1` gives one
// assignment per target, each with the final value.
struct Assignment {
  enum class Scope { kModule, kClass, kFunction };
  std::string target;          // source text: `max_num_seqs`, `self.x`, `a, b`, `d["k"]`
  std::string annotation;      // "" when none
  std::optional<Value> value;  // none for a bare annotation
  Scope scope = Scope::kModule;
  std::string owner;  // the enclosing class or function name ("" at module level)
  Pos pos;
};

struct Parameter {
  std::string name;  // without the * or ** of a splat
  std::string annotation;
  std::optional<Value> default_value;
  enum class Kind { kPlain, kArgs, kKwargs } kind = Kind::kPlain;
  Pos pos;
};

struct Function {
  std::string name;
  std::string owner;                    // enclosing class or function, "" at module level
  std::vector<std::string> decorators;  // source text without '@': `dataclass`, `config`, `lru_cache(maxsize=8)`
  std::vector<Parameter> params;
  std::string return_type;
  Pos pos;
};

struct Class {
  std::string name;
  std::vector<std::string> bases;       // source text of each superclass argument (keywords included)
  std::vector<std::string> decorators;  // as for Function
  std::vector<Assignment> fields;       // the annotated assignments of its body (`x: int = 1`, `y: str`)
  Pos pos;
  bool decorated_with(std::string_view decorator) const;  // `@name`, `@name(...)`, `@mod.name`
};

struct Argument {
  std::string keyword;  // "" for a positional argument; "*" / "**" for splats
  Value value;
  Pos pos;
};

struct Call {
  std::string callee;  // source text of the called expression: `parser.add_argument`
  std::string name;    // its last name: `add_argument`
  std::vector<Argument> args;
  Pos pos;
  const Argument* keyword(std::string_view kw) const;  // nullptr if absent
  std::vector<const Argument*> positional() const;
};

struct DictEntry {
  std::string key;  // a string key's decoded text, else the key's source text
  bool key_is_string = false;
  Pos key_pos;
  Value value;
};

struct StringLit {
  std::string raw;     // the source text, prefix and quotes included
  std::string masked;  // raw with each f-string replacement field blanked (same length): the literal text only
  std::optional<std::string> text;  // the decoded value, when simple (no replacement field, known escapes)
  bool docstring = false;           // a bare string statement: documentation, not a value
  Pos pos;
};

struct Identifier {
  std::string name;
  Pos pos;
};

struct Comment {
  std::string text;  // with its '#'
  Pos pos;
};

struct ParseError {
  Pos pos;
  std::string what;  // "syntax error near `...`" or "missing `)`"
};

struct Module {
  std::vector<Assignment> assignments;  // every assignment, in source order
  std::vector<Class> classes;
  std::vector<Function> functions;
  std::vector<Call> calls;
  std::vector<DictEntry> dict_entries;
  std::vector<StringLit> strings;  // each string once (the parts of "a" "b" are separate)
  std::vector<Identifier> identifiers;
  std::vector<Comment> comments;
  std::vector<ParseError> errors;

  const Class* find_class(std::string_view name) const;
  const Function* find_function(std::string_view name) const;  // the first with this name
  std::vector<const Call*> calls_named(std::string_view name) const;
  // The place of a byte offset of the parsed source.
  Pos pos_at(size_t offset) const;

  std::vector<size_t> line_starts;  // byte offset of each line's start
};

// Parses Python source. Never throws for bad input: syntax errors are in Module::errors.
Module parse(std::string_view source);

// A string literal's decoded value from its source text (prefix and quotes included), when simple: no
// f-string replacement field and only escapes it knows (raw strings are taken as written).
std::optional<std::string> decode_string(std::string_view raw);

}  // namespace blis::pyread
