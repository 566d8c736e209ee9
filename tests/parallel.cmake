# Blocks on several threads give the same report as one; one block stands for all only when
# proven (tests/parallel/test_parallel.c: hand-written PTX, no nvcc).
smemlab_test(test_parallel SOURCES ${CMAKE_CURRENT_LIST_DIR}/parallel/test_parallel.c)
# The same through the CLI: --jobs, --all-blocks, the JSON's extrapolation fields and the table.
smemlab_cli_test(cli_jobs jobs_cli.sh)
