// What a run records about its data (§3.3 "Recording what was used", X8): each tree's source, directory,
// base hash, overlay hashes and combined hash; the registry entries its lookups selected; and the registry
// files no reader used. Serialised to JSON deterministically.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "data/data_set.h"

namespace blis::data {

// Filled by every reader behind the Environment during a run (lookups, acceptance and routing profiles).
// Safe to share between threads; what it reports does not depend on the order of calls.
class UsageLog {
 public:
  void selected(const Coefficient& c);  // a lookup returned this entry (marks its file as used)
  void used(const LoadedFile& f);       // a reader used this file as a whole (a profile or a table)

  std::set<CoefficientId> selected_ids() const;
  std::set<std::pair<std::size_t, std::string>> used_files() const;  // (layer, path) in the registry

 private:
  mutable std::mutex m_;
  std::set<CoefficientId> selected_;
  std::set<std::pair<std::size_t, std::string>> used_;
};

struct OverlayRecord {
  std::string directory;  // absolute
  std::string hash;
};

struct TreeRecord {
  Source source = Source::embedded;
  std::string directory;  // absolute; empty when embedded
  std::string base_hash;
  std::vector<OverlayRecord> overlays;  // in the order applied
  std::string combined_hash;
};

struct EntryRecord {
  CoefficientId id;
  std::string family;
  std::string path;
  std::size_t layer = 0;
};

struct FileRecord {
  std::string path;
  std::size_t layer = 0;
  std::string kind;
};

struct LoadRecord {
  TreeRecord catalog;
  TreeRecord registry;
  std::vector<EntryRecord> selected;     // sorted by identity
  std::vector<FileRecord> never_loaded;  // registry files of the combined data no reader used, by path, layer

  nlohmann::json to_json() const;
  // Without sources and directories: what the byte gate may compare (X6 leaves the data source out).
  nlohmann::json to_json_compared() const;
};

// The record of a load; with a usage log, also what the run selected and never loaded.
LoadRecord make_record(const DataSet& data, const UsageLog* usage = nullptr);

}  // namespace blis::data
