#!/usr/bin/env python3
"""pick_kernel.py: choose `smemlab bench transpose --kernel` from a dev-harness sweep (dev.csv).

Our two shipped transposes are timed by bench/sol/dev.cu as methods "smemlab" (sol_transpose_<t>,
one tile per block) and "pipelined" (sol_transpose_pipelined_<t>, persistent grid). The pick is the
one with the higher mean ratio to cudaMemcpy over the issue's four sizes and three dtypes, among
those whose every result was verified; a tie keeps "tiled". Prints the choice and the evidence.
"""
import csv
import sys

SIZES = {(8192, 8192), (16384, 16384), (8192, 4096), (10000, 7000)}


def main(path):
    score = {"smemlab": [], "pipelined": []}
    ok = {"smemlab": True, "pipelined": True}
    with open(path) as f:
        for row in csv.DictReader(f):
            m = row["method"]
            if row["bench"] != "transpose" or m not in score:
                continue
            if row["verify"] != "PASS":
                ok[m] = False
            if (int(row["a"]), int(row["b"])) in SIZES:
                score[m].append(float(row["ratio_to_copy"]))
    mean = {m: (sum(v) / len(v) if v else 0.0) for m, v in score.items()}
    for m in score:
        print(f"# {m}: {len(score[m])} cases, mean ratio to copy {mean[m]:.4f}, all verified: {ok[m]}",
              file=sys.stderr)
    pick = "pipelined" if ok["pipelined"] and mean["pipelined"] > mean["smemlab"] else "tiled"
    print(pick)


if __name__ == "__main__":
    main(sys.argv[1])
