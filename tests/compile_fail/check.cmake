# Runs one compile-fail case: the source must fail to compile, and the compiler's output must
# contain every `// expect: TEXT` line of the source (plain text, not a pattern) and, for
# `// member: NAME`, the member's name as the compilers print it in the failing instantiation
# (GCC: "Form::NAME)", Clang: ".NAME}"), and exactly one `error:` line: a rule that fails stops
# elicit there, so nothing after it adds errors of its own (docs/internals/design.md, "Diagnostics").
# `// flags: ...` adds compiler flags. The same source compiled with -DELICIT_CONTROL (the
# form written correctly) must compile: so the failure comes from the rule under test (for most
# cases that is checked once for all, by the build: -DCONTROL=batched).
#
# -DPCH=FILE (clang++): both runs on that precompiled header of the headers the cases include
# (tests/CMakeLists.txt), made with these flags.
#
# cmake -DCXX=... -DSOURCE=... -DINCLUDES="a;b" [-DPCH=...] -P check.cmake
set(flags -std=c++20 -fsyntax-only)
if(PCH)
  list(APPEND flags -include-pch ${PCH})
endif()
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags -I${dir})
endforeach()
# `// flags: ...` adds compiler flags to both runs, e.g. to make a warning an error.
file(STRINGS ${SOURCE} extra_flags REGEX "^// flags: ")
foreach(line IN LISTS extra_flags)
  string(REGEX REPLACE "^// flags: " "" line "${line}")
  separate_arguments(line)
  list(APPEND flags ${line})
endforeach()

# -DCONTROL=batched: the control compiled with the others, in the build (target
# compile_fail_controls, tests/CMakeLists.txt); otherwise here.
if(NOT CONTROL STREQUAL "batched")
  execute_process(COMMAND ${CXX} ${flags} -DELICIT_CONTROL ${SOURCE}
                  RESULT_VARIABLE control_rc OUTPUT_VARIABLE control_out ERROR_VARIABLE control_out)
  if(NOT control_rc EQUAL 0)
    message(FATAL_ERROR "the control (the form written correctly) does not compile:\n${control_out}")
  endif()
endif()

execute_process(COMMAND ${CXX} ${flags} ${SOURCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not")
endif()

string(REPLACE ";" "," lines "${out}")  # a ';' would split the list of matches
string(REGEX MATCHALL "(^|\n)[^\n]*error: [^\n]*" errors "${lines}")
list(LENGTH errors error_count)
if(NOT error_count EQUAL 1)
  message(FATAL_ERROR "${SOURCE} gives ${error_count} errors; a broken rule must give exactly one:\n${out}")
endif()

file(STRINGS ${SOURCE} expectations REGEX "^// (expect|member): ")
if(NOT expectations)
  message(FATAL_ERROR "${SOURCE} has no // expect: line")
endif()
foreach(line IN LISTS expectations)
  if(line MATCHES "^// expect: (.*)$")
    string(FIND "${out}" "${CMAKE_MATCH_1}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "expected \"${CMAKE_MATCH_1}\" in the diagnostic of ${SOURCE}:\n${out}")
    endif()
  elseif(line MATCHES "^// member: (.*)$")
    if(NOT out MATCHES "(::|\\.)${CMAKE_MATCH_1}[)}]")
      message(FATAL_ERROR "the diagnostic of ${SOURCE} does not name member ${CMAKE_MATCH_1}:\n${out}")
    endif()
  endif()
endforeach()
message(STATUS "${SOURCE}: rejected as expected")
