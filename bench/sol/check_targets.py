#!/usr/bin/env python3
"""check_targets.py: issue 16's targets over `smemlab bench transpose --format json` outputs.

For each file and each shape/dtype: ours (method smemlab) at least 0.95 of cudaMemcpy (copy ms / ours
ms), at least 1 % ahead of cuBLAS where it ran (cuBLAS ms / ours ms >= 1.01: f32, f64) and ahead of
torch where it ran (torch ms / ours ms > 1); every row verified. Prints one line per file with the
4097x4097 f16 ratio and the misses (ratio, and both medians with ours' maximum: a miss where the
maximum is several times the median is a disturbed run, not a slow kernel). Exit 0 when every file
meets every target, 1 when one misses, 3 on a file it cannot read.
Usage: check_targets.py transpose.json [more.json ...]
"""
import json
import sys


def check(path):
    with open(path) as f:
        rows = json.load(f)["transpose"]
    cases = {}
    for r in rows:
        cases.setdefault((r["dtype"], r["rows"], r["cols"]), {})[r["method"]] = r
    misses = [f"{r['dtype']} {r['rows']}x{r['cols']} {r['method']} not verified" for r in rows if not r.get("verified")]
    f16 = "4097x4097 f16 not measured"
    for (dt, nr, nc), m in cases.items():
        if "smemlab" not in m or "memcpy" not in m:
            misses.append(f"{dt} {nr}x{nc}: no smemlab or memcpy row")
            continue
        ours = m["smemlab"]
        def need(peer, ratio, ok):
            if not ok:
                misses.append(f"{dt} {nr}x{nc} vs {peer} {ratio:.3f} ({peer} {m[peer]['median_ms']:.4f} ms, "
                              f"ours {ours['median_ms']:.4f} ms, ours' max {ours['max_ms']:.4f})")
        copy = m["memcpy"]["median_ms"] / ours["median_ms"]
        if (dt, nr, nc) == ("f16", 4097, 4097):
            f16 = f"4097x4097 f16 {copy:.3f} (copy {m['memcpy']['median_ms']:.4f} ms, ours {ours['median_ms']:.4f})"
        need("memcpy", copy, copy >= 0.95)
        if "cublas" in m:
            cb = m["cublas"]["median_ms"] / ours["median_ms"]
            need("cublas", cb, cb >= 1.01)
        if "torch" in m:
            tt = m["torch"]["median_ms"] / ours["median_ms"]
            need("torch", tt, tt > 1.0)
    print(f"{path}: {len(rows)} rows, {f16}: " + ("every target met" if not misses else "; ".join(misses)))
    return not misses


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    ok = True
    for p in paths:
        try:
            ok = check(p) and ok
        except (OSError, ValueError, KeyError) as e:
            print(f"{p}: cannot read: {e}", file=sys.stderr)
            return 3
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
