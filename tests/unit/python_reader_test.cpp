// X19: the tree-sitter reader of Python (checks/lints/python/reader.h) on snippets written in the style of
// the upstream files later issues read (a config dataclass, an argparse server-argument table), and on the
// scripts' own idioms. Every expectation is exact: names, values, literal kinds, lines and columns.
#include <gtest/gtest.h>

#include <string>

#include "python/reader.h"

namespace {

using blis::pyread::Assignment;
using blis::pyread::LiteralKind;
using blis::pyread::Module;
using blis::pyread::Parameter;
using blis::pyread::parse;

// In the style of a config dataclass module (a scheduler's settings).
constexpr const char* kConfig = R"py(# SPDX-License-Identifier: Apache-2.0
from dataclasses import field
from typing import Literal

RunnerType = Literal["generate", "pooling"]
DEFAULT_MAX_SEQS: int = 128


@config
@dataclass
class SchedulerConfig:
    """Scheduler configuration."""

    runner_type: RunnerType = "generate"
    """The runner type to launch for the model."""

    max_num_batched_tokens: int = None  # type: ignore
    max_num_seqs: int = DEFAULT_MAX_SEQS
    max_model_len: int = 8192
    delay_factor: float = 0.0
    enable_chunked_prefill: bool = False
    cuda_graph_sizes: list[int] = field(default_factory=list)
    policy: Literal["fcfs", "priority"] = "fcfs"
    chunked: bool

    def compute_hash(self, *, factors: list | None = None, **extra) -> str:
        self.cache = {"budget": -1, "ratio": 0.5}
        return ""
)py";

// In the style of a server-argument table declared through argparse.
constexpr const char* kServerArgs = R"py(import argparse


class ServerArgs:
    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser):
        parser.add_argument(
            "--mem-fraction-static",
            type=float,
            default=ServerArgs.mem_fraction_static,
            help="The fraction of the memory used for static allocation.",
        )
        parser.add_argument("--max-running-requests", type=int, default=None)
        parser.add_argument("--schedule-policy", type=str, default="fcfs", choices=["lpm", "fcfs"])
        parser.add_argument('--page-size', type=int, default=1, help=f"tokens per page ({1})\n")
)py";

TEST(PythonReader, ConfigDataclassFieldsAndDecorators) {
  Module m = parse(kConfig);
  ASSERT_TRUE(m.errors.empty()) << m.errors.front().what;
  ASSERT_EQ(m.classes.size(), 1u);
  const auto& c = m.classes[0];
  EXPECT_EQ(c.name, "SchedulerConfig");
  EXPECT_EQ(c.pos.line, 11u);
  EXPECT_EQ(c.decorators, (std::vector<std::string>{"config", "dataclass"}));
  EXPECT_TRUE(c.decorated_with("dataclass"));
  EXPECT_FALSE(c.decorated_with("data"));
  EXPECT_TRUE(c.bases.empty());
  ASSERT_EQ(c.fields.size(), 9u);

  const auto& runner = c.fields[0];
  EXPECT_EQ(runner.target, "runner_type");
  EXPECT_EQ(runner.annotation, "RunnerType");
  ASSERT_TRUE(runner.value);
  EXPECT_EQ(runner.value->kind, LiteralKind::kString);
  EXPECT_EQ(runner.value->str, "generate");
  EXPECT_EQ(runner.pos.line, 14u);
  EXPECT_EQ(runner.pos.col, 5u);

  EXPECT_EQ(c.fields[1].target, "max_num_batched_tokens");
  EXPECT_EQ(c.fields[1].value->kind, LiteralKind::kNone);
  EXPECT_EQ(c.fields[2].target, "max_num_seqs");
  EXPECT_EQ(c.fields[2].value->kind, LiteralKind::kNotLiteral);
  EXPECT_EQ(c.fields[2].value->text, "DEFAULT_MAX_SEQS");
  EXPECT_EQ(c.fields[3].value->text, "8192");
  EXPECT_EQ(c.fields[3].value->kind, LiteralKind::kInteger);
  EXPECT_EQ(c.fields[3].pos.line, 19u);
  EXPECT_EQ(c.fields[4].value->kind, LiteralKind::kFloat);
  EXPECT_EQ(c.fields[5].value->kind, LiteralKind::kBool);
  EXPECT_EQ(c.fields[5].value->text, "False");
  EXPECT_EQ(c.fields[6].annotation, "list[int]");
  EXPECT_EQ(c.fields[6].value->kind, LiteralKind::kNotLiteral);
  EXPECT_EQ(c.fields[7].annotation, "Literal[\"fcfs\", \"priority\"]");
  EXPECT_EQ(c.fields[8].target, "chunked");
  EXPECT_FALSE(c.fields[8].value);  // a bare annotation has no default

  // Module-level assignments, and the class's own among all assignments with their scope.
  ASSERT_GE(m.assignments.size(), 2u);
  EXPECT_EQ(m.assignments[0].target, "RunnerType");
  EXPECT_EQ(m.assignments[0].scope, Assignment::Scope::kModule);
  EXPECT_EQ(m.assignments[1].target, "DEFAULT_MAX_SEQS");
  EXPECT_EQ(m.assignments[1].annotation, "int");
  EXPECT_EQ(m.assignments[1].value->text, "128");
  EXPECT_EQ(m.assignments[1].pos.line, 6u);
  EXPECT_EQ(m.assignments[2].scope, Assignment::Scope::kClass);
  EXPECT_EQ(m.assignments[2].owner, "SchedulerConfig");
  const Assignment& cache = m.assignments.back();
  EXPECT_EQ(cache.target, "self.cache");
  EXPECT_EQ(cache.scope, Assignment::Scope::kFunction);
  EXPECT_EQ(cache.owner, "compute_hash");
  EXPECT_EQ(cache.value->kind, LiteralKind::kCollection);  // {"budget": -1, "ratio": 0.5}
}

