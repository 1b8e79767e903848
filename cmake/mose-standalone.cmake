# Standalone build of the mose module against an installed ns-3 (for example Debian 12's
# libns3-dev 3.37). It provides what an ns-3 source tree would: ${libcore}-style variables for
# the imported ns-3 targets, the C++ standard of that ns-3 release, and build_lib() /
# build_lib_example() with the same arguments as ns-3's own macros, so the module's
# CMakeLists.txt reads the same in and out of a tree.

find_package(ns3 CONFIG REQUIRED)
set(MOSE_NS3_VERSION ${ns3_VERSION})
message(STATUS "mose ${MOSE_VERSION}: building standalone against ns-3 ${ns3_VERSION}")
mose_check_ns3_version(${ns3_VERSION})
# install directories (include/, lib/ or lib/<multiarch> under /usr, share/doc/mose); the install
# rules are in cmake/mose-install.cmake
include(GNUInstallDirs)

# ns-3 up to 3.40 is C++17, 3.41-3.45 C++20, 3.46 and later C++23.
if(ns3_VERSION VERSION_LESS 3.41)
  set(CMAKE_CXX_STANDARD 17)
elseif(ns3_VERSION VERSION_LESS 3.46)
  set(CMAKE_CXX_STANDARD 20)
else()
  set(CMAKE_CXX_STANDARD 23)
endif()
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()

# Imported targets are ns3::libcore etc. up to ns-3.42 and ns3::core from 3.43: map every ns-3
# module the installed package exports onto a lib<module> variable, as an ns-3 tree does.
set(_mose_ns3_modules
    antenna aodv applications bridge buildings config-store core csma csma-layout dsdv dsr energy
    fd-net-device flow-monitor internet internet-apps lr-wpan lte mesh mobility netanim network
    nix-vector-routing olsr point-to-point point-to-point-layout propagation sixlowpan spectrum
    stats tap-bridge topology-read traffic-control uan virtual-net-device wave wifi wimax zigbee)
if(NOT CMAKE_VERSION VERSION_LESS 3.21)
  get_property(_mose_imported DIRECTORY PROPERTY IMPORTED_TARGETS)
  foreach(_mose_target ${_mose_imported})
    if(_mose_target MATCHES "^ns3::(lib)?([^:]+)$")
      list(APPEND _mose_ns3_modules ${CMAKE_MATCH_2})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _mose_ns3_modules)
endif()
foreach(module ${_mose_ns3_modules})
  if(TARGET ns3::lib${module})
    set(lib${module} ns3::lib${module})
  elseif(TARGET ns3::${module})
    set(lib${module} ns3::${module})
  endif()
endforeach()
if(NOT libcore)
  message(FATAL_ERROR "mose: ns-3 ${ns3_VERSION} exports neither ns3::libcore nor ns3::core")
endif()

set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(MOSE_INCLUDE_DIR ${CMAKE_BINARY_DIR}/include)

