smemlab_test(test_experiments SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_experiments.c)
