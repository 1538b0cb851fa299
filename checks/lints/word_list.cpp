#include "word_list.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>

namespace blis::lint {

namespace {

bool token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/';
}

// The token's parts in normalized form. A part boundary sits at a separator, at a lower-to-upper case
// change (maxNumSeqs -> max|Num|Seqs) or between letters and digits (v0 -> v|0). '_' and '-' are dropped;
// '.' and '/' stay, each a part of its own.
struct Normalized {
  std::string text;                // lower case, '_' and '-' removed
  std::vector<bool> starts_part;   // starts_part[i]: text[i] begins a part
};

Normalized normalize(std::string_view token) {
  Normalized n;
  bool boundary = true;
  char prev = 0;
  for (char c : token) {
    if (c == '_' || c == '-') {  // spelling variants: max_num_seqs, max-num-seqs, maxNumSeqs
      boundary = true;
      prev = c;
      continue;
    }
    if (c == '.' || c == '/') {  // kept: they carry meaning in versions and paths (0.5.18 is no date 05-18)
      n.starts_part.push_back(true);
      n.text.push_back(c);
      boundary = true;
      prev = c;
      continue;
    }
    bool upper_after_lower = std::isupper(static_cast<unsigned char>(c)) && std::islower(static_cast<unsigned char>(prev));
    bool digit_edge = std::isdigit(static_cast<unsigned char>(c)) != std::isdigit(static_cast<unsigned char>(prev)) &&
                      prev != 0 && !(prev == '_' || prev == '-' || prev == '.' || prev == '/');
    n.starts_part.push_back(boundary || upper_after_lower || digit_edge);
    n.text.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    boundary = false;
    prev = c;
  }
  n.starts_part.push_back(true);  // the end is a boundary
  return n;
}

std::string key_of(std::string_view word) { return normalize(word).text; }

}  // namespace

EngineWords EngineWords::from_words(std::vector<std::string> words) {
  EngineWords w;
  w.words_ = std::move(words);
  for (const auto& x : w.words_) w.keys_.push_back(key_of(x));
  return w;
}

EngineWords EngineWords::load(const std::filesystem::path& file, std::vector<std::string>& errors) {
  std::ifstream in(file);
  if (!in) {
    errors.push_back(file.string() + ": cannot read the engine-word list");
    return {};
  }
  std::vector<std::string> words;
  std::set<std::string> seen;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    line.erase(line.begin(), std::find_if(line.begin(), line.end(), [](unsigned char c) { return !std::isspace(c); }));
    line.erase(std::find_if(line.rbegin(), line.rend(), [](unsigned char c) { return !std::isspace(c); }).base(), line.end());
    if (line.empty()) continue;
    std::string at = file.string() + ":" + std::to_string(n) + ": ";
    if (!std::all_of(line.begin(), line.end(), token_char)) {
      errors.push_back(at + "entry '" + line + "' holds a character outside letters, digits, _ - . /");
      continue;
    }
    std::string key = key_of(line);
    if (key.empty()) {
      errors.push_back(at + "entry '" + line + "' has no letters or digits");
      continue;
    }
    if (!seen.insert(key).second) {
      errors.push_back(at + "entry '" + line + "' repeats an earlier entry (same word once normalized)");
      continue;
    }
    words.push_back(line);
  }
  return from_words(std::move(words));
}

const std::set<std::string>& citation_keys() {
  static const std::set<std::string> keys = {
      "source", "sources", "source_path", "cite", "cites", "citation", "citations", "url", "urls",
      "quote", "title", "publisher", "repo", "derived_from", "provenance", "reference", "references", "doi"};
  return keys;
}

std::filesystem::path versions_file(const std::filesystem::path& root, const std::filesystem::path& fixture_root) {
  if (!fixture_root.empty() && std::filesystem::exists(fixture_root / "versions.yaml"))
    return fixture_root / "versions.yaml";
  return root / "versions.yaml";
}

EngineWords EngineWords::load_with_pins(const std::filesystem::path& list, const std::filesystem::path& versions,
                                        std::vector<std::string>& errors) {
  EngineWords listed = load(list, errors);
  std::vector<std::string> all = listed.words();
  std::ifstream in(versions);
  if (!in) {
    errors.push_back(versions.string() + ": cannot read the versions file");
    return from_words(std::move(all));
  }
  static const std::regex entry(R"re(^  ([a-z0-9_]+): *\{ *release: *"([^"]+)", *commit: *"([0-9a-f]+)" *\} *$)re");
  std::string line;
  bool in_upstreams = false;
  unsigned n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line[0] != ' ' && line[0] != '#') {
      in_upstreams = line.starts_with("upstreams:");
      continue;
    }
    size_t first = line.find_first_not_of(' ');
    if (!in_upstreams || first == std::string::npos || line[first] == '#') continue;
    std::smatch m;
    if (!std::regex_match(line, m, entry)) {
      errors.push_back(versions.string() + ":" + std::to_string(n) +
                       ": an upstreams entry the engine-word lints cannot read (name: {release: \"...\", commit: \"...\"})");
      continue;
    }
    if (listed.find(m[1].str()).empty()) continue;  // not an engine (e.g. the router's upstream)
    all.push_back(m[2].str());
    all.push_back(m[3].str());
  }
  return from_words(std::move(all));
}

std::vector<WordMatch> EngineWords::find(std::string_view text) const {
  std::vector<WordMatch> out;
  size_t i = 0;
  while (i < text.size()) {
    if (!token_char(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && token_char(text[i])) ++i;
    std::string_view token = text.substr(start, i - start);
    Normalized n = normalize(token);
    for (size_t k = 0; k < keys_.size(); ++k) {
      const std::string& key = keys_[k];
      bool hit = false;
      for (size_t pos = n.text.find(key); pos != std::string::npos && !hit; pos = n.text.find(key, pos + 1))
        hit = n.starts_part[pos] && n.starts_part[pos + key.size()];
      if (hit) {
        out.push_back(WordMatch{start, token.size(), words_[k]});
        break;
      }
    }
  }
  return out;
}

}  // namespace blis::lint
