"""Known-bad stubs of X5 manifest-complete (see manifest.yaml beside it)."""
STUBS = {"torch": lambda m: None, "numpy": lambda m: None}
