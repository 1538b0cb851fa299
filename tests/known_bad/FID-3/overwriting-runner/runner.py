"""Known-bad input of FID-3 runner-refuses-overwrite: a runner that writes its traces whether or not they
exist (no --update flag)."""
import argparse
import json
import os

import scenarios

ap = argparse.ArgumentParser()
ap.add_argument("--checkout")
ap.add_argument("--out-dir")
ap.add_argument("--designed", action="store_true")
a = ap.parse_args()
for s in scenarios.designed():
    with open(os.path.join(a.out_dir, s["name"] + ".trace.json"), "w", encoding="utf-8") as f:
        json.dump({"scenario": s, "steps": []}, f)
