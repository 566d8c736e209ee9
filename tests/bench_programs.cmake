# bench/programs' tools (pack_ncu.py, compare.py) on made-up Nsight Compute and smemlab run CSVs:
# the ldmatrix / cp.async columns packed and compared where counted (skipped, 77, without python3).
smemlab_cli_test(cli_bench_compare bench_compare.sh)
# CUTLASS's Hopper examples under smemlab run against the H200 (issue 29): only where
# SMEMLAB_PROGRAMS names the binaries bench/programs/build_cutlass.sh built (skipped, 77, in CI).
smemlab_cli_test(cli_cutlass_programs cutlass_programs.sh)
