# Checks scripts/shader_array_netlist.py: its 16-array netlist is r9_nano cycle
# for cycle, and its 1-array netlist (4 CUs) runs a workload to PASS.
# cmake -DTESSERA=<tessera> -DSOURCE=<source tree> -DWORK=<scratch dir> -P shader_array_check.cmake
find_program(PYTHON3 python3 REQUIRED)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(cycles_of netlist out)
  execute_process(COMMAND ${TESSERA} workload vector_add --size 4096 --netlist ${netlist}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE text)
  if(NOT rc EQUAL 0 OR NOT text MATCHES ": PASS" OR NOT text MATCHES "cycles +([0-9]+) simulated")
    message(FATAL_ERROR "vector_add on ${netlist} did not pass (exit ${rc}):\n${text}")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

foreach(arrays 1 16)
  execute_process(COMMAND ${PYTHON3} ${SOURCE}/scripts/shader_array_netlist.py ${arrays} ${WORK}/sa${arrays}.json
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "shader_array_netlist.py ${arrays} failed: ${err}")
  endif()
endforeach()
# It never replaces a file.
execute_process(COMMAND ${PYTHON3} ${SOURCE}/scripts/shader_array_netlist.py 1 ${WORK}/sa1.json
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(rc EQUAL 0)
  message(FATAL_ERROR "shader_array_netlist.py replaced an existing file")
endif()

cycles_of(${WORK}/sa1.json one)
cycles_of(${WORK}/sa16.json sixteen)
cycles_of(${SOURCE}/json/platforms/r9_nano.json r9)
if(NOT sixteen EQUAL r9)
  message(FATAL_ERROR "16 shader arrays took ${sixteen} cycles, r9_nano ${r9}: the netlists differ")
endif()
if(NOT one GREATER sixteen)
  message(FATAL_ERROR "4 CUs took ${one} cycles, not more than 64 CUs' ${sixteen}")
endif()
message(STATUS "4 CUs: ${one} cycles; 64 CUs: ${sixteen} cycles, as r9_nano")
