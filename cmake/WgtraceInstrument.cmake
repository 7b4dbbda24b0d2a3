# wgtrace_instrument_target(<target> [SOURCES <file>...])
#
# Rewrites the target's sources that define kernels (WGTRACE_DISPATCH) or
# launch them (wgtrace::dispatch) with wgtrace-rewrite at build time, into
# the build tree, compiles the rewritten files in their place and links the
# wgtrace runtime. The rewriter reads a compilation database generated for
# the target from compile_commands.json.in, so it parses each source with
# the target's own include directories, definitions and options.

set(_WGTRACE_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
get_filename_component(_WGTRACE_TEMPLATE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT EXISTS "${_WGTRACE_TEMPLATE_DIR}/compile_commands.json.in")
  # Installed layout: the template sits beside this file.
  set(_WGTRACE_TEMPLATE_DIR "${CMAKE_CURRENT_LIST_DIR}")
endif()

# Does the file define or launch a kernel?
function(_wgtrace_needs_rewrite file out)
  file(STRINGS "${file}" hits REGEX "WGTRACE_DISPATCH|wgtrace::dispatch" LIMIT_COUNT 1)
  if(hits)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

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

function(wgtrace_instrument_target target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES")
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

  get_target_property(source_dir ${target} SOURCE_DIR)
  if(ARG_SOURCES)
    set(candidates ${ARG_SOURCES})
  else()
    get_target_property(candidates ${target} SOURCES)
  endif()

  set(work_dir "${CMAKE_CURRENT_BINARY_DIR}/wgtrace/${target}")
  set(database_dir "${work_dir}/database")

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
  set(std_arg "$<$<BOOL:${tp}CXX_STANDARD>>:\"-std=c++${tp}CXX_STANDARD>\"$<COMMA> >")
  _wgtrace_global_flag_items(global_args)

  set(entries "")
  set(rewritten "")
  set(originals "")
  foreach(source IN LISTS candidates)
    get_filename_component(absolute "${source}" ABSOLUTE BASE_DIR "${source_dir}")
    if(NOT absolute MATCHES "\\.(cc|cpp|cxx|C|c\\+\\+)$")
      continue()
    endif()
    _wgtrace_needs_rewrite("${absolute}" needed)
    if(NOT needed)
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
        -P "${_WGTRACE_CMAKE_DIR}/WgtraceRewriteOne.cmake"
      DEPENDS "${absolute}" ${rewriter_dependency}
              "${database_dir}/compile_commands.json"
              "${_WGTRACE_CMAKE_DIR}/WgtraceRewriteOne.cmake"
      COMMENT "wgtrace: instrumenting ${relative}"
      VERBATIM)
    # Quoted includes of the original keep resolving next to it.
    set_source_files_properties("${output}" PROPERTIES
      COMPILE_OPTIONS "-iquote;${original_dir}")
    list(APPEND rewritten "${output}")
    list(APPEND originals "${source}")
  endforeach()

  if(NOT rewritten)
    message(WARNING "wgtrace_instrument_target(${target}): no source defines or launches a kernel")
  endif()

  set(WGTRACE_COMPDB_ENTRIES "${entries}")
  configure_file("${_WGTRACE_TEMPLATE_DIR}/compile_commands.json.in"
                 "${work_dir}/compile_commands.json.genex" @ONLY)
  file(GENERATE OUTPUT "${database_dir}/compile_commands.json"
                INPUT "${work_dir}/compile_commands.json.genex"
                TARGET ${target})

  get_target_property(all_sources ${target} SOURCES)
  foreach(original IN LISTS originals)
    list(REMOVE_ITEM all_sources "${original}")
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${all_sources} ${rewritten})
  target_link_libraries(${target} PRIVATE wgtrace::runtime)
endfunction()
