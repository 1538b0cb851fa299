"""Fitting an efficiency curve and a latency to measured times: pure Python.

The model of one measured time t_i at input point x_i (forms.py):
    pred_i = L(x_i) + T_i / E(x_i),   E(x) = the curve (multilinear over grid values e_j) at x,
    L(x) = sum_k w_ik l_k             (the latency: nonnegative terms l_k with fixed weights per row)
T_i is the roofline time (compute and memory families) or the bus bytes over the link rate
(collectives). The latency has one term (w = 1: a fixed time per call) unless the caller gives each row
its weights: collectives use two, L = a + b (n - 1) over the group size n (fitfamily.py). The values are
fitted by least squares in log space, sum_i (log pred_i - log t_i)^2, over the fit units' rows, by
Gauss-Newton in u_j = log e_j (so every e_j > 0) and in log l_k, each step projected onto u_j <= 0 (no
efficiency above the chip's peak, SUB-5), with a smoothness penalty MU * sum (u_a - u_b)^2 over grid
neighbours that only fixes grid points the data leave open.

Bootstrap (VAL-10): resample whole fit units with replacement; each resample takes one Gauss-Newton step
from the full fit using the units' own normal-equation contributions (the linearised bootstrap), and the
interval of a reported figure is its 2.5th and 97.5th percentiles over the resamples. The resampling
stream is seeded from SHA-256 of the entry's identity text: the same data give the same interval.
"""
from __future__ import annotations

import hashlib
import math
import random

import forms

MU = 1.0          # smoothness weight per neighbour pair
GN_STEPS = 8      # Gauss-Newton iterations of a fit
RESAMPLES = 60    # bootstrap resamples per entry
CG_STEPS = 400    # conjugate-gradient iterations per linear solve at most


