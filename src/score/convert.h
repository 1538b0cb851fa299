// One measured vLLM or SGLang point as a scenario (design §11.2), or the reasons it cannot be one (§11.4).
// The point's backend column picks the engine kind (kBackends): the scenario runs that kind at the release
// this build ports, with the engine's own argument names.
//
// What is copied from the row: the model (model_path, through the alias and checkpoint-variant tables
// below), the chip (system, through the system table), tensor-parallel-size (tp_size), ISL and OSL, and
// the client's concurrency (silicon_concurrency in silicon_data_source; batch_size when that states
// none). Everything else the run did not record is estimated, and each estimate is named on the point:
//   - the client: a closed loop of `concurrency` users, each sending its next request as soon as its
//     previous one ends; every prompt exactly ISL tokens of fresh IDs, every output forced to exactly OSL
//     tokens (max_tokens OSL), as a random-dataset benchmark with ignore_eos sends them;
//   - the request count: kRequestsPerUser x concurrency (at least kMinRequests);
//   - no warm-up: the client's warm-up is not recorded, and a warm-up of fresh random IDs leaves no
//     prefix the measured requests share, so the measured phase starts from an idle engine either way;
//   - every engine setting the row does not carry (vLLM: max-model-len, gpu-memory-utilization, max-num-seqs,
//     ...; SGLang: mem-fraction-static, chunked-prefill-size, max-running-requests, ...) is left unset, so the
//     engine resolves the ported release's default (fields.json: estimation leave_unset).
// A point that needs what is not modelled is not scored: a prefill/decode split or a layout across nodes
// (topology_unsupported), data, pipeline or expert parallelism or a quantisation with no catalog
// checkpoint (field_not_modelled; fields.json marks each not modelled with no estimation rule), a model or
// chip with no catalog entry (not_in_catalog), two records of one value that disagree (value_conflict),
// no concurrency at all (value_not_recorded).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "score/points.h"
#include "score/reasons.h"

namespace blis::score {

inline constexpr std::int64_t kRequestsPerUser = 4;
inline constexpr std::int64_t kMinRequests = 8;

// An engine kind this build ports, as the points file's backend column names it.
struct Backend {
  const char* backend;     // the backend column: vllm, sglang
  const char* display;     // vLLM, SGLang
  const char* release;     // the release engines/<kind> ports (versions.yaml; tests/score checks they agree)
  const char* image_repo;  // the image repository whose tag names a run's release
  const char* model_arg, *tp_arg, *pp_arg, *dp_arg, *ep_arg;  // the engine's own argument names
  const char* unset_settings;  // the settings no point records, left to the engine's defaults
};
inline constexpr Backend kBackends[] = {
    {"vllm", "vLLM", "0.27.1", "vllm/vllm-openai:", "model", "tensor-parallel-size", "pipeline-parallel-size",
     "data-parallel-size", "enable-expert-parallel",
     "max-model-len, gpu-memory-utilization, max-num-seqs, max-num-batched-tokens, enable-prefix-caching, "
     "enable-chunked-prefill, kv-cache-dtype"},
    {"sglang", "SGLang", "0.5.18", "lmsysorg/sglang:", "model-path", "tp-size", "pp-size", "dp-size", "ep-size",
     "context-length, mem-fraction-static, max-running-requests, chunked-prefill-size, max-prefill-tokens, "
     "page-size, attention-backend, schedule-policy, kv-cache-dtype, cuda-graph-max-bs-decode"},
};
// The backend entry of a points file's backend column; none for a backend this build has no port of.
const Backend* backend_of(const std::string& backend);

// What the catalog in use holds, by name.
struct CatalogNames {
  std::set<std::string> models;            // model ids with a graph
  std::set<std::string> models_no_graph;   // model ids with an entry but no graph yet
  std::set<std::string> chips;             // chip names
};

// The lane a scored point belongs to: engine, the measured run's engine release, chip, model, layout.
struct Lane {
  std::string engine, release, chip, model, layout;
  auto operator<=>(const Lane&) const = default;
  std::string text() const;
};

struct Conversion {
  std::vector<NotScored> not_scored;  // empty: converted; else every reason found, the first the point's
  std::string scenario;               // the scenario file's text (two documents)
  std::vector<std::string> estimates; // every estimate, named
  Lane lane;
  std::int64_t concurrency = 0, requests = 0, tensor_parallel = 0;
  std::string model, chip;            // catalog names
};

// The catalog chip of an aiconfigurator system name (h100_sxm -> H100-SXM, ...); none for another name.
std::optional<std::string> chip_of_system(const std::string& system);

// Converts one point of a ported backend (another backend is refused with std::invalid_argument).
Conversion convert(const Point& point, const CatalogNames& catalog);

}  // namespace blis::score
