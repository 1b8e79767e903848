# Dependencies of mose that are not ns-3 modules, checked the same way in and out of an ns-3 tree
# before the module is described (CMakeLists.txt includes this file before build_lib()):
#  - Boost.Graph: a public dependency (ns3/mose-circuit-graph.h includes it); header-only for the
#    parts mose uses. Debian package: libboost-graph-dev.
#  - METIS (libmetis-dev), the graph partitioner of the min-cut placement of groups on MPI ranks
#    (model/flow/mose-partition.cc): a private dependency, since no public header includes
#    metis.h. Sets MOSE_METIS_LIBRARY, which CMakeLists.txt links (not a dollar-brace-lib name,
#    which an ns-3 tree would read as an ns-3 module).
#  - GoogleTest, when tests are wanted: standalone it builds mose-gtest (one ctest test per case);
#    in a tree its cases are compiled into the module's ns-3 test library, so that
#    `./test.py -s mose` runs them too (test/mose-gtest-bridge.h).
#  - protobuf (libprotobuf-dev, protobuf-compiler), optional: the reader and writer of Chakra
#    execution traces (model/workload/mose-chakra-trace.cc) and the code protoc generates from
#    model/workload/mose-chakra-et.proto. Without it (or with
#    -DCMAKE_DISABLE_FIND_PACKAGE_Protobuf=ON) the rest builds and the Chakra functions say
#    "built without protobuf". Sets MOSE_PROTOBUF_SOURCES and MOSE_PROTOBUF_LIBRARIES, which
#    CMakeLists.txt gives build_lib() (paths, not dollar-brace-lib names).
# Sets MOSE_TEST_SOURCES, the TEST_SOURCES of build_lib().

include(CheckIncludeFileCXX)

find_package(Boost 1.67 QUIET)
if(Boost_FOUND)
  set(CMAKE_REQUIRED_INCLUDES ${Boost_INCLUDE_DIRS})
endif()
check_include_file_cxx(boost/graph/compressed_sparse_row_graph.hpp MOSE_HAVE_BOOST_GRAPH)
unset(CMAKE_REQUIRED_INCLUDES)
if(NOT MOSE_HAVE_BOOST_GRAPH)
  message(FATAL_ERROR
    "mose needs the Boost.Graph headers (boost/graph/compressed_sparse_row_graph.hpp), which were "
    "not found. On Debian or Ubuntu: apt-get install libboost-graph-dev")
endif()
if(Boost_FOUND)
  include_directories(SYSTEM ${Boost_INCLUDE_DIRS})
endif()

find_path(MOSE_METIS_INCLUDE_DIR metis.h)
find_library(MOSE_METIS_LIBRARY metis)
if(NOT MOSE_METIS_INCLUDE_DIR OR NOT MOSE_METIS_LIBRARY)
  message(FATAL_ERROR
    "mose needs METIS (metis.h and libmetis), which was not found (metis.h: "
    "${MOSE_METIS_INCLUDE_DIR}, library: ${MOSE_METIS_LIBRARY}). On Debian or Ubuntu: "
    "apt-get install libmetis-dev")
endif()
# only mose-partition.cc includes it (Debian's metis.h is in /usr/include, searched anyway)
if(NOT MOSE_METIS_INCLUDE_DIR IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
  set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/model/flow/mose-partition.cc APPEND PROPERTY
               INCLUDE_DIRECTORIES ${MOSE_METIS_INCLUDE_DIR})
endif()

set(MOSE_PROTOBUF_SOURCES)
set(MOSE_PROTOBUF_LIBRARIES)
find_package(Protobuf QUIET)
if(Protobuf_FOUND AND Protobuf_PROTOC_EXECUTABLE)
  # protoc writes mose-chakra-et.pb.{h,cc} into this folder's build folder at build time
  protobuf_generate_cpp(_mose_pb_sources _mose_pb_headers
                        ${CMAKE_CURRENT_SOURCE_DIR}/model/workload/mose-chakra-et.proto)
  set(MOSE_PROTOBUF_SOURCES ${_mose_pb_sources})
  set(MOSE_PROTOBUF_LIBRARIES ${Protobuf_LIBRARIES})
  # only the trace's reader includes the generated header (no public header does); protobuf's
  # folder only if the compiler does not search it anyway (Debian's /usr/include: given again,
  # an ns-3 tree passes it as -isystem, which breaks #include_next <math.h> in <cmath>)
  set(_mose_pb_includes)
  foreach(_mose_dir ${Protobuf_INCLUDE_DIRS})
    if(NOT _mose_dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
      list(APPEND _mose_pb_includes ${_mose_dir})
    endif()
  endforeach()
  set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/model/workload/mose-chakra-trace.cc APPEND
               PROPERTY INCLUDE_DIRECTORIES ${CMAKE_CURRENT_BINARY_DIR} ${_mose_pb_includes})
  set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/model/workload/mose-chakra-trace.cc APPEND
               PROPERTY COMPILE_DEFINITIONS MOSE_HAVE_PROTOBUF=1)
  if(_mose_pb_includes)
    set_property(SOURCE ${_mose_pb_sources} APPEND PROPERTY INCLUDE_DIRECTORIES
                 ${_mose_pb_includes})
  endif()
  message(STATUS "mose: Chakra traces read with protobuf ${Protobuf_VERSION}")
