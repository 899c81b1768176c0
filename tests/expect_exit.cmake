# cmake -DCMD=prog -DARGS=a|b -DEXPECT_RC=2 -DEXPECT_TEXT=... -P expect_exit.cmake
# Runs CMD with ARGS ('|'-separated) and checks its exit code and that stderr holds EXPECT_TEXT
# on one line.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${CMD} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECT_RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}\nstdout: ${out}\nstderr: ${err}")
endif()
string(FIND "${err}" "${EXPECT_TEXT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "stderr lacks '${EXPECT_TEXT}':\n${err}")
endif()
string(REGEX MATCHALL "\n" lines "${err}")
list(LENGTH lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one line on stderr, got ${count}:\n${err}")
endif()
