# Install rules, hfilegen.pc, man pages, shell completion and the Debian package (issue #28).
#   cmake --install build [--prefix DIR]      everything below, under DIR (default /usr/local)
#   (cd build && cpack -G DEB)                hfilegen_<version>_<arch>.deb, prefix /usr

install(TARGETS hfilegen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS hfilegen_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS hfilegen_lib ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/hfilegen DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

# hfilegen.pc, relocatable: its prefix is found from where it lies (${pcfiledir}), so the
# same file serves a staging prefix, /usr/local and the package's /usr. The dependencies
# are Libs.private -l flags, not Requires.private modules: the public headers include none
# of their headers, and Requires.private would make `pkg-config --cflags --libs hfilegen`
# fail on a node without every dependency's -dev package (liblz4-dev, libpq-dev, ...).
set(HFG_PC_LIBS)
foreach(m LZ4 ZSTD XXHASH PROTOBUFC YAML LZMA EXPAT ISAL LIBPQ MARIADB)
  if(${m}_FOUND)
    foreach(l ${${m}_LIBRARIES})
      string(APPEND HFG_PC_LIBS " -l${l}")
    endforeach()
  endif()
endforeach()
string(APPEND HFG_PC_LIBS " -lz -lbz2 -lsnappy -lzookeeper_mt -lm -pthread")
string(STRIP "${HFG_PC_LIBS}" HFG_PC_LIBS)
file(RELATIVE_PATH HFG_PC_UP /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" HFG_PC_UP "${HFG_PC_UP}")
configure_file(${CMAKE_SOURCE_DIR}/packaging/hfilegen.pc.in ${CMAKE_BINARY_DIR}/hfilegen.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/hfilegen.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Man pages: man/*.scd, one a command, rendered by scdoc (Debian package scdoc).
option(HFG_MAN "Build and install the man pages (needs scdoc)" ON)
if(HFG_MAN)
  find_program(SCDOC scdoc)
  if(NOT SCDOC)
    message(FATAL_ERROR "scdoc not found: run tools/setup.sh (apt-get install scdoc), "
                        "or configure with -DHFG_MAN=OFF to build without man pages")
  endif()
  file(GLOB HFG_MAN_SRCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/man/*.scd)
  set(HFG_MAN_PAGES)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/man)
  foreach(src ${HFG_MAN_SRCS})
    get_filename_component(page ${src} NAME_WLE)     # hfilegen-build.1
    set(out ${CMAKE_BINARY_DIR}/man/${page})
    add_custom_command(OUTPUT ${out}
      COMMAND sh -c "'${SCDOC}' < '${src}' > '${out}.tmp' && mv '${out}.tmp' '${out}'"
      DEPENDS ${src} COMMENT "scdoc ${page}" VERBATIM)
    list(APPEND HFG_MAN_PAGES ${out})
  endforeach()
  add_custom_target(man ALL DEPENDS ${HFG_MAN_PAGES})
  install(FILES ${HFG_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# Shell completion (bash-completion's and zsh's vendor directories on Debian).
set(HFG_BASH_COMPLETION_DIR ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
    CACHE STRING "Where the bash completion goes, under the prefix")
set(HFG_ZSH_COMPLETION_DIR ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions
    CACHE STRING "Where the zsh completion goes, under the prefix")
install(FILES ${CMAKE_SOURCE_DIR}/completion/hfilegen.bash DESTINATION ${HFG_BASH_COMPLETION_DIR}
        RENAME hfilegen)
install(FILES ${CMAKE_SOURCE_DIR}/completion/_hfilegen DESTINATION ${HFG_ZSH_COMPLETION_DIR})

# Documentation and the samples (the README's jobs run from a copy of this directory).
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs ${CMAKE_SOURCE_DIR}/format-specs ${CMAKE_SOURCE_DIR}/samples
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${CMAKE_SOURCE_DIR}/python/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME python-README.md OPTIONAL)

# The Debian package: one package (tool, libraries, headers, hfilegen.pc, man pages,
# completion, docs); Depends computed by dpkg-shlibdeps from what the binaries link.
set(CPACK_PACKAGE_NAME hfilegen)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "hfilegen developers <hfilegen@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "HBase HFile v3 writer for completebulkload, with a C library")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "hfilegen turns records (CSV/TSV and database dumps, or PostgreSQL and MariaDB tables)\n\
into HBase HFile v3 files split at a table's region boundaries, ready for completebulkload;\n\
it also inspects, verifies and re-keys HFiles. Ships libhfilegen (shared and static),\n\
its headers and hfilegen.pc.")
set(CPACK_GENERATOR DEB)
include(CPack)
