# Install rules of the standalone build (cmake --install <build> --prefix <P>); in an ns-3 tree,
# ns-3 installs the module with itself. A user of Debian's ns-3 finds everything where ns-3's own
# files are:
#   <P>/include/ns3/mose-*.h          the headers, included as "ns3/mose-....h", with the
#                                     umbrella ns3/mose-module.h and the generated ns3/mose-config.h
#   <P>/<libdir>/libmose.so           the library (<libdir>: lib, or lib/<multiarch> under /usr)
#   <P>/<libdir>/cmake/mose/          CMake package: find_package(mose) -> imported target mose::mose
#   <P>/<libdir>/pkgconfig/mose.pc    pkg-config: pkg-config --cflags --libs mose
#   <P>/share/doc/mose/               LICENSE, README.md, CHANGES.md
# Both packages are relocatable: they find their prefix from where they are installed.

include(CMakePackageConfigHelpers)

set(MOSE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/mose CACHE STRING
    "Where the CMake package of mose is installed, relative to the prefix")
set(MOSE_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig CACHE STRING
    "Where mose.pc is installed, relative to the prefix")

install(TARGETS mose EXPORT moseTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(_mose_installed_headers ${MOSE_INCLUDE_DIR}/ns3/mose-module.h ${MOSE_CONFIG_HEADER})
foreach(_mose_header ${MOSE_HEADER_FILES})
  list(APPEND _mose_installed_headers ${CMAKE_CURRENT_SOURCE_DIR}/${_mose_header})
endforeach()
install(FILES ${_mose_installed_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
install(EXPORT moseTargets NAMESPACE mose:: FILE moseTargets.cmake
        DESTINATION ${MOSE_INSTALL_CMAKEDIR})

# moseConfig.cmake: the dependencies of the imported target (the exact ns-3 release the library
# was built against, Boost when its target is linked), then the target itself
if(TARGET Boost::headers)
  set(MOSE_CONFIG_FIND_BOOST "find_dependency(Boost 1.67)")
else()
  set(MOSE_CONFIG_FIND_BOOST "# Boost.Graph's headers were found without Boost's CMake package")
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/moseConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/moseConfig.cmake
                              INSTALL_DESTINATION ${MOSE_INSTALL_CMAKEDIR})
# 0.x releases: a new minor version may change the API
write_basic_package_version_file(${CMAKE_BINARY_DIR}/moseConfigVersion.cmake
                                 VERSION ${MOSE_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/moseConfig.cmake ${CMAKE_BINARY_DIR}/moseConfigVersion.cmake
        DESTINATION ${MOSE_INSTALL_CMAKEDIR})

# mose.pc: Requires the ns-3 modules mose links against (Debian's and ns-3's own pkg-config names
# ns3-<module>, at the release mose was built against), Cflags the standard and the compile
# definitions of the imported target, Libs the library
set(_mose_pc_requires)
foreach(_mose_lib ${MOSE_LIBRARIES_TO_LINK})
  if(_mose_lib MATCHES "^ns3::(lib)?(.+)$")
    list(APPEND _mose_pc_requires "ns3-${CMAKE_MATCH_2} = ${MOSE_NS3_VERSION}")
  endif()
endforeach()
string(REPLACE ";" ", " MOSE_PC_REQUIRES "${_mose_pc_requires}")
set(MOSE_PC_CFLAGS "-std=c++${CMAKE_CXX_STANDARD}")
if(MOSE_NS3_ASSERT)
  string(APPEND MOSE_PC_CFLAGS " -DNS3_ASSERT_ENABLE -DNS3_LOG_ENABLE")
endif()
if(Boost_INCLUDE_DIRS AND NOT Boost_INCLUDE_DIRS STREQUAL "/usr/include")
  foreach(_mose_dir ${Boost_INCLUDE_DIRS})
    string(APPEND MOSE_PC_CFLAGS " -I${_mose_dir}")
  endforeach()
endif()
# the prefix relative to the .pc file's folder (pkg-config's ${pcfiledir}), so that
# cmake --install --prefix <P> needs no reconfigure
if(IS_ABSOLUTE "${MOSE_INSTALL_PKGCONFIGDIR}")
  set(MOSE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _mose_rel "/prefix/${MOSE_INSTALL_PKGCONFIGDIR}" "/prefix")
  string(REGEX REPLACE "/$" "" _mose_rel "${_mose_rel}")
  set(MOSE_PC_PREFIX "\${pcfiledir}/${_mose_rel}")
endif()
foreach(_mose_dir INCLUDEDIR LIBDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_mose_dir}}")
    set(MOSE_PC_${_mose_dir} "${CMAKE_INSTALL_${_mose_dir}}")
  else()
    set(MOSE_PC_${_mose_dir} "\${prefix}/${CMAKE_INSTALL_${_mose_dir}}")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/mose.pc.in ${CMAKE_BINARY_DIR}/mose.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/mose.pc DESTINATION ${MOSE_INSTALL_PKGCONFIGDIR})

install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE ${CMAKE_CURRENT_SOURCE_DIR}/README.md
              ${CMAKE_CURRENT_SOURCE_DIR}/CHANGES.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
