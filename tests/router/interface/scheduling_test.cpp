// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcriptions of pkg/epp/framework/interface/scheduling/types_test.go@71f4f099,
// attributes_test.go@71f4f099 and plugins_test.go@71f4f099 (the tests of what the port keeps: Go's nil
// receivers, Modality and concurrent access are not ported).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::fwksched {
namespace {

// cloneableString of types_test.go.
struct cloneableString final : fwkdl::Cloneable {
  explicit cloneableString(std::string v) : s(std::move(v)) {}
  std::string s;
  fwkdl::CloneablePtr Clone() const override { return std::make_shared<cloneableString>(s); }
  bool DeepEqual(const fwkdl::Cloneable& o) const override {
    const auto* c = dynamic_cast<const cloneableString*>(&o);
    return c != nullptr && c->s == s;
  }
};
fwkdl::CloneablePtr cs(const std::string& v) { return std::make_shared<cloneableString>(v); }

// assert.Equal(t, cloneableString(want), v)
void expectCloneableString(const fwkdl::CloneablePtr& v, const std::string& want) {
  ASSERT_NE(v, nullptr);
  const auto* c = dynamic_cast<const cloneableString*>(v.get());
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(want, c->s);
}

fwkdl::EndpointMetadata newTestMetadata(const std::string& name) {
  fwkdl::EndpointMetadata m;
  m.ID = fwkdl::NamespacedName{"ns", name};
  m.Name = name;
  m.Address = "10.0.0.1";
  m.Port = "8000";
  m.MetricsHost = "10.0.0.1:9100";
  m.Labels = {{"app", "inference"}};
  return m;
}

fwkdl::Metrics newTestMetrics() {
  fwkdl::Metrics m = fwkdl::NewMetrics();
  m.RunningRequestsSize = 3;
  m.WaitingQueueSize = 1;
  m.KVCacheUsagePercent = 0.42;
  return m;
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestInferenceRequest_String_HasFields
TEST(SchedulingTypesTest, InferenceRequestStringHasFields) {
  InferenceRequest r;
  r.RequestID = "req-1";
  r.TargetModel = "llama-7b";
  r.Body = std::make_shared<fwkrh::InferenceRequestBody>();
  r.Headers = {{"x-trace", "abc"}};
  const std::string s = r.String();
  EXPECT_NE(s.find("req-1"), std::string::npos) << s;
  EXPECT_NE(s.find("llama-7b"), std::string::npos) << s;
  EXPECT_NE(s.find("x-trace"), std::string::npos) << s;
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestNewEndpoint_CopiesInputs
TEST(SchedulingTypesTest, NewEndpointCopiesInputs) {
  fwkdl::EndpointMetadata meta = newTestMetadata("pod-a");
  fwkdl::Metrics metrics = newTestMetrics();
  auto attr = fwkdl::NewAttributes();
  attr->Put("key", cs("value"));

  auto ep = NewEndpoint(meta, metrics, attr);
  ASSERT_NE(ep, nullptr);

  // Mutating the original metadata and metrics must not affect the endpoint.
  meta.Labels["app"] = "mutated";
  EXPECT_EQ("inference", ep->GetMetadata()->Labels.at("app"));
  metrics.RunningRequestsSize = 999;
  EXPECT_EQ(3, ep->GetMetrics()->RunningRequestsSize);

  // Values from the attribute map are retrievable.
  expectCloneableString(ep->Get("key"), "value");
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestNewEndpoint_NilAttributeUsesDefault
TEST(SchedulingTypesTest, NewEndpointNilAttributeUsesDefault) {
  auto ep = NewEndpoint(newTestMetadata("pod-b"), newTestMetrics(), nullptr);
  ASSERT_NE(ep, nullptr);
  EXPECT_TRUE(ep->Keys().empty());
  ep->Put("k", cs("v"));
  expectCloneableString(ep->Get("k"), "v");
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestEndpoint_StringContainsFields
TEST(SchedulingTypesTest, EndpointStringContainsFields) {
  auto ep = NewEndpoint(newTestMetadata("pod-c"), newTestMetrics(), nullptr);
  const std::string s = ep->String();
  EXPECT_NE(s.find("pod-c"), std::string::npos) << s;
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestEndpoint_Clone
TEST(SchedulingTypesTest, EndpointClone) {
  auto attr = fwkdl::NewAttributes();
  attr->Put("k", cs("v"));
  auto ep = NewEndpoint(newTestMetadata("pod-d"), newTestMetrics(), attr);
  auto cloned = ep->Clone();
  ASSERT_NE(cloned, nullptr);
  expectCloneableString(cloned->Get("k"), "v");
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestEndpointComparer_Equal
TEST(SchedulingTypesTest, EndpointComparerEqual) {
  auto attrA = fwkdl::NewAttributes();
  attrA->Put("k", cs("v"));
  auto attrB = fwkdl::NewAttributes();
  attrB->Put("k", cs("v"));
  auto a = NewEndpoint(newTestMetadata("pod"), newTestMetrics(), attrA);
  auto b = NewEndpoint(newTestMetadata("pod"), newTestMetrics(), attrB);
  EXPECT_TRUE(EndpointComparer(*a, *b));
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestEndpointComparer_DifferByMetadata
TEST(SchedulingTypesTest, EndpointComparerDifferByMetadata) {
  auto a = NewEndpoint(newTestMetadata("pod-a"), newTestMetrics(), nullptr);
  auto b = NewEndpoint(newTestMetadata("pod-b"), newTestMetrics(), nullptr);
  EXPECT_FALSE(EndpointComparer(*a, *b));
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestEndpointComparer_DifferByMetrics
TEST(SchedulingTypesTest, EndpointComparerDifferByMetrics) {
  fwkdl::Metrics mA = newTestMetrics();
  fwkdl::Metrics mB = newTestMetrics();
  mB.WaitingQueueSize = 99;
  auto a = NewEndpoint(newTestMetadata("pod"), mA, nullptr);
  auto b = NewEndpoint(newTestMetadata("pod"), mB, nullptr);
  EXPECT_FALSE(EndpointComparer(*a, *b));
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestEndpointComparer_DifferByAttributeKeys
TEST(SchedulingTypesTest, EndpointComparerDifferByAttributeKeys) {
  auto attrA = fwkdl::NewAttributes();
  attrA->Put("k1", cs("v"));
  auto attrB = fwkdl::NewAttributes();
  attrB->Put("k1", cs("v"));
  attrB->Put("extra", cs("x"));
  auto a = NewEndpoint(newTestMetadata("pod"), newTestMetrics(), attrA);
  auto b = NewEndpoint(newTestMetadata("pod"), newTestMetrics(), attrB);
  EXPECT_FALSE(EndpointComparer(*a, *b));
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestEndpointComparer_DifferByAttributeValues
TEST(SchedulingTypesTest, EndpointComparerDifferByAttributeValues) {
  auto attrA = fwkdl::NewAttributes();
  attrA->Put("k", cs("v1"));
  auto attrB = fwkdl::NewAttributes();
  attrB->Put("k", cs("v2"));
  auto a = NewEndpoint(newTestMetadata("pod"), newTestMetrics(), attrA);
  auto b = NewEndpoint(newTestMetadata("pod"), newTestMetrics(), attrB);
  EXPECT_FALSE(EndpointComparer(*a, *b));
}

// pkg/epp/framework/interface/scheduling/types_test.go@71f4f099 TestScoredEndpointComparer
TEST(SchedulingTypesTest, ScoredEndpointComparer) {
  auto a = NewEndpoint(newTestMetadata("pod"), newTestMetrics(), nullptr);
  auto b = NewEndpoint(newTestMetadata("pod"), newTestMetrics(), nullptr);
  EXPECT_TRUE(fwksched::ScoredEndpointComparer(ScoredEndpoint(a, 0.5), ScoredEndpoint(b, 0.5)));
  EXPECT_FALSE(fwksched::ScoredEndpointComparer(ScoredEndpoint(a, 0.5), ScoredEndpoint(b, 0.6)));
  auto other = NewEndpoint(newTestMetadata("pod-other"), newTestMetrics(), nullptr);
  EXPECT_FALSE(fwksched::ScoredEndpointComparer(ScoredEndpoint(a, 1), ScoredEndpoint(other, 1)));
}

// pkg/epp/framework/interface/scheduling/attributes_test.go@71f4f099 TestRequestAttributes_PutThenGet
TEST(RequestAttributesTest, PutThenGet) {
  InferenceRequest r;
  r.PutAttribute("session", std::string("abc"));
  const std::any* v = r.GetAttribute("session");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ("abc", std::any_cast<std::string>(*v));
  EXPECT_EQ(r.GetAttribute("missing"), nullptr);
}

// pkg/epp/framework/interface/scheduling/attributes_test.go@71f4f099 TestRequestAttributes_KeysAfterPuts
TEST(RequestAttributesTest, KeysAfterPuts) {
  InferenceRequest r;
  r.PutAttribute("a", 1);
  r.PutAttribute("b", std::string("two"));
  r.PutAttribute("a", 11);  // overwrite
  auto keys = r.AttributeKeys();
  std::sort(keys.begin(), keys.end());  // ElementsMatch
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "b"}));
}

// pkg/epp/framework/interface/scheduling/attributes_test.go@71f4f099 TestReadRequestAttribute
// (Go's zero value on a miss is std::nullopt here)
TEST(RequestAttributesTest, ReadRequestAttribute) {
  InferenceRequest r;
  r.PutAttribute("count", 42);
  r.PutAttribute("name", std::string("alpha"));

  const auto count = fwksched::ReadRequestAttribute<int>(r, "count");
  ASSERT_TRUE(count.has_value());
  EXPECT_EQ(42, *count);
  const auto name = fwksched::ReadRequestAttribute<std::string>(r, "name");
  ASSERT_TRUE(name.has_value());
  EXPECT_EQ("alpha", *name);
  EXPECT_FALSE(fwksched::ReadRequestAttribute<int>(r, "absent").has_value());
  EXPECT_FALSE(fwksched::ReadRequestAttribute<std::string>(r, "count").has_value());
}

// pkg/epp/framework/interface/scheduling/attributes_test.go@71f4f099 TestRequestAttributes_ZeroValueRequestIsUsable
TEST(RequestAttributesTest, ZeroValueRequestIsUsable) {
  InferenceRequest r{};
  r.PutAttribute("k", std::string("v"));
  const std::any* v = r.GetAttribute("k");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ("v", std::any_cast<std::string>(*v));
}

// pkg/epp/framework/interface/scheduling/plugins_test.go@71f4f099 TestScorerCategory_Values
TEST(SchedulingPluginsTest, ScorerCategoryValues) {
  EXPECT_EQ(ScorerCategory("Affinity"), Affinity);
  EXPECT_EQ(ScorerCategory("Distribution"), Distribution);
  EXPECT_EQ(ScorerCategory("Balance"), Balance);
}

// pkg/epp/framework/interface/scheduling/plugins_test.go@71f4f099 TestScorerCategory_Distinct
TEST(SchedulingPluginsTest, ScorerCategoryDistinct) {
  const std::set<ScorerCategory> cats = {Affinity, Distribution, Balance};
  EXPECT_EQ(cats.size(), 3u) << "scorer categories must be distinct";
}

// The fakes of plugins_test.go.
class fakeBase : public virtual fwkplugin::Plugin {
 public:
  explicit fakeBase(fwkplugin::TypedName tn) : tn_(std::move(tn)) {}
  fwkplugin::TypedName TypedName() const override { return tn_; }

 private:
  fwkplugin::TypedName tn_;
};

class fakeFilter final : public fakeBase, public FilterPlugin {
 public:
  using fakeBase::fakeBase;
  fwkplugin::TypedName TypedName() const override { return fakeBase::TypedName(); }
  std::vector<EndpointPtr> Filter(InferenceRequest*, const std::vector<EndpointPtr>& pods) override {
    called = true;
    return pods;
  }
  bool called = false;
};

class fakeScorer final : public fakeBase, public Scorer {
 public:
  fakeScorer(fwkplugin::TypedName tn, ScorerCategory c) : fakeBase(std::move(tn)), cat(std::move(c)) {}
  fwkplugin::TypedName TypedName() const override { return fakeBase::TypedName(); }
  ScorerCategory Category() const override { return cat; }
  ScoreMap Score(InferenceRequest*, const std::vector<EndpointPtr>& pods) override {
    ScoreMap out;
    for (const auto& p : pods) out[p] = 1;
    return out;
  }
  ScorerCategory cat;
};

class fakePicker final : public fakeBase, public Picker {
 public:
  using fakeBase::fakeBase;
  fwkplugin::TypedName TypedName() const override { return fakeBase::TypedName(); }
  std::shared_ptr<ProfileRunResult> Pick(std::vector<ScoredEndpointPtr>& scored) override {
    auto res = std::make_shared<ProfileRunResult>();
    for (const auto& s : scored) res->TargetEndpoints.push_back(s->Endpoint);
    return res;
  }
};

class fakeProfileHandler final : public fakeBase, public ProfileHandler {
 public:
  using fakeBase::fakeBase;
  fwkplugin::TypedName TypedName() const override { return fakeBase::TypedName(); }
  ProfileMap Pick(InferenceRequest*, const ProfileMap& profiles, const ProfileResultMap&) override {
    return profiles;
  }
  Outcome<SchedulingResult> ProcessResults(InferenceRequest*, const ProfileResultMap& profileResults) override {
    std::string primary;
    if (!profileResults.empty()) primary = profileResults.begin()->first;
    auto res = std::make_shared<SchedulingResult>();
    res->ProfileResults = profileResults;
    res->PrimaryProfileName = primary;
    return {res, std::nullopt};
  }
};

// pkg/epp/framework/interface/scheduling/plugins_test.go@71f4f099 TestFilter_InterfaceCompliance
TEST(SchedulingPluginsTest, FilterInterfaceCompliance) {
  auto f = std::make_shared<fakeFilter>(fwkplugin::TypedName{"filter", "f1"});
  std::shared_ptr<FilterPlugin> asFilter = f;
  std::shared_ptr<fwkplugin::Plugin> asPlugin = f;
  const std::vector<EndpointPtr> pods = {NewEndpoint(newTestMetadata("p1"), newTestMetrics(), nullptr)};
  InferenceRequest req;
  const auto got = asFilter->Filter(&req, pods);
  EXPECT_TRUE(f->called);
  EXPECT_EQ(pods, got);
}

// pkg/epp/framework/interface/scheduling/plugins_test.go@71f4f099 TestScorer_InterfaceCompliance
TEST(SchedulingPluginsTest, ScorerInterfaceCompliance) {
  auto s = std::make_shared<fakeScorer>(fwkplugin::TypedName{"scorer", "s1"}, Balance);
  std::shared_ptr<Scorer> asScorer = s;
  std::shared_ptr<fwkplugin::Plugin> asPlugin = s;
  const std::vector<EndpointPtr> pods = {NewEndpoint(newTestMetadata("p1"), newTestMetrics(), nullptr)};
  InferenceRequest req;
  EXPECT_EQ(asScorer->Score(&req, pods).size(), 1u);
  EXPECT_EQ(Balance, asScorer->Category());
}

// pkg/epp/framework/interface/scheduling/plugins_test.go@71f4f099 TestPicker_InterfaceCompliance
TEST(SchedulingPluginsTest, PickerInterfaceCompliance) {
  auto p = std::make_shared<fakePicker>(fwkplugin::TypedName{"picker", "p1"});
  std::shared_ptr<Picker> asPicker = p;
  std::shared_ptr<fwkplugin::Plugin> asPlugin = p;
  auto ep = NewEndpoint(newTestMetadata("p1"), newTestMetrics(), nullptr);
  std::vector<ScoredEndpointPtr> scored = {std::make_shared<ScoredEndpoint>(ep, 1)};
  auto res = asPicker->Pick(scored);
  ASSERT_NE(res, nullptr);
  EXPECT_EQ(res->TargetEndpoints.size(), 1u);
}

// pkg/epp/framework/interface/scheduling/plugins_test.go@71f4f099 TestProfileHandler_InterfaceCompliance
TEST(SchedulingPluginsTest, ProfileHandlerInterfaceCompliance) {
  auto h = std::make_shared<fakeProfileHandler>(fwkplugin::TypedName{"profile", "ph1"});
  std::shared_ptr<ProfileHandler> asHandler = h;
  std::shared_ptr<fwkplugin::Plugin> asPlugin = h;
  InferenceRequest req;
  const ProfileMap profiles = {{"primary", nullptr}};
  EXPECT_EQ(asHandler->Pick(&req, profiles, {}).size(), 1u);

  const ProfileResultMap results = {{"primary", std::make_shared<ProfileRunResult>()}};
  const auto sched = asHandler->ProcessResults(&req, results);
  EXPECT_FALSE(sched.Err.has_value());
  ASSERT_NE(sched.Value, nullptr);
  EXPECT_EQ("primary", sched.Value->PrimaryProfileName);
  EXPECT_EQ(results.at("primary").get(), sched.Value->ProfileResults.at("primary").get());
}

}  // namespace
}  // namespace blis::router::fwksched
