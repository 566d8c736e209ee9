# --param: kernel parameters by the names nvcc saw (unit tests without nvcc: the preprocessed-text
# scanner, matching, value checks, binding) and the CLI's contract on real .cu files (params_cli).
smemlab_test(test_params SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_params.c)
smemlab_cli_test(cli_params params_cli.sh)
