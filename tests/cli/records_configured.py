"""Fails when invariants/ holds records the build was not configured with (the compiled table would
miss them).  usage: records_configured.py SRC_ROOT RECORD...  (the records Meson knows)"""
import os
import sys

root, known = sys.argv[1], {os.path.basename(p) for p in sys.argv[2:]}
present = {f for f in os.listdir(os.path.join(root, "invariants")) if f.endswith(".yaml")}
added, gone = sorted(present - known), sorted(known - present)
if added or gone:
    print(f"the build was configured with another set of records (added: {added}, removed: {gone}); "
          f"run: meson setup --reconfigure build")
    sys.exit(1)
print(f"records-configured: the build knows all {len(present)} records")
