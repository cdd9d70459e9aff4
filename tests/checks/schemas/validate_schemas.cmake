# Runs an emitter (emit_schemas, emit_messages), then its validator script on what it wrote.
execute_process(COMMAND ${EMIT} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EMIT} failed: ${rc}")
endif()
execute_process(COMMAND ${PYTHON} ${SCRIPT} ${SPEC} ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "validation against the spec failed")
endif()
