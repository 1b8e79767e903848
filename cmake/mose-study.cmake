# The study library mose-study: everything in helper/study/, sorted by job into sub-rooms,
# lowest first (MOSE_STUDY_ROOMS; cmake/mose-check-layers.py, STUDY_ROOMS, checks that a file
# includes only its own and lower sub-rooms):
#   runs/        many runs: the run list's selection (--runs, --part), run records, the worker
#                pool (--jobs: threads or a process per run)
#   flow/        the flow-level study (FlowExperimentHelper, its report StudyReport), the sweep,
#                the baseline comparison, the switch cost, reference figures, seeds, statistics
#   experiment/  the packet-level experiment and its presets (packet, switch, LLM), the policy
#                comparison, the FCT CDF plot
#   llm/         the LLM studies (comparison, regime map and figure, level validation, CSV table)
#   report/      the reports of the packet run, the sweep, the switch cost and the switch experiment; templates
#   cli/         the programs' scaffold Program and options classes
# It serves the programs of examples/, the tests and the study benchmark; it is not the module's
# API (doc/mose.rst, "Model Description"): not in build_lib()'s HEADER_FILES, so its headers are
# neither copied to include/ns3 nor part of ns3/mose-module.h nor installed, and it is a static
# library that nothing installs. Its headers are included without "ns3/" and without their
# sub-room ("mose-program.h"): every sub-room of helper/study/ is on the include path of every
# target that links mose-study.
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
    helper/study/runs/mose-run-list.cc
    helper/study/runs/mose-run-list-runner.cc
    helper/study/runs/mose-run-pool.cc
    helper/study/flow/mose-baseline-comparison.cc
    helper/study/flow/mose-flow-experiment-helper.cc
    helper/study/flow/mose-reference-figures.cc
    helper/study/flow/mose-seed-pool.cc
    helper/study/flow/mose-seed-list.cc
    helper/study/flow/mose-study-report.cc
    helper/study/flow/mose-study-statistics.cc
    helper/study/flow/mose-sweep.cc
    helper/study/flow/mose-switch-cost.cc
    helper/study/experiment/mose-experiment.cc
    helper/study/experiment/mose-experiment-task.cc
    helper/study/experiment/mose-fct-cdf-plot.cc
    helper/study/experiment/mose-level.cc
    helper/study/experiment/mose-llm-experiment.cc
    helper/study/experiment/mose-packet-experiment.cc
    helper/study/experiment/mose-policy-comparison.cc
    helper/study/experiment/mose-presets.cc
    helper/study/experiment/mose-switch-experiment.cc
    helper/study/llm/mose-csv-table.cc
    helper/study/llm/mose-llm-comparison.cc
    helper/study/llm/mose-llm-level-suite.cc
    helper/study/llm/mose-llm-validated-regime.cc
    helper/study/llm/mose-llm-level-validation.cc
    helper/study/llm/mose-llm-map-runner.cc
    helper/study/llm/mose-llm-regime-figure.cc
    helper/study/llm/mose-llm-regime-map.cc
    helper/study/llm/mose-llm-run-report.cc
    helper/study/report/mose-flow-level-checks.cc
    helper/study/report/mose-packet-report.cc
    helper/study/report/mose-sweep-report.cc
    helper/study/report/mose-switch-cost-report.cc
    helper/study/report/mose-switch-comparison-runs.cc
    helper/study/report/mose-switch-comparison.cc
    helper/study/report/mose-switch-experiment-report.cc
    helper/study/report/mose-template-report.cc
    helper/study/cli/mose-baseline-options.cc
    helper/study/cli/mose-flow-eval-options.cc
    helper/study/cli/mose-level-options.cc
    helper/study/cli/mose-transport-options.cc
    helper/study/cli/mose-llm-options.cc
    helper/study/cli/mose-option-scope.cc
    helper/study/cli/mose-packet-options.cc
    helper/study/cli/mose-program.cc
    helper/study/cli/mose-run-options.cc
    helper/study/cli/mose-scenario-options.cc
    helper/study/cli/mose-sweep-options.cc
    helper/study/cli/mose-switch-cost-options.cc
    helper/study/cli/mose-switch-options.cc
)
set(MOSE_STUDY_HEADERS
    helper/study/runs/mose-run-list.h
    helper/study/runs/mose-run-list-runner.h
    helper/study/runs/mose-run-pool.h
    helper/study/flow/mose-baseline-comparison.h
    helper/study/flow/mose-flow-experiment-helper.h
    helper/study/flow/mose-reference-figures.h
    helper/study/flow/mose-seed-pool.h
    helper/study/flow/mose-seed-list.h
    helper/study/flow/mose-study-report.h
    helper/study/flow/mose-study-statistics.h
    helper/study/flow/mose-sweep.h
    helper/study/flow/mose-switch-cost.h
    helper/study/experiment/mose-experiment.h
    helper/study/experiment/mose-experiment-task.h
    helper/study/experiment/mose-fct-cdf-plot.h
    helper/study/experiment/mose-level.h
    helper/study/experiment/mose-llm-experiment.h
    helper/study/experiment/mose-packet-experiment.h
    helper/study/experiment/mose-policy-comparison.h
    helper/study/experiment/mose-presets.h
    helper/study/experiment/mose-switch-experiment.h
    helper/study/llm/mose-csv-table.h
    helper/study/llm/mose-llm-comparison.h
    helper/study/llm/mose-llm-level-suite.h
    helper/study/llm/mose-llm-validated-regime.h
    helper/study/llm/mose-llm-level-validation.h
    helper/study/llm/mose-llm-map-runner.h
    helper/study/llm/mose-llm-regime-figure.h
    helper/study/llm/mose-llm-regime-map.h
    helper/study/llm/mose-llm-run-report.h
    helper/study/report/mose-flow-level-checks.h
    helper/study/report/mose-packet-report.h
    helper/study/report/mose-sweep-report.h
    helper/study/report/mose-switch-cost-report.h
    helper/study/report/mose-switch-comparison-runs.h
    helper/study/report/mose-switch-comparison.h
    helper/study/report/mose-switch-experiment-report.h
    helper/study/report/mose-template-report.h
    helper/study/cli/mose-baseline-options.h
    helper/study/cli/mose-flow-eval-options.h
    helper/study/cli/mose-level-options.h
    helper/study/cli/mose-transport-options.h
    helper/study/cli/mose-llm-options.h
    helper/study/cli/mose-option-scope.h
    helper/study/cli/mose-packet-options.h
    helper/study/cli/mose-program.h
    helper/study/cli/mose-run-options.h
    helper/study/cli/mose-scenario-options.h
    helper/study/cli/mose-sweep-options.h
    helper/study/cli/mose-switch-cost-options.h
    helper/study/cli/mose-switch-options.h
)
set(MOSE_STUDY_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)
# the sub-rooms of helper/study/, lowest first
set(MOSE_STUDY_ROOMS runs flow experiment llm report cli)

