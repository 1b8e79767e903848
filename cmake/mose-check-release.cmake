# Release hygiene, run by ctest as mose-release-consistency (cmake -DSOURCE_DIR=<root> -P
# cmake/mose-check-release.cmake): the version and the supported ns-3 releases of the file VERSION
# are the ones README.md, doc/mose.rst and CHANGES.md state; LICENSE is the GPL version 2 that
# every source file's SPDX line names; the Doxygen group mose is defined in doc/mose.h only.

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<module root> -P mose-check-release.cmake")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/mose-version.cmake)
set(_failures 0)
macro(_fail text)
  message(SEND_ERROR "${text}")
  math(EXPR _failures "${_failures} + 1")
endmacro()

# _require(<file> <text>): the file contains the text
function(_require file text)
  file(READ ${SOURCE_DIR}/${file} _content)
  string(FIND "${_content}" "${text}" _at)
  if(_at EQUAL -1)
    message(SEND_ERROR "${file} does not say \"${text}\" (the file VERSION does)")
    set(_mose_release_failed ON PARENT_SCOPE)
  endif()
endfunction()

set(_range "ns-3 ${MOSE_NS3_OLDEST} to ${MOSE_NS3_NEWEST}")
_require(README.md "Version ${MOSE_VERSION}")
_require(README.md "${_range}")
_require(doc/mose.rst "${MOSE_VERSION}")
_require(doc/mose.rst "${_range}")
_require(CHANGES.md "## ${MOSE_VERSION}")

file(STRINGS ${SOURCE_DIR}/LICENSE _license LIMIT_COUNT 2)
if(NOT _license MATCHES "GNU GENERAL PUBLIC LICENSE;.*Version 2, June 1991")
  _fail("LICENSE is not the GNU GPL version 2")
endif()

file(GLOB_RECURSE _sources RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/model/*.h ${SOURCE_DIR}/model/*.cc ${SOURCE_DIR}/helper/*.h
     ${SOURCE_DIR}/helper/*.cc ${SOURCE_DIR}/examples/*.cc ${SOURCE_DIR}/test/*.h
     ${SOURCE_DIR}/test/*.cc ${SOURCE_DIR}/bench/*.cc ${SOURCE_DIR}/doc/*.h
     ${SOURCE_DIR}/cmake/*.cc ${SOURCE_DIR}/cmake/*.h.in)
list(LENGTH _sources _count)
foreach(_source ${_sources})
  file(STRINGS ${SOURCE_DIR}/${_source} _spdx LIMIT_COUNT 1 REGEX "SPDX-License-Identifier:")
  if(NOT _spdx MATCHES "SPDX-License-Identifier: GPL-2.0-only$")
    _fail("${_source}: no line \"SPDX-License-Identifier: GPL-2.0-only\"")
  endif()
  file(STRINGS ${SOURCE_DIR}/${_source} _group REGEX "[\\\\@]defgroup mose ")
  if(_group AND NOT _source STREQUAL "doc/mose.h")
    _fail("${_source} defines the Doxygen group mose: it belongs in doc/mose.h")
  endif()
endforeach()
file(STRINGS ${SOURCE_DIR}/doc/mose.h _group REGEX "[\\\\@]defgroup mose ")
if(NOT _group)
  _fail("doc/mose.h does not define the Doxygen group mose")
endif()

if(_mose_release_failed OR _failures GREATER 0)
  message(FATAL_ERROR "release consistency: failed")
endif()
message(STATUS "release consistency: mose ${MOSE_VERSION}, ${_range}, GPL-2.0-only in ${_count} files")
