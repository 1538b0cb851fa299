#include "score/points.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace blis::score {
namespace {

const std::vector<std::string> kIntColumns = {
    "batch_size", "tp_size", "pp_size", "attention_dp_size", "moe_tp_size", "moe_ep_size",
    "prefill_batch_size", "prefill_num_workers", "prefill_tp_size", "prefill_pp_size", "prefill_attention_dp_size",
    "prefill_moe_tp_size", "prefill_moe_ep_size", "decode_batch_size", "decode_num_workers", "decode_tp_size",
    "decode_pp_size", "decode_attention_dp_size", "decode_moe_tp_size", "decode_moe_ep_size"};

// One CSV record (RFC 4180: a quoted field may hold commas, doubled quotes and line breaks). Returns false
// at the end of the text; `line` advances by the lines the record spans.
bool next_record(std::string_view text, std::size_t& pos, std::vector<std::string>& fields, bool& bad_quote) {
  fields.clear();
  bad_quote = false;
  if (pos >= text.size()) return false;
  std::string cur;
  bool quoted = false, was_quoted = false;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c == '"') {
        if (pos < text.size() && text[pos] == '"') {
          cur.push_back('"');
          ++pos;
        } else {
          quoted = false;
        }
      } else {
        cur.push_back(c);
      }
      continue;
    }
    if (c == '"') {
      if (!cur.empty() || was_quoted) bad_quote = true;
      quoted = was_quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(cur));
      cur.clear();
      was_quoted = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && pos < text.size() && text[pos] == '\n') ++pos;
      break;
    } else {
      if (was_quoted) bad_quote = true;
      cur.push_back(c);
    }
  }
  if (quoted) bad_quote = true;
  fields.push_back(std::move(cur));
  return true;
}

std::optional<std::int64_t> parse_int(const std::string& s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

std::optional<double> parse_positive(const std::string& s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

bool name_like(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  return true;
}

}  // namespace

const std::vector<std::string>& point_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = {"id", "silicon_data_source", "backend", "backend_version", "model_path", "system",
                                  "precision", "mode", "isl", "osl", "gemm_quant_mode", "moe_quant_mode"};
    c.insert(c.end(), kIntColumns.begin(), kIntColumns.end());
    c.push_back("silicon_ttft_ms");
    c.push_back("silicon_tpot_ms");
    return c;
  }();
  return cols;
}

std::optional<std::int64_t> Point::get(const std::string& column) const {
  const auto it = ints.find(column);
  if (it == ints.end()) return std::nullopt;
  return it->second;
}

std::vector<Point> read_points(std::string_view text, const std::string& name) {
  std::vector<std::string> errors;
  std::size_t pos = 0;
  std::vector<std::string> header;
  bool bad_quote = false;
  if (!next_record(text, pos, header, bad_quote) || (header.size() == 1 && header[0].empty())) {
    throw PointsError(name + ": empty: no header line");
  }
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (index.contains(header[i])) errors.push_back(name + ":1: column '" + header[i] + "' appears twice");
    index[header[i]] = i;
  }
  const std::set<std::string> known(point_columns().begin(), point_columns().end());
  for (const auto& c : point_columns()) {
    if (!index.contains(c)) errors.push_back(name + ":1: column '" + c + "' is missing from the header");
  }
  for (const auto& h : header) {
    if (!known.contains(h)) errors.push_back(name + ":1: column '" + h + "' is not a column of the points format");
  }
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) all += e + "\n";
    throw PointsError(all);
  }

  std::vector<Point> out;
  std::set<std::string> ids;
  int line = 1;
  std::vector<std::string> f;
  while (true) {
    const std::size_t start = pos;
    if (!next_record(text, pos, f, bad_quote)) break;
    line += 1;
    const int this_line = line;
    for (std::size_t i = start; i < pos; ++i) {
      if (text[i] == '\n' && i + 1 < pos) ++line;  // a quoted line break inside the record
    }
    if (f.size() == 1 && f[0].empty()) continue;  // a blank line
    const std::string at = name + ":" + std::to_string(this_line) + ": ";
    if (bad_quote) {
      errors.push_back(at + "a quote that does not open or close a field");
      continue;
    }
    if (f.size() != header.size()) {
      errors.push_back(at + std::to_string(f.size()) + " fields where the header has " + std::to_string(header.size()));
      continue;
    }
    auto cell = [&](const std::string& c) -> const std::string& { return f[index.at(c)]; };
    auto bad = [&](const std::string& c, const std::string& why) {
      errors.push_back(at + "column '" + c + "': value '" + cell(c) + "' " + why);
    };
    Point p;
    p.line = this_line;
    p.id = cell("id");
    if (p.id.empty()) bad("id", "is empty: every point needs an id");
    else if (!ids.insert(p.id).second) bad("id", "repeats an earlier row's id");
    p.data_source = cell("silicon_data_source");
    {
      std::string item;
      std::istringstream in(p.data_source);
      while (std::getline(in, item, ';')) {
        const auto b = item.find_first_not_of(' ');
        if (b == std::string::npos) continue;
        item = item.substr(b);
        while (!item.empty() && item.back() == ' ') item.pop_back();
        const auto eq = item.find('=');
        if (eq != std::string::npos && eq > 0 && item.find(' ') > eq) {
          p.source_fields[item.substr(0, eq)] = item.substr(eq + 1);
        } else {
          p.source_items.push_back(item);
        }
      }
      const auto it = p.source_fields.find("silicon_concurrency");
      if (it != p.source_fields.end() && (!parse_int(it->second) || *parse_int(it->second) < 1)) {
        bad("silicon_data_source", "states silicon_concurrency='" + it->second + "', which is not a positive integer");
      }
    }
    p.backend = cell("backend");
    if (!name_like(p.backend)) bad("backend", "is not a backend name (lower-case letters, digits, '_' or '-')");
    p.backend_version = cell("backend_version");
    p.model_path = cell("model_path");
    if (p.model_path.empty()) bad("model_path", "is empty: every point names its model");
    p.system = cell("system");
    if (p.system.empty()) bad("system", "is empty: every point names its system");
    p.precision = cell("precision");
    p.mode = cell("mode");
    if (p.mode != "agg" && p.mode != "disagg") bad("mode", "is neither agg nor disagg");
    p.gemm_quant_mode = cell("gemm_quant_mode");
    p.moe_quant_mode = cell("moe_quant_mode");
    for (const char* c : {"isl", "osl"}) {
      const auto v = parse_int(cell(c));
      if (!v || *v < 1) bad(c, "is not a positive integer");
      else (std::string(c) == "isl" ? p.isl : p.osl) = *v;
    }
    for (const auto& c : kIntColumns) {
      if (cell(c).empty()) continue;
      const auto v = parse_int(cell(c));
      if (!v) bad(c, "is neither empty nor a non-negative integer");
      else p.ints[c] = *v;
    }
    for (const char* c : {"silicon_ttft_ms", "silicon_tpot_ms"}) {
      const auto v = parse_positive(cell(c));
      if (!v) bad(c, "is not a positive finite number of milliseconds");
      else (std::string(c) == "silicon_ttft_ms" ? p.ttft_ms : p.tpot_ms) = *v;
    }
    out.push_back(std::move(p));
  }
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) all += e + "\n";
    throw PointsError(all);
  }
  return out;
}

std::vector<Point> read_points_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PointsError(path + ": cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  return read_points(s.str(), path);
}

}  // namespace blis::score
