# Hostile input and runaway work, through the `tessera` program: each case is a
# reproducer of something that once crashed, never ended, filled memory or
# passed without a word (docs/RELIABILITY.md). Included by scenarios.cmake,
# whose tessera_scenario() and variables it uses.
set(cp_hello ${CMAKE_SOURCE_DIR}/json/platforms/cp_hello.json)
set(demo ${CMAKE_SOURCE_DIR}/json/platforms/traffic_demo.json)

# Inputs without end or too big.
tessera_scenario("hostile: validate /dev/zero is refused" ARGS "validate|/dev/zero" EXIT 3
                 DEFINES "-DSTDERR_HAS=netlist file /dev/zero is not a regular file")
tessera_scenario("hostile: disasm /dev/zero is refused" ARGS "disasm|/dev/zero" EXIT 3
                 DEFINES "-DSTDERR_HAS=code object file /dev/zero is not a regular file")
tessera_scenario("hostile: a netlist file over netlist_bytes names the limit" ARGS "validate|${demo}|--limit|netlist_bytes=100"
                 EXIT 3 DEFINES "-DSTDERR_HAS=is larger than 100 bytes (limit netlist_bytes = 100|raise it with --limit netlist_bytes=N)")
tessera_scenario("hostile: a code object over code_object_bytes names the limit"
                 ARGS "disasm|${vadd}|--limit=code_object_bytes=1 KiB" EXIT 3
                 DEFINES "-DSTDERR_HAS=is larger than 1024 bytes (limit code_object_bytes = 1024")
tessera_scenario("hostile: launch of a directory is an input error" ARGS "launch|/|--kernel|k" EXIT 3
                 DEFINES "-DSTDERR_HAS=code object file / is a directory")
tessera_scenario("hostile: launch local:4294967296 is refused, not truncated"
                 ARGS "launch|${vadd}|--kernel|vector_add|--arg|local:4294967296" EXIT 2
                 DEFINES "-DSTDERR_HAS=BYTES must be at most 65536")
tessera_scenario("hostile: an unknown limit is a usage error" ARGS "validate|${demo}|--limit|instancs=5" EXIT 2
                 DEFINES "-DSTDERR_HAS=--limit expects NAME=VALUE with NAME one of instances,")
tessera_scenario("hostile: a limit lowered below a netlist names it" ARGS "validate|${demo}|--limit|instances=3" EXIT 3
                 DEFINES "-DSTDERR_HAS=expands to more than 3 instances|--limit instances=N")
tessera_scenario("hostile: tessera limits lists the limits and their values" ARGS "limits|--limit|instances=123" EXIT 0
                 DEFINES "-DSTDOUT_HAS=  instances                             123  block|wave_instructions|firmware_polls|repeated_warnings|device_memory_bytes|platform_bytes")

# Allocations past the host's memory: refused before anything is allocated.
# The limits are given, so that what is refused does not depend on the machine
# (its defaults are fractions of the host's physical memory).
tessera_scenario("hostile: launch of an 8 GiB buffer over device_memory_bytes is refused before allocating"
                 ARGS "launch|${vadd}|--kernel|vector_add|--arg|buf:f64:1073741824:zero|--limit|device_memory_bytes=1 GiB"
                 EXIT 3 DEFINES "-DSTDERR_HAS=a device allocation of 8589934592 bytes, with 0 bytes already allocated|limit device_memory_bytes = 1073741824|raise it with --limit device_memory_bytes=N")
tessera_scenario("hostile: launch buffers are counted together against device_memory_bytes"
                 ARGS "launch|${vadd}|--kernel|vector_add|--grid|64|--arg|buf:f32:300000:iota|--arg|buf:f32:300000:1|--arg|buf:f32:64:zero|--arg|u32:64|--limit|device_memory_bytes=2 MiB"
                 EXIT 3 DEFINES "-DSTDERR_HAS=a device allocation of 1200000 bytes, with 1200000 bytes already allocated|--limit device_memory_bytes=N")
tessera_scenario("hostile: a workload's buffers over device_memory_bytes are refused"
                 ARGS "workload|vector_add|--limit|device_memory_bytes=8 MiB" EXIT 3
                 DEFINES "-DSTDERR_HAS=a device allocation of 4194304 bytes, with 8388608 bytes already allocated|--limit device_memory_bytes=N"
                         "-DSTDOUT_LACKS=PASS")
tessera_scenario("hostile: a workload's buffers over device_memory_bytes are refused in timing mode"
                 ARGS "workload|vector_add|--netlist|${small_gpu}|--limit|device_memory_bytes=8 MiB" EXIT 3
                 DEFINES "-DSTDERR_HAS=a device allocation of 4194304 bytes|--limit device_memory_bytes=N" "-DSTDOUT_LACKS=PASS")

# A netlist whose blocks would fill the host: 96 030 compute units, within the
# instance limit, about 6 GiB once elaborated (tests/netlists/many_compute_units.py
# writes it). Refused at validation under a limit below that, valid above it
# (validation only: nothing is elaborated).
set(many_cus ${TESSERA_SCENARIO_DIR}/compute_units_96030.json)
add_test(NAME "scenario: hostile: write a netlist of 96030 compute units"
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/netlists/many_compute_units.py ${many_cus})
set_tests_properties("scenario: hostile: write a netlist of 96030 compute units" PROPERTIES FIXTURES_SETUP many_cus)
tessera_scenario("hostile: 96030 compute units over platform_bytes are refused at validation"
                 ARGS "validate|${many_cus}|--limit|platform_bytes=4 GiB" EXIT 3
                 DEFINES "-DSTDERR_HAS=error: the netlist's blocks would take about 6.1 GiB of host memory once elaborated (the largest share: 96030 compute_unit blocks, 5.86 GiB)|(limit platform_bytes = 4294967296|raise it with --limit platform_bytes=N")
