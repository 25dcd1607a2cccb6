# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# The Debian package libcoupled-dev (CPack's DEB generator), from the install
# rules: headers of the core and of every adapter, the cpuidle helper, the
# CMake and pkg-config files, the man pages and the docs.  Headers only, so
# the package is architecture-independent (Architecture: all).
#
# Build it with "cmake --workflow --preset package" (docs/packaging.md).
# COUPLED_PACKAGE_DEBIAN (ON in that preset) installs what Debian wants in
# the package's doc directory: copyright (machine-readable),
# changelog.Debian.gz, and gzipped man pages.

set(COUPLED_PACKAGE_MAINTAINER "The coupled authors <maintainers@coupled.invalid>"
	CACHE STRING "Maintainer field of the Debian package")

set(COUPLED_DEB_NAME libcoupled-dev)
set(COUPLED_DEB_REVISION 1)
set(COUPLED_DEB_VERSION "${PROJECT_VERSION}-${COUPLED_DEB_REVISION}")

if(COUPLED_PACKAGE_DEBIAN)
	if(NOT COUPLED_MAN)
		message(FATAL_ERROR "COUPLED_PACKAGE_DEBIAN needs the man pages "
			"(COUPLED_MAN: kernel-doc and python3)")
	endif()
	set(deb_doc "${CMAKE_INSTALL_DATAROOTDIR}/doc/${COUPLED_DEB_NAME}")
	set(deb_dir "${PROJECT_BINARY_DIR}/debian")
	# SOURCE_DATE_EPOCH, when set, fixes the date (reproducible builds).
	string(TIMESTAMP COUPLED_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
	configure_file("${PROJECT_SOURCE_DIR}/packaging/debian/changelog.in"
		"${deb_dir}/changelog.Debian" @ONLY)
	set(gz "${COUPLED_PYTHON3}" "${PROJECT_SOURCE_DIR}/packaging/gzip_n.py")
	add_custom_command(OUTPUT "${deb_dir}/changelog.Debian.gz"
		COMMAND ${gz} "${deb_dir}/changelog.Debian"
			"${deb_dir}/changelog.Debian.gz"
		DEPENDS "${deb_dir}/changelog.Debian" VERBATIM)
	add_custom_target(deb_changelog ALL
		DEPENDS "${deb_dir}/changelog.Debian.gz")
	install(FILES "${PROJECT_SOURCE_DIR}/packaging/debian/copyright"
		"${deb_dir}/changelog.Debian.gz"
		DESTINATION "${deb_doc}")
	install(FILES "${PROJECT_SOURCE_DIR}/README.md"
		DESTINATION "${deb_doc}")
	install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/"
		DESTINATION "${deb_doc}/docs"
		FILES_MATCHING PATTERN "*.md")
	install(FILES "${PROJECT_SOURCE_DIR}/adapters/linux/cpuidle/README.md"
		DESTINATION "${deb_doc}/docs" RENAME cpuidle.md)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${COUPLED_DEB_NAME})
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "The coupled authors")
set(CPACK_PACKAGE_CONTACT "${COUPLED_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${COUPLED_DEB_REVISION})
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${COUPLED_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6-dev | libc-dev")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pkgconf, linux-headers-amd64")
# CPack indents the lines after the synopsis and writes an empty one as " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"header-only C11 library for coupled rendezvous
coupled generalises Linux's coupled cpuidle: all members of a group enter
one shared action together, or none does.  Members call coupled_enter()
with a request; a round commits only when every member is there, and then
every member runs the same action exactly once with the reduction of all
requests.  Work pending on a member, a membership change, an abort check
or a deadline make the calls give up instead.

The core is freestanding (no libc, no allocation, no threads).  This
package holds the headers of the core and of every adapter: pthread (host
threads), spin (freestanding), the Linux kernel adapter with its cpuidle
helper, and bare-metal ARM; the pkg-config files coupled-pthread and
coupled-spin, the CMake package coupled, and one man page per function
with the overview coupled(7).")
set(CPACK_STRIP_FILES OFF)
include(CPack)
