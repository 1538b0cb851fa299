// lint-path: src/cost/model_literals_fixture.cpp
// Fixture of blis-model-literals (SUB-3): model names and families the catalog under --root holds are
// flagged in string literals and declared names; architecture words, other words that merely contain a
// family's letters, and comments are not. Run with --root at the repository (the names come from
// catalog/models/).
#include <string>
#include <string_view>

namespace fixture {

struct Shape {
  int hidden = 0;
  int experts = 0;
};

const char* ids[] = {
    "Qwen/Qwen3-8B",                   // expect: hard-coded model name 'Qwen/Qwen3-8B' in a string literal
    "deepseek-ai--DeepSeek-V3",        // expect: hard-coded model name 'deepseek-ai--DeepSeek-V3' in a string literal
    "mixtral-8x7b-v0.1",               // expect: hard-coded model name 'Mixtral-8x7B-v0.1' in a string literal
    "moe",                             // near-miss: an architecture word, not a model
    "attention",                       // near-miss: an architecture word
    "rope_theta",                      // near-miss: a configuration word the architectures share
    "gptq",                            // near-miss: a quantization method whose letters begin like gpt
    "yield",                           // near-miss: holds 'yi', but Yi-34B implies no family (two letters)
    "meta",                            // near-miss: Meta-Llama-3.1-8B's lead word is no architecture
};

int branch(std::string_view model, const Shape& s) {
  if (model == "llama") return s.hidden;        // expect: hard-coded model family 'llama' in a string literal
  if (model.starts_with("Qwen3")) return 2;     // expect: hard-coded model family 'qwen' in a string literal
  if (model.find("GLM") != 0) return 3;         // expect: hard-coded model family 'glm' in a string literal
  if (model == "deepseek_v3") return 4;         // expect: hard-coded model name 'DeepSeek-V3' in a string literal
  if (model == "DeepSeek") return 6;            // expect: hard-coded model family 'deepseek' in a string literal
  if (model == "mla") return 5;                 // near-miss: an attention kind, not a model
  return s.experts;  // a comment naming DeepSeek-V3 or Llama-4 is not code  // near-miss: comments are not read
}

bool isLlama4(int layers) { return layers == 48; }    // expect: hard-coded model family 'llama' in an identifier
constexpr int kDeepseekV3Hidden = 7168;               // expect: hard-coded model family 'deepseek' in an identifier
constexpr int qwen3_8b_layers = 36;                   // expect: hard-coded model name 'Qwen3-8B' in an identifier
constexpr int gptq_group_size = 128;                  // near-miss: gptq is a quantization method
constexpr int llamas = 2;                             // near-miss: a longer word is not the family
constexpr int num_experts_per_tok = 8;                // near-miss: architecture words in an identifier

}  // namespace fixture