tessera_scenario("hostile: caches count by their size against platform_bytes"
                 ARGS "validate|${small_gpu}|--set|l2[*].size=1 GiB|--limit|platform_bytes=4 GiB" EXIT 3
                 DEFINES "-DSTDERR_HAS=(the largest share: 2 l2_cache blocks, 5 GiB)|--limit platform_bytes=N")
tessera_scenario("hostile: 96030 compute units validate under a platform_bytes above their estimate"
                 ARGS "validate|${many_cus}|--limit|platform_bytes=8 GiB" EXIT 0
                 DEFINES "-DSTDOUT_HAS=: ok: 99005 instances")
set_tests_properties("scenario: hostile: 96030 compute units over platform_bytes are refused at validation"
                     "scenario: hostile: 96030 compute units validate under a platform_bytes above their estimate"
                     PROPERTIES FIXTURES_REQUIRED many_cus)

# Firmware that makes no progress (sw/firmware/spin.c; what it does comes from debug_flags).
tessera_scenario("hostile: firmware polling a register forever is reported with its PC"
                 ARGS "run|${cp_hello}|--set|cp.firmware=spin.elf|--set|cp.debug_flags=0" EXIT 1
                 DEFINES "-DSTDERR_HAS=firmware fault: spinning: 1000000 register reads and host notifications in a row|at CP register offset 0x00000010|--limit firmware_polls=N|pc=0x"
                         "-DSTDOUT_HAS=result: FAILED")
tessera_scenario("hostile: firmware notifying an absent host forever fails the run"
                 ARGS "run|${cp_hello}|--set|cp.firmware=spin.elf|--set|cp.debug_flags=1" EXIT 1
                 DEFINES "-DSTDERR_HAS=firmware fault: spinning: |at CP register offset 0x00000024" "-DSTDOUT_HAS=result: FAILED"
                         "-DSTDOUT_LACKS=result: ok")
tessera_scenario("hostile: firmware starting a dispatcher forever prints ten warnings and a count"
                 ARGS "run|${small_gpu}|--set|cp.firmware=spin.elf|--set|cp.debug_flags=2|--max-time|20 us" EXIT 0
                 DEFINES "-DSTDERR_HAS=the message above repeats|further copies are counted and summarised at the end|not printed): dispatcher: dispatcher: bad dispatch")
tessera_scenario("hostile: a firmware path with a NUL byte is refused"
                 ARGS "run|${cp_hello}|--set|cp.firmware=\"spin.elf\\u0000.txt\"" EXIT 3
                 DEFINES "-DSTDERR_HAS=holds a NUL byte")

# Results: output paths checked before the run, never a half-written file.
tessera_scenario("hostile: an unwritable --stats path is reported before the run"
                 ARGS "run|${demo}|--stats|/nonexistent/dir/stats.json" EXIT 3
                 DEFINES "-DSTDERR_HAS=cannot create a file in /nonexistent/dir" "-DSTDOUT_LACKS=simulated")
tessera_scenario("hostile: a --stats path that is a directory is reported before the run"
                 ARGS "workload|vector_add|--size|100|--netlist|${small_gpu}|--stats|${CMAKE_CURRENT_BINARY_DIR}" EXIT 3
                 DEFINES "-DSTDERR_HAS=is a directory" "-DSTDOUT_LACKS=PASS")

# SIGINT and SIGTERM keep what a run has gathered (tests/netlists/interrupt_check.sh).
add_test(NAME "scenario: hostile: SIGINT and SIGTERM stop a run and keep its statistics, marked incomplete"
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/netlists/interrupt_check.sh $<TARGET_FILE:tessera>
                 ${CMAKE_SOURCE_DIR} ${TESSERA_SCENARIO_DIR}/interrupt)
set_tests_properties("scenario: hostile: SIGINT and SIGTERM stop a run and keep its statistics, marked incomplete"
                     PROPERTIES TIMEOUT 300)

# Validation is linear in the number of components: 200,000 of them take a
# few seconds (tens under ASan); the quadratic parser it replaced took many
# minutes, which the timeout catches.
add_test(NAME "scenario: hostile: a netlist of 200000 components validates in linear time"
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/netlists/many_components.py $<TARGET_FILE:tessera>
                 200000 ${TESSERA_SCENARIO_DIR}/many_components.json)
set_tests_properties("scenario: hostile: a netlist of 200000 components validates in linear time"
                     PROPERTIES TIMEOUT 150)
tessera_scenario("hostile: launch --dump writes the buffer whole"
                 ARGS "launch|${vadd}|--kernel|vector_add|--grid|64|--arg|buf:f32:64:iota|--arg|buf:f32:64:1|--arg|buf:f32:64:zero|--arg|u32:64|--dump|2=${TESSERA_SCENARIO_DIR}/dump.bin|--force"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=argument 2: 256 bytes written to ${TESSERA_SCENARIO_DIR}/dump.bin")
tessera_scenario("hostile: launch --dump into a missing directory is refused before the run"
                 ARGS "launch|${vadd}|--kernel|vector_add|--grid|64|--arg|buf:f32:64:iota|--arg|buf:f32:64:1|--arg|buf:f32:64:zero|--arg|u32:64|--dump|2=/nonexistent/dir/dump.bin"
                 EXIT 3 DEFINES "-DSTDERR_HAS=cannot create a file in /nonexistent/dir" "-DSTDOUT_LACKS=wave-instructions")
