# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-common/image_test.cmake - included by the ARM and
# RISC-V CMakeLists.txt: how both declare an image test.
#
# coupled_image_test(NAME LABEL SCRIPT [STATUS n] TIMEOUT s OPTS ...
#                    BUILD ...): the test NAME, bash SCRIPT (a folder's
# image_test.sh) --out <binary dir>/NAME.elf OPTS --expect-status n
# (default 0) --timeout s -- BUILD (the image's build arguments); labels
# LABEL and baremetal (every bare-metal image test, ARM and RISC-V), ctest's
# limit a minute over s.

include_guard(GLOBAL)

function(coupled_image_test name label script)
	cmake_parse_arguments(arg "" "STATUS;TIMEOUT" "OPTS;BUILD" ${ARGN})
	if(NOT arg_STATUS)
		set(arg_STATUS 0)
	endif()
	add_test(NAME ${name} COMMAND bash ${script}
		--out ${CMAKE_CURRENT_BINARY_DIR}/${name}.elf ${arg_OPTS}
		--expect-status ${arg_STATUS} --timeout ${arg_TIMEOUT}
		-- ${arg_BUILD})
	math(EXPR ctest_timeout "${arg_TIMEOUT} + 60")
	set_tests_properties(${name} PROPERTIES LABELS "${label};baremetal"
		TIMEOUT ${ctest_timeout})
endfunction()
