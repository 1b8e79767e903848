# The study library mose-study: everything in helper/study/ (the flow-level study and its
# sweeps, the switch cost, the packet, switch and LLM experiments and their reports, the
# programs' options classes and their scaffold Program). It serves the programs of examples/,
# the tests and the study benchmark; it is not the module's API (doc/mose.rst, "Model
# Description"): not in build_lib()'s HEADER_FILES, so its headers are neither copied to
# include/ns3 nor part of ns3/mose-module.h nor installed, and it is a static library that
# nothing installs. Its headers are included without "ns3/" ("mose-program.h"): helper/study/
# is on the include path of every target that links mose-study.
#
# Both builds use this file: CMakeLists.txt includes it before build_lib() (the examples, which
# build_lib() adds, call mose_study_example()), cmake/mose-extras.cmake calls
# mose_add_study_library() after it. In an ns-3 tree build_lib_example() would drop an example
# whose LIBRARIES_TO_LINK names anything but an ns-3 module, and ns-3 links its examples and
# test libraries with target_link_libraries()' plain signature; so the examples link mose-study
# after build_lib_example(), through mose_study_example(), with the signature of the build.
# cmake/mose-check-layers.py (ctest mose-layers) checks that every helper/study source is listed
# here and nowhere else.

set(MOSE_STUDY_SOURCES
    helper/study/mose-baseline-comparison.cc
    helper/study/mose-baseline-options.cc
    helper/study/mose-csv-table.cc
    helper/study/mose-experiment.cc
    helper/study/mose-fct-cdf-plot.cc
    helper/study/mose-flow-eval-options.cc
    helper/study/mose-flow-experiment-helper.cc
    helper/study/mose-llm-comparison.cc
    helper/study/mose-llm-experiment.cc
    helper/study/mose-llm-level-validation.cc
    helper/study/mose-llm-options.cc
    helper/study/mose-llm-regime-figure.cc
    helper/study/mose-llm-regime-map.cc
    helper/study/mose-packet-experiment.cc
    helper/study/mose-packet-options.cc
    helper/study/mose-policy-comparison.cc
    helper/study/mose-program.cc
    helper/study/mose-reference-figures.cc
    helper/study/mose-scenario-options.cc
    helper/study/mose-seed-pool.cc
    helper/study/mose-study-report.cc
    helper/study/mose-study-statistics.cc
    helper/study/mose-sweep-report.cc
    helper/study/mose-sweep.cc
    helper/study/mose-switch-cost-options.cc
    helper/study/mose-switch-cost-report.cc
    helper/study/mose-switch-cost.cc
    helper/study/mose-switch-experiment-report.cc
    helper/study/mose-switch-experiment.cc
    helper/study/mose-switch-options.cc
    helper/study/mose-template-report.cc
)
set(MOSE_STUDY_HEADERS
    helper/study/mose-baseline-comparison.h
    helper/study/mose-baseline-options.h
    helper/study/mose-csv-table.h
    helper/study/mose-experiment.h
    helper/study/mose-fct-cdf-plot.h
    helper/study/mose-flow-eval-options.h
    helper/study/mose-flow-experiment-helper.h
    helper/study/mose-llm-comparison.h
    helper/study/mose-llm-experiment.h
    helper/study/mose-llm-level-validation.h
    helper/study/mose-llm-options.h
    helper/study/mose-llm-regime-figure.h
    helper/study/mose-llm-regime-map.h
    helper/study/mose-packet-experiment.h
    helper/study/mose-packet-options.h
    helper/study/mose-policy-comparison.h
    helper/study/mose-program.h
    helper/study/mose-reference-figures.h
    helper/study/mose-scenario-options.h
    helper/study/mose-seed-pool.h
    helper/study/mose-study-report.h
    helper/study/mose-study-statistics.h
    helper/study/mose-sweep-report.h
    helper/study/mose-sweep.h
    helper/study/mose-switch-cost-options.h
    helper/study/mose-switch-cost-report.h
    helper/study/mose-switch-cost.h
    helper/study/mose-switch-experiment-report.h
    helper/study/mose-switch-experiment.h
    helper/study/mose-switch-options.h
    helper/study/mose-template-report.h
)
set(MOSE_STUDY_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)

# mose_add_study_library(): the target mose-study, linking the module (call after build_lib()).
# Built only for what links it (EXCLUDE_FROM_ALL), position-independent (an ns-3 tree links it
# into the module's shared test library).
function(mose_add_study_library)
  set(_sources)
  foreach(_file ${MOSE_STUDY_SOURCES} ${MOSE_STUDY_HEADERS})
    list(APPEND _sources ${MOSE_STUDY_ROOT}/${_file})
  endforeach()
  add_library(mose-study STATIC EXCLUDE_FROM_ALL ${_sources})
  set_target_properties(mose-study PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(mose-study PUBLIC ${MOSE_STUDY_ROOT}/helper/study)
  target_link_libraries(mose-study PUBLIC ${libmose})
  if(MOSE_STANDALONE)
    if(MOSE_WARNINGS_AS_ERRORS)
      target_compile_options(mose-study PRIVATE -Wall -Wextra -Werror)
    else()
      target_compile_options(mose-study PRIVATE -Wall -Wextra)
    endif()
    if(MOSE_PRECOMPILE_HEADERS)
      target_precompile_headers(mose-study PRIVATE ${MOSE_PCH_HEADERS})
    endif()
  elseif(PRECOMPILE_HEADERS_ENABLED AND TARGET stdlib_pch)
    # as ns-3 builds its modules
    target_precompile_headers(mose-study REUSE_FROM stdlib_pch)
  endif()
endfunction()

# mose_link_study(<target>): <target> links mose-study and includes its headers, with the
# signature of target_link_libraries() the build uses for it (keyword standalone, plain for
# ns-3's own targets in a tree)
function(mose_link_study target)
  if(MOSE_STANDALONE)
    target_link_libraries(${target} PRIVATE mose-study)
  else()
    target_link_libraries(${target} mose-study)
  endif()
endfunction()

# mose_study_example(<name>): the example <name>, just added with build_lib_example(), links
# mose-study (an example that ns-3 filtered out in a tree has no target: nothing to do)
function(mose_study_example name)
  if(TARGET ${name})
    mose_link_study(${name})
  endif()
endfunction()
