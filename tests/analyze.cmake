smemlab_test(test_analyze_hw SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_analyze_hw.c)
set_tests_properties(test_analyze_hw PROPERTIES TIMEOUT 600)
smemlab_cli_test(cli_analyze analyze_cli.sh)
smemlab_cli_test(cli_realcode realcode_cli.sh)
