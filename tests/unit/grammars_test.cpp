// The pinned grammars load into Debian's libtree-sitter (their ABI is one it accepts) and parse.
#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <cstring>
#include <string>

extern "C" const TSLanguage* tree_sitter_python();
extern "C" const TSLanguage* tree_sitter_cpp();

namespace {

std::string root_type(const TSLanguage* lang, const char* code, bool* has_error) {
  TSParser* parser = ts_parser_new();
  EXPECT_TRUE(ts_parser_set_language(parser, lang));
  TSTree* tree = ts_parser_parse_string(parser, nullptr, code, static_cast<uint32_t>(std::strlen(code)));
  const TSNode root = ts_tree_root_node(tree);
  std::string type = ts_node_type(root);
  *has_error = ts_node_has_error(root);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return type;
}

TEST(Grammars, AbiIsOneTheLibraryAccepts) {
  for (const TSLanguage* lang : {tree_sitter_python(), tree_sitter_cpp()}) {
    EXPECT_GE(ts_language_version(lang), static_cast<uint32_t>(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION));
    EXPECT_LE(ts_language_version(lang), static_cast<uint32_t>(TREE_SITTER_LANGUAGE_VERSION));
  }
}

TEST(Grammars, PythonParses) {
  bool err = true;
  EXPECT_EQ(root_type(tree_sitter_python(), "def f(x):\n    return x + 1\n", &err), "module");
  EXPECT_FALSE(err);
  root_type(tree_sitter_python(), "def f(:\n", &err);
  EXPECT_TRUE(err);
}

TEST(Grammars, CppParses) {
  bool err = true;
  EXPECT_EQ(root_type(tree_sitter_cpp(), "int main() { return 0; }\n", &err), "translation_unit");
  EXPECT_FALSE(err);
}

}  // namespace
