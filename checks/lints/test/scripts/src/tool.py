max_num_seqs = 256  # near-miss: outside the lint's scope
