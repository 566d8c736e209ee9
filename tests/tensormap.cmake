# The tensor map of the driver stand-in (src/model/tensormap.c): cuda.h's checks, the encoding, the
# addresses of a box's elements under each swizzle.
smemlab_test(test_tensormap SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tensormap.c)
# The driver stand-in's tables (src/runtime/driver/*.inc, cu_impl.h) agree with each other.
smemlab_test(test_cu_symbols SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cu_symbols.c)
