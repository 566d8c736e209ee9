# advise: unit tests + the documents' kernels (test_advise), every pad of odd tiles compiled and
# analysed against the prediction (test_advise_pads), the CLI's contract (advise_cli), and the one
# list of layouts that advise and `pattern --advise` share: the same access, the same proposal
# (test_layout_same).
smemlab_test(test_advise SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_advise.c ARGS unit)
smemlab_test(test_advise_pads SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_advise.c ARGS pads)
set_tests_properties(test_advise_pads PROPERTIES TIMEOUT 600) # ASan on a busy 2-core machine
add_test(NAME advise_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/advise/cli.sh $<TARGET_FILE:smemlab>
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(advise_cli PROPERTIES SKIP_RETURN_CODE 77)
smemlab_test(test_layout_same SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_layout_same.c)
