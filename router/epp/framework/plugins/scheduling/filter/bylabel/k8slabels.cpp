// SPDX-License-Identifier: Apache-2.0
// Copyright 2014 The Kubernetes Authors.
// Changed for BLIS: a C++ port of the label-selector subset of k8s.io/apimachinery@v0.35.7 that
// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 uses, described in k8slabels.h; the regular expressions of the validation are hand-written matchers of the same languages.
#include "router/epp/framework/plugins/scheduling/filter/bylabel/k8slabels.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace blis::router::bylabel::k8s {
namespace {

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
bool isAlnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
bool isLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$ (content/kube.go labelKeyFmt)
bool matchesLabelKeyFmt(const std::string& s) {
  if (s.empty() || !isAlnum(s.front()) || !isAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return isAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ (content/dns.go dns1123SubdomainFmt)
bool matchesDNS1123Subdomain(const std::string& s) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string label = s.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (label.empty() || !isLowerAlnum(label.front()) || !isLowerAlnum(label.back())) return false;
    for (char c : label) {
      if (!isLowerAlnum(c) && c != '-') return false;
    }
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/api/validate/content/errors.go MaxLenError
std::string MaxLenError(int length) { return "must be no more than " + std::to_string(length) + " bytes"; }
// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/api/validate/content/errors.go EmptyError
std::string EmptyError() { return "must be non-empty"; }
// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/api/validate/content/errors.go RegexError
std::string RegexError(std::string msg, const std::string& re, const std::vector<std::string>& examples) {
  if (examples.empty()) return msg + " (regex used for validation is '" + re + "')";
  msg += " (e.g. ";
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) msg += " or ";
    msg += "'" + examples[i] + "', ";
  }
  msg += "regex used for validation is '" + re + "')";
  return msg;
}

// content/kube.go and content/dns.go constants
const std::string labelKeyFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const std::string labelKeyErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
constexpr int labelKeyMaxLength = 63;
const std::string labelValueFmt = "(" + labelKeyFmt + ")?";
const std::string labelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character";
constexpr int LabelValueMaxLength = 63;
const std::string dns1123SubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const std::string dns1123SubdomainErrorMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character";
constexpr int DNS1123SubdomainMaxLength = 253;

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
std::string hexByte(const char* fmt, unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// Go's %q (strconv.Quote) for the ASCII range; bytes >= 0x80 are copied (Go escapes the non-printable
// and invalid-UTF-8 ones, which no valid label contains).
std::string goQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += hexByte("\\x%02x", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// Go's json.Marshal of a []string (nil when empty, as LabelSelectorAsSelector passes): field.Error renders a
// non-scalar bad value this way. ASCII escaping as encoding/json; bytes >= 0x80 are copied.
std::string goJSONStrings(const std::vector<std::string>& vals) {
  if (vals.empty()) return "null";
  std::string out = "[";
  for (std::size_t i = 0; i < vals.size(); ++i) {
    if (i > 0) out += ",";
    out += "\"";
    for (unsigned char c : vals[i]) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '<': case '>': case '&': out += hexByte("\\u%04x", c); break;
        default:
          if (c < 0x20) {
            out += hexByte("\\u%04x", c);
          } else {
            out += static_cast<char>(c);
          }
      }
    }
    out += "\"";
  }
  return out + "]";
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i > 0 ? sep : "") + parts[i];
  return out;
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/util/validation/field/errors.go Invalid(...).Error() with a string bad value
std::string invalidString(const std::string& path, const std::string& value, const std::string& detail) {
  return path + ": Invalid value: " + goQuote(value) + ": " + detail;
}

}  // namespace

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/api/validate/content/dns.go IsDNS1123Subdomain (isDNS1123Subdomain, not caseless)
std::vector<std::string> IsDNS1123Subdomain(const std::string& value) {
  std::vector<std::string> errs;
  if (static_cast<int>(value.size()) > DNS1123SubdomainMaxLength) errs.push_back(MaxLenError(DNS1123SubdomainMaxLength));
  if (!matchesDNS1123Subdomain(value)) {
    errs.push_back(RegexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/api/validate/content/kube.go IsLabelKey
std::vector<std::string> IsLabelKey(const std::string& value) {
  std::vector<std::string> errs;
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {  // strings.Split(value, "/")
    const std::size_t slash = value.find('/', start);
    parts.push_back(value.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::string name;
  if (parts.size() == 1) {
    name = parts[0];
  } else if (parts.size() == 2) {
    const std::string& prefix = parts[0];
    name = parts[1];
    if (prefix.empty()) {
      errs.push_back("prefix part " + EmptyError());
    } else {
      for (const auto& m : IsDNS1123Subdomain(prefix)) errs.push_back("prefix part " + m);
    }
  } else {
    errs.push_back("a valid label key " + RegexError(labelKeyErrMsg, labelKeyFmt, {"MyName", "my.name", "123-abc"}) +
                   " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    return errs;
  }
  if (name.empty()) {
    errs.push_back("name part " + EmptyError());
  } else if (static_cast<int>(name.size()) > labelKeyMaxLength) {
    errs.push_back("name part " + MaxLenError(labelKeyMaxLength));
  }
  if (!matchesLabelKeyFmt(name)) {
    errs.push_back("name part " + RegexError(labelKeyErrMsg, labelKeyFmt, {"MyName", "my.name", "123-abc"}));
  }
  return errs;
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/api/validate/content/kube.go IsLabelValue
std::vector<std::string> IsLabelValue(const std::string& value) {
  std::vector<std::string> errs;
  if (static_cast<int>(value.size()) > LabelValueMaxLength) errs.push_back(MaxLenError(LabelValueMaxLength));
  if (!value.empty() && !matchesLabelKeyFmt(value)) {
    errs.push_back(RegexError(labelValueErrMsg, labelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/labels/selector.go NewRequirement (with validateLabelKey, validateLabelValue and
// field.ErrorList.ToAggregate: duplicate messages dropped; one error printed alone, several as "[a, b]")
Requirement NewRequirement(const std::string& key, Operator op, const std::vector<std::string>& vals) {
  std::vector<std::string> allErrs;
  if (auto errs = IsLabelKey(key); !errs.empty()) allErrs.push_back(invalidString("key", key, join(errs, "; ")));
  switch (op) {
    case Operator::In:
    case Operator::NotIn:
      if (vals.empty()) {
        allErrs.push_back("values: Invalid value: " + goJSONStrings(vals) +
                          ": for 'in', 'notin' operators, values set can't be empty");
      }
      break;
    case Operator::Equals:
      if (vals.size() != 1) {
        allErrs.push_back("values: Invalid value: " + goJSONStrings(vals) +
                          ": exact-match compatibility requires one single value");
      }
      break;
    case Operator::Exists:
    case Operator::DoesNotExist:
      if (!vals.empty()) {
        allErrs.push_back("values: Invalid value: " + goJSONStrings(vals) +
                          ": values set must be empty for exists and does not exist");
      }
      break;
  }
  for (std::size_t i = 0; i < vals.size(); ++i) {
    if (auto errs = IsLabelValue(vals[i]); !errs.empty()) {
      allErrs.push_back(invalidString("values[" + std::to_string(i) + "][" + key + "]", vals[i], join(errs, "; ")));
    }
  }
  if (!allErrs.empty()) {
    std::vector<std::string> unique;
    std::set<std::string> seen;
    for (const auto& e : allErrs) {
      if (seen.insert(e).second) unique.push_back(e);
    }
    throw std::invalid_argument(unique.size() == 1 ? unique[0] : "[" + join(unique, ", ") + "]");
  }
  Requirement r;
  r.key_ = key;
  r.operator_ = op;
  r.strValues_ = vals;
  return r;
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/labels/selector.go Requirement.hasValue
bool Requirement::hasValue(const std::string& value) const {
  return std::find(strValues_.begin(), strValues_.end(), value) != strValues_.end();
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/labels/selector.go Requirement.Matches
bool Requirement::Matches(const Set& ls) const {
  const auto it = ls.find(key_);
  switch (operator_) {
    case Operator::In:
    case Operator::Equals:
      return it != ls.end() && hasValue(it->second);
    case Operator::NotIn:
      return it == ls.end() || !hasValue(it->second);
    case Operator::Exists:
      return it != ls.end();
    case Operator::DoesNotExist:
      return it == ls.end();
  }
  return false;
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/labels/selector.go internalSelector.Matches (every requirement matches) and
// nothingSelector.Matches (false)
bool Selector::Matches(const Set& ls) const {
  if (nothing_) return false;
  return std::all_of(requirements_.begin(), requirements_.end(), [&](const Requirement& r) { return r.Matches(ls); });
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/labels/selector.go internalSelector.Add (nothingSelector.Add returns itself)
// Go's sort.Sort(ByKey) is not stable; the order of equal keys cannot change a match (all must match), so a
// stable sort stands in.
Selector Selector::Add(const std::vector<Requirement>& reqs) const {
  if (nothing_) return *this;
  Selector ret(false);
  ret.requirements_ = requirements_;
  ret.requirements_.insert(ret.requirements_.end(), reqs.begin(), reqs.end());
  std::stable_sort(ret.requirements_.begin(), ret.requirements_.end(),
                   [](const Requirement& a, const Requirement& b) { return a.Key() < b.Key(); });
  return ret;
}

// Original to BLIS: label-selector semantics of k8s.io/apimachinery's labels package (llm-d's dependency, not an llm-d file).
// k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go LabelSelectorAsSelector
Selector LabelSelectorAsSelector(const LabelSelector* ps) {
  if (ps == nullptr) return Selector::Nothing();
  if (ps->MatchLabels.size() + ps->MatchExpressions.size() == 0) return Selector::Everything();
  std::vector<Requirement> requirements;
  for (const auto& [k, v] : ps->MatchLabels) requirements.push_back(NewRequirement(k, Operator::Equals, {v}));
  for (const auto& expr : ps->MatchExpressions) {
    Operator op;
    if (expr.Operator == "In") {
      op = Operator::In;
    } else if (expr.Operator == "NotIn") {
      op = Operator::NotIn;
    } else if (expr.Operator == "Exists") {
      op = Operator::Exists;
    } else if (expr.Operator == "DoesNotExist") {
      op = Operator::DoesNotExist;
    } else {
      throw std::invalid_argument(goQuote(expr.Operator) + " is not a valid label selector operator");
    }
    requirements.push_back(NewRequirement(expr.Key, op, expr.Values));
  }
  return Selector::Everything().Add(requirements);  // labels.NewSelector().Add(requirements...)
}

}  // namespace blis::router::bylabel::k8s
