# base/: the demangled-signature parser and the C/C++ lexer every reader of names and source uses.
smemlab_test(test_signature SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_signature.c)
