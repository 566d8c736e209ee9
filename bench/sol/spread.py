#!/usr/bin/env python3
"""spread.py: repeated runs of `smemlab bench transpose` / `bench reduce` (--format json) side by side.

For every case (bench, dtype, shape) and every run: ours' ratio to the copy (the row's
ratio_to_copy: GB/s over the copy's), to each peer (peer median / ours'), and ours' spread inside the run (its max over its median:
a row whose max is far above its median was disturbed, not slow). Then over the runs: the median,
lowest and highest ratio to the copy and to the best peer. A file that is not such a run is named
and skipped (exit 3 if none was read).
Usage: spread.py transpose-1.json [transpose-2.json reduce-1.json ...]
"""
import json
import statistics
import sys

PEERS = ("cublas", "torch", "cub")


def cases_of(path):
    with open(path) as f:
        d = json.load(f)
    out = {}
    for bench in ("transpose", "reduce"):
        for r in d.get(bench, []):
            key = (bench, r["dtype"], f"n={r['n']}" if bench == "reduce" else f"{r['rows']}x{r['cols']}")
            out.setdefault(key, {})[r["method"]] = r
    return out


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    runs = []
    for p in paths:
        try:
            runs.append(cases_of(p))
        except (OSError, ValueError, KeyError) as e:
            print(f"{p}: skipped: {e}", file=sys.stderr)
    if not runs:
        return 3
    keys = []
    for r in runs:
        keys += [k for k in r if k not in keys]
    print(f"{'case':<32} {'x copy: per run':<30} {'median':>6} {'low':>6} {'high':>6}  "
          f"{'x best peer: median':>19} {'low':>6}  {'ours max/median: worst':>22}")
    for k in keys:
        copy, peer, spread = [], [], []
        for r in runs:
            m = r.get(k)
            if not m or "smemlab" not in m or not m["smemlab"]["median_ms"]:
                continue
            ours = m["smemlab"]
            med = ours["median_ms"]
            if "memcpy" in m:
                # the row's own ratio (GB/s over the copy's): a sum reads n elements where the copy
                # reads and writes them, so times alone would say 2
                copy.append(ours.get("ratio_to_copy") or m["memcpy"]["median_ms"] / med)
            ps = [m[p]["median_ms"] for p in PEERS if p in m and m[p].get("verified") and m[p]["median_ms"] > 0]
            if ps:
                peer.append(min(ps) / med)
            spread.append(ours["max_ms"] / med)
        if not copy:
            continue
        name = f"{k[0]} {k[1]} {k[2]}"
        per = " ".join(f"{c:.3f}" for c in copy)
        pm = f"{statistics.median(peer):19.3f} {min(peer):6.3f}" if peer else f"{'-':>19} {'-':>6}"
        print(f"{name:<32} {per:<30} {statistics.median(copy):6.3f} {min(copy):6.3f} {max(copy):6.3f}  {pm}  "
              f"{max(spread):22.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
