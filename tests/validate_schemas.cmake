# Runs emit_schemas, then validate_schemas.py on what it wrote.
execute_process(COMMAND ${EMIT} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "emit_schemas failed: ${rc}")
endif()
execute_process(COMMAND ${PYTHON} ${SCRIPT} ${SPEC} ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "schema validation failed")
endif()
