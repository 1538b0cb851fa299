#include "data/data_set.h"

#include <algorithm>

namespace blis::data {

std::string_view source_name(Source s) { return s == Source::embedded ? "embedded" : "path"; }

std::string LoadedFile::location() const {
  if (source == Source::embedded) return "embedded " + std::string(tree_name(tree)) + " " + path;
  std::string dir = directory;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir + "/" + path;
}

FileRef TreeData::find(std::string_view path) const {
  FileRef found;
  for (const auto& f : files) {
    if (f->path == path) found = f;  // sorted by path then layer: the last one wins
  }
  return found;
}

std::vector<FileRef> TreeData::of_kind(std::string_view kind) const {
  std::vector<FileRef> out;
  std::copy_if(files.begin(), files.end(), std::back_inserter(out), [&](const FileRef& f) { return f->kind == kind; });
  return out;
}

std::string CoefficientId::text() const {
  std::string s = "(set " + set + ", name " + name + ", scope {";
  for (std::size_t i = 0; i < scope.size(); ++i) {
    if (i > 0) s += ", ";
    s += scope[i].key + ": " + scope[i].value;
  }
  return s + "}, method " + method + ")";
}

std::string Coefficient::location() const {
  const std::string where = file ? file->location() : std::string("?");
  return line > 0 ? where + ":" + std::to_string(line) : where;
}

std::string TreeData::source_text() const {
  const Layer& base = layers.front();
  const std::string name(tree_name(tree));
  return base.source == Source::embedded ? "the embedded " + name : name + " " + base.directory;
}

}  // namespace blis::data
