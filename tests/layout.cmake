# The layering of src/ and include/smemlab/ (tests/layout/layers.sh states the rule).
add_test(NAME layout_layers COMMAND sh ${CMAKE_SOURCE_DIR}/tests/layout/layers_test.sh
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# No folder's files call each other in a circle: the files of each folder as a stack, from the
# symbols their objects define and use (tests/layout/circles.py), proven on planted objects.
add_test(NAME layout_circles COMMAND sh ${CMAKE_SOURCE_DIR}/tests/layout/circles_test.sh ${CMAKE_BINARY_DIR}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
