# The expression language and `smemlab pattern` / `smemlab tour` (unit tests, golden tests against
# tests/hw, and CLI scripts in tests/cli/).
smemlab_test(test_expr SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_expr.c)
smemlab_test(test_pattern SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_pattern.c)
smemlab_cli_test(cli_pattern pattern_cli.sh)
smemlab_test(test_tour SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tour.c)
smemlab_cli_test(cli_tour tour_cli.sh)
smemlab_test(test_hopper_layout SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_hopper_layout.c)
