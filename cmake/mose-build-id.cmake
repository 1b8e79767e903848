# cmake -P cmake/mose-build-id.cmake: writes MOSE_ID_OUT, a header defining MOSE_BUILD_ID as
# "<MOSE_ID_VERSION>+<the first 12 hex digits of a SHA-256 over the sources listed in
# MOSE_ID_LIST>" (each source's path below MOSE_ID_ROOT and its content's SHA-256, sorted by
# path, so the id does not depend on where the tree is). cmake/mose-study.cmake runs it at build
# time.
file(STRINGS ${MOSE_ID_LIST} _files)
list(SORT _files)
set(_all "")
foreach(_f ${_files})
  if(EXISTS ${_f})
    file(SHA256 ${_f} _h)
    file(RELATIVE_PATH _rel ${MOSE_ID_ROOT} ${_f})
    string(APPEND _all "${_rel} ${_h}\n")
  endif()
endforeach()
string(SHA256 _digest "${_all}")
string(SUBSTRING ${_digest} 0 12 _short)
set(_text "// made by cmake/mose-build-id.cmake: the module's build, as run records carry it\n#define MOSE_BUILD_ID \"${MOSE_ID_VERSION}+${_short}\"\n")
# written every time it runs (the build runs it when a source changed): a header left older than
# its inputs would make the build run it again and again; the one file that includes it
# recompiles, or comes from ccache when the id is the same
file(WRITE ${MOSE_ID_OUT} "${_text}")