TEST(PythonReader, FunctionsAndParameters) {
  Module m = parse(kConfig);
  const auto* f = m.find_function("compute_hash");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->owner, "SchedulerConfig");
  EXPECT_EQ(f->return_type, "str");
  EXPECT_EQ(f->pos.line, 26u);
  ASSERT_EQ(f->params.size(), 3u);  // the bare `*` is a separator, not a parameter
  EXPECT_EQ(f->params[0].name, "self");
  EXPECT_EQ(f->params[1].name, "factors");
  EXPECT_EQ(f->params[1].annotation, "list | None");
  ASSERT_TRUE(f->params[1].default_value);
  EXPECT_EQ(f->params[1].default_value->kind, LiteralKind::kNone);
  EXPECT_EQ(f->params[2].name, "extra");
  EXPECT_EQ(f->params[2].kind, Parameter::Kind::kKwargs);
  EXPECT_FALSE(f->params[2].default_value);
}

TEST(PythonReader, DocstringsCommentsAndDictEntries) {
  Module m = parse(kConfig);
  size_t docs = 0;
  for (const auto& s : m.strings) docs += s.docstring ? 1 : 0;
  EXPECT_EQ(docs, 2u);  // the class docstring and the attribute docstring; "generate" is a value
  ASSERT_EQ(m.comments.size(), 2u);
  EXPECT_EQ(m.comments[0].text, "# SPDX-License-Identifier: Apache-2.0");
  EXPECT_EQ(m.comments[1].pos.line, 17u);
  EXPECT_EQ(m.comments[1].pos.col, 41u);
  ASSERT_EQ(m.dict_entries.size(), 2u);
  EXPECT_EQ(m.dict_entries[0].key, "budget");
  EXPECT_TRUE(m.dict_entries[0].key_is_string);
  EXPECT_EQ(m.dict_entries[0].value.text, "-1");
  EXPECT_EQ(m.dict_entries[0].value.kind, LiteralKind::kInteger);
  EXPECT_EQ(m.dict_entries[1].value.kind, LiteralKind::kFloat);
}

