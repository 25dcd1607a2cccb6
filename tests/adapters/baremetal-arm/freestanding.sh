# SPDX-License-Identifier: MIT OR GPL-2.0-only
# shellcheck shell=bash disable=SC2034  # the caller reads the variables
#
# tests/adapters/baremetal-arm/freestanding.sh - sourced by build_image.sh and check_targets.sh.
#
#   freestanding_incs CC   sets FREESTANDING_INCS to the flags that leave
#                          only the compiler's own headers reachable, and
#                          FREESTANDING_DIR to their directory
#
# Firmware has no C library.  A cross gcc built for a Linux target (Debian's
# aarch64-linux-gnu-gcc) still searches /usr/include, and its own limits.h
# chains to the libc's: the images would then build or fail depending on
# whether a cross libc happens to be installed.  -nostdinc drops every
# system directory; the compiler's own include directory (stdint.h,
# stddef.h, stdbool.h, stdatomic.h, arm_acle.h, ...) comes back with
# -isystem.  Its header-only wrappers pick their freestanding branch under
# -ffreestanding (__STDC_HOSTED__ == 0).  Sources must not include
# <limits.h>: gcc's own copy chains to the libc's.
#
# Returns non-zero (with a message) when the directory cannot be found.

freestanding_incs() {
	local cc=$1 dir

	FREESTANDING_INCS=() FREESTANDING_DIR=""
	case "${cc##*/}" in
	clang*)
		# The resource directory: clang's own headers.
		dir=$("$cc" -print-resource-dir 2>/dev/null)/include
		;;
	*)
		# gcc prints the bare name back when it has no such file.
		dir=$("$cc" -print-file-name=include 2>/dev/null)
		;;
	esac
	if [[ $dir != /* || ! -f $dir/stdint.h ]]; then
		echo "freestanding_incs: no own include directory for '$cc'" \
			"(got '$dir')" >&2
		return 1
	fi
	FREESTANDING_DIR=$dir
	FREESTANDING_INCS=(-nostdinc -isystem "$dir")
}
