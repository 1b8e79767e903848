# cmake -P cmake/mose-embed-text.cmake: writes MOSE_EMBED_OUT, a header defining the constant
# MOSE_EMBED_NAME as the text of MOSE_EMBED_IN, a raw string literal (an empty one when the file does not
# exist). cmake/mose-study.cmake runs it at build time for the fluid level's validation suite
# (doc/figures/level-suite.csv), which mose-llm reads to print the error of the nearest
# validated regime beside a fluid or aggregate answer.
if(EXISTS ${MOSE_EMBED_IN})
  file(READ ${MOSE_EMBED_IN} _text)
else()
  set(_text "")
endif()
string(FIND "${_text}" ")mose_text\"" _end)
if(NOT _end EQUAL -1)
  message(FATAL_ERROR "${MOSE_EMBED_IN} holds )mose_text\", the end of the raw string it is put in")
endif()
set(_header "// made by cmake/mose-embed-text.cmake from ${MOSE_EMBED_IN}\n")
string(APPEND _header "static const char* const ${MOSE_EMBED_NAME} = R\"mose_text(${_text})mose_text\";\n")
file(WRITE ${MOSE_EMBED_OUT}.new "${_header}")
# rewritten only when the text changed, so that its one includer compiles again only then
configure_file(${MOSE_EMBED_OUT}.new ${MOSE_EMBED_OUT} COPYONLY)