TEST(PythonReader, ArgparseDeclarations) {
  Module m = parse(kServerArgs);
  ASSERT_TRUE(m.errors.empty());
  auto adds = m.calls_named("add_argument");
  ASSERT_EQ(adds.size(), 4u);

  const auto& mem = *adds[0];
  EXPECT_EQ(mem.callee, "parser.add_argument");
  EXPECT_EQ(mem.pos.line, 7u);
  ASSERT_EQ(mem.positional().size(), 1u);
  EXPECT_EQ(mem.positional()[0]->value.str, "--mem-fraction-static");
  EXPECT_EQ(mem.positional()[0]->pos.line, 8u);
  ASSERT_NE(mem.keyword("default"), nullptr);
  EXPECT_EQ(mem.keyword("default")->value.text, "ServerArgs.mem_fraction_static");
  EXPECT_FALSE(mem.keyword("default")->value.literal());
  EXPECT_EQ(mem.keyword("type")->value.text, "float");
  EXPECT_EQ(mem.keyword("choices"), nullptr);

  EXPECT_EQ(adds[1]->keyword("default")->value.kind, LiteralKind::kNone);
  EXPECT_EQ(adds[2]->keyword("default")->value.str, "fcfs");
  EXPECT_EQ(adds[2]->keyword("choices")->value.kind, LiteralKind::kCollection);
  EXPECT_EQ(adds[3]->positional()[0]->value.str, "--page-size");
  EXPECT_EQ(adds[3]->keyword("default")->value.kind, LiteralKind::kInteger);
  EXPECT_EQ(adds[3]->keyword("default")->pos.line, 15u);
  EXPECT_EQ(adds[3]->keyword("default")->pos.col, 54u);
  // An f-string with a replacement field has no simple value; its literal text is kept, the field blanked.
  const auto& help = adds[3]->keyword("help")->value;
  EXPECT_EQ(help.kind, LiteralKind::kString);
  EXPECT_FALSE(help.str);

  const auto* add_cli = m.find_function("add_cli_args");
  ASSERT_NE(add_cli, nullptr);
  EXPECT_EQ(add_cli->decorators, (std::vector<std::string>{"staticmethod"}));
  ASSERT_EQ(add_cli->params.size(), 1u);  // a static method: no self
  EXPECT_EQ(add_cli->params[0].name, "parser");
  EXPECT_EQ(add_cli->params[0].annotation, "argparse.ArgumentParser");
}

TEST(PythonReader, StringsDecodeAndMask) {
  Module m = parse("a = 'x\\ty'\nb = r'\\d+'\nc = \"\"\"q\"\"\"\nd = f'{n}-{{n}}'\ne = 'a' \"b\"\nf = '\\u00e9'\n");
  ASSERT_EQ(m.strings.size(), 7u);
  EXPECT_EQ(m.strings[0].text, "x\ty");
  EXPECT_EQ(m.strings[1].text, "\\d+");
  EXPECT_EQ(m.strings[2].text, "q");
  EXPECT_FALSE(m.strings[3].text);
  EXPECT_EQ(m.strings[3].masked, "f'   -{{n}}'");
  EXPECT_EQ(m.assignments[4].value->str, "ab");  // implicit concatenation
  EXPECT_EQ(m.strings[6].text, "\xc3\xa9");
  EXPECT_EQ(blis::pyread::decode_string("f'{{x}}'"), "{x}");
  EXPECT_EQ(blis::pyread::decode_string("'\\N{BULLET}'"), std::nullopt);
  EXPECT_EQ(blis::pyread::decode_string("b'\\x41\\101'"), "AA");
}

TEST(PythonReader, IdentifiersAndChainedAssignments) {
  Module m = parse("import os.path as p\nx = y = -2\n");
  std::vector<std::string> names;
  for (const auto& i : m.identifiers) names.push_back(i.name);
  EXPECT_EQ(names, (std::vector<std::string>{"os", "path", "p", "x", "y"}));
  ASSERT_EQ(m.assignments.size(), 2u);
  EXPECT_EQ(m.assignments[0].target, "x");
  EXPECT_EQ(m.assignments[1].target, "y");
  EXPECT_EQ(m.assignments[1].value->text, "-2");
  EXPECT_EQ(m.assignments[1].value->kind, LiteralKind::kInteger);
  EXPECT_EQ(m.identifiers[4].pos.line, 2u);
  EXPECT_EQ(m.identifiers[4].pos.col, 5u);
  EXPECT_EQ(m.pos_at(m.identifiers[4].pos.offset), m.identifiers[4].pos);
}

TEST(PythonReader, ParseErrorsAreReportedWithTheirPlace) {
  Module m = parse("def ok():\n    return 1\n\ndef f(:\n    pass\n");
  ASSERT_FALSE(m.errors.empty());
  EXPECT_EQ(m.errors[0].pos.line, 4u);
  EXPECT_EQ(m.errors[0].what, "missing `)`");  // tree-sitter recovers `f(:` by inserting the `)`
  Module unclosed = parse("x = (1, 2\n");
  ASSERT_EQ(unclosed.errors.size(), 1u);
  EXPECT_EQ(unclosed.errors[0].pos.line, 1u);
  EXPECT_EQ(unclosed.errors[0].pos.col, 1u);
  EXPECT_EQ(unclosed.errors[0].what, "syntax error near `x = (1, 2`");
  EXPECT_TRUE(parse("x = (1, 2)\n").errors.empty());
}

}  // namespace