class Grid:
    def __init__(self, axes: list[dict]):
        self.axes = axes
        self.size = 1
        for a in axes:
            self.size *= len(a["points"])

    def neighbours(self) -> list[tuple[int, int]]:
        out = []
        dims = [len(a["points"]) for a in self.axes]
        strides = []
        s = 1
        for d in reversed(dims):
            strides.append(s)
            s *= d
        strides.reverse()
        for idx in range(self.size):
            rem = idx
            for ax, d in enumerate(dims):
                coord = (rem // strides[ax]) % d
                if coord + 1 < d:
                    out.append((idx, idx + strides[ax]))
        return out


def axis(name: str, lo: float, hi: float, step: float) -> dict:
    """A log2 axis over [lo, hi] (inputs, >= 1) with breakpoints every `step` octaves, ends included."""
    a, b = math.floor(math.log2(max(lo, 1))), math.ceil(math.log2(max(hi, 1)))
    pts = []
    p = float(a)
    while p < b:
        pts.append(p)
        p += step
    pts.append(float(b))
    if len(pts) < 2:
        pts = [float(a), float(a) + step]
    return {"input": name, "scale": "log2", "points": pts}


class Obs:
    """One row: its interpolation corners, its T, its measured time, its unit and its latency weights
    [(term, weight)] (default: the one term, weight 1)."""
    __slots__ = ("corners", "T", "t", "unit", "lcorners")

    def __init__(self, corners, T, t, unit, lcorners=None):
        self.corners, self.T, self.t, self.unit = corners, T, t, unit
        self.lcorners = lcorners if lcorners is not None else [(0, 1.0)]


class Fit:
    def __init__(self, grid: Grid, u: list[float], logL: list[float] | None):
        self.grid, self.u, self.logL = grid, u, logL

    @property
    def values(self) -> list[float]:
        return [math.exp(x) for x in self.u]

    @property
    def latency_terms(self) -> list[float]:
        return [math.exp(x) for x in self.logL] if self.logL is not None else []

    def latency_at(self, lcorners) -> float:
        return sum(w * math.exp(self.logL[k]) for k, w in lcorners) if self.logL is not None else 0.0

    def curve(self) -> dict:
        return {"axes": self.grid.axes, "values": self.values}

    def predict(self, corners, T, lcorners=((0, 1.0),)) -> float:
        vals = self.values
        E = sum(w * vals[j] for j, w in corners)
        return self.latency_at(lcorners) + T / E


def _terms(o: Obs, u: list[float], logL: list[float] | None):
    """(residual, gradient entries [(param, d r / d param)]) of one row; latency term k is param -1 - k."""
    E = 0.0
    parts = []
    for j, w in o.corners:
        ej = math.exp(u[j])
        E += w * ej
        parts.append((j, w * ej))
    Ls = [(k, w * math.exp(logL[k])) for k, w in o.lcorners] if logL is not None else []
    L = sum(v for _, v in Ls)
    pred = L + o.T / E
    r = math.log(pred) - math.log(o.t)
    g = [(j, -(o.T / (E * E)) * we / pred) for j, we in parts]
    for k, v in Ls:
        g.append((-1 - k, v / pred))
    return r, g


def _accumulate(obs: list[Obs], u, logL):
    """Sparse J^T J (dict (i, j) -> v, i <= j) and J^T r (dict), and the sum of squares."""
    H: dict = {}
    g: dict = {}
    ss = 0.0
    for o in obs:
        r, gr = _terms(o, u, logL)
        ss += r * r
        for a, va in gr:
            g[a] = g.get(a, 0.0) + va * r
            for b, vb in gr:
                if a <= b:
                    H[(a, b)] = H.get((a, b), 0.0) + va * vb
    return H, g, ss


def _penalty(grid: Grid, u, H, g, mu):
    pen = 0.0
    for a, b in grid.neighbours():
        d = u[a] - u[b]
        pen += mu * d * d
        g[a] = g.get(a, 0.0) + mu * d
        g[b] = g.get(b, 0.0) - mu * d
        H[(a, a)] = H.get((a, a), 0.0) + mu
        H[(b, b)] = H.get((b, b), 0.0) + mu
        H[(a, b) if a < b else (b, a)] = H.get((a, b) if a < b else (b, a), 0.0) - mu
    return pen


def _solve(H: dict, g: dict, params: list[int], damping: float) -> dict:
    """Solves (H + damping * diag(H)) x = -g by preconditioned conjugate gradients (H symmetric)."""
    diag = {p: H.get((p, p), 0.0) for p in params}
    rows: dict = {p: [] for p in params}
    for (a, b), v in H.items():
        rows[a].append((b, v))
        if a != b:
            rows[b].append((a, v))
    for p in params:
        rows[p].append((p, damping * diag[p] + 1e-12))

    def mul(x):
        return {p: sum(v * x[q] for q, v in rows[p]) for p in params}

    pre = {p: 1.0 / (diag[p] * (1 + damping) + 1e-12) for p in params}
    x = {p: 0.0 for p in params}
    r = {p: -g.get(p, 0.0) for p in params}
    z = {p: pre[p] * r[p] for p in params}
    d = dict(z)
    rz = sum(r[p] * z[p] for p in params)
    norm0 = math.sqrt(sum(r[p] * r[p] for p in params)) or 1.0
    for _ in range(CG_STEPS):
        Ad = mul(d)
        dAd = sum(d[p] * Ad[p] for p in params)
        if dAd <= 0:
            break
        alpha = rz / dAd
        for p in params:
            x[p] += alpha * d[p]
            r[p] -= alpha * Ad[p]
        if math.sqrt(sum(r[p] * r[p] for p in params)) < 1e-10 * norm0:
            break
        z = {p: pre[p] * r[p] for p in params}
        rz2 = sum(r[p] * z[p] for p in params)
        beta = rz2 / rz
        rz = rz2
        d = {p: z[p] + beta * d[p] for p in params}
    return x


def _objective(obs, grid, u, logL, mu):
    ss = 0.0
    for o in obs:
        r, _ = _terms(o, u, logL)
        ss += r * r
    for a, b in grid.neighbours():
        ss += mu * (u[a] - u[b]) ** 2
    return ss


def fit(grid: Grid, obs: list[Obs], latency: int, mu: float = MU) -> Fit:
    """latency: the number of latency terms (0: none; 1: a fixed time per call; more: the rows' weights
    name them)."""
    if not obs:
        raise ValueError("no observations to fit")
    ratios = sorted(o.T / o.t for o in obs)
    u = [min(math.log(ratios[len(ratios) // 2]), 0.0)] * grid.size
    nl_ = int(latency)
    logL = [math.log(min(o.t for o in obs) * 0.5)] * nl_ if latency else None
    params = list(range(grid.size)) + [-1 - k for k in range(nl_)]
    damping = 1e-3
    cur = _objective(obs, grid, u, logL, mu)
    for _ in range(GN_STEPS):
        H, g, _ = _accumulate(obs, u, logL)
        _penalty(grid, u, H, g, mu)
        while True:
            step = _solve(H, g, params, damping)
            nu = [min(u[j] + step[j], 0.0) for j in range(grid.size)]  # e_j <= 1 (SUB-5), by projection
            nl = [logL[k] + step[-1 - k] for k in range(nl_)] if latency else None
            new = _objective(obs, grid, nu, nl, mu)
            if new <= cur or damping > 1e6:
                break
            damping *= 10
        if new > cur:
            break
        done = cur - new < 1e-9 * max(cur, 1e-30)
        u, logL, cur = nu, nl, new
        damping = max(damping / 10, 1e-6)
        if done:
            break
    return Fit(grid, u, logL)


def bootstrap(f: Fit, obs: list[Obs], report, seed_text: str, mu: float = MU, resamples: int = RESAMPLES):
    """The 95% interval of report(fit) over unit resamples (linearised at f). Returns (low, high, samples)."""
    by_unit: dict[str, list[Obs]] = {}
    for o in obs:
        by_unit.setdefault(o.unit, []).append(o)
    names = sorted(by_unit)
    contrib = {}
    for n in names:
        H, g, _ = _accumulate(by_unit[n], f.u, f.logL)
        contrib[n] = (H, g)
    latency = f.logL is not None
    nl_ = len(f.logL) if latency else 0
    params = list(range(f.grid.size)) + [-1 - k for k in range(nl_)]
    rng = random.Random(int.from_bytes(hashlib.sha256(seed_text.encode("utf-8")).digest()[:8], "big"))
    samples = []
    for _ in range(resamples):
        counts: dict[str, int] = {}
        for _ in names:
            n = names[rng.randrange(len(names))]
            counts[n] = counts.get(n, 0) + 1
        H: dict = {}
        g: dict = {}
        for n, c in counts.items():
            Hn, gn = contrib[n]
            for k, v in Hn.items():
                H[k] = H.get(k, 0.0) + c * v
            for k, v in gn.items():
                g[k] = g.get(k, 0.0) + c * v
        _penalty(f.grid, f.u, H, g, mu)
        step = _solve(H, g, params, 1e-9)
        nu = [min(f.u[j] + step[j], 0.0) for j in range(f.grid.size)]
        nl = [f.logL[k] + step[-1 - k] for k in range(nl_)] if latency else None
        samples.append(report(Fit(f.grid, nu, nl)))
    samples.sort()
    lo = samples[int(math.floor(0.025 * (len(samples) - 1)))]
    hi = samples[int(math.ceil(0.975 * (len(samples) - 1)))]
    return lo, hi, samples


def ape(pred: float, t: float) -> float:
    return abs(pred - t) / t


def median(xs: list[float]) -> float:
    s = sorted(xs)
    n = len(s)
    if not n:
        return float("nan")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    pos = q * (len(s) - 1)
    i = int(math.floor(pos))
    j = min(i + 1, len(s) - 1)
    return s[i] + (s[j] - s[i]) * (pos - i)


def corners_of(axes: list[dict], point: dict):
    return forms.corners(axes, point)
