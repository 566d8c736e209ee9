smemlab_test(test_predict SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_predict.c)
set_tests_properties(test_predict PROPERTIES TIMEOUT 600)
