# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# coupled_read_names(OUT FILE LINE_REGEX NAME_REGEX WHAT): the names listed
# in FILE, one on each line that matches LINE_REGEX, the first group of
# NAME_REGEX; a FATAL_ERROR ("no WHAT in FILE") where there is none.  The
# directory is configured again when FILE changes.  One list of names (a
# table the test's source or script is made of) then gives one ctest each.
include_guard(GLOBAL)

function(coupled_read_names out file line_regex name_regex what)
	set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
	file(STRINGS ${file} names REGEX "${line_regex}")
	list(TRANSFORM names REPLACE "${name_regex}" "\\1")
	if(NOT names)
		message(FATAL_ERROR "no ${what} in ${file}")
	endif()
	set(${out} ${names} PARENT_SCOPE)
endfunction()
