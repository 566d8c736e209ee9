smemlab_test(test_ncu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_ncu.c)
