smemlab_test(test_banks SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_banks.c)
smemlab_test(test_banks_wide SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_banks_wide.c)
smemlab_test(test_banks_ldsm SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_banks_ldsm.c)
smemlab_test(test_wmma SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_wmma.c)
