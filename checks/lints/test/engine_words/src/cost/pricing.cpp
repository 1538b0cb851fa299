// Fixture of blis-engine-words (X2): engine words in the cost model's names and literals; a directory
// laid out as a small repository (src/, catalog/, registry/, schemas/, its own ratchet).
namespace vllm_compat {}                         // expect: engine word 'vllm' in an identifier
namespace cost {
struct SglangPlan {};                            // expect: engine word 'sglang' in an identifier
enum class Engine { kVllm, kOther };             // expect: engine word 'vllm' in an identifier
int max_num_seqs = 0;                            // expect: engine word 'max_num_seqs' in an identifier
void tune(int gpuMemoryUtilization);             // expect: engine word 'gpu_memory_utilization' in an identifier
struct Budget {
  int memFractionStatic = 0;                     // expect: engine word 'mem_fraction_static' in an identifier
};
const char* name = "vllm";                       // expect: engine word 'vllm' in a string literal
const char* cite = "vllm/v1/core/sched/scheduler.py@c0ffee12";  // expect: engine word 'vllm' in a string literal || engine word 'c0ffee12' in a string literal
const char* ver = "v0.6.19";                     // expect: engine word '0.6.19' in a string literal
const char* mixed = "sglang-kernel/max-num-seqs"; // expect: engine word 'max_num_seqs' in a string literal

int max_num_tokens = 0;                          // near-miss: a neutral name sharing parts with an engine word
int num_seqs = 0;                                // near-miss: only a part of an engine word
int allvllmish = 0;                              // near-miss: the word sits inside a longer part
int block_size = 16;                             // near-miss: architecture vocabulary, left out of the list
const char* kernel = "vllm-csrc";                // near-miss: a kernel library name (INTERFACES.md)
const char* kernel2 = "sglang_kernel";           // near-miss: a kernel library name, other spelling
const char* date = "2026-06-19";                 // near-miss: a date is not the version 0.6.19
const char* longer = "10.6.19";                  // near-miss: a longer version that only ends alike
const char* router = "0.11.3 fe98dc76";         // near-miss: the router's pin (versions.yaml) is no engine's
const char* sgl = "ab12cd34";                    // expect: engine word 'ab12cd34' in a string literal
// vllm in a comment                             // near-miss: comments are neither names nor literals
}  // namespace cost
