namespace data {
int vllm_rows = 0;     // near-miss: counted by the fixture's ratchet (src/data/: 2)
int sglang_rows = 0;   // near-miss: counted by the fixture's ratchet (src/data/: 2)
}  // namespace data
