# wgtrace_instrument_target(<target> [MEMORY_ACCESSES ON|OFF]
#                           [ACCESS_SITES ON|OFF] [STRICT ON|OFF]
#                           [BUFFER_SIZE <size>] [TIMING ON|OFF]
#                           [FILTER <filter>] [SELECTABLE ON|OFF]
#                           [COMPRESS zstd|zstd:<level>|none]
#                           [OPENMP ON|OFF] [RESERVE_RECORDS ON|OFF]
#                           [TEMPORAL_RECORDS ON|OFF]
#                           [SOURCES <file>...])
#
# Runs wgtrace-rewrite at build time over the target's C++ sources, into
# the build tree, compiles the rewritten files in their place and links the
# wgtrace runtime. Which sources define kernels (WGTRACE_DISPATCH) or launch
# them (wgtrace::dispatch) is decided by the rewriter when it runs, not at
# configure time: a kernel added to any source is instrumented by the next
# build. Every source is rewritten with --whole-target: the functions the
# others' kernels may call run instrumented when they do (docs/REWRITER.md,
# "Calls into other files"). A source that defines and launches no kernel
# and defines no such function is compiled as written (through a one-line
# file that includes it). The rewriter reads a
# compilation database generated for the target from
# compile_commands.json.in, so it parses each source with the target's own
# include directories, definitions and options.
#
# MEMORY_ACCESSES OFF compiles the access macros to the bare accesses: the
# program records only workgroups (and values and prints) at no cost per
# access, whatever WGTRACE_MEMORY says;
# ACCESS_SITES OFF leaves the access sites out of the records (bare
# addresses, no access site table: a file IREE's own tools read exactly);
# STRICT ON makes every access or kernel the rewriter cannot instrument a
# build error instead of a warning;
# BUFFER_SIZE sets the default ring size (a power of two: 64k, 16m, 2GiB)
# and TIMING ON adds the timing chunk; FILTER selects the workgroups that
# record their accesses, as WGTRACE_FILTER does (docs/RUNTIME.md); the
# WGTRACE_* environment variables still override these defaults when the
# program runs. COMPRESS zstd writes the ring chunks compressed, as
# WGTRACE_COMPRESS=zstd does (a file only wgtrace-view reads; docs/FORMAT.md).
# SELECTABLE ON (implied by FILTER) gives each kernel an
# uninstrumented copy of its body for the workgroups a filter leaves out,
# which then run at the speed of a plain build (wgtrace-rewrite
# --selectable). OPENMP ON traces the OpenMP worksharing loops of the
# sources (`omp for`, `omp parallel for`) as dispatches: each execution a
# launch, each iteration a workgroup (wgtrace-rewrite --openmp; the target
# links OpenMP itself, e.g. OpenMP::OpenMP_CXX). The record path
# is by default the one closest to the simplest tracer (docs/RUNTIME.md,
# "Against the ideal tracer"): room for a statement's records made with one
# check before it (wgtrace-rewrite --reserve-records) and records stored
# with ordinary stores (WGTRACE_TEMPORAL_RECORDS=1). RESERVE_RECORDS OFF
# checks the ring's end before each record instead ("Reserved
# statements"); TEMPORAL_RECORDS OFF stores the records non-temporally
# (WGTRACE_TEMPORAL_RECORDS=0), also in a file that makes atomic
# operations: faster for a kernel that streams through memory larger than
# the caches, slower for one that works in them ("The store kind"). SOURCES
# limits the rewrite to the given sources (default: every C++ source of the
# target), absolute or relative to the target's source directory. The target may
# be one of another directory: a project added with add_subdirectory is
# instrumented from the directory that adds it, its own files unedited.
# Instrumented code is C++17: a target whose CXX_STANDARD is older builds
# as C++17 (one status line says so).

# The functions below keep the policies set here, whatever version the
# calling project asks for: with CMP0116 OLD (a project requiring less than
# CMake 3.20, such as CloverLeaf's 3.14) Ninja reads the rewriter's
# dependency files without making their absolute target paths relative,
# finds every rewritten source dirty, and each build rewrote and
# recompiled them all.
cmake_policy(PUSH)
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()
# IN_LIST (below).
cmake_policy(SET CMP0057 NEW)

