# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# Builds and runs tests/infra/consumer against the coupled source tree, as a
# package user would.  Run with cmake -P and these variables:
#
#   MODE          find_package: configure the source tree with the tests off,
#                 install it into a prefix, then find_package(coupled) from
#                 the consumer; add_subdirectory: the consumer pulls the
#                 source tree in with add_subdirectory(); either way the
#                 consumer links one program to each of coupled::pthread,
#                 coupled::spin and coupled::coupled and runs all three;
#                 install: only configure (tests off) and install into
#                 WORK_DIR/prefix, checking that every adapter is there;
#                 installed: compile the consumer's main.c with C_COMPILER
#                 against the prefix that "install" left in PREFIX_DIR (its
#                 include directory only, not the source tree), the adapter
#                 selected by the definition DEFINE alone (empty: none, the
#                 spin adapter), run it and expect it to name ADAPTER_NAME;
#                 direct: compile a file that includes the adapter header
#                 coupled/adapter/ADAPTER_NAME.h directly from PREFIX_DIR:
#                 the compile must fail and say to include coupled/coupled.h
#   SOURCE_DIR    the coupled source tree (not for installed and direct)
#   CONSUMER_DIR  the consumer project
#   WORK_DIR      scratch directory (wiped first)
#   GENERATOR, MAKE_PROGRAM, C_COMPILER, CXX_COMPILER, ADAPTER  optional

cmake_minimum_required(VERSION 3.25)

foreach(var IN ITEMS MODE CONSUMER_DIR WORK_DIR)
	if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
		message(FATAL_ERROR "consumer_test.cmake: ${var} is not set")
	endif()
endforeach()

set(config Release)
set(common_args -DCMAKE_BUILD_TYPE=${config})
if(GENERATOR)
	list(APPEND common_args -G "${GENERATOR}")
endif()
# pass_on(LIST CACHE_VAR VAR): -DCACHE_VAR=<VAR's value> onto LIST, if VAR
# is set.
macro(pass_on list cache_var var)
	if(${var})
		list(APPEND ${list} "-D${cache_var}=${${var}}")
	endif()
endmacro()
pass_on(common_args CMAKE_MAKE_PROGRAM MAKE_PROGRAM)
pass_on(common_args CMAKE_C_COMPILER C_COMPILER)
# Only where the coupled project itself is configured (it enables C++).
set(coupled_args "")
pass_on(coupled_args CMAKE_CXX_COMPILER CXX_COMPILER)
pass_on(coupled_args COUPLED_ADAPTER ADAPTER)

# step(NAME COMMAND...): run one command, stop the test if it fails.
function(step name)
	message(STATUS "--- ${name}")
	execute_process(COMMAND ${ARGN}
		COMMAND_ECHO STDOUT
		RESULT_VARIABLE rc)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR "consumer ${MODE}: ${name} failed (${rc})")
	endif()
endfunction()

# check_installed(PREFIX): the core, every adapter (whichever one the build
# selected) and the package files are in PREFIX.
function(check_installed prefix)
	set(expected
		include/coupled/coupled.h
		include/coupled/atomic.h
		include/coupled/atomic/c11.h
		include/coupled/adapter/spin.h
		include/coupled/adapter/pthread.h
		include/coupled/adapter/linux.h
		include/coupled/adapter/baremetal_arm.h
		include/coupled/adapter/baremetal_riscv.h
		include/coupled/linux/cpuidle.h
		include/coupled/tracepoints/coupled.h
		share/pkgconfig/coupled-pthread.pc
		share/pkgconfig/coupled-spin.pc
		lib/cmake/coupled/coupledConfig.cmake
		lib/cmake/coupled/coupledConfigVersion.cmake
		lib/cmake/coupled/coupledTargets.cmake)
	foreach(f IN LISTS expected)
		if(NOT EXISTS "${prefix}/${f}")
			message(FATAL_ERROR "consumer ${MODE}: ${f} was not installed")
		endif()
	endforeach()
endfunction()

# The flags of a strict C11 consumer, and the prefix's include directory as
# its only project include directory.
set(strict_c -std=c11 -Wall -Wextra -Werror -pedantic)

