#include "sim/workload/convert/convert.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "contracts/sha256.h"
#include "sim/workload/convert/guidellm_synthetic.h"
#include "sim/workload/convert/inference_perf.h"
#include "sim/workload/convert/vllm_bench_random.h"
#include "sim/workload/convert/vllm_bench_sharegpt.h"

namespace blis::sim {
namespace {

using Converter = ConvertedWorkload (*)(const convert::Source&, std::uint64_t);

struct Format {
  const char* name;
  Converter convert;
};

constexpr Format kFormats[] = {
    {"vllm-bench-random", convert::convert_vllm_bench_random},
    {"vllm-bench-sharegpt", convert::convert_vllm_bench_sharegpt},
    {"guidellm-synthetic", convert::convert_guidellm_synthetic},
    {"inference-perf", convert::convert_inference_perf},
};

}  // namespace

std::vector<std::string> converter_formats() {
  std::vector<std::string> out;
  for (const auto& f : kFormats) out.emplace_back(f.name);
  return out;
}

ConvertedWorkload convert_workload(const schema::ScenarioConvert& c, const std::string& scenario_dir,
                                   std::uint64_t seed) {
  const Format* format = nullptr;
  for (const auto& f : kFormats)
    if (c.format == f.name) format = &f;
  if (!format) {
    std::string list;
    for (const auto& f : converter_formats()) list += (list.empty() ? "" : ", ") + f;
    convert::refuse("workload.convert.format",
                    "'" + c.format + "' is not a format this build converts; it converts " + list);
  }
  convert::Source source;
  source.format = c.format;
  source.name = (std::filesystem::path(scenario_dir) / c.path).string();
  std::ifstream in(source.name, std::ios::binary);
  if (!in) convert::refuse("workload.convert.path", "'" + source.name + "' cannot be read");
  std::stringstream bytes;
  bytes << in.rdbuf();
  source.text = bytes.str();
  const std::string sha = contracts::sha256_hex(source.text);
  if (c.sha256 && *c.sha256 != sha) {
    convert::refuse("workload.convert.sha256",
                    "'" + source.name + "' has SHA-256 " + sha + ", not the stated " + *c.sha256);
  }
  source.options = c.options ? &*c.options : nullptr;
  ConvertedWorkload w = format->convert(source, seed);
  w.trace.sha256 = sha;
  return w;
}

}  // namespace blis::sim
