# Parts of the mose build that are the same in and out of an ns-3 tree: the ns-3 version define
# for model/mose-ns3-compat.h, the GoogleTest binary mose-gtest, and (standalone only) ctest
# registration, benchmarks and the fuzz target.

if(MOSE_STANDALONE)
  set(_mose_ns3_version ${MOSE_NS3_VERSION})
else()
  set(_mose_ns3_version ${NS3_VER})
endif()
string(REGEX MATCH "^3\\.([0-9]+)" _mose_match "${_mose_ns3_version}")
if(_mose_match)
  set(MOSE_NS3_VERSION_MINOR ${CMAKE_MATCH_1})
else()
  # ns-3-dev trees report "3-dev": treat them as the newest release
  set(MOSE_NS3_VERSION_MINOR 99)
endif()
message(STATUS "mose: ns-3 ${_mose_ns3_version} (MOSE_NS3_VERSION_MINOR=${MOSE_NS3_VERSION_MINOR})")
# PUBLIC: the module's own sources, its test library, mose-gtest and the examples all see it.
target_compile_definitions(${libmose} PUBLIC MOSE_NS3_VERSION_MINOR=${MOSE_NS3_VERSION_MINOR})
# ns-3 up to 3.42 compiles a module's sources in an object library <lib>-obj and links the shared
# library from its objects; later releases compile the shared library directly (the variable
# lib<module>-obj is still set there, but names no target).
if(NOT MOSE_STANDALONE AND TARGET ${libmose}-obj)
  target_compile_definitions(${libmose}-obj PUBLIC MOSE_NS3_VERSION_MINOR=${MOSE_NS3_VERSION_MINOR})
endif()

# Tests are wanted standalone unless switched off, and in a tree when ns-3 was configured with
# --enable-tests.
if(MOSE_STANDALONE)
  set(_mose_tests ${MOSE_ENABLE_TESTS})
else()
  set(_mose_tests ${ENABLE_TESTS})
endif()

if(MOSE_STANDALONE AND MOSE_ENABLE_TESTS)
  # before any add_test(), including the ones gtest_discover_tests() makes in test/gtest
  enable_testing()
endif()

if(_mose_tests)
  if(MOSE_GTEST_IN_NS3_SUITE)
    # In a tree the GoogleTest cases are part of the module's ns-3 test library (variable
    # test<module>: libmose-test up to 3.42, mose-test later), run by ./test.py -s mose.
    if(MOSE_STANDALONE)
      target_link_libraries(mose-ns3-test-runner PRIVATE GTest::gtest)
    elseif(TARGET ${testmose})
      # ns-3's build_lib links the test library with the plain signature: so must this
      target_link_libraries(${testmose} GTest::gtest)
    endif()
  endif()
  if(GTest_FOUND AND MOSE_STANDALONE)
    add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/../test/gtest ${CMAKE_CURRENT_BINARY_DIR}/mose-gtest)
  elseif(NOT GTest_FOUND)
    message(STATUS "mose: GoogleTest not found, the GoogleTest cases are not built")
  endif()
endif()

if(MOSE_STANDALONE)
  if(MOSE_ENABLE_TESTS)
    add_test(NAME mose-ns3-suite COMMAND mose-ns3-test-runner --suite=mose)
    if(NOT GTest_FOUND)
      message(FATAL_ERROR "mose: GoogleTest is required for the tests (apt-get install libgtest-dev)")
    endif()
  endif()
  if(MOSE_ENABLE_BENCH)
    find_package(benchmark)
    if(benchmark_FOUND)
      add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/../bench ${CMAKE_CURRENT_BINARY_DIR}/bench)
    else()
      message(STATUS "mose: Google Benchmark not found, bench/ is not built")
    endif()
  endif()
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND EXISTS ${CMAKE_CURRENT_LIST_DIR}/../test/fuzz/CMakeLists.txt)
    option(MOSE_ENABLE_FUZZ "Build the libFuzzer targets (clang only)" OFF)
    if(MOSE_ENABLE_FUZZ)
      add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/../test/fuzz ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
    endif()
  endif()
endif()

# The programs on bad and edge-case input: exit status 1 with a message naming the option, no
# crash, no hang (test/examples-bad-input.sh).
if(MOSE_STANDALONE AND MOSE_ENABLE_TESTS AND MOSE_ENABLE_EXAMPLES)
  add_test(NAME mose-examples-bad-input
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/../test/examples-bad-input.sh
                   $<TARGET_FILE_DIR:mose-flow-eval>)
  set_tests_properties(mose-examples-bad-input PROPERTIES LABELS examples TIMEOUT 1200)
endif()
