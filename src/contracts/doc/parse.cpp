#include "contracts/doc/parse.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace blis::doc {
namespace {

Mark mark_of(const YAML::Mark& m) { return Mark{m.line + 1, m.column + 1}; }

// Builds located trees from yaml-cpp's event stream. Anchored nodes are kept (std::map, ordered by
// anchor id) so that aliases can be expanded; an alias to a node still being built is recursive.
class Builder : public YAML::EventHandler {
 public:
  Builder(Diagnostics& d, Parsed& out) : d_(d), out_(out) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {
    if (!stack_.empty()) return;  // unreachable for well-formed event streams
    out_.documents.push_back(std::move(doc_));
    doc_ = Node{};
    anchors_.clear();
  }
  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override {
    Node n;
    n.mark = mark_of(m);
    finish(std::move(n), anchor);
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t anchor) override {
    out_.aliases.push_back(mark_of(m));
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      d_.add(mark_of(m), "", "an alias refers to an anchor whose value is still being defined (recursive alias)");
      finish(Node{}, 0);
      return;
    }
    Node copy = it->second;
    copy.mark = mark_of(m);
    finish(std::move(copy), 0);
  }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    Node n;
    n.kind = Kind::Scalar;
    n.mark = mark_of(m);
    n.scalar = value;
    n.style = tag == "?" ? Style::Plain : Style::Quoted;
    refuse_tag(m, tag);
    finish(std::move(n), anchor);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    refuse_tag(m, tag);
    open(Kind::Sequence, m, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    refuse_tag(m, tag);
    open(Kind::Map, m, anchor);
  }
  void OnMapEnd() override {
    Frame& f = stack_.back();
    if (f.pending_key) {  // cannot happen: yaml-cpp emits a value for every key
      f.pending_key = false;
    }
    std::map<std::string, int> seen;  // key -> first line
    for (const auto& [k, v] : f.node.entries) {
      (void)v;
      if (k.kind != Kind::Scalar) continue;
      auto [it, fresh] = seen.emplace(k.scalar, k.mark.line);
      if (!fresh)
        d_.add(k.mark, "", "duplicate key '" + k.scalar + "' (first at line " + std::to_string(it->second) + ")");
    }
    close();
  }

 private:
  struct Frame {
    Node node;
    YAML::anchor_t anchor = 0;
    bool pending_key = false;  // maps alternate key, value
    Node key;
  };

  void refuse_tag(const YAML::Mark& m, const std::string& tag) {
    if (tag.empty() || tag == "?" || tag == "!") return;
    d_.add(mark_of(m), "", "explicit YAML tag '" + tag + "' is not allowed");
  }
  void open(Kind k, const YAML::Mark& m, YAML::anchor_t anchor) {
    Frame f;
    f.node.kind = k;
    f.node.mark = mark_of(m);
    f.anchor = anchor;
    stack_.push_back(std::move(f));
  }
  void close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    finish(std::move(f.node), f.anchor);
  }
  void finish(Node n, YAML::anchor_t anchor) {
    if (anchor != 0) anchors_[anchor] = n;
    if (stack_.empty()) {
      doc_ = std::move(n);
      return;
    }
    Frame& parent = stack_.back();
    if (parent.node.kind == Kind::Sequence) {
      parent.node.items.push_back(std::move(n));
    } else if (!parent.pending_key) {
      if (n.kind != Kind::Scalar) d_.add(n.mark, "", std::string("a mapping key must be a scalar, not ") + kind_name(n));
      parent.key = std::move(n);
      parent.pending_key = true;
    } else {
      parent.node.entries.push_back(Entry{std::move(parent.key), std::move(n)});
      parent.key = Node{};
      parent.pending_key = false;
    }
  }

  Diagnostics& d_;
  Parsed& out_;
  std::vector<Frame> stack_;
  Node doc_;
  std::map<YAML::anchor_t, Node> anchors_;
};

// The first byte offset where `text` is not valid UTF-8 (overlong forms and surrogates included), or npos.
std::size_t invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) { ++i; continue; }
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
    else return i;
    if (i + len > text.size()) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string_view::npos;
}

Mark mark_at(std::string_view text, std::size_t offset) {
  Mark m{1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') { ++m.line; m.col = 1; } else { ++m.col; }
  }
  return m;
}

}  // namespace

Syntax syntax_of(std::string_view path) {
  return path.size() >= 5 && path.substr(path.size() - 5) == ".json" ? Syntax::Json : Syntax::Yaml;
}

Parsed parse(std::string_view text, Syntax syntax, Diagnostics& diags) {
  Parsed out;
  if (const auto bad = invalid_utf8(text); bad != std::string_view::npos) {
    diags.add(mark_at(text, bad), "", "the text is not valid UTF-8 (byte " + std::to_string(bad) + ")");
    return out;
  }
  if (text.find('\0') != std::string_view::npos) {
    diags.add(mark_at(text, text.find('\0')), "", "the text holds a NUL byte");
    return out;
  }
  if (syntax == Syntax::Json) {
    // accept() checks syntax only (numbers out of range are refused later, by field, with a clearer
    // cause); parse() is run only to locate a syntax error.
    if (!nlohmann::json::accept(text.begin(), text.end())) try {
      const auto located = nlohmann::json::parse(text.begin(), text.end());
      (void)located;
    } catch (const nlohmann::json::parse_error& e) {
      const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
      std::string what = e.what();
      if (const auto p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
      diags.add(mark_at(text, at), "", "not valid JSON: " + what);
      return out;
    } catch (const nlohmann::json::out_of_range&) {
      // A number too large for a double: the syntax is fine up to it, and the field's reader names
      // the field and the value (a later syntax error is still caught by the YAML parser below).
    } catch (const nlohmann::json::exception& e) {
      diags.add(Mark{1, 1}, "", std::string("not valid JSON: ") + e.what());
      return out;
    }
  }
  std::istringstream in{std::string(text)};
  Builder builder(diags, out);
  try {
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(builder)) {
    }
  } catch (const YAML::Exception& e) {
    diags.add(mark_of(e.mark), "", "not valid " + std::string(syntax == Syntax::Json ? "JSON" : "YAML") + ": " + e.msg);
  }
  return out;
}

}  // namespace blis::doc
