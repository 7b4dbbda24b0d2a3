# Runs wgtrace-rewrite on one source for the build, as `cmake -P` script:
# the output appears complete or not at all, and a rewrite error fails the
# build with the rewriter's own diagnostics.
#   -DREWRITER=<tool> -DDATABASE_DIR=<dir> -DSOURCE=<file> -DOUTPUT=<file>
#   -DDEPFILE=<file>  (the headers the source includes, for incremental
#                      builds: the rewrite re-runs when one of them changes)
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
  OUTPUT_FILE "${temporary}"
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE "${temporary}")
  message(FATAL_ERROR "wgtrace-rewrite failed on ${SOURCE} (${status})")
endif()
file(RENAME "${temporary}" "${OUTPUT}")
