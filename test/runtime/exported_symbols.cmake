# Fails unless every symbol libwgtrace.so defines for the dynamic linker is
# one of wgtrace's own (runtime/exports.map): a C++ library or FlatBuffers
# instantiation exported from the runtime is interposed by a program's copy
# of it, which runs the program's code (perhaps built with sanitizer
# coverage or another standard library mode) inside the runtime.
#
#   cmake -DNM=<llvm-nm> -DLIBRARY=<libwgtrace.so> -P exported_symbols.cmake
execute_process(
  COMMAND ${NM} --dynamic --defined-only --demangle --format=just-symbols
          ${LIBRARY}
  OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
set(foreign "")
set(own 0)
foreach(symbol IN LISTS symbols)
  if(symbol STREQUAL "")
    continue()
  endif()
  if(symbol MATCHES "^(wgtrace::|(typeinfo|typeinfo name|vtable|guard variable|TLS init function|TLS wrapper function) for wgtrace::)")
    math(EXPR own "${own} + 1")
  else()
    string(APPEND foreign "  ${symbol}\n")
  endif()
endforeach()
if(NOT foreign STREQUAL "")
  message(FATAL_ERROR "${LIBRARY} exports names that are not wgtrace's:\n${foreign}")
endif()
if(own EQUAL 0)
  message(FATAL_ERROR "${LIBRARY} exports nothing of wgtrace's")
endif()
message(STATUS "${own} symbols exported, all wgtrace's")
