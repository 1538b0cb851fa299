// Test data of pkg/epp/config/loader/testdata_test.go@71f4f099: the configuration texts, transcribed as C++ raw
// string literals under their Go names (the YAML bodies unchanged).
#pragma once

namespace blis::router::loader::testdata {

// pkg/epp/config/loader/testdata_test.go@71f4f099 successDeprecatedText
inline constexpr const char* successDeprecatedText = R"yaml(
apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
  parameters:
    threshold: 10
- name: profileHandler
  type: test-profile-handler
- type: test-scorer
  parameters:
    blockSize: 32
- name: testPicker
  type: test-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: test1
  - pluginRef: test-scorer
    weight: 50
  - pluginRef: testPicker
featureGates:
- test-feature-gate
- flowControl
flowControl:
  saturationDetector:
    pluginRef: utilization-detector
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successConfigText
inline constexpr const char* successConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
  parameters:
    threshold: 10
- name: profileHandler
  type: test-profile-handler
- type: test-scorer
  parameters:
    blockSize: 32
- name: testPicker
  type: test-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: test1
  - pluginRef: test-scorer
    weight: 50
  - pluginRef: testPicker
featureGates:
- test-feature-gate
- flowControl
flowControl:
  saturationDetector:
    pluginRef: utilization-detector
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 pluginsInOrderText
inline constexpr const char* pluginsInOrderText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
- type: test-with-dependencies
  parameters:
    dependency: test1
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 pluginsOutOfOrderText
inline constexpr const char* pluginsOutOfOrderText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: test-with-dependencies
  parameters:
    dependency: test1
- name: test1
  type: test-plugin
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 pluginsRefedByPointerText
inline constexpr const char* pluginsRefedByPointerText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: test-with-dependencies
  parameters:
    dependency: test1
    pointedTo:  test2
- name: test1
  type: test-plugin
- name: test2
  type: test-scorer
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 pluginsRefedInNestedingText
inline constexpr const char* pluginsRefedInNestedingText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: test-with-nested-dependencies
  parameters:
    nested:
      dependency: test1
    pointedTo:  test2
    nestedPtr:
      dependency: test2
    extras:
    - test4
    - test3
- name: test1
  type: test-plugin
- name: test2
  type: test-scorer
- name: test3
  type: test-source
- name: test4
  type: test-extractor
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successNoProfilesText
inline constexpr const char* successNoProfilesText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
  parameters:
    threshold: 10
featureGates:
- test-feature-gate=false
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successSchedulerConfigText
inline constexpr const char* successSchedulerConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: testScorer
  type: test-scorer
  parameters:
    blockSize: 32
- name: maxScorePicker
  type: max-score-picker
- name: profileHandler
  type: single-profile-handler
- name: testSource
  type: test-source
- name: testExtractor
  type: test-extractor
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: testScorer
    weight: 50
  - pluginRef: maxScorePicker
dataLayer:
  sources:
  - pluginRef: testSource
    extractors:
    - pluginRef: testExtractor
featureGates:
- test-feature-gate
- flowControl
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successWithNoWeightText
inline constexpr const char* successWithNoWeightText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: profileHandler
  type: single-profile-handler
- name: testScorer
  type: test-scorer
  parameters:
    blockSize: 32
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: testScorer
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successWithNoProfileHandlersText
inline constexpr const char* successWithNoProfileHandlersText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successPickerBeforeScorerText
inline constexpr const char* successPickerBeforeScorerText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: single-profile-handler
- type: test-picker
- type: test-scorer
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: test-picker
  - pluginRef: test-scorer
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successFlowControlConfigText
inline constexpr const char* successFlowControlConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
featureGates:
- flowControl
flowControl:
  maxBytes: "1024"
  defaultRequestTTL: 1m
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successflowControlConfigDisabledText
inline constexpr const char* successflowControlConfigDisabledText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
featureGates: ["flowControl=false"] # Explicit opt-out.
flowControl:
  maxBytes: "1024"
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successFlowControlConfigNoGatesText
inline constexpr const char* successFlowControlConfigNoGatesText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
flowControl:
  maxBytes: "1024"
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successFlowControlDisabledNoSectionText
inline constexpr const char* successFlowControlDisabledNoSectionText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
featureGates: ["flowControl=false"]
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successFlowControlDisabledSaturationDetectorText
inline constexpr const char* successFlowControlDisabledSaturationDetectorText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
featureGates: ["flowControl=false"]
saturationDetector:
  pluginRef: utilization-detector
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successComplexFlowControlConfigText
inline constexpr const char* successComplexFlowControlConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- name: customFCFS
  type: fcfs-ordering-policy
- name: customFairness
  type: global-strict-fairness-policy
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
featureGates:
- flowControl
flowControl:
  priorityBands:
  - priority: 100
    orderingPolicyRef: customFCFS
    fairnessPolicyRef: customFairness
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successParserConfigText
inline constexpr const char* successParserConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- type: openai-parser
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
requestHandler:
  parsers:
  - pluginRef: openai-parser
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successWithNoParserConfigText
inline constexpr const char* successWithNoParserConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successParserWithNameConfigText
inline constexpr const char* successParserWithNameConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- name: openaiParser
  type: openai-parser
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
requestHandler:
  parsers:
  - pluginRef: openaiParser
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successMultipleParsersConfigText
inline constexpr const char* successMultipleParsersConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- type: openai-parser
- name: secondParser
  type: anthropic-parser
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
requestHandler:
  parsers:
  - pluginRef: openai-parser
  - pluginRef: secondParser
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successDataLayerAutoDefaultText
inline constexpr const char* successDataLayerAutoDefaultText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successDataLayerNoSourcesText
inline constexpr const char* successDataLayerNoSourcesText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
dataLayer: {}
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successDataLayerOptOutText
inline constexpr const char* successDataLayerOptOutText = R"yaml(
apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
dataLayer:
  injectDefaults: false
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successDataLayerExplicitConfigText
inline constexpr const char* successDataLayerExplicitConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- name: testSource
  type: test-source
- name: testExtractor
  type: test-extractor
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
dataLayer:
  sources:
  - pluginRef: testSource
    extractors:
    - pluginRef: testExtractor
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadYamlText
inline constexpr const char* errorBadYamlText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- testing 1 2 3
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadPluginReferenceText
inline constexpr const char* errorBadPluginReferenceText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- parameters:
    a: 1234
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadPluginReferencePluginText
inline constexpr const char* errorBadPluginReferencePluginText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: testx
  type: unknown-plugin-type
- name: profileHandler
  type: test-profile-handler
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadPluginJSONText
inline constexpr const char* errorBadPluginJSONText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: profileHandler
  type: single-profile-handler
- name: testScorer
  type: test-scorer
  parameters:
    blockSize: asdf
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: testScorer
    weight: 50
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorUnknownFeatureGateText
inline constexpr const char* errorUnknownFeatureGateText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
  parameters:
    threshold: 10
featureGates:
- unknown-gate
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadFeatureGateText
inline constexpr const char* errorBadFeatureGateText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
  parameters:
    threshold: 10
featureGates:
- flowControl=qwerty
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorNoProfileNameText
inline constexpr const char* errorNoProfileNameText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
  parameters:
    threshold: 10
- name: profileHandler
  type: test-profile-handler
schedulingProfiles:
- plugins:
  - pluginRef: test1
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadProfilePluginText
inline constexpr const char* errorBadProfilePluginText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: profileHandler
  type: test-profile-handler
schedulingProfiles:
- name: default
  plugins:
  - weight: 10
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadProfilePluginRefText
inline constexpr const char* errorBadProfilePluginRefText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: profileHandler
  type: test-profile-handler
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: non-existent-plugin
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorDuplicatePluginText
inline constexpr const char* errorDuplicatePluginText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
  parameters:
    threshold: 10
- name: test1
  type: test-plugin
  parameters:
    threshold: 20
- name: profileHandler
  type: test-profile-handler
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: test1
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorDuplicateProfileText
inline constexpr const char* errorDuplicateProfileText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-plugin
  parameters:
    threshold: 10
- name: test2
  type: test-plugin
  parameters:
    threshold: 20
- name: profileHandler
  type: test-profile-handler
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: test1
- name: default
  plugins:
  - pluginRef: test2
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorTwoPickersText
inline constexpr const char* errorTwoPickersText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: profileHandler
  type: single-profile-handler
- name: maxScore
  type: max-score-picker
- name: random
  type: test-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
  - pluginRef: random
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorTwoProfileHandlersText
inline constexpr const char* errorTwoProfileHandlersText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: profileHandler
  type: single-profile-handler
- name: secondProfileHandler
  type: single-profile-handler
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorNoProfileHandlersText
inline constexpr const char* errorNoProfileHandlersText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
- name: prof2
  plugins:
  - pluginRef: maxScore
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorMultiProfilesUseSingleProfileHandlerText
inline constexpr const char* errorMultiProfilesUseSingleProfileHandlerText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: profileHandler
  type: single-profile-handler
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
- name: prof2
  plugins:
  - pluginRef: maxScore
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorPluginsRefedInLoopText
inline constexpr const char* errorPluginsRefedInLoopText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: test-with-dependencies
  parameters:
    dependency: test1
    pointedTo:  test2
- name: test1
  type: test-with-dependencies
  parameters:
    dependency: test1
- name: test2
  type: test-scorer
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadSourceReferenceText
inline constexpr const char* errorBadSourceReferenceText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-one
  parameters:
    threshold: 10
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: test1
dataLayer:
  sources:
  - pluginRef: test-one
featureGates:
- test-feature-gate
- flowControl
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorBadExtractorReferenceText
inline constexpr const char* errorBadExtractorReferenceText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: test1
  type: test-one
  parameters:
    threshold: 10
- type: test-source
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: test1
dataLayer:
  sources:
  - pluginRef: test-source
    extractors:
    - test-one
featureGates:
- test-feature-gate
- flowControl
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorFlowControlMissingPluginText
inline constexpr const char* errorFlowControlMissingPluginText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
featureGates:
- flowControl
flowControl:
  priorityBands:
  - priority: 100
    orderingPolicyRef: non-existent-policy
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorFlowControlWrongPluginTypeText
inline constexpr const char* errorFlowControlWrongPluginTypeText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- name: testScorer
  type: test-scorer
  parameters:
    blockSize: 32
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
featureGates:
- flowControl
flowControl:
  priorityBands:
  - priority: 100
    orderingPolicyRef: testScorer # Wrong type
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorParserWrongPluginTypeText
inline constexpr const char* errorParserWrongPluginTypeText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- name: openaiParser
  type: openai-parser
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
requestHandler:
  parsers:
  - pluginRef: maxScore # Wrong type
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 errorParserWrongPluginNameText
inline constexpr const char* errorParserWrongPluginNameText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- name: openaiParser
  type: openai-parser
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
requestHandler:
  parsers:
  - pluginRef: wrongParser # Wrong name
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successFilterOrderConfigText
inline constexpr const char* successFilterOrderConfigText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: filter-A
  type: test-order-filter
- name: filter-B
  type: test-order-filter
- name: filter-C
  type: test-order-filter
- name: scorer-X
  type: test-scorer
- name: scorer-Y
  type: test-scorer
- name: profileHandler
  type: single-profile-handler
- name: maxScorePicker
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: filter-A
  - pluginRef: filter-B
  - pluginRef: filter-C
  - pluginRef: scorer-X
    weight: 10
  - pluginRef: scorer-Y
    weight: 20
  - pluginRef: maxScorePicker
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successDeprecatedTopLevelSaturationDetectorText
inline constexpr const char* successDeprecatedTopLevelSaturationDetectorText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
featureGates:
- flowControl
saturationDetector:
  pluginRef: utilization-detector
)yaml";

// pkg/epp/config/loader/testdata_test.go@71f4f099 successDeprecatedTopLevelParserText
inline constexpr const char* successDeprecatedTopLevelParserText = R"yaml(
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- name: maxScore
  type: max-score-picker
- type: openai-parser
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: maxScore
parser:
  pluginRef: openai-parser
)yaml";

}  // namespace blis::router::loader::testdata
