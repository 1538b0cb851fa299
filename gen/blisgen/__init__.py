"""blis-gen: compiles invariants/ and schemas/ into C++ tables, docs, checklists and Meson registrations."""
