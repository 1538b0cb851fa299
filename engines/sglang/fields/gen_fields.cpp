// Original to BLIS: the generator of engines/sglang/fields.json (SGL-3); it reads upstream source, ports none.
// sglang-gen-fields: writes engines/sglang/fields.json (SGL-3, under VLM-3's rules) from a pinned SGLang
// checkout and the hand-written classification in engines/sglang/fields/statuses.yaml.
//
//   sglang-gen-fields (--checkout DIR | --checkout-env VAR) --statuses FILE (--out FILE | --check PATH | --list FILE)
//
// DIR holds the pinned tree (python/sglang/srt/...), e.g. `git archive <commit> python/sglang/srt | tar -x
// -C DIR`. The pin is statuses.yaml's engine.commit, which must equal engines/sglang/upstream.yaml's. The
// list is every field upstream_fields.h finds, sorted by kind then name, each with exactly the status,
// estimation rule, names_code and thresholds statuses.yaml gives it. It refuses to write when a field has
// no entry, an entry names no field of the release, a threshold cites a line that does not read the field,
// or the result breaks schemas/engine/fields-list.yaml. --check compares the bytes it would write with
// PATH, or PATH/fields.json when PATH is a directory (the sglang-fields-generate check, which names the
// checkout by the environment variable BLIS_SGLANG_CHECKOUT). --list writes what the reader found, one
// tab-separated line per field (kind, name, group, type, flags, first read, help), with no classification:
// the starting point for classifying a field the pin adds.
//
// The statuses reading, merging and byte comparison are those of engines/vllm/fields/gen_fields.cpp; only
// the reader (upstream_fields.h) is SGLang's.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "contracts/doc/diagnostics.h"
#include "contracts/doc/parse.h"
#include "schema/fields-list.h"
#include "upstream_fields.h"

namespace fs = std::filesystem;
using namespace blis;

