# Pictures: the SVG bank maps and HTML pages of `pattern --svg/--html` and `analyze --html`, checked
# for well-formedness by a strict XML checker of our own (tests/xmlcheck.c: CI has a C compiler,
# xmllint and python are not guaranteed) and for what they must name and draw.
add_executable(xmlcheck ${CMAKE_CURRENT_SOURCE_DIR}/xmlcheck.c)
target_compile_options(xmlcheck PRIVATE ${SMEMLAB_WARN})
target_compile_definitions(xmlcheck PRIVATE _POSIX_C_SOURCE=200809L)
add_test(NAME cli_pictures
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/pictures_cli.sh $<TARGET_FILE:smemlab> $<TARGET_FILE:xmlcheck>
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_pictures PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
