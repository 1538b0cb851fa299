// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcriptions of pkg/epp/framework/interface/datalayer/attributemap_test.go@71f4f099,
// metrics_test.go@71f4f099 and endpoint_metadata_test.go@71f4f099 (the tests of what the port keeps: Go's nil
// receivers, UpdateTime and the Kubernetes Pod are not ported).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/datalayer/attributemap.h"
#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/datalayer/metrics.h"

namespace blis::router::fwkdl {
namespace {

// dummy / anotherDummy of attributemap_test.go.
struct dummy final : Cloneable {
  explicit dummy(std::string t) : Text(std::move(t)) {}
  std::string Text;
  CloneablePtr Clone() const override { return std::make_shared<dummy>(Text); }
  bool DeepEqual(const Cloneable& o) const override {
    const auto* d = dynamic_cast<const dummy*>(&o);
    return d != nullptr && d->Text == Text;
  }
};
struct anotherDummy final : Cloneable {
  explicit anotherDummy(int n) : Number(n) {}
  int Number;
  CloneablePtr Clone() const override { return std::make_shared<anotherDummy>(Number); }
  bool DeepEqual(const Cloneable& o) const override {
    const auto* d = dynamic_cast<const anotherDummy*>(&o);
    return d != nullptr && d->Number == Number;
  }
};

// pkg/epp/framework/interface/datalayer/attributemap_test.go@71f4f099 TestExpectPutThenGetToMatch
TEST(AttributeMapTest, ExpectPutThenGetToMatch) {
  auto attrs = NewAttributes();
  auto original = std::make_shared<dummy>("foo");
  attrs->Put("a", original);

  auto got = attrs->Get("a");
  ASSERT_NE(got, nullptr) << "expected key to exist";
  EXPECT_NE(got.get(), original.get()) << "expected Get to return a clone, not original";
  auto dv = std::dynamic_pointer_cast<dummy>(got);
  ASSERT_NE(dv, nullptr) << "expected value to be of type *dummy";
  EXPECT_EQ("foo", dv->Text);

  EXPECT_EQ(attrs->Get("b"), nullptr) << "expected key not to exist";
}

// pkg/epp/framework/interface/datalayer/attributemap_test.go@71f4f099 TestExpectKeysToMatchAdded
TEST(AttributeMapTest, ExpectKeysToMatchAdded) {
  auto attrs = NewAttributes();
  attrs->Put("x", std::make_shared<dummy>("1"));
  attrs->Put("y", std::make_shared<dummy>("2"));
  auto keys = attrs->Keys();
  ASSERT_EQ(keys.size(), 2u);
  std::sort(keys.begin(), keys.end());  // ElementsMatch
  EXPECT_EQ(keys, (std::vector<std::string>{"x", "y"}));
}

// pkg/epp/framework/interface/datalayer/attributemap_test.go@71f4f099 TestCloneReturnsCopy
TEST(AttributeMapTest, CloneReturnsCopy) {
  auto original = NewAttributes();
  original->Put("k", std::make_shared<dummy>("value"));
  auto cloned = original->Clone();
  auto kOrig = original->Get("k");
  auto kClone = cloned->Get("k");
  ASSERT_NE(kOrig, nullptr);
  ASSERT_NE(kClone, nullptr);
  EXPECT_NE(kOrig.get(), kClone.get()) << "expected cloned value to be a different instance";
  EXPECT_TRUE(kOrig->DeepEqual(*kClone));  // cmp.Diff == ""
}

// pkg/epp/framework/interface/datalayer/attributemap_test.go@71f4f099 TestReadAttribute
TEST(AttributeMapTest, ReadAttribute) {
  auto attrs = NewAttributes();
  auto original = std::make_shared<dummy>("foo");
  attrs->Put("a", original);

  auto got = fwkdl::ReadAttribute<dummy>(*attrs, "a");
  ASSERT_NE(got, nullptr) << "expected key to exist and value to be of type *dummy";
  EXPECT_NE(got.get(), original.get()) << "expected Get to return a clone, not original";
  EXPECT_EQ("foo", got->Text);

  // missing key
  EXPECT_EQ(fwkdl::ReadAttribute<dummy>(*attrs, "b"), nullptr) << "expected key not to exist";
  // type mismatch
  EXPECT_EQ(fwkdl::ReadAttribute<anotherDummy>(*attrs, "a"), nullptr) << "expected type mismatch";
}

// pkg/epp/framework/interface/datalayer/attributemap_test.go@71f4f099 TestDynamicAttribute
TEST(AttributeMapTest, DynamicAttribute) {
  auto attrs = NewAttributes();
  auto val = std::make_shared<dummy>("live");
  auto dynamic = std::make_shared<fwkdl::DynamicAttribute>();
  dynamic->Get = [val]() -> CloneablePtr { return val; };
  attrs->Put("dynamic_key", dynamic);

  auto got = std::dynamic_pointer_cast<dummy>(attrs->Get("dynamic_key"));
  ASSERT_NE(got, nullptr);
  EXPECT_EQ("live", got->Text);

  // Mutate the source value; the second read reflects the change.
  val->Text = "changed";
  auto got2 = std::dynamic_pointer_cast<dummy>(attrs->Get("dynamic_key"));
  ASSERT_NE(got2, nullptr);
  EXPECT_EQ("changed", got2->Text);
}

// pkg/epp/framework/interface/datalayer/metrics_test.go@71f4f099 TestMetricsClone
// (a value copy is Go's Clone; UpdateTime is not ported)
TEST(MetricsTest, Clone) {
  Metrics m;
  m.ActiveModels = {{"modelA", 1}};
  m.WaitingModels = {{"modelB", 2}};
  m.MaxActiveModels = 5;
  m.RunningRequestsSize = 3;
  m.WaitingQueueSize = 7;
  m.KVCacheUsagePercent = 42.5;
  m.KvCacheMaxTokenCapacity = 2048;

  Metrics clone = m;
  EXPECT_EQ(m, clone);

  // Maps are copied, not shared.
  clone.ActiveModels["modelA"] = 42;
  EXPECT_EQ(1, m.ActiveModels["modelA"]) << "mutating clone should not affect original";
  clone.WaitingModels["modelB"] = 99;
  EXPECT_EQ(2, m.WaitingModels["modelB"]) << "mutating clone should not affect original";
}

// pkg/epp/framework/interface/datalayer/metrics_test.go@71f4f099 TestMetricsToString
// (the nil-receiver half is not modelled: a Metrics here is a value)
TEST(MetricsTest, ToString) {
  const Metrics m = NewMetrics();
  EXPECT_FALSE(m.String().empty());
}

// expected of endpoint_metadata_test.go.
EndpointMetadata expectedMetadata() {
  EndpointMetadata e;
  e.ID = NamespacedName{"default", "test-pod"};
  e.Address = "192.168.1.123";
  e.Labels = {{"app", "inference-server"}, {"env", "prod"}, {"team", "ml"}};
  return e;
}

// pkg/epp/framework/interface/datalayer/endpoint_metadata_test.go@71f4f099 TestEndpointMetadataClone
TEST(EndpointMetadataTest, Clone) {
  const EndpointMetadata expected = expectedMetadata();
  EndpointMetadata clone = expected;  // a value copy is Go's Clone
  EXPECT_EQ(expected, clone);
  clone.Labels["env"] = "staging";
  EXPECT_EQ("prod", expected.Labels.at("env")) << "mutating clone should not affect original";
}

// pkg/epp/framework/interface/datalayer/endpoint_metadata_test.go@71f4f099 TestEndpointMetadataEqual
// (the nil-pointer cases are not modelled: metadata here is a value)
TEST(EndpointMetadataTest, Equal) {
  EndpointMetadata base;
  base.ID = NamespacedName{"default", "pod-a-rank-0"};
  base.Name = "pod-a";
  base.Address = "10.0.0.1";
  base.Port = "8000";
  base.MetricsHost = "10.0.0.1:9000";
  base.Labels = {{"app", "vllm"}};
  base.RankIndex = 1;

  EXPECT_TRUE(base.Equal(EndpointMetadata(base)));
  EXPECT_TRUE(EndpointMetadata{}.Equal(EndpointMetadata{})) << "nil and empty labels should be treated as equivalent";

  struct Case {
    std::string name;
    void (*mutate)(EndpointMetadata&);
  };
  const std::vector<Case> tests = {
      {"namespaced name", [](EndpointMetadata& m) { m.ID.Name = "pod-b-rank-0"; }},
      {"endpoint name", [](EndpointMetadata& m) { m.Name = "pod-b"; }},
      {"address", [](EndpointMetadata& m) { m.Address = "10.0.0.2"; }},
      {"port", [](EndpointMetadata& m) { m.Port = "8001"; }},
      {"metrics host", [](EndpointMetadata& m) { m.MetricsHost = "10.0.0.1:9001"; }},
      {"labels", [](EndpointMetadata& m) { m.Labels["app"] = "sglang"; }},
      {"rank index", [](EndpointMetadata& m) { m.RankIndex = 2; }},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    EndpointMetadata changed = base;
    tt.mutate(changed);
    EXPECT_FALSE(base.Equal(changed));
  }
}

// pkg/epp/framework/interface/datalayer/endpoint_metadata_test.go@71f4f099 TestEndpointMetadataString
TEST(EndpointMetadataTest, String) {
  EndpointMetadata m;
  m.ID = NamespacedName{"default", "test-pod"};
  m.Name = "test-pod";
  m.Address = "192.168.1.123";
  m.Port = "8000";
  m.MetricsHost = "127.0.0.1:8000";
  m.Labels = {{"app", "inference-server"}, {"env", "prod"}, {"team", "ml"}};
  const std::string s = m.String();
  EXPECT_NE(s.find("test-pod"), std::string::npos) << s;
  EXPECT_NE(s.find("default"), std::string::npos) << s;
  EXPECT_NE(s.find("192.168.1.123"), std::string::npos) << s;
}

}  // namespace
}  // namespace blis::router::fwkdl
