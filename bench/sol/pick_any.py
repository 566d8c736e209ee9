#!/usr/bin/env python3
"""pick_any.py: choose the any kernels' register caps, f16's cache hint and the fast interior path
from a bench/sol/dev16.cu sweep (its --csv), per dtype, at one odd shape (default 4097x4097).

Candidates are the dev16 variants that differ from the shipped any kernel (tile 16x16 words, 256
threads for f32 and f64; 8x16, 256 threads for f16 since issue 16's third round; column-major) only
in what the -D macros of kernels/sol_transpose.cu set: SOL_ANY_<T>_MINB (blocks per SM, so the
register cap), SOL_ANY_F16_CACHE (the L2 256-byte hint), SOL_ANY_<T>_FAST (the interior fast path:
`any_` or `anymM_`; without it: `anyold_`) and SOL_ANY_F16_MODE (the split interior path's mode M).
The pick is the variant with the highest mean ratio to cudaMemcpy over the sweep's repeats, among
those whose every result was verified. Prints the -D flags on stdout and the evidence on stderr.
Usage: pick_any.py sweep.csv [ROWSxCOLS]
"""
import csv
import re
import sys

TILE = {"f32": "l16g16t256", "f16": "l8g16t256", "f64": "l16g16t256"}
NAME = re.compile(r"^(any|anyold|anym(\d))_(l\d+g\d+t\d+)_m(\d+)(_pf256)?_colmajor$")


def main(path, shape="4097x4097"):
    rows, cols = (int(x) for x in shape.split("x"))
    ratios, ok = {}, {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if int(r["rows"]) != rows or int(r["cols"]) != cols:
                continue
            m = NAME.match(r["method"])
            if not m or m.group(3) != TILE.get(r["dtype"]):
                continue
            if r["dtype"] != "f16" and not m.group(5):
                continue  # f32 and f64 keep the hint
            key = (r["dtype"], r["method"])
            ratios.setdefault(key, []).append(float(r["ratio_to_copy"]))
            ok[key] = ok.get(key, True) and r["verify"] == "PASS"
    flags = []
    for dt in ("f32", "f16", "f64"):
        cands = [(sum(v) / len(v), k[1]) for k, v in ratios.items() if k[0] == dt and ok[k]]
        if not cands:
            print(f"# {dt}: no candidate in {path}: defaults kept", file=sys.stderr)
            continue
        cands.sort(reverse=True)
        for mean, name in cands:
            print(f"# {dt} {name}: mean ratio to copy {mean:.4f} over {len(ratios[(dt, name)])} runs",
                  file=sys.stderr)
        mean, name = cands[0]
        m = NAME.match(name)
        T = dt.upper()
        flags += [f"-DSOL_ANY_{T}_MINB={m.group(4)}", f"-DSOL_ANY_{T}_FAST={'false' if m.group(1) == 'anyold' else 'true'}"]
        if m.group(2) is not None:
            flags.append(f"-DSOL_ANY_{T}_MODE={m.group(2)}")
        if dt == "f16":
            flags.append(f"-DSOL_ANY_F16_CACHE={'SOL_C5' if m.group(5) else 'SOL_C0'}")
        print(f"# {dt}: picked {name} ({mean:.4f})", file=sys.stderr)
    print(" ".join(flags))


if __name__ == "__main__":
    main(*sys.argv[1:])