# mose_add_study_library(): the target mose-study, linking the module (call after build_lib()).
# Built only for what links it (EXCLUDE_FROM_ALL), position-independent (an ns-3 tree links it
# into the module's shared test library).
function(mose_add_study_library)
  set(_sources)
  foreach(_file ${MOSE_STUDY_SOURCES} ${MOSE_STUDY_HEADERS})
    list(APPEND _sources ${MOSE_STUDY_ROOT}/${_file})
  endforeach()
  # mose-build-id.h: the module's version and a digest of its sources (model/, helper/), made
  # again whenever one of them changes; a run record carries it (GetModuleBuildId()), so that a
  # merge or a resumed study never mixes runs of two builds
  file(GLOB_RECURSE _mose_id_inputs CONFIGURE_DEPENDS
       ${MOSE_STUDY_ROOT}/model/*.cc ${MOSE_STUDY_ROOT}/model/*.h
       ${MOSE_STUDY_ROOT}/helper/*.cc ${MOSE_STUDY_ROOT}/helper/*.h)
  set(_mose_id_dir ${CMAKE_CURRENT_BINARY_DIR}/mose-build-id)
  set(_mose_id_list ${_mose_id_dir}/inputs.txt)
  string(REPLACE ";" "\n" _mose_id_text "${_mose_id_inputs}")
  file(WRITE ${_mose_id_list}.new "${_mose_id_text}\n")
  configure_file(${_mose_id_list}.new ${_mose_id_list} COPYONLY)
  add_custom_command(
    OUTPUT ${_mose_id_dir}/mose-build-id.h
    COMMAND ${CMAKE_COMMAND} -DMOSE_ID_LIST=${_mose_id_list} -DMOSE_ID_ROOT=${MOSE_STUDY_ROOT}
            -DMOSE_ID_VERSION=${MOSE_VERSION} -DMOSE_ID_OUT=${_mose_id_dir}/mose-build-id.h
            -P ${MOSE_STUDY_ROOT}/cmake/mose-build-id.cmake
    DEPENDS ${_mose_id_inputs} ${_mose_id_list} ${MOSE_STUDY_ROOT}/cmake/mose-build-id.cmake
    COMMENT "mose: the build id of the run records"
    VERBATIM)
  list(APPEND _sources ${_mose_id_dir}/mose-build-id.h)
  # mose-level-suite-data.h: the fluid level's validation suite (doc/figures/level-suite.csv,
  # written by utils/fluid-suite.sh), built in: LlmValidatedRegimes::GetBuiltIn()
  set(_mose_suite_csv ${MOSE_STUDY_ROOT}/doc/figures/level-suite.csv)
  set(_mose_suite_depends ${MOSE_STUDY_ROOT}/cmake/mose-embed-text.cmake)
  if(EXISTS ${_mose_suite_csv})
    list(APPEND _mose_suite_depends ${_mose_suite_csv})
  endif()
  add_custom_command(
    OUTPUT ${_mose_id_dir}/mose-level-suite-data.h
    COMMAND ${CMAKE_COMMAND} -DMOSE_EMBED_IN=${_mose_suite_csv} -DMOSE_EMBED_NAME=MOSE_LEVEL_SUITE_CSV
            -DMOSE_EMBED_OUT=${_mose_id_dir}/mose-level-suite-data.h
            -P ${MOSE_STUDY_ROOT}/cmake/mose-embed-text.cmake
    DEPENDS ${_mose_suite_depends}
    COMMENT "mose: the fluid level's validation suite, built in"
    VERBATIM)
  list(APPEND _sources ${_mose_id_dir}/mose-level-suite-data.h)
  add_library(mose-study STATIC EXCLUDE_FROM_ALL ${_sources})
  target_include_directories(mose-study PRIVATE ${_mose_id_dir})
  set_target_properties(mose-study PROPERTIES POSITION_INDEPENDENT_CODE ON)
  foreach(_room ${MOSE_STUDY_ROOMS})
    target_include_directories(mose-study PUBLIC ${MOSE_STUDY_ROOT}/helper/study/${_room})
  endforeach()
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
