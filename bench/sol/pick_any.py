#!/usr/bin/env python3
"""pick_any.py: choose the any kernels' register caps, f16's cache hint and the fast interior path
from a bench/sol/dev16.cu sweep (its --csv), per dtype, at one odd shape (default 4097x4097).

Candidates are the dev16 variants that differ from the shipped any kernel (tile 16x16 words, 256
threads for f32 and f64; 16x16 words, 512 threads for f16 since issue 16's fifth round (8x16, 256
threads in the third and fourth); column-major) only
in what the -D macros of kernels/sol_transpose.cu set: SOL_ANY_<T>_MINB (blocks per SM, so the
register cap), SOL_ANY_F16_CACHE (the L2 256-byte hint), SOL_ANY_<T>_FAST (the interior fast path:
`any_` or `anymM_`; without it: `anyold_`), SOL_ANY_F16_MODE (the split interior path's mode M) and
SOL_ANY_F16_ROW0 (`anymMr0_`: the first tile row on the split path too; since round 5).
The pick, among the variants measured at every shape asked for with every result verified: of those
whose mean ratio to cudaMemcpy at the first shape is within 0.01 of the best there, the one with the
highest mean over all the shapes (the first is the benchmark's; the others keep the pick from
fitting one shape alone). Prints the -D flags on stdout and the evidence on stderr.
Usage: pick_any.py sweep.csv [ROWSxCOLS[,ROWSxCOLS...]]
"""
import csv
import re
import sys

TILE = {"f32": "l16g16t256", "f16": "l16g16t512", "f64": "l16g16t256"}
NAME = re.compile(r"^(any|anyold|anym(\d+)(r0)?(?:p(\d+))?)_(l\d+g\d+t\d+)_m(\d+)(_pf256)?_colmajor$")


def main(path, shapes="4097x4097"):
    shapes = [tuple(int(x) for x in sh.split("x")) for sh in shapes.split(",")]
    ratios, ok = {}, {}
    with open(path) as f:
        for r in csv.DictReader(f):
            shape = (int(r["rows"]), int(r["cols"]))
            if shape not in shapes:
                continue
            m = NAME.match(r["method"])
            if not m or m.group(5) != TILE.get(r["dtype"]):
                continue
            if r["dtype"] != "f16" and not m.group(7):
                continue  # f32 and f64 keep the hint
            key = (r["dtype"], r["method"])
            ratios.setdefault(key, {}).setdefault(shape, []).append(float(r["ratio_to_copy"]))
            ok[key] = ok.get(key, True) and r["verify"] == "PASS"
    flags = []
    mean = lambda v: sum(v) / len(v)
    for dt in ("f32", "f16", "f64"):
        # every candidate measured at every shape, every result verified
        cands = {k[1]: v for k, v in ratios.items() if k[0] == dt and ok[k] and len(v) == len(shapes)}
        if not cands:
            print(f"# {dt}: no candidate in {path}: defaults kept", file=sys.stderr)
            continue
        # the first shape decides; within 0.01 of its best, the mean over all shapes
        first = {n: mean(v[shapes[0]]) for n, v in cands.items()}
        overall = {n: mean([mean(x) for x in v.values()]) for n, v in cands.items()}
        best = max(first.values())
        for n in sorted(cands, key=lambda n: -first[n]):
            print(f"# {dt} {n}: mean ratio to copy {first[n]:.4f} at {shapes[0][0]}x{shapes[0][1]}, "
                  f"{overall[n]:.4f} over {len(shapes)} shape(s)", file=sys.stderr)
        name = max((n for n in cands if first[n] >= best - 0.01), key=lambda n: overall[n])
        m = NAME.match(name)
        T = dt.upper()
        flags += [f"-DSOL_ANY_{T}_MINB={m.group(6)}", f"-DSOL_ANY_{T}_FAST={'false' if m.group(1) == 'anyold' else 'true'}"]
        if m.group(2) is not None:
            flags.append(f"-DSOL_ANY_{T}_MODE={m.group(2)}")
        if dt == "f16":
            flags.append(f"-DSOL_ANY_F16_PF={m.group(4) or 0}")
            flags.append(f"-DSOL_ANY_F16_ROW0={'true' if m.group(3) else 'false'}")
        if dt == "f16":
            flags.append(f"-DSOL_ANY_F16_CACHE={'SOL_C5' if m.group(7) else 'SOL_C0'}")
        print(f"# {dt}: picked {name} ({first[name]:.4f}, {overall[name]:.4f})", file=sys.stderr)
    print(" ".join(flags))


if __name__ == "__main__":
    main(*sys.argv[1:])
