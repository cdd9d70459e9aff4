# Runs one fuzzer for SECONDS on a fresh copy of its committed seed corpus (CORPUS), with inputs
# up to MAX_LEN bytes, -len_control=LEN_CONTROL (0: every length up to MAX_LEN from the first
# run on; libFuzzer otherwise grows its length limit slowly from the largest seed) and, when DICT
# is set, that dictionary. What fails is written to WORK-finds/; the fuzzer's output to WORK.log.
# Appends one line to SUMMARY: the runs, the coverage (cov: edges, ft: features), the corpus and
# its largest input against MAX_LEN, which build.sh prints after the fuzz tests.
file(REMOVE_RECURSE ${WORK} ${WORK}-finds)
file(COPY ${CORPUS}/ DESTINATION ${WORK})
file(MAKE_DIRECTORY ${WORK}-finds)
set(dict "")
if(DEFINED DICT)
  set(dict -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -max_len=${MAX_LEN} -len_control=${LEN_CONTROL} -timeout=10
                        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=${WORK}-finds/ ${dict} ${WORK}
                RESULT_VARIABLE rc OUTPUT_FILE ${WORK}.log ERROR_FILE ${WORK}.log)
file(READ ${WORK}.log log)
if(NOT rc EQUAL 0)
  string(LENGTH "${log}" size)
  if(size GREATER 20000)
    math(EXPR from "${size} - 20000")
    string(SUBSTRING "${log}" ${from} 20000 log)
  endif()
  message("${log}")
  message(FATAL_ERROR "the fuzzer found a failing input (exit ${rc}); see the file it wrote in ${WORK}-finds/")
endif()

# The last status line: "#N DONE cov: C ft: F corp: U/Sb ..."
if(NOT log MATCHES "#([0-9]+)[ \t]+DONE[ \t]+cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)/([0-9]+[a-zA-Z]*)")
  message(FATAL_ERROR "the fuzzer's output has no final status line; see ${WORK}.log")
endif()
set(runs ${CMAKE_MATCH_1})
set(cov ${CMAKE_MATCH_2})
set(ft ${CMAKE_MATCH_3})
set(units ${CMAKE_MATCH_4})
set(bytes ${CMAKE_MATCH_5})
file(GLOB inputs ${WORK}/*)
set(largest 0)
foreach(input IN LISTS inputs)
  file(SIZE ${input} n)
  if(n GREATER largest)
    set(largest ${n})
  endif()
endforeach()
set(line "${NAME}: ${SECONDS} s, ${runs} runs, cov ${cov} edges, ft ${ft} features, corpus ${units} inputs (${bytes}), largest input ${largest} of ${MAX_LEN} bytes")
message("${line}")
file(APPEND ${SUMMARY} "${line}\n")
