# The layering of src/ and include/smemlab/ (tests/layout/layers.sh states the rule).
add_test(NAME layout_layers COMMAND sh ${CMAKE_SOURCE_DIR}/tests/layout/layers_test.sh
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
