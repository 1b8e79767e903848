# The module's version and the ns-3 releases it supports, from the file VERSION at the module's
# root: one place for both builds (CMakeLists.txt includes this file first, before project() when
# standalone). Sets MOSE_VERSION (x.y.z), MOSE_VERSION_MAJOR/MINOR/PATCH, MOSE_NS3_OLDEST and
# MOSE_NS3_NEWEST (3.37, 3.48), and checks an ns-3 version against them with
# mose_check_ns3_version(<version>).

set(_mose_version_file ${CMAKE_CURRENT_LIST_DIR}/../VERSION)
file(STRINGS ${_mose_version_file} _mose_version_line REGEX "^mose ")
file(STRINGS ${_mose_version_file} _mose_ns3_line REGEX "^ns-3 ")
if(NOT _mose_version_line MATCHES "^mose ([0-9]+)\\.([0-9]+)\\.([0-9]+)$")
  message(FATAL_ERROR "mose: VERSION has no line \"mose x.y.z\"")
endif()
set(MOSE_VERSION_MAJOR ${CMAKE_MATCH_1})
set(MOSE_VERSION_MINOR ${CMAKE_MATCH_2})
set(MOSE_VERSION_PATCH ${CMAKE_MATCH_3})
set(MOSE_VERSION ${MOSE_VERSION_MAJOR}.${MOSE_VERSION_MINOR}.${MOSE_VERSION_PATCH})
if(NOT _mose_ns3_line MATCHES "^ns-3 (3\\.[0-9]+) (3\\.[0-9]+)$")
  message(FATAL_ERROR "mose: VERSION has no line \"ns-3 <oldest> <newest>\"")
endif()
set(MOSE_NS3_OLDEST ${CMAKE_MATCH_1})
set(MOSE_NS3_NEWEST ${CMAKE_MATCH_2})
# configure again when VERSION changes
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_mose_version_file})

# mose_check_ns3_version(<version>): stop before an ns-3 older than MOSE_NS3_OLDEST (the
# compatibility header does not cover it), warn about a release newer than MOSE_NS3_NEWEST (not
# checked yet). "3-dev" (an ns-3-dev tree) counts as newer.
function(mose_check_ns3_version version)
  if(version MATCHES "^3\\.[0-9]+")
    if(version VERSION_LESS MOSE_NS3_OLDEST)
      message(FATAL_ERROR
        "mose ${MOSE_VERSION} supports ns-3 ${MOSE_NS3_OLDEST} to ${MOSE_NS3_NEWEST}, not ${version}")
    endif()
    string(REGEX MATCH "^3\\.[0-9]+" _mose_release "${version}")
    if(_mose_release VERSION_GREATER MOSE_NS3_NEWEST)
      message(WARNING
        "mose ${MOSE_VERSION} is checked against ns-3 ${MOSE_NS3_OLDEST} to ${MOSE_NS3_NEWEST}; "
        "${version} is newer and untested")
    endif()
  else()
    message(STATUS "mose: ns-3 \"${version}\" is not a release; treated as newer than ${MOSE_NS3_NEWEST}")
  endif()
endfunction()
