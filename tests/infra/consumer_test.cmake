# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# Builds and runs tests/infra/consumer against the coupled source tree, as a
# package user would.  Run with cmake -P and these variables:
#
#   MODE          find_package: configure the source tree with the tests off,
#                 install it into a prefix, then find_package(coupled) from
#                 the consumer; add_subdirectory: the consumer pulls the
#                 source tree in with add_subdirectory()
#   SOURCE_DIR    the coupled source tree
#   CONSUMER_DIR  the consumer project
#   WORK_DIR      scratch directory (wiped first)
#   GENERATOR, MAKE_PROGRAM, C_COMPILER, CXX_COMPILER, ADAPTER  optional

cmake_minimum_required(VERSION 3.25)

foreach(var IN ITEMS MODE SOURCE_DIR CONSUMER_DIR WORK_DIR)
	if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
		message(FATAL_ERROR "consumer_test.cmake: ${var} is not set")
	endif()
endforeach()

set(config Release)
set(common_args -DCMAKE_BUILD_TYPE=${config})
if(GENERATOR)
	list(APPEND common_args -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
	list(APPEND common_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(C_COMPILER)
	list(APPEND common_args "-DCMAKE_C_COMPILER=${C_COMPILER}")
endif()
# Only where the coupled project itself is configured (it enables C++).
set(coupled_args "")
if(CXX_COMPILER)
	list(APPEND coupled_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
if(ADAPTER)
	list(APPEND coupled_args "-DCOUPLED_ADAPTER=${ADAPTER}")
endif()

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

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(consumer_build "${WORK_DIR}/consumer-build")

if(MODE STREQUAL "find_package")
	set(lib_build "${WORK_DIR}/coupled-build")
	set(prefix "${WORK_DIR}/prefix")

	step("configure coupled" ${CMAKE_COMMAND} -S "${SOURCE_DIR}"
		-B "${lib_build}" ${common_args} ${coupled_args}
		-DCOUPLED_BUILD_TESTS=OFF)
	step("build coupled" ${CMAKE_COMMAND} --build "${lib_build}"
		--config ${config})
	step("install coupled" ${CMAKE_COMMAND} --install "${lib_build}"
		--config ${config} --prefix "${prefix}")

	set(expected
		include/coupled/coupled.h
		include/coupled/atomic.h
		lib/cmake/coupled/coupledConfig.cmake
		lib/cmake/coupled/coupledConfigVersion.cmake
		lib/cmake/coupled/coupledTargets.cmake)
	if(NOT ADAPTER OR ADAPTER STREQUAL "pthread")
		list(APPEND expected include/coupled_adapter_pthread.h)
	endif()
	foreach(f IN LISTS expected)
		if(NOT EXISTS "${prefix}/${f}")
			message(FATAL_ERROR "consumer ${MODE}: ${f} was not installed")
		endif()
	endforeach()

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
	-C ${config} --output-on-failure -V)
message(STATUS "consumer ${MODE}: passed")
