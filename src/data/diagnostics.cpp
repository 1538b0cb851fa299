#include "data/diagnostics.h"

namespace blis::data {

std::string Diagnostic::text() const { return location.empty() ? message : location + ": " + message; }

void Diagnostics::error(std::string location, std::string path, std::string message) {
  all_.push_back({std::move(location), std::move(path), std::move(message)});
}

void Diagnostics::error(const LoadedFile& file, std::string message) {
  error(file.location(), file.path, std::move(message));
}

void Diagnostics::error(const LoadedFile& file, int line, int col, std::string message) {
  std::string at;
  if (line > 0) at = ":" + std::to_string(line) + (col > 0 ? ":" + std::to_string(col) : std::string());
  error(file.location() + at, file.path + at, std::move(message));
}

void Diagnostics::error(std::string message) { error({}, {}, std::move(message)); }

std::string Diagnostics::text() const {
  std::string out;
  for (const auto& d : all_) out += d.text() + "\n";
  return out;
}

}  // namespace blis::data
