// Original to BLIS: fwkplugin::StrictObject decodes a plugin's parameters with encoding/json's rules and error
// texts (router/epp/framework/interface/plugin/decode.h).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/decode.h"

namespace blis::router::fwkplugin {
namespace {

struct Params {
  int Threshold = 7;
  double Weight = 1.5;
  bool Enabled = false;
  std::string Label = "dflt";
  std::vector<std::string> Values;
  std::map<std::string, std::string> Labels;
};

// Decodes text into Params as a factory does; returns the error text, or "" on success.
std::string decode(const std::string& text, Params& p) {
  nlohmann::json j = nlohmann::json::parse(text);
  try {
    StrictObject obj(&j, "loadaware.Parameters");
    obj.Field("threshold", p.Threshold).Field("weight", p.Weight).Field("enabled", p.Enabled);
    obj.Field("label", p.Label).Field("values", p.Values).Field("labels", p.Labels);
    obj.Finish();
  } catch (const PluginError& e) {
    return e.what();
  }
  return "";
}

TEST(StrictObject, DecodesPresentFieldsAndKeepsDefaults) {
  Params p;
  EXPECT_EQ(decode(R"({"threshold": 3, "Enabled": true, "values": ["a", null], "labels": {"k": "v", "n": null}})", p), "");
  EXPECT_EQ(p.Threshold, 3);
  EXPECT_TRUE(p.Enabled);  // matched case-insensitively, as encoding/json does
  EXPECT_DOUBLE_EQ(p.Weight, 1.5);
  EXPECT_EQ(p.Label, "dflt");
  EXPECT_EQ(p.Values, (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(p.Labels, (std::map<std::string, std::string>{{"k", "v"}, {"n", ""}}));
}

TEST(StrictObject, NullLeavesAFieldUnchanged) {
  Params p;
  EXPECT_EQ(decode(R"({"threshold": null, "label": null})", p), "");
  EXPECT_EQ(p.Threshold, 7);
  EXPECT_EQ(p.Label, "dflt");
}

TEST(StrictObject, RefusesWithEncodingJsonsTexts) {
  Params p;
  EXPECT_EQ(decode(R"({"thresholds": 3})", p), "json: unknown field \"thresholds\"");
  EXPECT_EQ(decode(R"({"threshold": "3"})", p),
            "json: cannot unmarshal string into Go struct field Parameters.threshold of type int");
  EXPECT_EQ(decode(R"({"threshold": 1.5})", p),
            "json: cannot unmarshal number 1.5 into Go struct field Parameters.threshold of type int");
  EXPECT_EQ(decode(R"({"threshold": 3.0})", p), "");  // an integral number decodes into an int
  EXPECT_EQ(decode(R"({"weight": true})", p),
            "json: cannot unmarshal bool into Go struct field Parameters.weight of type float64");
  EXPECT_EQ(decode(R"({"values": "a"})", p),
            "json: cannot unmarshal string into Go struct field Parameters.values of type []string");
  EXPECT_EQ(decode(R"([1, 2])", p), "json: cannot unmarshal array into Go value of type loadaware.Parameters");
}

TEST(StrictObject, NoParametersIsNoOp) {
  Params p;
  StrictObject obj(nullptr, "loadaware.Parameters");
  obj.Field("threshold", p.Threshold);
  obj.Finish();
  EXPECT_EQ(p.Threshold, 7);
}

}  // namespace
}  // namespace blis::router::fwkplugin