if(MODE STREQUAL "installed" OR MODE STREQUAL "direct")
	foreach(var IN ITEMS PREFIX_DIR C_COMPILER ADAPTER_NAME)
		if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
			message(FATAL_ERROR "consumer_test.cmake: ${var} is not set")
		endif()
	endforeach()
	if(NOT EXISTS "${PREFIX_DIR}/include/coupled/coupled.h")
		message(FATAL_ERROR
			"consumer ${MODE}: nothing installed in ${PREFIX_DIR}")
	endif()
	file(REMOVE_RECURSE "${WORK_DIR}")
	file(MAKE_DIRECTORY "${WORK_DIR}")
	set(cflags ${strict_c} "-I${PREFIX_DIR}/include")
	if(MODE STREQUAL "installed")
		if(DEFINE)
			list(APPEND cflags "-D${DEFINE}")
		endif()
		if(DEFINE STREQUAL "COUPLED_ADAPTER_PTHREAD")
			list(APPEND cflags -D_DEFAULT_SOURCE -pthread)
		endif()
		# A user's own adapter header is found next to the consumer.
		list(APPEND cflags "-I${CONSUMER_DIR}")
		step("compile consumer (${DEFINE})" "${C_COMPILER}" ${cflags}
			"${CONSUMER_DIR}/main.c" -o "${WORK_DIR}/consumer")
		execute_process(COMMAND "${WORK_DIR}/consumer"
			RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
		message(STATUS "${out}${err}")
		if(NOT rc EQUAL 0)
			message(FATAL_ERROR "consumer ${MODE}: the consumer failed (${rc})")
		endif()
		if(NOT out MATCHES "adapter ${ADAPTER_NAME},")
			message(FATAL_ERROR "consumer ${MODE}: -D${DEFINE} did not "
				"select the adapter ${ADAPTER_NAME}")
		endif()
	else()
		file(WRITE "${WORK_DIR}/direct.c"
			"#include <coupled/adapter/${ADAPTER_NAME}.h>\n"
			"int main(void) { return 0; }\n")
		execute_process(COMMAND "${C_COMPILER}" ${cflags} -D_DEFAULT_SOURCE
			-c "${WORK_DIR}/direct.c" -o "${WORK_DIR}/direct.o"
			RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
		message(STATUS "${out}")
		if(rc EQUAL 0)
			message(FATAL_ERROR "consumer ${MODE}: <coupled/adapter/"
				"${ADAPTER_NAME}.h> included directly compiled")
		endif()
		if(NOT out MATCHES "include <coupled/coupled.h>")
			message(FATAL_ERROR "consumer ${MODE}: the compile failed "
				"without saying to include <coupled/coupled.h>")
		endif()
	endif()
	message(STATUS "consumer ${MODE} ${ADAPTER_NAME}: passed")
	return()
endif()

if(NOT DEFINED SOURCE_DIR OR "${SOURCE_DIR}" STREQUAL "")
	message(FATAL_ERROR "consumer_test.cmake: SOURCE_DIR is not set")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(consumer_build "${WORK_DIR}/consumer-build")

# install_coupled(): configure, build and install the coupled project
# into ${prefix} (build tree ${lib_build}), then check what it installed.
function(install_coupled)
	step("configure coupled" ${CMAKE_COMMAND} -S "${SOURCE_DIR}"
		-B "${lib_build}" ${common_args} ${coupled_args}
		-DCOUPLED_BUILD_TESTS=OFF)
	step("build coupled" ${CMAKE_COMMAND} --build "${lib_build}"
		--config ${config})
	step("install coupled" ${CMAKE_COMMAND} --install "${lib_build}"
		--config ${config} --prefix "${prefix}")
	check_installed("${prefix}")
endfunction()

set(lib_build "${WORK_DIR}/coupled-build")
set(prefix "${WORK_DIR}/prefix")
if(MODE STREQUAL "install")
	install_coupled()
	message(STATUS "consumer ${MODE}: passed")
	return()
elseif(MODE STREQUAL "find_package")
	install_coupled()

	step("configure consumer" ${CMAKE_COMMAND} -S "${CONSUMER_DIR}"
		-B "${consumer_build}" ${common_args}
		"-DCMAKE_PREFIX_PATH=${prefix}")

	# The package must come from the prefix just installed, not from
	# somewhere else on this machine.
	file(STRINGS "${consumer_build}/CMakeCache.txt" found
		REGEX "^coupled_DIR:")
	string(REGEX REPLACE "^coupled_DIR:[A-Z]+=" "" found "${found}")
	file(REAL_PATH "${prefix}/lib/cmake/coupled" want)
	if(EXISTS "${found}")
		file(REAL_PATH "${found}" found)
	endif()
	if(NOT found STREQUAL want)
		message(FATAL_ERROR
			"consumer ${MODE}: found coupled in '${found}', not '${want}'")
	endif()
elseif(MODE STREQUAL "add_subdirectory")
	step("configure consumer" ${CMAKE_COMMAND} -S "${CONSUMER_DIR}"
		-B "${consumer_build}" ${common_args} ${coupled_args}
		"-DCOUPLED_SOURCE_DIR=${SOURCE_DIR}")

	# As a subproject, coupled must not add its own tests.
	if(EXISTS "${consumer_build}/coupled-build/tests")
		message(FATAL_ERROR
			"consumer ${MODE}: coupled built its tests as a subproject")
	endif()
else()
	message(FATAL_ERROR "consumer_test.cmake: unknown MODE '${MODE}'")
endif()

step("build consumer" ${CMAKE_COMMAND} --build "${consumer_build}"
	--config ${config})
step("run consumer" ${CMAKE_CTEST_COMMAND} --test-dir "${consumer_build}"
	-C ${config} --output-on-failure --no-tests=error -V)
message(STATUS "consumer ${MODE}: passed")
