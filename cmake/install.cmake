# install.cmake — what `cmake --install` puts under a prefix for a program that embeds flockbox.
#
#   lib/libflockbox_engine.a, lib/libflockbox_view.a  the two static libraries
#   include/flockbox/flockbox.h, flockbox_view.h       the public API (never the engine's own headers)
#   share/flockbox/{behaviours,terrains,plans,scripts} what the library looks for (fbSetDataFolder)
#   share/flockbox/lib/flockbox/test.lua               flockbox test's harness, require("flockbox.test")
#   lib/pkgconfig/flockbox.pc, flockbox-view.pc         for Makefiles: pkg-config --static
#   lib/cmake/flockbox/                                 for CMake: find_package(flockbox), flockbox::engine, flockbox::view
#   bin/flockbox                                        the program itself
#
# Two .pc files: a headless embedder (a server, a test) asks for flockbox and links Lua alone; one
# that draws asks for flockbox-view, which brings SDL2 and flockbox with it (and stb, whose
# stb_truetype draws the window's text).
# The libraries are static, so what they need is in Requires.private / Libs.private, which
# `pkg-config --static --libs` adds.

set_target_properties(flockbox_engine PROPERTIES EXPORT_NAME engine)
set_target_properties(flockbox_view PROPERTIES EXPORT_NAME view)

# Release builds optimise across files (IPO); GCC then writes only its intermediate code into the
# objects unless asked for fat ones, and an embedder's compiler or linker without LTO could not use
# the installed archives.
if(CMAKE_INTERPROCEDURAL_OPTIMIZATION AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
  target_compile_options(flockbox_engine PRIVATE -ffat-lto-objects)
  target_compile_options(flockbox_view PRIVATE -ffat-lto-objects)
endif()

install(TARGETS flockbox_engine flockbox_view EXPORT flockboxTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS flockbox RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/flockbox/flockbox.h ${CMAKE_SOURCE_DIR}/include/flockbox/flockbox_view.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/flockbox)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/behaviours ${CMAKE_SOURCE_DIR}/terrains ${CMAKE_SOURCE_DIR}/plans ${CMAKE_SOURCE_DIR}/scripts
  ${CMAKE_SOURCE_DIR}/types ${CMAKE_SOURCE_DIR}/lib DESTINATION ${CMAKE_INSTALL_DATADIR}/flockbox)
install(FILES ${CMAKE_SOURCE_DIR}/.luacheckrc ${CMAKE_SOURCE_DIR}/.luarc.json  # flockbox --lint, editors
  DESTINATION ${CMAKE_INSTALL_DATADIR}/flockbox)

# The .pc files find the prefix from where they lie (${pcfiledir}), so an install moved or made
# with `cmake --install --prefix P` stays right.
file(RELATIVE_PATH FB_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" FB_PC_TO_PREFIX "${FB_PC_TO_PREFIX}")
foreach(pc flockbox flockbox-view)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/${pc}.pc.in ${CMAKE_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

include(CMakePackageConfigHelpers)
set(FB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/flockbox)
set(FB_DATA_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/flockbox)
install(EXPORT flockboxTargets NAMESPACE flockbox:: DESTINATION ${FB_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/flockboxConfig.cmake.in
  ${CMAKE_BINARY_DIR}/flockboxConfig.cmake INSTALL_DESTINATION ${FB_CMAKE_DIR} PATH_VARS FB_DATA_INSTALL_DIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/flockboxConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/flockboxConfig.cmake ${CMAKE_BINARY_DIR}/flockboxConfigVersion.cmake
  DESTINATION ${FB_CMAKE_DIR})
