# bench/programs' tools (pack_ncu.py, compare.py) on made-up Nsight Compute and smemlab run CSVs:
# the ldmatrix / cp.async columns packed and compared where counted (skipped, 77, without python3).
smemlab_cli_test(cli_bench_compare bench_compare.sh)
