// SPDX-License-Identifier: Apache-2.0
// Copyright 2014 The Kubernetes Authors.
// Changed for BLIS: a C++ port of the subset of k8s.io/apimachinery@v0.35.7 (the version go.mod pins at
// llm-d-router@71f4f099) that pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 uses:
// metav1.LabelSelector and LabelSelectorAsSelector (pkg/apis/meta/v1/{types,helpers}.go), and from
// pkg/labels/selector.go the Requirement (NewRequirement with its key/value validation and error texts,
// Matches) and the internal selector, Everything and Nothing. The semantics follow apimachinery's labels
// package. Not ported: the selector string parser (labels.Parse), String/DeepCopy/RequiresExactMatch, and
// the Gt/Lt/!=/== operators (a metav1.LabelSelector cannot express them: LabelSelectorAsSelector refuses
// any operator other than In, NotIn, Exists and DoesNotExist with its own error).
#pragma once

#include <map>
#include <string>
#include <vector>

// Namespace k8s: the apimachinery packages metav1 (LabelSelector*) and labels (Requirement, Selector).
namespace blis::router::bylabel::k8s {

// k8s.io/apimachinery/pkg/labels.Set (a map of label names to values); endpoints' Labels.
using Set = std::map<std::string, std::string>;

// k8s.io/apimachinery/pkg/apis/meta/v1/types.go LabelSelectorRequirement
struct LabelSelectorRequirement {
  std::string Key;
  std::string Operator;  // metav1.LabelSelectorOperator
  std::vector<std::string> Values;
};

// k8s.io/apimachinery/pkg/apis/meta/v1/types.go LabelSelector (a nil and an empty MatchLabels are the same
// here, as LabelSelectorAsSelector only reads their length and entries).
struct LabelSelector {
  std::map<std::string, std::string> MatchLabels;
  std::vector<LabelSelectorRequirement> MatchExpressions;
};

// k8s.io/apimachinery/pkg/selection Operator, the operators a LabelSelector converts to.
enum class Operator { Equals, In, NotIn, Exists, DoesNotExist };

// k8s.io/apimachinery/pkg/labels/selector.go Requirement
class Requirement {
 public:
  // k8s.io/apimachinery/pkg/labels/selector.go Requirement.Matches
  bool Matches(const Set& ls) const;
  const std::string& Key() const { return key_; }
  Operator GetOperator() const { return operator_; }

 private:
  friend Requirement NewRequirement(const std::string& key, Operator op, const std::vector<std::string>& vals);
  bool hasValue(const std::string& value) const;
  std::string key_;
  Operator operator_ = Operator::Equals;
  std::vector<std::string> strValues_;
};

// k8s.io/apimachinery/pkg/labels/selector.go NewRequirement
// Throws std::invalid_argument with the aggregated field.ErrorList text upstream returns (key validation,
// the operator's value-count rule, each value's validation). vals empty stands for Go's nil slice (its
// rendering in an error is "null", as LabelSelectorAsSelector always passes nil for no values).
Requirement NewRequirement(const std::string& key, Operator op, const std::vector<std::string>& vals);

// k8s.io/apimachinery/pkg/labels/selector.go Selector (internalSelector, and nothingSelector when Nothing)
class Selector {
 public:
  // k8s.io/apimachinery/pkg/labels/selector.go internalSelector.Matches / nothingSelector.Matches
  bool Matches(const Set& ls) const;
  // k8s.io/apimachinery/pkg/labels/selector.go internalSelector.Add (requirements kept sorted by key)
  Selector Add(const std::vector<Requirement>& reqs) const;
  // k8s.io/apimachinery/pkg/labels/selector.go internalSelector.Empty / nothingSelector.Empty
  bool Empty() const { return !nothing_ && requirements_.empty(); }
  const std::vector<Requirement>& Requirements() const { return requirements_; }

  // k8s.io/apimachinery/pkg/labels/selector.go Everything
  static Selector Everything() { return Selector(false); }
  // k8s.io/apimachinery/pkg/labels/selector.go Nothing
  static Selector Nothing() { return Selector(true); }

 private:
  explicit Selector(bool nothing) : nothing_(nothing) {}
  bool nothing_;
  std::vector<Requirement> requirements_;
};

// k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go LabelSelectorAsSelector
// nullptr gives Nothing, an empty selector Everything. Throws std::invalid_argument with upstream's text
// for an unknown operator or an invalid requirement. Go ranges over MatchLabels in random order and returns
// the first invalid entry's error; this port takes them in key order (only which of several invalid
// entries is reported can differ).
Selector LabelSelectorAsSelector(const LabelSelector* ps);

// k8s.io/apimachinery/pkg/api/validate/content/kube.go IsLabelKey (the error strings; empty when valid)
std::vector<std::string> IsLabelKey(const std::string& value);
// k8s.io/apimachinery/pkg/api/validate/content/kube.go IsLabelValue
std::vector<std::string> IsLabelValue(const std::string& value);
// k8s.io/apimachinery/pkg/api/validate/content/dns.go IsDNS1123Subdomain
std::vector<std::string> IsDNS1123Subdomain(const std::string& value);

}  // namespace blis::router::bylabel::k8s
