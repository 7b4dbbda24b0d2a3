# `cmake --install` layout: tools, the runtime library and headers, the CMake
# package (find_package(wgtrace CONFIG) + wgtrace_instrument_target), a
# pkg-config file for other build systems and the documentation (the manual
# pages are installed by man/).

include(CMakePackageConfigHelpers)
set(WGTRACE_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/wgtrace)

if(TARGET wgtrace-rewrite)
  set_target_properties(wgtrace-rewrite PROPERTIES EXPORT_NAME rewrite)
  install(TARGETS wgtrace-rewrite EXPORT wgtraceTargets
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT wgtraceTargets NAMESPACE wgtrace::
  DESTINATION ${WGTRACE_CMAKE_INSTALL_DIR})
configure_package_config_file(cmake/wgtraceConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/wgtraceConfig.cmake
  INSTALL_DESTINATION ${WGTRACE_CMAKE_INSTALL_DIR})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/wgtraceConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/wgtraceConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/wgtraceConfigVersion.cmake
  cmake/WgtraceInstrument.cmake
  cmake/WgtraceRewriteOne.cmake
  compile_commands.json.in
  DESTINATION ${WGTRACE_CMAKE_INSTALL_DIR})

# The pkg-config file: configured now, except for the prefix, which only
# `cmake --install` knows (its --prefix); its Libs carry an rpath to the
# installed libdir, so a program linked with `pkg-config --libs wgtrace`
# runs from any prefix without LD_LIBRARY_PATH.
set(WGTRACE_INSTALL_PREFIX "@WGTRACE_INSTALL_PREFIX@")
configure_file(cmake/wgtrace.pc.in ${CMAKE_CURRENT_BINARY_DIR}/wgtrace.pc.in @ONLY)
install(CODE "
  set(WGTRACE_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${CMAKE_CURRENT_BINARY_DIR}/wgtrace.pc.in\"
                 \"${CMAKE_CURRENT_BINARY_DIR}/wgtrace.pc\" @ONLY)")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/wgtrace.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES README.md docs/DESIGN.md docs/FORMAT.md docs/REWRITER.md
              docs/RUNTIME.md docs/VIEWER.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
