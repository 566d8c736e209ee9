# The expression language and `smemlab pattern` / `smemlab tour` (unit tests, golden tests against
# tests/hw, and CLI scripts in tests/cli/).
smemlab_test(test_expr SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_expr.c)
smemlab_test(test_pattern SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_pattern.c)
