# Parts of the mose build that are the same in and out of an ns-3 tree: the study library
# mose-study, the generated header ns3/mose-config.h (the module's version and the ns-3 release,
# for model/support/mose-ns3-compat.h), the GoogleTest binary mose-gtest, and (standalone only)
# install rules, ctest registration, benchmarks and the fuzz target.

# the programs' study library, which the examples (added by build_lib()), mose-gtest and the
# study benchmark link (cmake/mose-study.cmake)
mose_add_study_library()

if(MOSE_STANDALONE)
  set(_mose_ns3_version ${MOSE_NS3_VERSION})
else()
  set(_mose_ns3_version ${NS3_VER})
  mose_check_ns3_version(${NS3_VER})
endif()
string(REGEX MATCH "^3\\.([0-9]+)" _mose_match "${_mose_ns3_version}")
if(_mose_match)
  set(MOSE_NS3_VERSION_MINOR ${CMAKE_MATCH_1})
else()
  # ns-3-dev trees report "3-dev": treat them as the newest release
  set(MOSE_NS3_VERSION_MINOR 99)
endif()
message(STATUS "mose ${MOSE_VERSION}: ns-3 ${_mose_ns3_version} (MOSE_NS3_VERSION_MINOR=${MOSE_NS3_VERSION_MINOR})")

# ns3/mose-config.h goes where the module's other headers are found: standalone beside their
# copies in <build>/include/ns3 (and installed with them); in a tree into ns-3's header folder
# <build>/include/ns3, where ns-3 puts its own generated headers (core-config.h, ...) and the
# module's header stubs. No compile definition is needed: a program that includes the module's
# headers, in the build or installed, gets the version from this header.
if(MOSE_STANDALONE)
  set(_mose_config_dir ${MOSE_INCLUDE_DIR}/ns3)
elseif(DEFINED CMAKE_HEADER_OUTPUT_DIRECTORY)
  set(_mose_config_dir ${CMAKE_HEADER_OUTPUT_DIRECTORY})
else()
  set(_mose_config_dir ${CMAKE_OUTPUT_DIRECTORY}/include/ns3)
endif()
set(MOSE_CONFIG_HEADER ${_mose_config_dir}/mose-config.h)
configure_file(${CMAKE_CURRENT_LIST_DIR}/mose-config.h.in ${MOSE_CONFIG_HEADER} @ONLY)
if(NOT MOSE_STANDALONE)
  # ns-3 installs the headers of HEADER_FILES and its own generated ones (./ns3 install); this one
  # is the module's and goes beside them
  include(GNUInstallDirs)
  install(FILES ${MOSE_CONFIG_HEADER} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
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
    # (the GoogleTest cases test the study library too)
    if(MOSE_STANDALONE)
      target_link_libraries(mose-ns3-test-runner PRIVATE GTest::gtest)
      mose_link_study(mose-ns3-test-runner)
    elseif(TARGET ${testmose})
      # ns-3's build_lib links the test library with the plain signature: so must this
      target_link_libraries(${testmose} GTest::gtest)
      mose_link_study(${testmose})
    endif()
  endif()
  if(GTest_FOUND AND MOSE_STANDALONE)
    add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/../test/gtest ${CMAKE_CURRENT_BINARY_DIR}/mose-gtest)
  elseif(NOT GTest_FOUND)
    message(STATUS "mose: GoogleTest not found, the GoogleTest cases are not built")
  endif()
endif()

if(MOSE_STANDALONE)
  include(${CMAKE_CURRENT_LIST_DIR}/mose-install.cmake)
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

# utils/map-run-times.sh (what a map's runs cost, from their records) on records written by hand
# (test/map-run-times-check.sh): the sums, the packing on workers, a gap, bad input.
if(MOSE_STANDALONE AND MOSE_ENABLE_TESTS)
  add_test(NAME mose-map-run-times COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/../test/map-run-times-check.sh)
  set_tests_properties(mose-map-run-times PROPERTIES LABELS examples TIMEOUT 60)
endif()

