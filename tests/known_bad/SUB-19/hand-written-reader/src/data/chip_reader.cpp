// A second, hand-written definition of the chip document: what SUB-19 forbids.
#include <yaml-cpp/yaml.h>

double hbm_bytes(const char* path) { return YAML::LoadFile(path)["memory"]["bytes"].as<double>(); }