option(MOSE_ENABLE_EXAMPLES "Build the mose examples" ON)
option(MOSE_ENABLE_TESTS "Build the GoogleTest suite and the ns-3 test runner" ON)
option(MOSE_ENABLE_BENCH "Build the Google Benchmark programs in bench/" ON)
option(MOSE_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
set(MOSE_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
# Debian's ns-3 is a release build: NS_ASSERT and NS_LOG in the module compile to nothing unless
# the module defines these itself (an ns-3 tree configured with --enable-asserts/--enable-logs
# does it for every module).
# Precompiled headers (CMake's target_precompile_headers): the ns-3, Boost.Graph and standard
# headers that most of the module's sources include, parsed once per target instead of once per
# source (doc/mose.rst, "Building New Module", has the measured build times)
option(MOSE_PRECOMPILE_HEADERS "Precompile the ns-3, Boost and standard headers of the library and mose-gtest" ON)
set(MOSE_PCH_HEADERS
    <algorithm> <array> <cstdint> <functional> <iomanip> <map> <memory> <optional> <ostream>
    <sstream> <string> <vector>
    <boost/graph/compressed_sparse_row_graph.hpp>
    <ns3/attribute.h> <ns3/log.h> <ns3/nstime.h> <ns3/object.h> <ns3/ptr.h> <ns3/simulator.h>
    <ns3/type-id.h>)
option(MOSE_NS3_ASSERT "Compile the module's NS_ASSERT and NS_LOG statements (NS3_ASSERT_ENABLE, NS3_LOG_ENABLE)" ON)

# ccache (Debian's ccache), as ns-3's own CMakeLists.txt uses it: a rebuild of sources whose
# preprocessed text did not change (a second build folder, a fresh clone, CI) reads the objects
# from the cache. base_dir makes the paths under the source folder relative, so that clones in
# other folders share the cache; the sloppiness is ns-3's, which the precompiled headers need.
# An explicit -DCMAKE_CXX_COMPILER_LAUNCHER wins.
option(MOSE_CCACHE "Compile through ccache when it is installed" ON)
if(MOSE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(MOSE_CCACHE_PROGRAM ccache)
  if(MOSE_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${CMAKE_SOURCE_DIR} CCACHE_NOHASHDIR=true
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${MOSE_CCACHE_PROGRAM})
    message(STATUS "mose: compiling through ${MOSE_CCACHE_PROGRAM}")
  endif()
endif()

if(MOSE_SANITIZE)
  add_compile_options(-fsanitize=${MOSE_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${MOSE_SANITIZE})
endif()

# mose_write_module_header(<name> <header>...): ns3/<name>-module.h, the umbrella header a script
# includes, written as an ns-3 tree writes it from the module's HEADER_FILES (build_lib() in
# ns-3's build-support/custom-modules/ns3-module-macros.cmake): one #include <ns3/...> per header,
# in the order given. In a tree ns-3 writes this file itself, so the module ships none.
function(mose_write_module_header name)
  string(TOUPPER "${name}" _upper)
  string(REPLACE "-" "_" _guard "${_upper}")
  set(_text "#ifdef NS3_MODULE_COMPILATION\n")
  string(APPEND _text "#error \"Do not include ns3 module aggregator headers from other modules; these are meant only for end user scripts.\"\n")
  string(APPEND _text "#endif\n#ifndef NS3_MODULE_${_guard}\n    // Module headers:\n")
  foreach(header ${ARGN})
    get_filename_component(_header_name ${header} NAME)
    string(APPEND _text "    #include <ns3/${_header_name}>\n")
  endforeach()
  string(APPEND _text "#endif\n")
  # rewritten only when its text changes (no rebuild of the scripts otherwise)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${name}-module.h.new "${_text}")
  configure_file(${CMAKE_CURRENT_BINARY_DIR}/${name}-module.h.new
                 ${MOSE_INCLUDE_DIR}/ns3/${name}-module.h COPYONLY)
endfunction()

# build_lib(LIBNAME name SOURCE_FILES ... HEADER_FILES ... LIBRARIES_TO_LINK ... TEST_SOURCES ...)
# Headers are copied to <build>/include/ns3/ so that code includes them as "ns3/<file>.h", as in
# an ns-3 tree, next to the generated ns3/<name>-module.h. The ns-3 TestSuite sources become an
# executable <name>-ns3-test-runner that drives ns-3's own TestRunner. The library's usage
# requirements (include directory, C++ standard, ns-3 and Boost targets, compile definitions) are
# the target's interface (other libraries, such as METIS, are private), so that the installed
# package's imported target carries them (cmake/mose-install.cmake); MOSE_HEADER_FILES and
# MOSE_LIBRARIES_TO_LINK keep the lists for it.
function(build_lib)
  set(options IGNORE_PCH)
  set(oneValueArgs LIBNAME)
  set(multiValueArgs SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK TEST_SOURCES
                     DEPRECATED_HEADER_FILES MODULE_ENABLED_FEATURES PRIVATE_HEADER_FILES)
  cmake_parse_arguments(BLIB "${options}" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})
  set(target ${BLIB_LIBNAME})
  # a copy left by an earlier configure of a header that is no longer one of the module's (a
  # study header, helper/study, before it left the API) would still be found as "ns3/<file>.h"
  set(_mose_header_names ${target}-module.h ${target}-config.h)
  foreach(header ${BLIB_HEADER_FILES})
    get_filename_component(header_name ${header} NAME)
    list(APPEND _mose_header_names ${header_name})
  endforeach()
  file(GLOB _mose_copies ${MOSE_INCLUDE_DIR}/ns3/${target}-*.h)
  foreach(_mose_copy ${_mose_copies})
    get_filename_component(_mose_copy_name ${_mose_copy} NAME)
    if(NOT _mose_copy_name IN_LIST _mose_header_names)
      file(REMOVE ${_mose_copy})
    endif()
  endforeach()
  foreach(header ${BLIB_HEADER_FILES})
    get_filename_component(header_name ${header} NAME)
    if(header_name STREQUAL "${target}-module.h")
      message(FATAL_ERROR "mose: ${header} clashes with the generated umbrella header ns3/${target}-module.h")
    endif()
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/${header} ${MOSE_INCLUDE_DIR}/ns3/${header_name} COPYONLY)
  endforeach()
  mose_write_module_header(${target} ${BLIB_HEADER_FILES})
  add_library(${target} SHARED ${BLIB_SOURCE_FILES} ${BLIB_HEADER_FILES})
  set_target_properties(${target} PROPERTIES VERSION ${MOSE_VERSION}
                                             SOVERSION ${MOSE_VERSION_MAJOR}.${MOSE_VERSION_MINOR})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${MOSE_INCLUDE_DIR}>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # as ns-3's build_lib() does (NS3_REEXPORT_THIRD_PARTY_LIBRARIES off): the ns-3 modules are
  # linked publicly, every other library (METIS) privately, so that a program built against the
  # module (or the installed package) needs none of the latter's headers or CMake packages
  set(_mose_public_libraries)
  set(_mose_private_libraries)
  foreach(_mose_library ${BLIB_LIBRARIES_TO_LINK})
    if(_mose_library MATCHES "^ns3::")
      list(APPEND _mose_public_libraries ${_mose_library})
    else()
      list(APPEND _mose_private_libraries ${_mose_library})
    endif()
  endforeach()
  target_link_libraries(${target} PUBLIC ${_mose_public_libraries}
                                  PRIVATE ${_mose_private_libraries})
  # ns3/mose-circuit-graph.h includes Boost.Graph: a public dependency (header-only)
  if(TARGET Boost::headers)
    target_link_libraries(${target} PUBLIC Boost::headers)
  endif()
  # the ns-3 release's standard, for the module and for every program that includes its headers
  target_compile_features(${target} PUBLIC cxx_std_${CMAKE_CXX_STANDARD})
  if(MOSE_NS3_ASSERT)
    target_compile_definitions(${target} PUBLIC NS3_ASSERT_ENABLE NS3_LOG_ENABLE)
  endif()
  if(MOSE_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra)
  endif()
  if(MOSE_PRECOMPILE_HEADERS)
    target_precompile_headers(${target} PRIVATE ${MOSE_PCH_HEADERS})
  endif()
  set(lib${target} ${target} PARENT_SCOPE)
  set(lib${target} ${target})
  set(MOSE_HEADER_FILES ${BLIB_HEADER_FILES} PARENT_SCOPE)
  set(MOSE_LIBRARIES_TO_LINK ${BLIB_LIBRARIES_TO_LINK} PARENT_SCOPE)

  if(MOSE_ENABLE_TESTS AND BLIB_TEST_SOURCES)
    add_executable(${target}-ns3-test-runner ${BLIB_TEST_SOURCES}
                                             ${PROJECT_SOURCE_DIR}/cmake/ns3-test-runner-main.cc)
    target_link_libraries(${target}-ns3-test-runner PRIVATE ${target})
    target_compile_definitions(${target}-ns3-test-runner PRIVATE NS_TEST_SOURCEDIR="test")
  endif()
  if(MOSE_ENABLE_EXAMPLES AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    add_subdirectory(examples)
  endif()
endfunction()

# build_lib_example(NAME name SOURCE_FILES ... LIBRARIES_TO_LINK ...)
function(build_lib_example)
  set(options IGNORE_PCH)
  set(oneValueArgs NAME)
  set(multiValueArgs SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK)
  cmake_parse_arguments(BLIB_EXAMPLE "${options}" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES} ${BLIB_EXAMPLE_HEADER_FILES})
  target_link_libraries(${BLIB_EXAMPLE_NAME} PRIVATE ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
  target_compile_options(${BLIB_EXAMPLE_NAME} PRIVATE -Wall -Wextra)
  set_property(GLOBAL APPEND PROPERTY MOSE_PROGRAMS ${BLIB_EXAMPLE_NAME})
endfunction()
