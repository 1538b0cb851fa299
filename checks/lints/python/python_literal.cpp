// Original to BLIS: a small reader of Python literal text for the field-list generator (VLM-3).
#include "python/python_literal.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>

#include "python/reader.h"

namespace blis::pyread {

namespace {

class LiteralParser {
 public:
  explicit LiteralParser(std::string_view s) : s_(s) {}

  std::optional<doc::Node> whole() {
    auto v = value();
    skip();
    if (!v || i_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void skip() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
        ++i_;
      } else if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool word(std::string_view w) {
    skip();
    if (s_.substr(i_, w.size()) != w) return false;
    size_t e = i_ + w.size();
    if (e < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[e])) || s_[e] == '_')) return false;
    i_ = e;
    return true;
  }

  static doc::Node scalar(std::string text, doc::Style style) {
    doc::Node n;
    n.kind = doc::Kind::Scalar;
    n.style = style;
    n.scalar = std::move(text);
    return n;
  }

  // One string token, prefix and quotes included; adjacent tokens concatenate.
  std::optional<doc::Node> strings() {
    std::string all;
    bool any = false;
    while (true) {
      skip();
      size_t start = i_;
      while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) {
        i_ = start;
        break;
      }
      const char q = s_[i_];
      const bool triple = s_.substr(i_, 3) == std::string(3, q);
      const std::string close = triple ? std::string(3, q) : std::string(1, q);
      size_t j = i_ + close.size();
      while (j < s_.size() && s_.substr(j, close.size()) != close) j += s_[j] == '\\' ? 2 : 1;
      if (j >= s_.size()) return std::nullopt;
      j += close.size();
      auto piece = pyread::decode_string(s_.substr(start, j - start));
      if (!piece) return std::nullopt;
      all += *piece;
      any = true;
      i_ = j;
    }
    if (!any) return std::nullopt;
    return scalar(all, doc::Style::Quoted);
  }

  std::optional<doc::Node> number() {
    skip();
    size_t start = i_;
    std::string t;
    if (i_ < s_.size() && (s_[i_] == '-' || s_[i_] == '+')) t += s_[i_++];
    skip();
    size_t digits = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == '_' ||
                              ((s_[i_] == '-' || s_[i_] == '+') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E'))))
      ++i_;
    std::string body;
    for (size_t k = digits; k < i_; ++k)
      if (s_[k] != '_') body += s_[k];
    if (body.empty() || !(std::isdigit(static_cast<unsigned char>(body[0])) || body[0] == '.')) {
      i_ = start;
      return std::nullopt;
    }
    const bool is_float = body.find_first_of(".eE") != std::string::npos && body.find_first_of("xX") == std::string::npos;
    if (!is_float) {
      std::int64_t v = 0;
      int base = 10;
      std::string_view b = body;
      if (b.size() > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) base = 16, b.remove_prefix(2);
      else if (b.size() > 2 && b[0] == '0' && (b[1] == 'o' || b[1] == 'O')) base = 8, b.remove_prefix(2);
      else if (b.size() > 2 && b[0] == '0' && (b[1] == 'b' || b[1] == 'B')) base = 2, b.remove_prefix(2);
      auto r = std::from_chars(b.data(), b.data() + b.size(), v, base);
      if (r.ec != std::errc{} || r.ptr != b.data() + b.size()) return std::nullopt;
      return scalar((t == "-" ? "-" : "") + std::to_string(v), doc::Style::Plain);
    }
    std::string f = body;
    if (f.front() == '.') f = "0" + f;
    if (f.back() == '.') f += "0";
    double d = 0;
    auto r = std::from_chars(f.data(), f.data() + f.size(), d);
    if (r.ec != std::errc{} || r.ptr != f.data() + f.size()) return std::nullopt;
    return scalar((t == "-" ? "-" : "") + f, doc::Style::Plain);
  }

  std::optional<doc::Node> sequence(char close) {
    doc::Node n;
    n.kind = doc::Kind::Sequence;
    while (!eat(close)) {
      auto v = value();
      if (!v) return std::nullopt;
      n.items.push_back(std::move(*v));
      if (!eat(',')) {
        if (!eat(close)) return std::nullopt;
        break;
      }
    }
    return n;
  }

  std::optional<doc::Node> braces() {
    skip();
    if (eat('}')) {
      doc::Node n;
      n.kind = doc::Kind::Map;
      return n;
    }
    auto first = value();
    if (!first) return std::nullopt;
    if (!eat(':')) {  // a set
      doc::Node n;
      n.kind = doc::Kind::Sequence;
      n.items.push_back(std::move(*first));
      if (eat('}')) return n;
      if (!eat(',')) return std::nullopt;
      auto rest = sequence('}');
      if (!rest) return std::nullopt;
      for (auto& x : rest->items) n.items.push_back(std::move(x));
      return n;
    }
    doc::Node n;
    n.kind = doc::Kind::Map;
    auto key = first;
    while (true) {
      if (key->kind != doc::Kind::Scalar) return std::nullopt;
      auto v = value();
      if (!v) return std::nullopt;
      doc::Node k = *key;
      k.style = doc::Style::Quoted;
      n.entries.push_back({std::move(k), std::move(*v)});
      if (!eat(',')) return eat('}') ? std::optional<doc::Node>(n) : std::nullopt;
      if (eat('}')) return n;
      key = value();
      if (!key || !eat(':')) return std::nullopt;
    }
  }

  std::optional<doc::Node> value() {
    skip();
    if (i_ >= s_.size()) return std::nullopt;
    if (word("None")) return doc::Node{};
    if (word("True")) return scalar("true", doc::Style::Plain);
    if (word("False")) return scalar("false", doc::Style::Plain);
    if (eat('[')) return sequence(']');
    if (eat('{')) return braces();
    if (eat('(')) {
      // A parenthesised value, or a tuple.
      size_t save = i_;
      auto v = value();
      if (v && eat(')')) return v;
      i_ = save;
      return sequence(')');
    }
    if (auto s = strings()) return s;
    return number();
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

std::optional<doc::Node> python_literal(std::string_view text) { return LiteralParser(text).whole(); }

}  // namespace blis::pyread
