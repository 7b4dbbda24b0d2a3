# Runs wgtrace-rewrite on one source for the build, as `cmake -P` script:
# the output appears complete or not at all, and a rewrite error fails the
# build with the rewriter's own diagnostics. A source that defines and
# launches no kernel comes back unchanged: the output then includes the
# original, so that it compiles exactly as written (its own directory for
# quoted includes, its own name in __FILE__ and the debug information).
#   -DREWRITER=<tool> -DDATABASE_DIR=<dir> -DSOURCE=<file> -DOUTPUT=<file>
#   -DDEPFILE=<file>  (the headers the source includes, for incremental
#                      builds: the rewrite re-runs when one of them changes)
#   [-DOPTIONS=<options>]  further wgtrace-rewrite options (a ;-list)
foreach(var REWRITER DATABASE_DIR SOURCE OUTPUT DEPFILE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "WgtraceRewriteOne.cmake: ${var} is not set")
  endif()
endforeach()

set(temporary "${OUTPUT}.tmp")
get_filename_component(output_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${output_dir}")
execute_process(
  COMMAND "${REWRITER}" -p "${DATABASE_DIR}" "${SOURCE}"
          "--dependency-file=${DEPFILE}" "--dependency-target=${OUTPUT}"
          ${OPTIONS}
  OUTPUT_FILE "${temporary}"
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE "${temporary}")
  message(FATAL_ERROR "wgtrace-rewrite failed on ${SOURCE} (${status}); "
    "wgtrace_instrument_target(... SOURCES <files>) limits the rewrite to "
    "the sources that need it")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E compare_files "${temporary}" "${SOURCE}"
  RESULT_VARIABLE different OUTPUT_QUIET ERROR_QUIET)
if(different EQUAL 0)
  string(REPLACE "\\" "\\\\" quoted "${SOURCE}")
  string(REPLACE "\"" "\\\"" quoted "${quoted}")
  file(WRITE "${temporary}"
"// wgtrace: ${SOURCE} defines and launches no kernel; compiled as written.
#include \"${quoted}\"
")
endif()
file(RENAME "${temporary}" "${OUTPUT}")
