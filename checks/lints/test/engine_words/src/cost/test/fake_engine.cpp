namespace cost::test {
const char* engine = "vllm";   // near-miss: tests may name engines
}