# A map as a Slurm job array (ctest -L slurm): test/slurm-check.sh starts a one-node cluster on
# localhost (utils/slurm-local.sh), runs a small map as 4 tasks and a merge through
# utils/mose-slurm.sh, compares it byte for byte with the map in one process, cancels a task of a
# second array and resubmits it, and stops the cluster. mose-slurm-runner runs it with the
# stand-in program test/slurm-fake-map.sh, mose-slurm-map with mose-llm. Skipped (exit status 77)
# where Debian's slurm-wlm and munge are not installed (utils/install-deps.sh installs them).
if(MOSE_STANDALONE AND MOSE_ENABLE_TESTS)
  add_test(NAME mose-slurm-runner COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/../test/slurm-check.sh)
  set(_mose_slurm_tests mose-slurm-runner)
  if(MOSE_ENABLE_EXAMPLES)
    add_test(NAME mose-slurm-map COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/../test/slurm-check.sh
                                         $<TARGET_FILE:mose-llm>)
    list(APPEND _mose_slurm_tests mose-slurm-map)
  endif()
  set_tests_properties(${_mose_slurm_tests} PROPERTIES LABELS slurm SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()

# mose-programs (standalone): the library and every program of examples/, what utils/build.sh's
# quick start builds before it runs mose-paper (the tests and benchmarks come with utils/test.sh)
if(MOSE_STANDALONE)
  get_property(_mose_programs GLOBAL PROPERTY MOSE_PROGRAMS)
  add_custom_target(mose-programs DEPENDS ${libmose} ${_mose_programs})
endif()

# Packaging and the examples as ns-3 runs them (standalone only):
#  - mose-release-consistency: VERSION, README.md, doc/mose.rst, CHANGES.md, LICENSE and the SPDX
#    lines agree (cmake/mose-check-release.cmake);
#  - mose-fabric-example: examples/mose-fabric's numbers, determinism and pcap trace
#    (cmake/mose-check-fabric.py);
#  - mose-examples-to-run: every run test/examples-to-run.py lists for ./test.py in a tree, each
#    exiting 0 (cmake/mose-examples-to-run.py; times printed, not checked);
#  - mose-install: cmake --install into a fresh prefix, then the same script built from outside
#    with find_package(mose) and with pkg-config, run, output compared (test/install/);
#  - mose-layers: no include goes from a lower room (model/support, model/flow, model/packet,
#    helper, helper/study) to a higher one, nor from a sub-room of helper/study (flow,
#    experiment, llm, report, cli) to a higher one, model/flow and model/support include no
#    simulator, node, device, IPv4, point-to-point or application header, and every source is in
#    CMakeLists.txt (cmake/mose-check-layers.py; mose-layers-self-test plants each violation);
#  - mose-docs: doc/mose.rst's Source files tables list every header once, under its room (or
#    study sub-room), the room tables of the doc and README.md are the layer check's rooms, and
#    every path the two documents name exists, and their prose runs at most 22 words a sentence on
#    average and 60 in any one (cmake/mose-check-docs.py; mose-docs-self-test plants each problem).
if(MOSE_STANDALONE AND MOSE_ENABLE_TESTS)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  add_test(NAME mose-release-consistency
           COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                   -P ${CMAKE_CURRENT_LIST_DIR}/mose-check-release.cmake)
  add_test(NAME mose-layers COMMAND ${Python3_EXECUTABLE}
                                    ${CMAKE_CURRENT_LIST_DIR}/mose-check-layers.py ${PROJECT_SOURCE_DIR})
  add_test(NAME mose-layers-self-test
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/mose-check-layers.py --self-test)
  add_test(NAME mose-docs COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/mose-check-docs.py
                                  ${PROJECT_SOURCE_DIR})
  add_test(NAME mose-docs-self-test
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/mose-check-docs.py --self-test)
  # the doc's table of where each option acts is the programs' (cmake/mose-check-option-scope.py)
  add_test(NAME mose-option-scope-doc
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/mose-check-option-scope.py
                   ${PROJECT_SOURCE_DIR})
  add_test(NAME mose-option-scope-doc-self-test
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/mose-check-option-scope.py
                   --self-test)
  set_tests_properties(mose-release-consistency mose-layers mose-layers-self-test mose-docs
                       mose-docs-self-test mose-option-scope-doc mose-option-scope-doc-self-test
                       PROPERTIES LABELS release)
  if(MOSE_ENABLE_EXAMPLES)
    add_test(NAME mose-fabric-example
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/mose-check-fabric.py
                     $<TARGET_FILE:mose-fabric>)
    add_test(NAME mose-examples-to-run
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/mose-examples-to-run.py
                     ${PROJECT_SOURCE_DIR} $<TARGET_FILE_DIR:mose-fabric>)
    set_tests_properties(mose-fabric-example mose-examples-to-run PROPERTIES LABELS examples
                                                                             TIMEOUT 900)
    # every command README.md and doc/mose.rst show, run (test/doc-commands.py: the skipped
    # and the reduced ones are listed there with the reason)
    add_test(NAME mose-doc-commands
             COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/test/doc-commands.py
                     ${PROJECT_SOURCE_DIR} $<TARGET_FILE_DIR:mose-fabric>)
    set_tests_properties(mose-doc-commands PROPERTIES LABELS examples TIMEOUT 900)
    # the fluid level's validation suite on two small sets (utils/fluid-suite.sh)
    add_test(NAME mose-fluid-suite
             COMMAND bash ${PROJECT_SOURCE_DIR}/test/fluid-suite-check.sh
                     $<TARGET_FILE_DIR:mose-llm>)
    set_tests_properties(mose-fluid-suite PROPERTIES LABELS examples TIMEOUT 300)
    # the install step installs what the build made: it needs a finished build (as ctest has)
    add_test(NAME mose-install
             COMMAND sh ${PROJECT_SOURCE_DIR}/test/install/check-install.sh ${CMAKE_BINARY_DIR}
                     ${PROJECT_SOURCE_DIR})
    set_tests_properties(mose-install PROPERTIES LABELS install TIMEOUT 1200)
  endif()
endif()
