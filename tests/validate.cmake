smemlab_test(test_validate SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_validate.c)