namespace {

constexpr const char* kGenerator = "engines/sglang/fields/gen_fields.cpp";

struct Entry {
  bool names_code = false;
  std::optional<std::vector<schema::FieldsListThreshold>> thresholds;
  schema::FieldsListStatus status;
  schema::FieldsListEstimation estimation;
  doc::Mark mark;
};

struct Statuses {
  schema::FieldsListUpstream engine;
  std::optional<std::string> note;
  std::map<std::string, Entry> fields;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool read_statuses(const fs::path& path, Statuses& out, doc::Diagnostics& d) {
  const std::string text = slurp(path);
  doc::Parsed parsed = doc::parse(text, doc::Syntax::Yaml, d);
  if (!d.ok() || parsed.documents.size() != 1) {
    if (d.ok()) d.add({}, "", "expected one document");
    return false;
  }
  const doc::Node& root = parsed.documents.front();
  if (!root.is_map()) {
    d.add(root.mark, "", "expected a mapping");
    return false;
  }
  bool ok = true;
  for (const auto& [k, v] : root.entries) {
    if (k.scalar == "engine") {
      ok = schema::read(v, "engine", d, out.engine) && ok;
    } else if (k.scalar == "note") {
      out.note = v.scalar;
    } else if (k.scalar == "fields") {
      if (!v.is_map()) {
        d.add(v.mark, "fields", "expected a mapping of field name to classification");
        return false;
      }
      for (const auto& [name, body] : v.entries) {
        const std::string f = "fields." + name.scalar;
        Entry e;
        e.mark = name.mark;
        bool seen_status = false, seen_estimation = false;
        if (!body.is_map()) {
          d.add(body.mark, f, "expected a mapping");
          ok = false;
          continue;
        }
        for (const auto& [bk, bv] : body.entries) {
          const std::string bf = f + "." + bk.scalar;
          if (bk.scalar == "names_code") {
            if (!bv.is_scalar() || (bv.scalar != "true" && bv.scalar != "false")) {
              d.add(bv.mark, bf, "expected true or false");
              ok = false;
            }
            e.names_code = bv.scalar == "true";
          } else if (bk.scalar == "thresholds") {
            e.thresholds.emplace();
            for (size_t i = 0; i < bv.items.size(); ++i) {
              schema::FieldsListThreshold t;
              ok = schema::read(bv.items[i], bf + "[" + std::to_string(i) + "]", d, t) && ok;
              e.thresholds->push_back(t);
            }
          } else if (bk.scalar == "status") {
            seen_status = true;
            ok = schema::read(bv, bf, d, e.status) && ok;
          } else if (bk.scalar == "estimation") {
            seen_estimation = true;
            ok = schema::read(bv, bf, d, e.estimation) && ok;
          } else {
            d.add(bk.mark, f, "unknown key '" + bk.scalar + "' (names_code, thresholds, status, estimation)");
            ok = false;
          }
        }
        if (!seen_status) d.add(name.mark, f, "no status"), ok = false;
        if (!seen_estimation) d.add(name.mark, f, "no estimation rule (state leave_unset, stand_in or none)"), ok = false;
        if (!out.fields.emplace(name.scalar, std::move(e)).second) d.add(name.mark, f, "listed twice"), ok = false;
      }
    } else {
      d.add(k.mark, "", "unknown key '" + k.scalar + "' (engine, note, fields)");
      ok = false;
    }
  }
  return ok && d.ok();
}

// A threshold's compared_at must be a line range of the pinned tree that names the field.
bool threshold_reads_field(const fs::path& checkout, const std::string& c8, const std::string& at,
                           const std::string& py_name, std::string& why) {
  static const std::regex cite(R"(([^@\s]+)@([0-9a-f]{8}):([0-9]+)(?:-([0-9]+))?)");
  std::smatch m;
  if (!std::regex_match(at, m, cite)) return why = "cites no line range", false;
  if (m[2] != c8) return why = "cites commit " + m[2].str() + ", not the pin " + c8, false;
  std::ifstream in(checkout / m[1].str());
  if (!in) return why = "cites " + m[1].str() + ", which the checkout does not have", false;
  const int lo = std::stoi(m[3]), hi = m[4].matched ? std::stoi(m[4]) : lo;
  std::string line;
  for (int n = 1; std::getline(in, line) && n <= hi; ++n)
    if (n >= lo && line.find(py_name) != std::string::npos) return true;
  return why = "lines " + std::to_string(lo) + "-" + std::to_string(hi) + " of " + m[1].str() + " do not name " + py_name,
         false;
}

std::string one_line(std::string s) {
  for (auto& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return s;
}

int write_list(const std::vector<blis::sglang::fields::UpstreamField>& upstream, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  for (const auto& u : upstream) {
    std::string flags;
    for (const auto& f : u.flags) flags += (flags.empty() ? "" : " ") + f;
    out << u.kind << '\t' << u.name << '\t' << u.group << '\t' << one_line(u.value_type) << '\t' << flags << '\t'
        << u.declared_at << '\t' << one_line(u.help) << '\n';
  }
  if (!out) {
    std::cerr << "sglang-gen-fields: cannot write " << path << "\n";
    return 1;
  }
  std::cout << "wrote " << path << " (" << upstream.size() << " fields, unclassified)\n";
  return 0;
}

int usage() {
  std::fputs("usage: sglang-gen-fields (--checkout DIR | --checkout-env VAR) --statuses FILE (--out FILE | --check PATH |"
             " --list FILE)\n",
             stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string checkout, statuses_path, out_path, check_path, list_path;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--checkout") checkout = argv[i + 1];
    else if (a == "--checkout-env") {
      const char* v = std::getenv(argv[i + 1]);
      if (v == nullptr || *v == '\0') {
        std::cerr << "sglang-gen-fields: " << argv[i + 1] << " is not set: it names a directory holding the pinned "
                  << "python/sglang/srt/ tree (git archive <commit> python/sglang/srt | tar -x -C DIR)\n";
        return 1;
      }
      checkout = v;
    }
    else if (a == "--statuses") statuses_path = argv[i + 1];
    else if (a == "--out") out_path = argv[i + 1];
    else if (a == "--check") check_path = argv[i + 1];
    else if (a == "--list") list_path = argv[i + 1];
    else return usage();
  }
  if (argc % 2 == 0 || checkout.empty() || statuses_path.empty() ||
      int(!out_path.empty()) + int(!check_path.empty()) + int(!list_path.empty()) != 1)
    return usage();

  Statuses st;
  doc::Diagnostics d(statuses_path);
  if (!read_statuses(statuses_path, st, d)) {
    std::cerr << d.str() << "sglang-gen-fields: " << statuses_path << " is not a classification\n";
    return 1;
  }
  std::vector<blis::sglang::fields::UpstreamField> upstream;
  try {
    upstream = blis::sglang::fields::read_upstream(checkout, st.engine.commit);
  } catch (const std::exception& e) {
    std::cerr << "sglang-gen-fields: " << e.what() << "\n";
    return 1;
  }
  const std::string c8 = st.engine.commit.substr(0, 8);
  if (!list_path.empty()) return write_list(upstream, list_path);

  schema::FieldsList list;
  list.engine = st.engine;
  list.note = st.note;
  list.generator = kGenerator;
  std::vector<std::string> refusals;
  std::map<std::string, bool> used;
  for (const auto& u : upstream) {
    auto it = st.fields.find(u.name);
    if (it == st.fields.end()) {
      refusals.push_back("field '" + u.name + "' (" + u.kind + (u.group.empty() ? "" : ", " + u.group) +
                         ") has no status in statuses.yaml");
      continue;
    }
    used[u.name] = true;
    const Entry& e = it->second;
    schema::FieldsListField f;
    f.name = u.name;
    f.kind = u.kind;
    if (!u.group.empty()) f.group = u.group;
    f.value_type = u.value_type;
    if (u.upstream_default.computed) f.upstream_default.computed = u.upstream_default.at;
    else f.upstream_default.value.emplace(u.upstream_default.value);
    f.read_at.assign(u.read_at.begin(), u.read_at.end());
    f.names_code = e.names_code;
    f.thresholds = e.thresholds;
    if (e.thresholds)
      for (const auto& t : *e.thresholds) {
        std::string why;
        if (!threshold_reads_field(checkout, c8, t.compared_at, u.py_name, why))
          refusals.push_back("field '" + u.name + "': threshold " + t.compared_at + " " + why);
      }
    f.status = e.status;
    f.estimation = e.estimation;
    list.fields.push_back(std::move(f));
  }
  for (const auto& [name, e] : st.fields)
    if (!used.count(name))
      refusals.push_back(statuses_path + ":" + std::to_string(e.mark.line) + ": '" + name +
                         "' names no field or variable of the pinned release");
  if (!refusals.empty()) {
    for (const auto& r : refusals) std::cerr << r << "\n";
    std::cerr << "sglang-gen-fields: refused (" << refusals.size() << " problems); nothing written\n";
    return 1;
  }
  doc::Diagnostics vd("fields.json");
  schema::validate(list, "", vd);
  if (!vd.ok()) {
    std::cerr << vd.str() << "sglang-gen-fields: the list breaks schemas/engine/fields-list.yaml; nothing written\n";
    return 1;
  }
  const std::string bytes = schema::to_json(list).dump(2) + "\n";
  if (!check_path.empty()) {
    if (fs::is_directory(check_path)) check_path = (fs::path(check_path) / "fields.json").string();
    std::string committed;
    try {
      committed = slurp(check_path);
    } catch (const std::exception& e) {
      std::cerr << "sglang-gen-fields: " << e.what() << "\n";
      return 1;
    }
    if (committed == bytes) {
      std::cout << "fields.json equals the generator's output (" << list.fields.size() << " fields)\n";
      return 0;
    }
    size_t i = 0;
    while (i < committed.size() && i < bytes.size() && committed[i] == bytes[i]) ++i;
    const long line = 1 + std::count(bytes.begin(), bytes.begin() + static_cast<long>(i), '\n');
    std::cerr << check_path << " differs from the generator's output at line " << line
              << ": regenerate it with sglang-gen-fields --out\n";
    return 1;
  }
  std::ofstream out(out_path, std::ios::binary);
  out << bytes;
  if (!out) {
    std::cerr << "sglang-gen-fields: cannot write " << out_path << "\n";
    return 1;
  }
  std::cout << "wrote " << out_path << " (" << list.fields.size() << " fields)\n";
  return 0;
}
