// Original to BLIS: sigs.k8s.io/yaml's YAMLToJSON as apimachinery's YAML serializer uses it before decoding
// (the first YAML document; go-yaml v2's YAML 1.1 plain-scalar resolution: null ~ "", y/yes/on and n/no/off
// booleans, 0x/0o/0b integers, .inf/.nan floats; quoted scalars stay strings; a float with an integral value
// becomes a JSON integer as Go's json.Marshal prints it). yaml-cpp parses; its syntax-error text follows
// "yaml: line N: " where go-yaml's wording may differ.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace blis::router::loader {

// Throws std::runtime_error("error converting YAML to JSON: yaml: ...") for YAML that does not parse. A
// duplicate mapping key keeps the last value (yaml.YAMLToJSON) and, when strictErrs is given, adds the error
// yaml.YAMLToJSONStrict reports ("error converting YAML to JSON: yaml: unmarshal errors:\n  line N: key \"k\"
// already set in map"), as apimachinery's strict serializer collects it.
nlohmann::json YAMLToJSON(const std::string& text, std::vector<std::string>* strictErrs = nullptr);

}  // namespace blis::router::loader