set(_WGTRACE_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
get_filename_component(_WGTRACE_TEMPLATE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT EXISTS "${_WGTRACE_TEMPLATE_DIR}/compile_commands.json.in")
  # Installed layout: the template sits beside this file.
  set(_WGTRACE_TEMPLATE_DIR "${CMAKE_CURRENT_LIST_DIR}")
endif()

# JSON array items ("a", "b", ) for the flags in the string \p flags.
function(_wgtrace_json_items flags out)
  separate_arguments(list UNIX_COMMAND "${flags}")
  set(items "")
  foreach(flag IN LISTS list)
    string(REPLACE "\\" "\\\\" flag "${flag}")
    string(REPLACE "\"" "\\\"" flag "${flag}")
    string(APPEND items "\"${flag}\", ")
  endforeach()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# The flags every C++ compile of the build gets: CMAKE_CXX_FLAGS and those
# of the configuration being built.
function(_wgtrace_global_flag_items out)
  _wgtrace_json_items("${CMAKE_CXX_FLAGS}" items)
  foreach(config Debug Release RelWithDebInfo MinSizeRel)
    string(TOUPPER "${config}" upper)
    _wgtrace_json_items("${CMAKE_CXX_FLAGS_${upper}}" config_items)
    if(config_items)
      string(APPEND items "$<$<CONFIG:${config}>:${config_items}>")
    endif()
  endforeach()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# Writes a source holding the target's build-time settings, if it has any;
# validates them at configure time.
function(_wgtrace_settings_source target out)
  set(out_file "")
  if(DEFINED ARG_BUFFER_SIZE OR DEFINED ARG_TIMING OR DEFINED ARG_FILTER OR DEFINED ARG_COMPRESS)
    set(timing 0)
    if(ARG_TIMING)
      set(timing 1)
    endif()
    set(size "nullptr")
    if(DEFINED ARG_BUFFER_SIZE)
      string(TOLOWER "${ARG_BUFFER_SIZE}" lower)
      # The rules of runtime/include/wgtrace/settings_syntax.h.
      if(NOT lower MATCHES "^([0-9]+)(k|kib|m|mib|g|gib)?$")
        message(FATAL_ERROR "wgtrace_instrument_target(${target}): BUFFER_SIZE '${ARG_BUFFER_SIZE}' is not a size; expected a power of two, as bytes or with a k/kib, m/mib or g/gib suffix in any case (e.g. 64k, 16m, 16MiB)")
      endif()
      set(number "${CMAKE_MATCH_1}")
      math(EXPR low_bits "${number} & (${number} - 1)")
      if(number EQUAL 0 OR NOT low_bits EQUAL 0)
        message(FATAL_ERROR "wgtrace_instrument_target(${target}): BUFFER_SIZE '${ARG_BUFFER_SIZE}' is not a power of two")
      endif()
      set(size "\"${lower}\"")
    endif()
    set(filter "nullptr")
    if(DEFINED ARG_FILTER)
      # A C++ string literal; the runtime checks the filter at start-up.
      string(REPLACE "\\" "\\\\" escaped "${ARG_FILTER}")
      string(REPLACE "\"" "\\\"" escaped "${escaped}")
      set(filter "\"${escaped}\"")
    endif()
    set(compress "nullptr")
    if(DEFINED ARG_COMPRESS)
      string(TOLOWER "${ARG_COMPRESS}" lower)
      # The rules of settings::parseCompression.
      set(level_ok TRUE)
      if(lower MATCHES "^zstd:([0-9]+)$")
        if(CMAKE_MATCH_1 LESS 1 OR CMAKE_MATCH_1 GREATER 19)
          set(level_ok FALSE)
        endif()
      endif()
      if(NOT level_ok OR NOT lower MATCHES "^(zstd|zstd:[0-9]+|none|off|0|false|no)$")
        message(FATAL_ERROR "wgtrace_instrument_target(${target}): COMPRESS '${ARG_COMPRESS}' is not a compression; expected zstd, zstd:LEVEL (LEVEL from 1 to 19) or none (also off, 0, false, no)")
      endif()
      if(lower MATCHES "^zstd" AND DEFINED WGTRACE_HAVE_ZSTD AND NOT WGTRACE_HAVE_ZSTD)
        message(FATAL_ERROR "wgtrace_instrument_target(${target}): COMPRESS '${ARG_COMPRESS}' but this wgtrace was built without libzstd")
      endif()
      set(compress "\"${lower}\"")
    endif()
    set(out_file "${CMAKE_CURRENT_BINARY_DIR}/wgtrace/${target}/wgtrace_settings.cc")
    file(CONFIGURE OUTPUT "${out_file}" CONTENT
"// Generated by wgtrace_instrument_target(${target}): build-time settings.
#include <wgtrace/instrument.h>
static ::wgtrace::detail::BuildSettings wgtrace_build_settings_(@size@, @timing@, @filter@, @compress@);
" @ONLY)
  endif()
  set(${out} "${out_file}" PARENT_SCOPE)
endfunction()

function(wgtrace_instrument_target target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
    "MEMORY_ACCESSES;ACCESS_SITES;STRICT;BUFFER_SIZE;TIMING;FILTER;COMPRESS;SELECTABLE;OPENMP;RESERVE_RECORDS;TEMPORAL_RECORDS"
    "SOURCES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "wgtrace_instrument_target(${target}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  _wgtrace_settings_source(${target} settings_source)
  # Lambda kernels are named after their file relative to the project.
  # Every source of the target is rewritten: each instruments and
  # registers the functions the others' kernels may call.
  set(rewrite_options "--project-root=${PROJECT_SOURCE_DIR}" "--whole-target")
  if(ARG_SELECTABLE OR (DEFINED ARG_FILTER AND NOT DEFINED ARG_SELECTABLE))
    list(APPEND rewrite_options "--selectable")
  endif()
  if(ARG_STRICT)
    list(APPEND rewrite_options "--strict")
  endif()
  if(ARG_OPENMP)
    list(APPEND rewrite_options "--openmp")
  endif()
  if(NOT DEFINED ARG_RESERVE_RECORDS OR ARG_RESERVE_RECORDS)
    list(APPEND rewrite_options "--reserve-records")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "wgtrace_instrument_target: no target named '${target}'")
  endif()
  if(TARGET wgtrace-rewrite)
    set(rewriter "$<TARGET_FILE:wgtrace-rewrite>")
    set(rewriter_dependency wgtrace-rewrite)
  elseif(TARGET wgtrace::rewrite)
    set(rewriter "$<TARGET_FILE:wgtrace::rewrite>")
    set(rewriter_dependency wgtrace::rewrite)
  else()
    message(FATAL_ERROR "wgtrace_instrument_target: wgtrace-rewrite is not available")
  endif()

  # What the rewriter writes is C++17 (docs/REWRITER.md, "Compile flags"),
  # which C++14 code nearly always builds as unchanged: a target that asks
  # for an older standard builds as C++17 when instrumented, and one line
  # says so.
  get_target_property(cxx_standard ${target} CXX_STANDARD)
  if(cxx_standard MATCHES "^(98|11|14)$")
    set_property(TARGET ${target} PROPERTY CXX_STANDARD 17)
    message(STATUS "wgtrace_instrument_target(${target}): compiled as C++17 "
      "(its CXX_STANDARD is ${cxx_standard}): instrumented code needs C++17")
  endif()

  get_target_property(source_dir ${target} SOURCE_DIR)
  if(ARG_SOURCES)
    set(candidates ${ARG_SOURCES})
  else()
    get_target_property(candidates ${target} SOURCES)
  endif()

  set(work_dir "${CMAKE_CURRENT_BINARY_DIR}/wgtrace/${target}")
  # One database per language: a flag a linked target gives through
  # $<COMPILE_LANGUAGE:CXX> (OpenMP::OpenMP_CXX's -fopenmp) makes the
  # content differ by language; the rewriter reads the C++ one.
  set(database_dir "${work_dir}/database/CXX")

  # The target's own compile flags, resolved at generate time; the TARGET_
  # PROPERTY expressions include what linked targets pass on.
  set(tp "$<TARGET_PROPERTY:${target},")
  # The compiler's own search directories stay out, as CMake keeps them out
  # of compile lines: -I/usr/include would reorder the C++ library's
  # #include_next chains.
  set(implicit_regex "^$")
  foreach(dir IN LISTS CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    string(REGEX REPLACE "([][+.*()^$])" "\\\\\\1" dir "${dir}")
    string(APPEND implicit_regex "|^${dir}$")
  endforeach()
  set(includes "$<FILTER:${tp}INCLUDE_DIRECTORIES>,EXCLUDE,${implicit_regex}>")
  set(include_args "$<$<BOOL:${includes}>:\"-I$<JOIN:${includes},\"$<COMMA> \"-I>\"$<COMMA> >")
  set(define_args "$<$<BOOL:${tp}COMPILE_DEFINITIONS>>:\"-D$<JOIN:${tp}COMPILE_DEFINITIONS>,\"$<COMMA> \"-D>\"$<COMMA> >")
  set(option_args "$<$<BOOL:${tp}COMPILE_OPTIONS>>:\"$<JOIN:${tp}COMPILE_OPTIONS>,\"$<COMMA> \">\"$<COMMA> >")
  # CMake's dialect: GNU unless CXX_EXTENSIONS is off (what the build
  # compiles with; `typeof` parses only in it).
  set(dialect "$<IF:$<OR:$<STREQUAL:${tp}CXX_EXTENSIONS>,>,$<BOOL:${tp}CXX_EXTENSIONS>>>,gnu++,c++>")
  set(std_arg "$<$<BOOL:${tp}CXX_STANDARD>>:\"-std=${dialect}${tp}CXX_STANDARD>\"$<COMMA> >")
  _wgtrace_global_flag_items(global_args)

  set(entries "")
  set(rewritten "")
  set(originals "")
  foreach(source IN LISTS candidates)
    get_filename_component(absolute "${source}" ABSOLUTE BASE_DIR "${source_dir}")
    # Whether it defines or launches a kernel is the rewriter's decision, at
    # build time (a kernel added later needs no new configure).
    if(NOT absolute MATCHES "\\.(cc|cpp|cxx|C|c\\+\\+)$")
      continue()
    endif()
    file(RELATIVE_PATH relative "${source_dir}" "${absolute}")
    string(REPLACE "../" "__/" relative "${relative}")
    set(output "${work_dir}/src/${relative}")
    get_filename_component(original_dir "${absolute}" DIRECTORY)

    if(entries)
      string(APPEND entries ",\n")
    endif()
    string(APPEND entries "  {\"directory\": \"${CMAKE_CURRENT_BINARY_DIR}\", \"file\": \"${absolute}\", \"arguments\": [\"${CMAKE_CXX_COMPILER}\", ${global_args}${std_arg}${include_args}${define_args}${option_args}\"-c\", \"${absolute}\"]}")

    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${CMAKE_COMMAND}"
        "-DREWRITER=${rewriter}"
        "-DDATABASE_DIR=${database_dir}"
        "-DSOURCE=${absolute}"
        "-DOUTPUT=${output}"
        "-DDEPFILE=${output}.d"
        "-DOPTIONS=${rewrite_options}"
        -P "${_WGTRACE_CMAKE_DIR}/WgtraceRewriteOne.cmake"
      DEPENDS "${absolute}" ${rewriter_dependency}
              "${database_dir}/compile_commands.json"
              "${_WGTRACE_CMAKE_DIR}/WgtraceRewriteOne.cmake"
      DEPFILE "${output}.d"
      COMMENT "wgtrace: instrumenting ${relative}"
      VERBATIM)
    # Quoted includes of the original keep resolving next to it. The
    # properties are the target's directory's, where the file is compiled
    # (a target of a subdirectory: add_subdirectory of another project).
    set_source_files_properties("${output}" TARGET_DIRECTORY ${target}
      PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-iquote;${original_dir}")
    set(definitions "")
    if(DEFINED ARG_MEMORY_ACCESSES AND NOT ARG_MEMORY_ACCESSES)
      # Access helpers compile to the bare access: workgroup records only.
      list(APPEND definitions "WGTRACE_MEMORY_ACCESSES=0")
    endif()
    if(DEFINED ARG_ACCESS_SITES AND NOT ARG_ACCESS_SITES)
      # Bare addresses and no access site table, as IREE's files have.
      list(APPEND definitions "WGTRACE_ACCESS_SITES=0")
    endif()
    # The records' store kind: ordinary stores unless asked otherwise.
    if(NOT DEFINED ARG_TEMPORAL_RECORDS OR ARG_TEMPORAL_RECORDS)
      list(APPEND definitions "WGTRACE_TEMPORAL_RECORDS=1")
    else()
      list(APPEND definitions "WGTRACE_TEMPORAL_RECORDS=0")
    endif()
    if(definitions)
      set_source_files_properties("${output}" TARGET_DIRECTORY ${target}
        PROPERTIES COMPILE_DEFINITIONS "${definitions}")
    endif()
    list(APPEND rewritten "${output}")
    list(APPEND originals "${absolute}")
  endforeach()

  if(NOT rewritten)
    message(WARNING "wgtrace_instrument_target(${target}): the target has no C++ source to instrument")
  endif()

  set(WGTRACE_COMPDB_ENTRIES "${entries}")
  configure_file("${_WGTRACE_TEMPLATE_DIR}/compile_commands.json.in"
                 "${work_dir}/compile_commands.json.genex" @ONLY)
  file(GENERATE OUTPUT "${work_dir}/database/$<COMPILE_LANGUAGE>/compile_commands.json"
                INPUT "${work_dir}/compile_commands.json.genex"
                TARGET ${target})

  # The originals leave the target whichever way each is spelled, in the
  # target's list or in SOURCES (relative to the target's directory, or
  # absolute): one left in would be compiled beside its rewritten copy.
  get_target_property(all_sources ${target} SOURCES)
  set(kept_sources "")
  foreach(source IN LISTS all_sources)
    if(NOT source MATCHES "^\\$<")
      get_filename_component(absolute "${source}" ABSOLUTE BASE_DIR "${source_dir}")
      if(absolute IN_LIST originals)
        continue()
      endif()
    endif()
    list(APPEND kept_sources "${source}")
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES
    ${kept_sources} ${rewritten} ${settings_source})
  # A custom command's rule goes to the targets of its own directory: a
  # target of another directory gets the rewritten files from a target of
  # this one, built before it.
  get_target_property(target_binary_dir ${target} BINARY_DIR)
  if(rewritten AND NOT target_binary_dir STREQUAL CMAKE_CURRENT_BINARY_DIR)
    add_custom_target(${target}_wgtrace_rewrite DEPENDS ${rewritten})
    add_dependencies(${target} ${target}_wgtrace_rewrite)
  endif()
  # The runtime is linked through the target's properties, not with
  # target_link_libraries: CMake refuses a target whose calls mix its plain
  # and keyword signatures, and the project's own calls have chosen one
  # (HPCG links OpenMP with the plain one). This is what the keyword
  # signature's PRIVATE does: a static or object library passes the
  # runtime on to what links it, for the link only.
  set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES wgtrace::runtime)
  get_target_property(target_type ${target} TYPE)
  if(target_type STREQUAL "STATIC_LIBRARY" OR target_type STREQUAL "OBJECT_LIBRARY")
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES
      "$<LINK_ONLY:wgtrace::runtime>")
  endif()
endfunction()

cmake_policy(POP)