else()
  message(STATUS "mose: protobuf (libprotobuf-dev, protobuf-compiler) not found: built without "
                 "protobuf, Chakra traces cannot be read")
endif()

if(MOSE_STANDALONE)
  set(_mose_want_tests ${MOSE_ENABLE_TESTS})
else()
  set(_mose_want_tests ${ENABLE_TESTS})
endif()
set(MOSE_GTEST_IN_NS3_SUITE OFF)
if(_mose_want_tests)
  find_package(GTest QUIET)
  # Standalone, ctest runs each GoogleTest case on its own; MOSE_NS3_SUITE_WITH_GTEST=ON builds
  # mose-ns3-test-runner as a tree would (the suite "mose" running every GoogleTest case too).
  if(MOSE_STANDALONE)
    option(MOSE_NS3_SUITE_WITH_GTEST "Standalone: the ns-3 suite mose runs the GoogleTest cases too" OFF)
  endif()
  if(GTest_FOUND AND (NOT MOSE_STANDALONE OR MOSE_NS3_SUITE_WITH_GTEST))
    set(MOSE_GTEST_IN_NS3_SUITE ON)
  endif()
endif()

set(MOSE_TEST_SOURCES test/mose-test-suite.cc test/mose-ocs-test-cases.cc test/mose-routing-test-cases.cc
    test/mose-packet-test-cases.cc
    test/mose-switch-test-cases.cc test/mose-mpi-test-cases.cc)
if(MOSE_GTEST_IN_NS3_SUITE)
  file(GLOB _mose_gtest_sources RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} CONFIGURE_DEPENDS
       ${CMAKE_CURRENT_SOURCE_DIR}/test/gtest/*-test.cc)
  list(SORT _mose_gtest_sources)
  list(APPEND MOSE_TEST_SOURCES test/mose-gtest-bridge.cc ${_mose_gtest_sources})
  message(STATUS "mose: the ns-3 suite \"mose\" runs the GoogleTest cases of test/gtest too")
else()
  list(APPEND MOSE_TEST_SOURCES test/mose-gtest-bridge-none.cc)
endif()

# In a tree, ns-3 (3.37 to 3.48 at least) gives each module header a stub in
# <build>/include/ns3/ that includes the header by its absolute path, and never rewrites a stub
# that exists. A header that moved between model/ and helper/ would keep a stub pointing at its
# old place in a tree built before the move: remove the module's stubs whose target is gone, so
# that build_lib() writes them anew. The study library's headers (helper/study/) are no module
# headers (cmake/mose-study.cmake): their stubs, left by a tree built before, go too, so that
# "ns3/mose-program.h" is not found.
if(NOT MOSE_STANDALONE AND DEFINED CMAKE_HEADER_OUTPUT_DIRECTORY)
  file(GLOB _mose_stubs ${CMAKE_HEADER_OUTPUT_DIRECTORY}/mose-*.h)
  foreach(_mose_stub ${_mose_stubs})
    file(STRINGS ${_mose_stub} _mose_stub_include LIMIT_COUNT 1 REGEX "^#include \"/")
    # (two ifs: a variable in an if() is expanded before its MATCHES sets CMAKE_MATCH_1)
    if(_mose_stub_include MATCHES "^#include \"(/[^\"]+)\"")
      set(_mose_stub_target "${CMAKE_MATCH_1}")
      if(NOT EXISTS "${_mose_stub_target}" OR _mose_stub_target MATCHES "/helper/study/.+$")
        message(STATUS "mose: removing the stale header stub ${_mose_stub} (${_mose_stub_target} is gone or not a module header)")
        file(REMOVE ${_mose_stub})
      endif()
    endif()
  endforeach()
endif()
