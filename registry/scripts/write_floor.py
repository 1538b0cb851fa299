#!/usr/bin/env python3
"""Writes the floor: set `floor`, one file per primitive family (registry/sets/floor/<family>.yaml).

The floor guarantees a price for every primitive family on every catalog chip (VAL-2, SUB-7; design
§9.2 ranks 6 and 7). For each coefficient registry/families.yaml declares, on each chip of
catalog/hardware/:
- `floor: roofline`: the catalog fact the roofline reads (a dense peak per data type, the memory
  bandwidth, the link bandwidth at each span the chip has, the host link), cited by file and field;
- `floor: assumed`: the assumption below, with its reason. No family has a measured entry on any chip
  yet, so no efficiency can be borrowed (rank 6 needs one): efficiencies are assumed too.

A fact the catalog does not state is a gap: no value is invented for it. The writer prints it as a
notice and writes a `not_charged` entry for that coefficient on that chip whose reason names the
missing fact, so the family still has a price on the chip (VAL-2) and the price shows the lowest trust.

usage: write_floor.py [--root ROOT] [--check]
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import writer  # noqa: E402
from check_registry import resolve_field  # noqa: E402

SET = "floor"

# The assumed values. Each is a bound, never an estimate: the priced time can only come out short.
NO_EFFICIENCY = (
    "No entry of this family is measured or calibrated on any chip yet, so the roofline has no efficiency "
    "to borrow (design §9.2, rank 6). 1.0 charges the datasheet peak the roofline entries record, the "
    "ceiling SUB-5 allows: the priced time is a lower bound and never overstates the cost. Replace it "
    "when a fitted efficiency for the family lands.")
NO_LATENCY = (
    "No measured or published fixed per-call time for this primitive on this chip is in the registry yet. "
    "0 s is the lower bound: the price leaves the fixed cost out and so understates small calls. "
    "Replace it with a value fitted to kernel, collective or copy benchmarks.")
NO_HOST_TIME = (
    "No measured host time for this overhead on this chip's host is in the registry yet. 0 s is the lower "
    "bound: the price leaves host time out and so understates step time wherever the host is on the "
    "critical path. Replace it with a value fitted to host-profiled or end-to-end data.")
BALANCED = (
    "No routing-balance profile exists yet for any workload. 1.0 puts the mean load on every "
    "expert-parallel rank, the lower bound of max over mean, so the price never overstates expert time. "
    "A workload's own value (command line, scenario, trace or profile; D8) replaces it; this entry states "
    "no workload, no chip and no model, and rests on no data (D1).")

NO_STARTUP_LOG = (
    "../shared/data holds no GPU start-up log (the memory an engine reports outside its allocator: the "
    "device context and the communication libraries' buffers), so there is nothing to measure this from on "
    "any chip. 0 bytes is the lower bound: the memory breakdown leaves this memory out, so the GPU memory it "
    "reports is short by it and a KV budget sized from the breakdown is too large by it. Replace it with a "
    "value measured from start-up logs per chip and library version (SUB-14).")

MISSING_FACT = (
    "The catalog states no fact this roofline reads ({gap}), and no value may be invented for it. Until "
    "the catalog states it, the term this coefficient prices is not charged, so the price is a lower "
    "bound; the catalog's open gaps are listed in catalog/hardware-notes.md.")

ASSUMED = {  # (family kind or family, coefficient) -> (value, reason)
    ("*", "compute_efficiency"): (1.0, NO_EFFICIENCY),
    ("*", "memory_efficiency"): (1.0, NO_EFFICIENCY),
    ("*", "link_efficiency"): (1.0, NO_EFFICIENCY),
    ("*", "latency"): (0.0, NO_LATENCY),
    ("host", "time"): (0.0, NO_HOST_TIME),
    ("moe.expert_imbalance", "max_over_mean"): (1.0, BALANCED),
    ("memory.outside_allocator", "bytes"): (0, NO_STARTUP_LOG),
}


class Gap(Exception):
    """A catalog fact the floor needs and the catalog does not state."""


def fact(rel: str, data: dict, field: str) -> dict:
    try:
        v = resolve_field(data, field)
    except KeyError:
        raise Gap(f"{rel} states no {field}") from None
    return {"file": rel, "field": field, "value": v}


def network(ctx, chip_rel: str, name: str) -> tuple[str, dict]:
    if name not in ctx.networks:
        raise Gap(f"{chip_rel} names network {name}, which is not in catalog/networks/")
    return ctx.networks[name]


def roofline(ctx, fam_name: str, fam: dict, coef: str, chip: str, rel: str, data: dict) -> list[tuple[dict, dict]]:
    """(scope, roofline sources) for one coefficient on one chip."""
    if coef == "compute_rate":
        peaks = data.get("dense_peak") or {}
        if not peaks:
            raise Gap(f"{rel} states no dense_peak")
        return [({"chip": chip, "dtype": d},
                 {"facts": [fact(rel, data, f"dense_peak.{d}.value")],
                  "formula": f"value = facts[0], the chip's dense {d} peak"})
                for d in sorted(peaks)]
    if coef == "memory_rate":
        return [({"chip": chip}, {"facts": [fact(rel, data, "memory.bandwidth.value")],
                                  "formula": "value = facts[0], the chip's peak memory bandwidth"})]
    if coef == "link_rate" and fam["kind"] == "communication" and fam_name.startswith("copy."):
        if not data.get("host_link"):
            raise Gap(f"{rel} states no host_link")
        net_rel, net = network(ctx, rel, data["host_link"]["network"])
        return [({"chip": chip}, {
            "facts": [fact(net_rel, net, "port_bandwidth_per_direction.value")],
            "formula": f"value = facts[0], the per-direction rate of {data['host_link']['network']}, the host "
                       f"link {rel} names (host_link.network)"})]
    if coef == "link_rate":
        out = []
        for span in ("node", "rack", "fabric"):
            src = span_rate(ctx, chip, rel, data, span)
            if src is not None:
                out.append(({"chip": chip, "span": span}, src))
        return out
    raise Gap(f"{fam_name}.{coef}: write_floor.py has no roofline rule for it")


def span_rate(ctx, chip: str, rel: str, data: dict, span: str) -> dict | None:
    """The per-GPU, per-direction link rate a group spanning `span` crosses, or None if the chip has no such tier."""
    if span == "node":
        if data.get("nvlink"):
            return {"facts": [fact(rel, data, "nvlink.bandwidth_per_direction.value")],
                    "formula": "value = facts[0], the GPU's aggregate NVLink bandwidth per direction"}
        if data.get("host_link"):
            name = data["host_link"]["network"]
            net_rel, net = network(ctx, rel, name)
            return {"facts": [fact(net_rel, net, "port_bandwidth_per_direction.value")],
                    "formula": f"value = facts[0]: the chip has no NVLink, so traffic between GPUs of a node "
                               f"crosses its host link, {name} ({rel} host_link.network)"}
        raise Gap(f"{rel} states neither nvlink nor host_link: no link joins its GPUs")
    if span == "rack":
        if not data.get("rack"):
            return None
        facts = [fact(rel, data, "nvlink.bandwidth_per_direction.value"),
                 fact(rel, data, "rack.gpus_per_nvlink_domain.value"),
                 fact(rel, data, "rack.gpus_per_rack.value")]
        if facts[1]["value"] != facts[2]["value"]:
            raise Gap(f"{rel}: the NVLink domain ({facts[1]['value']} GPUs) is not the whole rack "
                      f"({facts[2]['value']} GPUs), so a rack-spanning group's link is not stated")
        return {"facts": facts,
                "formula": "value = facts[0]: the rack is one NVLink domain (facts[1] = facts[2] GPUs), "
                           "which each GPU reaches at its own NVLink bandwidth per direction"}
    if span == "fabric":
        if not data.get("nic"):
            return None  # the scale-out NIC is the cluster's choice, not the chip's (registry/README.md gaps)
        return {"facts": [fact(rel, data, "nic.bandwidth_per_direction.value")],
                "formula": "value = facts[0], the product's scale-out NIC bandwidth per GPU per direction"}
    raise ValueError(span)


def assumed(fam_name: str, fam: dict, coef: str) -> tuple[float, str]:
    for key in ((fam_name, coef), (fam["kind"], coef), ("*", coef)):
        if key in ASSUMED:
            return ASSUMED[key]
    raise Gap(f"{fam_name}.{coef}: write_floor.py has no assumed value for it")


def family_entries(ctx, fam_name: str, fam: dict, gaps: list[str]) -> list[dict]:
    entries = []
    for coef, decl in fam["coefficients"].items():
        base = {"name": f"{fam_name}.{coef}", "unit": decl["unit"], "boundary": dict(decl["boundary"])}
        if decl["floor"] == "assumed":
            value, reason = assumed(fam_name, fam, coef)
            if fam["workload_keyed"]:
                # D8: a workload property is never scoped to a chip or model; one unscoped bound serves all.
                entries.append({**base, "scope": {}, "value": value,
                                "method": {"assumed": {"reason": reason, "price_bound": "lower"}}})
                continue
            for chip in sorted(ctx.chips):
                entries.append({**base, "scope": {"chip": chip}, "value": value,
                                "method": {"assumed": {"reason": reason, "price_bound": "lower"}}})
            continue
        for chip, (rel, data) in sorted(ctx.chips.items()):
            try:
                for scope, src in roofline(ctx, fam_name, fam, coef, chip, rel, data):
                    entries.append({**base, "scope": scope, "value": src["facts"][0]["value"],
                                    "method": {"roofline": src}})
            except Gap as g:
                # VAL-2: the family still has a price on this chip; the missing fact is named, never filled.
                gaps.append(f"{fam_name}.{coef} on {chip}: {g}")
                entries.append({**base, "scope": {"chip": chip},
                                "method": {"not_charged": {"reason": MISSING_FACT.format(gap=g)}}})
    return entries


def produce(ctx):
    if not ctx.chips:
        raise SystemExit("write_floor.py: catalog/hardware/ holds no chips: nothing to write the floor for")
    gaps: list[str] = []
    outs = [writer.coefficient_set(SET, fam_name, family_entries(ctx, fam_name, fam, gaps))
            for fam_name, fam in ctx.families.items()]
    for g in gaps:
        print(f"notice: not charged: {g} [write-floor; VAL-2]")
    return outs


if __name__ == "__main__":
    sys.exit(writer.run(__file__, produce, require_complete=True))
