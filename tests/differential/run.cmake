# Runs the differential test: installs the pinned Ajv into NODE_DIR when it is not there (or
# was installed from another package-lock.json), then runs compare.mjs, whose exit status is
# the test's.
foreach(var NODE NPM DRIVER SOURCE_DIR NODE_DIR)
  if("${${var}}" STREQUAL "" OR "${${var}}" MATCHES "-NOTFOUND$")
    message(FATAL_ERROR "differential: ${var} is not set or not found (node and npm must be on PATH)")
  endif()
endforeach()

set(stamp ${NODE_DIR}/installed-from-package-lock.json)
set(installed FALSE)
if(EXISTS ${NODE_DIR}/node_modules/ajv/package.json AND EXISTS ${NODE_DIR}/node_modules/ajv-formats/package.json
   AND EXISTS ${stamp})
  file(SHA256 ${stamp} was)
  file(SHA256 ${SOURCE_DIR}/package-lock.json wanted)
  if(was STREQUAL wanted)
    set(installed TRUE)
  endif()
endif()
if(NOT installed)
  file(MAKE_DIRECTORY ${NODE_DIR})
  file(COPY ${SOURCE_DIR}/package.json ${SOURCE_DIR}/package-lock.json DESTINATION ${NODE_DIR})
  message(STATUS "differential: npm install in ${NODE_DIR}")
  execute_process(COMMAND ${NPM} install --no-audit --no-fund --prefix ${NODE_DIR}
                  WORKING_DIRECTORY ${NODE_DIR} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "differential: npm install failed (${rc})")
  endif()
  configure_file(${SOURCE_DIR}/package-lock.json ${stamp} COPYONLY)
endif()

# At least 5000 cases; every format difference on the committed allow-list, and every entry of
# it needed (a stale entry is a hole: the value it names would pass whichever side is wrong).
execute_process(COMMAND ${NODE} ${SOURCE_DIR}/compare.mjs --driver ${DRIVER} --modules ${NODE_DIR}
                        --out ${NODE_DIR}/run --allowlist ${SOURCE_DIR}/format_allowlist.json --min-cases 5000
                        --require-allowlist-used
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "differential: elicit and Ajv disagree (see above), or the run failed (${rc})")
endif()
