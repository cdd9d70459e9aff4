# Runs one fuzzer for SECONDS on a fresh copy of its committed seed corpus (CORPUS), with inputs
# up to MAX_LEN bytes and, when DICT is set, that dictionary. What fails is written to WORK-finds/.
file(REMOVE_RECURSE ${WORK} ${WORK}-finds)
file(COPY ${CORPUS}/ DESTINATION ${WORK})
file(MAKE_DIRECTORY ${WORK}-finds)
set(dict "")
if(DEFINED DICT)
  set(dict -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -max_len=${MAX_LEN} -timeout=10 -rss_limit_mb=2048
                        -print_final_stats=1 -artifact_prefix=${WORK}-finds/ ${dict} ${WORK}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a failing input (exit ${rc}); see the file it wrote in ${WORK}-finds/")
endif()
