# smemlab run's sanitizer findings (leaks, API errors, use after free) on the planted programs of
# tests/run/sanitize*.cu, against compute-sanitizer's verdicts on the H200
# (tests/run/h200-sanitize.txt); built by the test with nvcc, skipped (77) without it.
smemlab_test(test_sanitize SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_sanitize.c)
set_tests_properties(test_sanitize PROPERTIES TIMEOUT 600)
# --sanitizer-text: compute-sanitizer's own records for the same planted programs and the hazard
# kernels of tests/hazards (tests/run/h200-sanitize*.txt, h200-sanitizer-layouts.txt)
smemlab_test(test_sanitizer_text SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_sanitizer_text.c)
set_tests_properties(test_sanitizer_text PROPERTIES TIMEOUT 600)
