smemlab_test(test_banks SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_banks.c)
