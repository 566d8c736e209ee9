# smemlab in a CUDA project's CI (tests/ci/): the install and the Debian package work from where
# they lie, the CI writers (SARIF validated against the published schema, JUnit, Markdown), the
# baseline, and examples/ci/ built against an install with its planted race and conflict.
add_test(NAME ci_install COMMAND sh ${CMAKE_SOURCE_DIR}/tests/ci/install.sh ${CMAKE_BINARY_DIR})
set_tests_properties(ci_install PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
add_test(NAME ci_writers COMMAND sh ${CMAKE_SOURCE_DIR}/tests/ci/writers.sh $<TARGET_FILE:smemlab>)
set_tests_properties(ci_writers PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
add_test(NAME ci_example COMMAND sh ${CMAKE_SOURCE_DIR}/tests/ci/example.sh ${CMAKE_BINARY_DIR})
set_tests_properties(ci_example PROPERTIES TIMEOUT 900 SKIP_RETURN_CODE 77)
