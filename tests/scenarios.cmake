# Scenario tests: each runs the `tessera` program once (one process, one
# SystemC elaboration) and checks its exit code, output and statistics through
# tests/netlists/cli_check.cmake. Names start with "scenario: ".
set(TESSERA_CLI_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/netlists/cli_check.cmake)
set(TESSERA_SCENARIO_DIR ${CMAKE_CURRENT_BINARY_DIR}/scenarios)
file(MAKE_DIRECTORY ${TESSERA_SCENARIO_DIR})

# tessera_scenario(NAME ARGS a|b|c EXIT n [extra -D settings...])
function(tessera_scenario name)
  cmake_parse_arguments(S "" "ARGS;EXIT" "DEFINES" ${ARGN})
  # A ';' inside a value splits it into list items: the rest of an expectation
  # would be dropped without a word, so every item must be a whole -DNAME=value.
  if(S_UNPARSED_ARGUMENTS OR S_ARGS STREQUAL "" OR S_EXIT STREQUAL "")
    message(FATAL_ERROR "tessera_scenario(\"${name}\"): needs ARGS and EXIT; unexpected: '${S_UNPARSED_ARGUMENTS}'")
  endif()
  foreach(define IN LISTS S_DEFINES)
    if(NOT define MATCHES "^-D[A-Z_]+=")
      message(FATAL_ERROR "tessera_scenario(\"${name}\"): '${define}' is not a -DNAME=value setting "
                          "(a ';' in a value splits it; write the expectation without one)")
    endif()
  endforeach()
  add_test(NAME "scenario: ${name}"
           COMMAND ${CMAKE_COMMAND} -DTESSERA=$<TARGET_FILE:tessera> "-DARGS=${S_ARGS}" -DEXIT=${S_EXIT}
                   ${S_DEFINES} -P ${TESSERA_CLI_CHECK})
endfunction()

if(NOT TARGET tessera)
  return()
endif()

# Every reference netlist validates.
file(GLOB platform_netlists CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/json/platforms/*.json)
foreach(netlist IN LISTS platform_netlists)
  get_filename_component(base ${netlist} NAME)
  tessera_scenario("validate json/platforms/${base}" ARGS "validate|${netlist}" EXIT 0
                   DEFINES "-DSTDOUT_HAS=: ok: ")
endforeach()

# A network port narrower than the DRAM behind it is a warning naming both
# bandwidths (docs/CHIPLETS.md, "Memory-side ports"); the netlist stays valid.
tessera_scenario("validate warns of a memory-side port narrower than its DRAM"
                 ARGS "validate|${CMAKE_SOURCE_DIR}/json/platforms/cpelide_4chiplet_requester_l2.json|--set|noc.out_width=64"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=: ok: "
                 "-DSTDERR_HAS=noc.out[3] carries at most 115.264 GB/s|whose 8 channels deliver 512 GB/s|the port is the bottleneck")

# A cache with more MSHRs than queue places cannot use them all: a warning at
# the first such instance, counting the others; the netlist stays valid.
tessera_scenario("validate warns of a cache whose mshrs exceed its queue_depth"
                 ARGS "validate|${CMAKE_SOURCE_DIR}/json/platforms/small_gpu.json|--set|l2[*].mshrs=256"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=: ok: "
                 "-DSTDERR_HAS=l2[0]: mshrs 256 exceed queue_depth 128|at most 128 of the 256 MSHRs are ever used|the same for 1 more l2_cache instance")

# The benchmarks' scaled netlists: 16 shader arrays are r9_nano, 1 runs on its own.
add_test(NAME "scenario: shader_array_netlist.py writes r9_nano's machine at other sizes"
         COMMAND ${CMAKE_COMMAND} -DTESSERA=$<TARGET_FILE:tessera> -DSOURCE=${CMAKE_SOURCE_DIR}
                 -DWORK=${TESSERA_SCENARIO_DIR}/shader_arrays -P ${CMAKE_CURRENT_SOURCE_DIR}/netlists/shader_array_check.cmake)

# Every bad netlist exits 3 with its expected path and message.
file(GLOB bad_netlists CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/netlists/bad/*.json)
foreach(netlist IN LISTS bad_netlists)
  get_filename_component(base ${netlist} NAME_WE)
  tessera_scenario("bad netlist ${base}" ARGS "validate|${netlist}" EXIT 3
                   DEFINES -DEXPECT=${CMAKE_CURRENT_SOURCE_DIR}/netlists/bad/${base}.expect)
endforeach()

# The memory-system demo runs, checks its data, writes statistics, and is deterministic.
set(demo ${CMAKE_SOURCE_DIR}/json/platforms/traffic_demo.json)
if(EXISTS ${demo})
  tessera_scenario("traffic demo runs and writes its statistics" ARGS "run|${demo}|--stats|${TESSERA_SCENARIO_DIR}/demo.json"
                   EXIT 0 DEFINES "-DSTDOUT_HAS=result: ok|tg_chase: pointer_chase|statistics written to"
                   -DSTATS=${TESSERA_SCENARIO_DIR}/demo.json
                   "-DSTATS_CHECKS=tg_stream/reads=1024|tg_random/reads=1024|tg_chase/reads=256|tg_stream/mismatches=0|mem[0]/reads>0|mem[1]/writes>0|xbar/forwarded>0|simulation/ok=ON|simulation/simulated_time_s>0")
  tessera_scenario("traffic demo is deterministic" ARGS "run|${demo}|--quiet|--stats|${TESSERA_SCENARIO_DIR}/determinism.json"
                   EXIT 0 DEFINES -DSTATS=${TESSERA_SCENARIO_DIR}/determinism.json -DDETERMINISM=ON)
  tessera_scenario("run --set changes a parameter" ARGS "run|${demo}|--set|mem[*].latency=400 ns|--stats|${TESSERA_SCENARIO_DIR}/slow.json"
                   EXIT 0 DEFINES -DSTATS=${TESSERA_SCENARIO_DIR}/slow.json "-DSTATS_CHECKS=tg_stream/avg_read_latency_ns>400")
  tessera_scenario("run --max-time stops early" ARGS "run|${demo}|--max-time|2 us" EXIT 1
                   DEFINES "-DSTDOUT_HAS=simulated 2 us|stopped at --max-time|result: FAILED")
  tessera_scenario("run --progress reports simulated time on stderr" ARGS "run|${demo}|--quiet|--progress|0.000001"
                   EXIT 0 DEFINES "-DSTDOUT_HAS=result: ok" "-DSTDERR_HAS=progress: |cycles of clock core")
  tessera_scenario("run refuses to overwrite statistics" ARGS "run|${demo}|--stats|${demo}" EXIT 2
                   DEFINES "-DSTDERR_HAS=already exists|pass --force")
  tessera_scenario("an override that matches nothing is an input error" ARGS "validate|${demo}|--set|gpu.size=1 GiB" EXIT 3
                   DEFINES "-DSTDERR_HAS=--set gpu.size: \"gpu\" matches no instance")
  tessera_scenario("an override of an unknown parameter is an input error" ARGS "validate|${demo}|--set|mem[*].sise=1 GiB"
                   EXIT 3 DEFINES "-DSTDERR_HAS=has no parameter \"sise\"")
endif()
# RTL co-simulation (docs/RTL.md): the traffic demo with the Verilated AXI4
# memory in place of its TLM memories reads back every byte the TLM one does,
# with the protocol checker silent; its pins go to a VCD file on request.
set(rtl_demo ${CMAKE_SOURCE_DIR}/json/platforms/rtl_traffic_demo.json)
tessera_scenario("rtl_axi_memory: the traffic demo on the RTL memory reads back what it wrote"
                 ARGS "run|${rtl_demo}|--force|--stats|${TESSERA_SCENARIO_DIR}/rtl_demo.json" EXIT 0
                 DEFINES "-DSTDOUT_HAS=result: ok|AXI protocol violations" -DSTATS=${TESSERA_SCENARIO_DIR}/rtl_demo.json
                 "-DSTATS_CHECKS=tg_stream/reads=1024|tg_random/reads=1024|tg_chase/reads=256|tg_stream/mismatches=0|tg_random/mismatches=0|tg_chase/mismatches=0|mem[0]/cycles>0|mem[1]/cycles>0|simulation/ok=ON")
tessera_scenario("rtl_axi_memory: types lists the RTL memory's parameters" ARGS "types|rtl_axi_memory" EXIT 0
                 DEFINES "-DSTDOUT_HAS=rtl_axi_memory|latency|outstanding|ids|store_kind|checker|vcd")
add_test(NAME "scenario: rtl_axi_memory: the pins go to a VCD file on request"
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tlm_bridges/vcd_check.sh ${TESSERA_SCENARIO_DIR}/rtl_pins.vcd
                 "mem(0)" "awvalid rdata" $<TARGET_FILE:tessera> run ${rtl_demo} --quiet
                 --set "mem[0].vcd=${TESSERA_SCENARIO_DIR}/rtl_pins.vcd")
# Pin-level links (axi_link, vr_link) in a netlist: listed with their
# parameters, and their pins go to a VCD file on request while a workload runs.
set(pin_links ${CMAKE_CURRENT_SOURCE_DIR}/netlists/timing/small_gpu_pin_links.json)
foreach(link axi_link vr_link)
  tessera_scenario("${link}: types lists the link's parameters" ARGS "types|${link}" EXIT 0
                   DEFINES "-DSTDOUT_HAS=${link}: |manager_outstanding|subordinate_outstanding|checker|timeout_cycles|vcd")
endforeach()
add_test(NAME "scenario: axi_link: the pins go to a VCD file on request"
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tlm_bridges/vcd_check.sh ${TESSERA_SCENARIO_DIR}/axi_link.vcd
                 "axi" "awvalid wdata rdata rlast" $<TARGET_FILE:tessera> workload vector_add --size 16384
                 --netlist ${pin_links} --set "axi.vcd=${TESSERA_SCENARIO_DIR}/axi_link.vcd")
add_test(NAME "scenario: vr_link: the pins go to a VCD file on request"
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tlm_bridges/vcd_check.sh ${TESSERA_SCENARIO_DIR}/vr_link.vcd
                 "vr" "req_valid resp_rdata" $<TARGET_FILE:tessera> workload vector_add --size 16384
                 --netlist ${pin_links} --set "vr.vcd=${TESSERA_SCENARIO_DIR}/vr_link.vcd")

tessera_scenario("a block that sees errors fails the run" ARGS "run|${CMAKE_CURRENT_SOURCE_DIR}/netlists/run/unmapped_memory.json"
                 EXIT 1 DEFINES "-DSTDOUT_HAS=result: FAILED")

# The command line itself.
tessera_scenario("tessera --help lists the commands" ARGS "--help" EXIT 0 DEFINES "-DSTDOUT_HAS=  run |  validate |  types ")
tessera_scenario("tessera run --help" ARGS "run|--help" EXIT 0 DEFINES "-DSTDOUT_HAS=usage: tessera run NETLIST|--max-time")
tessera_scenario("tessera --version" ARGS "--version" EXIT 0 DEFINES "-DSTDOUT_HAS=tessera 0.")
tessera_scenario("no command is a usage error" ARGS "" EXIT 2 DEFINES "-DSTDERR_HAS=usage: tessera COMMAND")
tessera_scenario("an unknown command is a usage error" ARGS "frobnicate" EXIT 2 DEFINES "-DSTDERR_HAS=unknown command")
tessera_scenario("an unknown option is a usage error" ARGS "validate|x.json|--sett|a.b=1" EXIT 2 DEFINES "-DSTDERR_HAS=unknown option --sett")
tessera_scenario("a missing netlist file is an input error" ARGS "validate|/nonexistent/netlist.json" EXIT 3
                 DEFINES "-DSTDERR_HAS=cannot read netlist file")
tessera_scenario("a bad --max-time is a usage error" ARGS "run|x.json|--max-time|10" EXIT 2 DEFINES "-DSTDERR_HAS=bad --max-time")
tessera_scenario("types lists parameters and sockets" ARGS "types" EXIT 0
                 DEFINES "-DSTDOUT_HAS=memory:|router:|traffic_gen:|parameters:|sockets:|address_map  json  required")
tessera_scenario("types of an unknown type is a usage error" ARGS "types|memroy" EXIT 2 DEFINES "-DSTDERR_HAS=registered types: ")

# gfx90a code objects through the command line: disassembly, direct launches
# (a correct one and a faulting one) and a workload with its CPU reference.
set(vadd ${CMAKE_BINARY_DIR}/sw/kernels/vector_add.hsaco)
tessera_scenario("disasm prints a kernel" ARGS "disasm|${vadd}" EXIT 0
                 DEFINES "-DSTDOUT_HAS=<vector_add>:|global_load_dword v|s_endpgm")
tessera_scenario("disasm prints the functions a kernel calls" ARGS "disasm|${CMAKE_BINARY_DIR}/sw/kernels/const_table.hsaco"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=<weigh>:|<const_table>:|s_swappc_b64|s_setpc_b64"
                 "-DSTDERR_HAS=1 kernel(s), 1 called function(s)")
tessera_scenario("disasm of a file that is not a code object is an input error" ARGS "disasm|${CMAKE_COMMAND}" EXIT 3
                 DEFINES "-DSTDERR_HAS=is not AMDGPU")
tessera_scenario("disasm --analysis marks a kernel's instructions" ARGS "disasm|--analysis|${CMAKE_BINARY_DIR}/sw/kernels/sgemm.hsaco|--kernel|sgemm_tile16"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=kernel sgemm_tile16: | lane-x | CR | mc |ds_read|never skipped: store"
                 "-DSTDERR_HAS=1 kernel(s) analysed")
tessera_scenario("disasm --analysis of a file that is not a code object is an input error"
                 ARGS "disasm|--analysis|${CMAKE_COMMAND}" EXIT 3 DEFINES "-DSTDERR_HAS=is not AMDGPU")
tessera_scenario("disasm --analysis of an unknown kernel is an input error"
                 ARGS "disasm|--analysis|${vadd}|--kernel|vector_sub" EXIT 3 DEFINES "-DSTDERR_HAS=no kernel named 'vector_sub'")
tessera_scenario("launch runs a kernel" ARGS "launch|${vadd}|--kernel|vector_add|--grid|1000|--block|64|--arg|buf:f32:1000:iota|--arg|buf:f32:1000:1|--arg|buf:f32:1000:zero|--arg|u32:1000"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=16 workgroups, 16 waves")
tessera_scenario("launch reports a GPU memory fault" ARGS "launch|${vadd}|--kernel|vector_add|--grid|2000|--block|64|--arg|buf:f32:1000:iota|--arg|buf:f32:1000:1|--arg|buf:f32:10:zero|--arg|u32:2000"
                 EXIT 1 DEFINES "-DSTDERR_HAS=faulted at workgroup|global_store_dword|outside every device allocation")
tessera_scenario("launch of an unknown kernel is an input error" ARGS "launch|${vadd}|--kernel|vector_sub|--grid|64"
                 EXIT 3 DEFINES "-DSTDERR_HAS=vector_sub")
tessera_scenario("workload runs against its CPU reference" ARGS "workload|vector_add|--size|1000" EXIT 0
                 DEFINES "-DSTDOUT_HAS=outputs match the CPU reference")

# The timing device: workloads on a netlist's cycle-level platform (docs/TIMING.md).
set(small_gpu ${CMAKE_SOURCE_DIR}/json/platforms/small_gpu.json)
tessera_scenario("calibrate prints measured, implied and reference figures"
                 ARGS "calibrate|${small_gpu}|--json|${TESSERA_SCENARIO_DIR}/calibrate_small_gpu.json" EXIT 0
                 DEFINES "-DSTDOUT_HAS=figure|measured|implied|reference|l1_latency|32.0 cycles|dram_bandwidth|lds_bandwidth|issue_rate|written to"
                         "-DSTDERR_HAS=calibrate: pointer chase: L1|calibrate: one-wave issue rate"
                         -DSTATS=${TESSERA_SCENARIO_DIR}/calibrate_small_gpu.json
                         "-DSTATS_CHECKS=figures/0/figure=l1_latency|figures/0/measured>25|figures/0/implied>25|clock_hz>0")
tessera_scenario("calibrate refuses to overwrite its JSON file"
                 ARGS "calibrate|${small_gpu}|--json|${small_gpu}" EXIT 2
                 DEFINES "-DSTDERR_HAS=already exists|pass --force")
tessera_scenario("calibrate --only measures one figure and --stats writes the DRAM's statistics"
                 ARGS "calibrate|${small_gpu}|--only|dram_bandwidth|--stats|${TESSERA_SCENARIO_DIR}/calibrate_stats.json" EXIT 0
                 DEFINES "-DSTDOUT_HAS=dram_bandwidth|statistics written to"
                         -DSTATS=${TESSERA_SCENARIO_DIR}/calibrate_stats.json
                         "-DSTATS_CHECKS=dram[0]/row_hits>0|dram[0]/bytes_read>1000000")
tessera_scenario("calibrate --only refuses an unknown figure" ARGS "calibrate|${small_gpu}|--only|dram_speed" EXIT 2
                 DEFINES "-DSTDERR_HAS=no figure 'dram_speed'|dram_bandwidth")
tessera_scenario("calibrate reports a bad netlist" ARGS "calibrate|${CMAKE_SOURCE_DIR}/tests/netlists/bad/reference_bad_unit.json" EXIT 3
                 DEFINES "-DSTDERR_HAS=/reference/l2_latency/value")
set(r9_nano ${CMAKE_SOURCE_DIR}/json/platforms/r9_nano.json)
tessera_scenario("workload on a timing netlist prints simulated cycles and speed"
                 ARGS "workload|vector_add|--size|1000|--netlist|${small_gpu}" EXIT 0
                 DEFINES "-DSTDOUT_HAS=on tessera-timing: PASS|cycles      |simulated|M wave-instructions/s")
tessera_scenario("workload --device tessera-timing defaults to small_gpu"
                 ARGS "workload|saxpy|--size|777|--device|tessera-timing" EXIT 0
                 DEFINES "-DSTDOUT_HAS=PASS|json/platforms/small_gpu.json")
tessera_scenario("workload --functional runs the netlist with no timing"
                 ARGS "workload|reduction|--size|4096|--netlist|${small_gpu}|--functional" EXIT 0
                 DEFINES "-DSTDOUT_HAS=PASS|(functional: no timing)")
tessera_scenario("workload on r9_nano" ARGS "workload|sgemm16|--size|64|--netlist|${r9_nano}" EXIT 0
                 DEFINES "-DSTDOUT_HAS=PASS|r9_nano.json")
# Zero caches (docs/CACHES.md, "Zero cache") carved out of r9_nano's L1s and L2 slices, at
# LazyGPU's two sizings: every workload still computes its reference's bytes; ReLU's zeros
# are stored through the L2s' zero caches.
set(zc_1_8 "--set|sa[*].l1v[*].zero_fraction=1/8|--set|l2[*].zero_fraction=1/8")
set(zc_16_32 "--set|sa[*].l1v[*].zero_fraction=1/16|--set|l2[*].zero_fraction=1/32")
foreach(run IN ITEMS "vector_add 65536" "relu_s50 65536" "pruned_gemv_50 512" "spmv_s50 20000" "histogram 65536"
                     "sgemm16 64" "conv_relu50 64" "bfs 10000")
  string(REPLACE " " ";" run "${run}")
  list(GET run 0 w)
  list(GET run 1 n)
  tessera_scenario("zero caches 1/8+1/8 on r9_nano: ${w} computes its reference's bytes"
                   ARGS "workload|${w}|--size|${n}|--netlist|${r9_nano}|${zc_1_8}" EXIT 0
                   DEFINES "-DSTDOUT_HAS=PASS")
endforeach()
tessera_scenario("zero caches 1/16+1/32 on r9_nano: relu_s50 stores its zeros through the L2 zero caches"
                 ARGS "workload|relu_s50|--size|65536|--netlist|${r9_nano}|${zc_16_32}|--stats|${TESSERA_SCENARIO_DIR}/zc_relu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/zc_relu.json
                 "-DSTATS_CHECKS=l2[0]/zero_stores>0|l2[0]/zero_bytes_saved>0|l2[0]/zero_fills>0|simulation/ok=ON")
tessera_scenario("workload --launches prints one line per kernel with its memory-side figures"
                 ARGS "workload|producer_consumer|--netlist|${CMAKE_SOURCE_DIR}/json/platforms/chiplet2_small.json|--launches"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|L2 wb|remote|0    pc_scale|3    pc_fold")
tessera_scenario("workload --launches belongs to the timing device"
                 ARGS "workload|vector_add|--device|pocl|--launches" EXIT 2
                 DEFINES "-DSTDERR_HAS=--launches and --progress apply to the tessera-timing device only")
tessera_scenario("workload --progress reports on stderr while the platform runs"
                 ARGS "workload|vector_add|--size|65536|--netlist|${small_gpu}|--progress|0.000001" EXIT 0
                 DEFINES "-DSTDOUT_HAS=PASS"
                         "-DSTDERR_HAS=progress: |cycles simulated|wave-instructions finished|launch 1 (vector_add): |of 256 workgroups (")
tessera_scenario("workload --progress takes seconds"
                 ARGS "workload|vector_add|--size|1000|--netlist|${small_gpu}|--progress|soon" EXIT 2
                 DEFINES "-DSTDERR_HAS=--progress expects seconds between reports")
tessera_scenario("timing workload statistics are deterministic"
                 ARGS "workload|histogram|--size|5000|--netlist|${small_gpu}|--stats|${TESSERA_SCENARIO_DIR}/timing.json"
                 EXIT 0 DEFINES -DSTATS=${TESSERA_SCENARIO_DIR}/timing.json -DDETERMINISM=ON
                 "-DSTATS_CHECKS=timing_device/launches=1|timing_device/cycles>0|timing_device/cp_instructions>0|dispatcher/ranges=1|cp/kernel_launches=1|cp/doorbells=1|l2[0]/fills>0|dram[1]/reads>0|simulation/ok=ON")
# The LDS multicast unit (docs/IWMA.md): an MFMA GEMM whose waves share their
# LDS fragments passes with the unit on at 4x the matrix rate, merges reads,
# never falls back, and gives the same statistics twice.
tessera_scenario("LDS multicast: an LDS-tiled MFMA GEMM passes, merges reads and is deterministic"
                 ARGS "workload|mfma_gemm_lds_4x2|--size|96|--netlist|${small_gpu}|--set|cu[*].lds_multicast=true|--set|cu[*].mfma_rate=4|--stats|${TESSERA_SCENARIO_DIR}/iwma.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/iwma.json -DDETERMINISM=ON
                 "-DSTATS_CHECKS=cu[0]/lds_reads_merged>0|cu[0]/lds_multicast_fallbacks=0")
# The same for the software-pipelined form (two LDS buffers, one barrier per
# K-step): its reads are marked and merged as well, and it matches the CPU
# product.
tessera_scenario("LDS multicast: the software-pipelined MFMA GEMM passes, merges reads and is deterministic"
                 ARGS "workload|mfma_gemm_lds_pipe_4x2|--size|96|--netlist|${small_gpu}|--set|cu[*].lds_multicast=true|--set|cu[*].mfma_rate=4|--stats|${TESSERA_SCENARIO_DIR}/iwma_pipe.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/iwma_pipe.json -DDETERMINISM=ON
                 "-DSTATS_CHECKS=cu[0]/lds_reads_merged>0|cu[0]/lds_multicast_fallbacks=0")
# DARSIE on a 2D workload: followers skip the leader's redundant vector
# instructions (VALU and LDS reads), the output passes, and in checking mode
# every skipped value equals the one the follower computes.
tessera_scenario("DARSIE: sgemm16 passes with instructions skipped, checked against the followers' own values"
                 ARGS "workload|sgemm16|--size|64|--netlist|${small_gpu}|--set|cu[*].darsie=true|--set|cu[*].darsie_check=true|--stats|${TESSERA_SCENARIO_DIR}/darsie.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/darsie.json -DDETERMINISM=ON
                 "-DSTATS_CHECKS=cu[0]/darsie_skipped_cr>0|cu[0]/darsie_checked>0|cu[0]/darsie_table_hits>0")
# More resident waves than one 64-bit word of the CU's per-wave bit sets holds.
tessera_scenario("a compute unit with 80 wave slots keeps more than 64 waves resident"
                 ARGS "workload|vector_add|--size|65536|--netlist|${small_gpu}|--set|cu[*].wave_slots=20|--stats|${TESSERA_SCENARIO_DIR}/slots80.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/slots80.json
                 "-DSTATS_CHECKS=cu[0]/resident_waves/max=80|cu[3]/resident_waves/max=80")
# Values apart from timing: loads read their bytes at execute through the
# caches' debug transport; the workloads still match their CPU references.
tessera_scenario("loads valued at execute give vector_add its reference bytes"
                 ARGS "workload|vector_add|--size|65536|--netlist|${small_gpu}|--set|cu[*].load_values=execute|--stats|${TESSERA_SCENARIO_DIR}/vadd_execute.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/vadd_execute.json
                 "-DSTATS_CHECKS=cu[0]/values_at_execute>0|cu[3]/values_at_execute>0")
tessera_scenario("loads valued at execute give spmv its reference bytes"
                 ARGS "workload|spmv|--size|5000|--netlist|${small_gpu}|--set|cu[*].load_values=execute|--stats|${TESSERA_SCENARIO_DIR}/spmv_execute.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/spmv_execute.json
                 "-DSTATS_CHECKS=cu[0]/values_at_execute>0")
# LazyGPU's lazy unit (docs/LAZYGPU.md): loads deferred until read, with ⊗
# elimination; the workloads still match their CPU references.
tessera_scenario("lazy loads give spmv_s50 its reference bytes"
                 ARGS "workload|spmv_s50|--size|5000|--netlist|${small_gpu}|--set|cu[*].lazy_loads=true|--set|cu[*].lazy_zero_products=true|--stats|${TESSERA_SCENARIO_DIR}/spmv_lazy.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/spmv_lazy.json
                 "-DSTATS_CHECKS=cu[0]/lazy_loads_deferred>0|cu[0]/lazy_requests>0")
tessera_scenario("lazy loads give conv_relu50 its reference bytes"
                 ARGS "workload|conv_relu50|--size|16|--netlist|${small_gpu}|--set|cu[*].lazy_loads=true|--set|cu[*].lazy_zero_products=true|--stats|${TESSERA_SCENARIO_DIR}/conv_lazy.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/conv_lazy.json
                 "-DSTATS_CHECKS=cu[0]/lazy_loads_deferred>0")
# mmm_local (the SDK matrix multiply: float4 loads of B ahead of their use)
# against its CPU reference, eagerly and with lazy loads.
tessera_scenario("mmm_local on small_gpu gives its reference bytes"
                 ARGS "workload|mmm_local|--size|70|--netlist|${small_gpu}"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=outputs match the CPU reference")
tessera_scenario("lazy loads give mmm_local its reference bytes"
                 ARGS "workload|mmm_local|--size|70|--netlist|${small_gpu}|--set|cu[*].lazy_loads=true|--stats|${TESSERA_SCENARIO_DIR}/mmm_local_lazy.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/mmm_local_lazy.json
                 "-DSTATS_CHECKS=cu[0]/lazy_loads_deferred>0|cu[0]/lazy_requests>0")
# LazyGPU's zero caches with the compute unit's zero-mask queries on r9_nano
# (json/experiments/lazygpu.json's lazygpu and eager_zc designs): the
# ReLU-sparse convolution still gives its reference's bytes, queries are sent
# and answered by the zero caches, and (lazily) lanes found zero are not requested.
set(lazygpu_sets "--set|sa[*].l1v[*].zero_fraction=1/8|--set|l2[*].zero_fraction=1/8|--set|sa[*].cu[*].zero_queries=true")
tessera_scenario("lazygpu on r9_nano gives conv_relu50 its reference bytes"
                 ARGS "workload|conv_relu50|--size|16|--netlist|${r9_nano}|${lazygpu_sets}|--set|sa[*].cu[*].lazy_loads=true|--set|sa[*].cu[*].lazy_zero_products=true|--stats|${TESSERA_SCENARIO_DIR}/conv_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/conv_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/zero_queries>0|sa[0]/cu[0]/lazy_eliminated_zero_cache>0|sa[0]/l1v[0]/zero_hits>0")
tessera_scenario("eager_zc on r9_nano gives conv_relu50 its reference bytes"
                 ARGS "workload|conv_relu50|--size|16|--netlist|${r9_nano}|${lazygpu_sets}|--stats|${TESSERA_SCENARIO_DIR}/conv_eager_zc.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/conv_eager_zc.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/zero_queries>0|sa[0]/l1v[0]/zero_hits>0")
# The pruned layer by dense code multiplies every weight (the FMA's first factor):
# with ⊗ elimination, the x lanes whose weight the zero cache finds 0 are suspended.
tessera_scenario("lazygpu on r9_nano suspends the x loads of pruned_gemv_dense_60's zero weights"
                 ARGS "workload|pruned_gemv_dense_60|--size|64|--netlist|${r9_nano}|${lazygpu_sets}|--set|sa[*].cu[*].lazy_loads=true|--set|sa[*].cu[*].lazy_zero_products=true|--stats|${TESSERA_SCENARIO_DIR}/gemv_dense_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/gemv_dense_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_suspended_lanes>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0")
tessera_scenario("lazygpu on r9_nano suspends the activation loads of conv_pruned50's zero weights"
                 ARGS "workload|conv_pruned50|--size|16|--netlist|${r9_nano}|${lazygpu_sets}|--set|sa[*].cu[*].lazy_loads=true|--set|sa[*].cu[*].lazy_zero_products=true|--stats|${TESSERA_SCENARIO_DIR}/conv_pruned_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/conv_pruned_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_suspended_lanes>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0")
# The 4 L1s of a shader array sharing one zero cache (zero_shared), with whole
# loads issued lazily: the reference's bytes, and hits in the shared mask array.
tessera_scenario("lazygpu on r9_nano with a zero cache per shader array gives pruned_gemv_dense_60 its reference bytes"
                 ARGS "workload|pruned_gemv_dense_60|--size|64|--netlist|${r9_nano}|${lazygpu_sets}|--set|sa[*].l1v[*].zero_shared=true|--set|sa[*].cu[*].lazy_loads=true|--set|sa[*].cu[*].lazy_whole_loads=true|--set|sa[*].cu[*].lazy_zero_products=true|--stats|${TESSERA_SCENARIO_DIR}/gemv_dense_shared_zc.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/gemv_dense_shared_zc.json
                 "-DSTATS_CHECKS=sa[0]/l1v[0]/zero_hits>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0")
# The pruned layer by dense code unrolled as a GEMV library kernel (16 loads per
# lane ahead of the FMAs), in json/experiments/lazygpu.json's base and lazygpu
# designs: the reference's bytes both ways; lazily, the zero weights' lanes are
# found by the queries and their x lanes are suspended and eliminated.
set(lazygpu_design "${lazygpu_sets}|--set|sa[*].cu[*].zero_query_span=128B|--set|sa[*].l1v[*].zero_shared=true|--set|sa[*].cu[*].lazy_loads=true|--set|sa[*].cu[*].lazy_whole_loads=true|--set|sa[*].cu[*].lazy_zero_products=true")
tessera_scenario("base on r9_nano gives pruned_gemv_unrolled_60 its reference bytes"
                 ARGS "workload|pruned_gemv_unrolled_60|--size|64|--netlist|${r9_nano}"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference")
tessera_scenario("lazygpu on r9_nano gives pruned_gemv_unrolled_60 its reference bytes"
                 ARGS "workload|pruned_gemv_unrolled_60|--size|64|--netlist|${r9_nano}|${lazygpu_design}|--stats|${TESSERA_SCENARIO_DIR}/gemv_unrolled_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/gemv_unrolled_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_loads_deferred>0|sa[0]/cu[0]/lazy_eliminated_zero_cache>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0|sa[0]/cu[0]/zero_queries>0")
# The pruned layer thread per row (a wave's load touches 64 rows, one word of
# each), in the base and lazygpu designs: the reference's bytes both ways;
# lazily, the queries find the zero weights' words and no request goes for
# them (requests saved). x[c] is uniform, read by a scalar load into an SGPR,
# so ⊗ has no deferred x lane to skip here.
tessera_scenario("base on r9_nano gives pruned_gemv_rows_60 its reference bytes"
                 ARGS "workload|pruned_gemv_rows_60|--size|256|--netlist|${r9_nano}"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference")
tessera_scenario("lazygpu on r9_nano gives pruned_gemv_rows_60 its reference bytes and saves the zero weights' requests"
                 ARGS "workload|pruned_gemv_rows_60|--size|256|--netlist|${r9_nano}|${lazygpu_design}|--stats|${TESSERA_SCENARIO_DIR}/gemv_rows_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/gemv_rows_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_loads_deferred>0|sa[0]/cu[0]/lazy_eliminated_zero_cache>0|sa[0]/cu[0]/zero_requests_saved>0|sa[0]/l1v[0]/zero_hits>0")
# The same layer pruned in 16-weight blocks (pruned_gemv_blocks_60): a zero
# block is a whole 64 B line, so the zero caches answer the lanes of whole
# lines and their data requests are not sent (requests saved).
tessera_scenario("lazygpu on r9_nano gives pruned_gemv_blocks_60 its reference bytes and saves the zero blocks' line requests"
                 ARGS "workload|pruned_gemv_blocks_60|--size|128|--netlist|${r9_nano}|${lazygpu_design}|--stats|${TESSERA_SCENARIO_DIR}/gemv_blocks_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/gemv_blocks_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_eliminated_zero_cache>0|sa[0]/cu[0]/zero_requests_saved>0|sa[0]/l1v[0]/zero_hits>0")
# The pruned layer's prefill as a GEMM (pruned_gemm_60): a wave is one output
# feature of 64 tokens, so its weight is an SGPR (a scalar load, never lazy)
# and a zero weight excuses the wave's whole deferred activation load. In the
# lazygpu design, and with lazy loads and ⊗ alone (no zero cache, no query):
# the reference's bytes, and the activation lanes suspended and eliminated.
tessera_scenario("lazygpu on r9_nano gives pruned_gemm_60 its reference bytes and eliminates the zero weights' activation loads"
                 ARGS "workload|pruned_gemm_60|--size|4|--netlist|${r9_nano}|${lazygpu_design}|--stats|${TESSERA_SCENARIO_DIR}/gemm_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/gemm_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_suspended_lanes>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0|sa[0]/cu[0]/zero_queries>0")
tessera_scenario("lazy loads with ⊗ and no zero cache give pruned_gemm_60 its reference bytes and skip the zero weights' activation loads"
                 ARGS "workload|pruned_gemm_60|--size|4|--netlist|${r9_nano}|--set|sa[*].cu[*].lazy_loads=true|--set|sa[*].cu[*].lazy_zero_products=true|--stats|${TESSERA_SCENARIO_DIR}/gemm_lazy_zp.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/gemm_lazy_zp.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_suspended_lanes>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0")
tessera_scenario("lazygpu on r9_nano gives pruned_gemm_unrolled_60 its reference bytes and eliminates the zero weights' activation loads"
                 ARGS "workload|pruned_gemm_unrolled_60|--size|4|--netlist|${r9_nano}|${lazygpu_design}|--stats|${TESSERA_SCENARIO_DIR}/gemm_unrolled_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/gemm_unrolled_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_suspended_lanes>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0|sa[0]/cu[0]/zero_queries>0")
# The convolution as im2col + a naive GEMM (conv_gemm_pruned50): 16 lanes share
# each weight load, so the zero cache answers a zero weight's lanes without a
# data request, and ⊗ then suspends those lanes' loads of the unrolled input.
tessera_scenario("lazygpu on r9_nano gives conv_gemm_pruned50 its reference bytes and eliminates its zero weights' loads"
                 ARGS "workload|conv_gemm_pruned50|--size|3|--netlist|${r9_nano}|${lazygpu_design}|--stats|${TESSERA_SCENARIO_DIR}/conv_gemm_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/conv_gemm_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_eliminated_zero_cache>0|sa[0]/cu[0]/lazy_suspended_lanes>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0")
# In 64 x 4 workgroups a wave reads one filter: a zero weight is one word for
# all its lanes, and ⊗ suspends the wave's whole load of the unrolled input.
tessera_scenario("lazygpu on r9_nano gives conv_gemm64_unrolled_pruned50 its reference bytes and eliminates its zero weights' loads"
                 ARGS "workload|conv_gemm64_unrolled_pruned50|--size|5|--netlist|${r9_nano}|${lazygpu_design}|--stats|${TESSERA_SCENARIO_DIR}/conv_gemm64_lazygpu.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|outputs match the CPU reference" -DSTATS=${TESSERA_SCENARIO_DIR}/conv_gemm64_lazygpu.json
                 "-DSTATS_CHECKS=sa[0]/cu[0]/lazy_eliminated_zero_cache>0|sa[0]/cu[0]/lazy_suspended_lanes>0|sa[0]/cu[0]/lazy_eliminated_zero_product>0")
# Without the kernel-end write-back (the firmware told to skip it) the results
# stay in the L2: the host reads stale memory.
tessera_scenario("workload --set changes a timing parameter"
                 ARGS "workload|vector_add|--size|1000|--netlist|${small_gpu}|--set|cp.debug_flags=1"
                 EXIT 1 DEFINES "-DSTDOUT_HAS=FAIL")
# Write-back L1s that apply atomics in their own copies: each CU's histogram
# bins count only its own updates, and the dispatcher says why before the run.
tessera_scenario("write-back L1s applying atomics themselves are warned about"
                 ARGS "workload|histogram|--size|5001|--netlist|${small_gpu}|--set|l1v[*].write_policy=write_back|--set|l1v[*].atomics=here"
                 EXIT 1 DEFINES "-DSTDOUT_HAS=FAIL"
                 "-DSTDERR_HAS=acquire-side caches l1v[0], l1v[1], l1v[2], l1v[3] are write-back and apply atomics in their own copies")
tessera_scenario("a workload netlist without a dispatcher is an input error"
                 ARGS "workload|vector_add|--netlist|${CMAKE_SOURCE_DIR}/json/platforms/traffic_demo.json" EXIT 3
                 DEFINES "-DSTDERR_HAS=has no block of type dispatcher")
tessera_scenario("workload timing options on another device are a usage error"
                 ARGS "workload|vector_add|--device|pocl|--netlist|${small_gpu}" EXIT 2
                 DEFINES "-DSTDERR_HAS=apply to the tessera-timing device only")

# Kernel-boundary synchronisation across chiplets: chiplet c consumes what
# chiplet c+1 produced. The baseline policy gives the right data; a firmware
# told to skip the kernel-end L2 write-back, or the kernel-start L2
# invalidation, gives stale data. Every later policy must keep the first passing.
set(chiplet4 ${CMAKE_SOURCE_DIR}/json/platforms/chiplet4_small.json)
tessera_scenario("chiplet sync: a permuted consumer on 4 chiplets reads what its neighbour produced"
                 ARGS "workload|permuted_consumer|--size|4097|--netlist|${chiplet4}|--stats|${TESSERA_SCENARIO_DIR}/sync.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/sync.json
                 "-DSTATS_CHECKS=noc/remote_messages>0|chiplet[0]/l2[0]/lines_written_back>0|chiplet[3]/dispatcher/ranges=4")
tessera_scenario("chiplet sync: skipping the kernel-end write-back reads stale memory"
                 ARGS "workload|permuted_consumer|--size|4097|--netlist|${chiplet4}|--set|cp.debug_flags=1"
                 EXIT 1 DEFINES "-DSTDOUT_HAS=FAIL")
# One L2 per chiplet applying atomics in its own copy: two chiplets' copies of
# a histogram bin each take updates the other does not see, and the first
# atomic that finds another L2 holding its bytes dirty is reported.
tessera_scenario("chiplet L2s applying atomics themselves lose updates, and say so"
                 ARGS "workload|histogram|--size|50001|--netlist|${chiplet4}|--set|chiplet[*].l2[*].atomics=here|--stats|${TESSERA_SCENARIO_DIR}/atomic_conflicts.json"
                 EXIT 1 DEFINES "-DSTDOUT_HAS=FAIL" -DSTATS=${TESSERA_SCENARIO_DIR}/atomic_conflicts.json
                 "-DSTDERR_HAS=held those bytes dirty: one of the two updates will be lost"
                 "-DSTATS_CHECKS=chiplet[1]/l2[0]/atomic_conflicts>0|chiplet[0]/l2[0]/atomic_lanes>0")
tessera_scenario("chiplet sync: skipping the kernel-start L2 invalidation reads stale lines"
                 ARGS "workload|permuted_consumer|--size|4097|--netlist|${chiplet4}|--set|cp.debug_flags=2"
                 EXIT 1 DEFINES "-DSTDOUT_HAS=FAIL")

# The CPElide firmware (docs/CPELIDE.md) runs the reuse workloads; without
# cp.elision the device sends no access modes: every kernel takes its baseline
# fallback, and the data must still be right on 2, 4 and 8 chiplets.
foreach(chiplets IN ITEMS 2 4 8)
  foreach(case IN ITEMS "producer_consumer|8192" "permuted_consumer|8192" "no_reuse|8192" "stencil_iter|64"
                        "babelstream_iter|8192")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 workload)
    list(GET parts 1 size)
    tessera_scenario("cpelide firmware: ${workload} on ${chiplets} chiplets without access modes matches the executor"
                     ARGS "workload|${workload}|--size|${size}|--netlist|${CMAKE_SOURCE_DIR}/json/platforms/chiplet${chiplets}_small.json|--set|cp.firmware=aql_cp_cpelide.elf"
                     EXIT 0 DEFINES "-DSTDOUT_HAS=PASS")
  endforeach()
endforeach()

# With cp.elision the reuse workloads' access modes reach the CPElide firmware
# and kernels are fenced at Agent scope: the table elides synchronisation, and
# the data must still be right on 2, 4 and 8 chiplets. Sizes that are not a
# whole number of workgroups (producer_consumer 8200) declare whole buffers.
set(cpelide_cases "producer_consumer|8192" "producer_consumer|8200" "permuted_consumer|8192" "no_reuse|8192"
                  "stencil_iter|64" "babelstream_iter|8192" "square|8192" "hotspot3d|40" "lud|50" "rnn|200")
foreach(chiplets IN ITEMS 2 4 8)
  foreach(case IN LISTS cpelide_cases)
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 workload)
    list(GET parts 1 size)
    tessera_scenario("cpelide elision: ${workload} ${size} on ${chiplets} chiplets matches the executor"
                     ARGS "workload|${workload}|--size|${size}|--netlist|${CMAKE_SOURCE_DIR}/json/platforms/chiplet${chiplets}_small.json|--set|cp.firmware=aql_cp_cpelide.elf|--set|cp.elision=true"
                     EXIT 0 DEFINES "-DSTDOUT_HAS=PASS")
  endforeach()
endforeach()
# ... and fails when the firmware skips the write-backs (debug flag 1) or the
# invalidations (2) the table asks for: permuted_consumer's consumers read what
# another chiplet wrote.
foreach(flag IN ITEMS 1 2)
  tessera_scenario("cpelide elision: skipping the table's L2 commands (debug flag ${flag}) reads stale data"
                   ARGS "workload|permuted_consumer|--size|8192|--netlist|${chiplet4}|--set|cp.firmware=aql_cp_cpelide.elf|--set|cp.elision=true|--set|cp.debug_flags=${flag}"
                   EXIT 1 DEFINES "-DSTDOUT_HAS=FAIL")
endforeach()

# Home L2s (cpelide_4chiplet and cpelide_4chiplet_home_l2: a chiplet's L2 holds only
# its own pages' lines and serves the other chiplets' requests for them): the
# platform tells the CPElide firmware (CP_REG_L2_HOMES), which then sends no L2
# command at Agent scope and writes back every L2 at a System-scope release.
# The same reuse workloads give the executor's bytes (lud gave wrong ones under
# the requesters' rules there), no L2 line is ever invalidated, and skipping
# the final write-back (debug flag 1) leaves the host reading stale memory.
foreach(netlist IN ITEMS cpelide_4chiplet cpelide_4chiplet_home_l2)
  foreach(case IN LISTS cpelide_cases)
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 workload)
    list(GET parts 1 size)
    tessera_scenario("cpelide home L2s: ${workload} ${size} on ${netlist} matches the executor, hints right"
                     ARGS "workload|${workload}|--size|${size}|--netlist|${CMAKE_SOURCE_DIR}/json/platforms/${netlist}.json|--set|cp.firmware=aql_cp_cpelide.elf|--set|cp.elision=true|--set|cp.async_launches=true|--set|cp.check_hints=true"
                     EXIT 0 DEFINES "-DSTDOUT_HAS=PASS")
  endforeach()
endforeach()
set(home_l2 ${CMAKE_SOURCE_DIR}/json/platforms/cpelide_4chiplet_home_l2.json)
tessera_scenario("cpelide home L2s: no L2 line is invalidated, the barrier writes every chiplet's back"
                 ARGS "workload|permuted_consumer|--size|8192|--netlist|${home_l2}|--set|cp.firmware=aql_cp_cpelide.elf|--set|cp.elision=true|--set|cp.async_launches=true|--stats|${TESSERA_SCENARIO_DIR}/cpelide_home_l2.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/cpelide_home_l2.json
                 "-DSTATS_CHECKS=chiplet[0]/l2[0]/lines_invalidated=0|chiplet[3]/l2[15]/lines_invalidated=0|chiplet[0]/l2[0]/lines_written_back>0|chiplet[3]/l2[15]/lines_written_back>0|simulation/ok=ON")
tessera_scenario("cpelide home L2s: skipping the System-scope write-back reads stale data"
                 ARGS "workload|permuted_consumer|--size|8192|--netlist|${home_l2}|--set|cp.firmware=aql_cp_cpelide.elf|--set|cp.elision=true|--set|cp.async_launches=true|--set|cp.debug_flags=1"
                 EXIT 1 DEFINES "-DSTDOUT_HAS=FAIL")

# Launches submitted ahead (cp.async_launches: the host waits only before it
# reads, writes or frees device memory) under the CPElide firmware with the
# hint checker on: the same bytes on 2, 4 and 8 chiplets, and no hint reported
# (a wrong one makes the run exit 1); and under the baseline firmware.
foreach(chiplets IN ITEMS 2 4 8)
  foreach(case IN LISTS cpelide_cases)
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 workload)
    list(GET parts 1 size)
    tessera_scenario("cpelide async: ${workload} ${size} on ${chiplets} chiplets matches the executor, hints right"
                     ARGS "workload|${workload}|--size|${size}|--netlist|${CMAKE_SOURCE_DIR}/json/platforms/chiplet${chiplets}_small.json|--set|cp.firmware=aql_cp_cpelide.elf|--set|cp.elision=true|--set|cp.async_launches=true|--set|cp.check_hints=true"
                     EXIT 0 DEFINES "-DSTDOUT_HAS=PASS")
  endforeach()
endforeach()
# A wrong hint does not go unnoticed: square_wrong_hint declares its output
# read-only and writes it at every launch; the checking mode names the kernel,
# the buffer and the access, and the run exits 1.
tessera_scenario("cpelide async: a wrong hint is reported by the checking mode"
                 ARGS "workload|square_wrong_hint|--size|4096|--netlist|${chiplet4}|--set|cp.firmware=aql_cp_cpelide.elf|--set|cp.elision=true|--set|cp.async_launches=true|--set|cp.check_hints=true"
                 EXIT 1 DEFINES "-DSTDERR_HAS=square_wrong_hint: wrong access-mode hint: kernel square, buffer 0x|(16384 bytes): a write to a buffer declared read-only at 0x")
# HMG (docs/CPELIDE.md, "HMG"): the L2s write through and keep each other
# coherent with a directory per home chiplet, and the hmg firmware sends no L2
# command between kernels. The reuse workloads give the executor's bytes on 2,
# 4 and 8 small chiplets and on the paper's machine; permuted_consumer, whose
# consumers read lines another chiplet wrote since they last read them, gives
# wrong bytes when the directory's invalidations are counted but not applied.
set(hmg_design "--set|cp.firmware=aql_cp_hmg.elf|--set|cp.elision=true|--set|cp.access_modes=false|--set|cp.async_launches=true|--set|chiplet[*].l2[*].coherence=hmg")
foreach(netlist IN ITEMS chiplet2_small chiplet4_small chiplet8_small cpelide_4chiplet_requester_l2)
  foreach(case IN LISTS cpelide_cases)
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 workload)
    list(GET parts 1 size)
    tessera_scenario("hmg: ${workload} ${size} on ${netlist} matches the executor"
                     ARGS "workload|${workload}|--size|${size}|--netlist|${CMAKE_SOURCE_DIR}/json/platforms/${netlist}.json|${hmg_design}"
                     EXIT 0 DEFINES "-DSTDOUT_HAS=PASS")
  endforeach()
  tessera_scenario("hmg: without the directory's invalidations permuted_consumer on ${netlist} reads stale data"
                   ARGS "workload|permuted_consumer|--size|8192|--netlist|${CMAKE_SOURCE_DIR}/json/platforms/${netlist}.json|${hmg_design}|--set|chiplet[*].l2[*].hmg_skip_invalidations=true"
                   EXIT 1 DEFINES "-DSTDOUT_HAS=FAIL")
endforeach()
tessera_scenario("hmg: permuted_consumer's writes invalidate other chiplets' copies, nothing is written back"
                 ARGS "workload|permuted_consumer|--size|8192|--netlist|${chiplet4}|${hmg_design}|--stats|${TESSERA_SCENARIO_DIR}/hmg.json"
                 EXIT 0 DEFINES -DSTATS=${TESSERA_SCENARIO_DIR}/hmg.json -DDETERMINISM=ON
                 "-DSTATS_CHECKS=chiplet[1]/l2[0]/hmg_invalidations_sent>0|chiplet[0]/l2[0]/hmg_invalidations_received>0|chiplet[0]/l2[0]/hmg_write_through_bytes>0|chiplet[0]/l2[0]/hmg_directory_hits>0|chiplet[1]/l2[0]/hmg_invalidation_wait_cycles>0|chiplet[0]/l2[0]/lines_written_back=0|chiplet[2]/l2[1]/lines_written_back=0|simulation/ok=ON")
# A directory of 8 entries cannot cover the lines the chiplets fetch: its
# evictions invalidate their regions at the sharers, and the bytes stay right.
tessera_scenario("hmg: a tiny directory's evictions invalidate their lines and the data stays right"
                 ARGS "workload|babelstream_iter|--size|8192|--netlist|${chiplet4}|${hmg_design}|--set|chiplet[*].l2[*].hmg_directory_entries=8|--set|chiplet[*].l2[*].hmg_directory_ways=2|--stats|${TESSERA_SCENARIO_DIR}/hmg_tiny.json"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS" -DSTATS=${TESSERA_SCENARIO_DIR}/hmg_tiny.json
                 "-DSTATS_CHECKS=chiplet[0]/l2[0]/hmg_directory_evictions>0|chiplet[1]/l2[1]/hmg_invalidations_received>0|simulation/ok=ON")
# The invalidations travel the chiplet network, which must link the chiplets
# the slices are in.
tessera_scenario("hmg: a chiplet network of another number of chiplets is refused"
                 ARGS "workload|vector_add|--size|256|--netlist|${chiplet4}|--set|chiplet[*].l2[*].coherence=hmg|--set|noc.chiplets=2"
                 EXIT 3 DEFINES "-DSTDERR_HAS=chiplet network 'noc' links 2 chiplets, but the L2 slices with coherence")
tessera_scenario("hmg: a directory of entries not a multiple of its ways is refused"
                 ARGS "workload|vector_add|--size|256|--netlist|${chiplet4}|--set|chiplet[*].l2[*].coherence=hmg|--set|chiplet[*].l2[*].hmg_directory_entries=100|--set|chiplet[*].l2[*].hmg_directory_ways=8"
                 EXIT 3 DEFINES "-DSTDERR_HAS=hmg_directory_entries 100")

foreach(workload IN ITEMS producer_consumer lud)
  tessera_scenario("baseline async: ${workload} on 4 chiplets matches the executor"
                   ARGS "workload|${workload}|--size|64|--netlist|${chiplet4}|--set|cp.async_launches=true"
                   EXIT 0 DEFINES "-DSTDOUT_HAS=PASS")
endforeach()
# A workload of one launch waits for it before reading back either way: its
# cycles are those of a synchronous launch (3720, as below).
tessera_scenario("async launches: a single launch keeps its cycles"
                 ARGS "workload|vector_add|--size|256|--netlist|${small_gpu}|--set|cp.async_launches=true"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|cycles      3732 simulated")
tessera_scenario("cpelide async: statistics are deterministic"
                 ARGS "workload|babelstream_iter|--size|8192|--netlist|${chiplet4}|--set|cp.firmware=aql_cp_cpelide.elf|--set|cp.elision=true|--set|cp.async_launches=true|--stats|${TESSERA_SCENARIO_DIR}/cpelide_async.json"
                 EXIT 0 DEFINES -DSTATS=${TESSERA_SCENARIO_DIR}/cpelide_async.json -DDETERMINISM=ON
                 "-DSTATS_CHECKS=timing_device/launches=17|timing_device/cycles>0|cp/kernel_launches=17|simulation/ok=ON")

# --max-cycles decides only whether a launch hung: a limit reached after the
# kernel's completion signal but before the CP notifies the host leaves the
# launch's cycles as they are without a limit (3732 for this launch).
tessera_scenario("max-cycles below a launch's end keeps its cycles"
                 ARGS "workload|vector_add|--size|256|--netlist|${small_gpu}|--max-cycles|3731"
                 EXIT 0 DEFINES "-DSTDOUT_HAS=PASS|cycles      3732 simulated")
tessera_scenario("max-cycles before a launch's completion signal reports a hang"
                 ARGS "workload|vector_add|--size|256|--netlist|${small_gpu}|--max-cycles|2000"
                 EXIT 1 DEFINES "-DSTDERR_HAS=not done within")

# Traces (--trace): the format check, what a trace holds, that tracing changes
# no result or cycle count, the event limit, the filter and the refusals.
find_program(TESSERA_PYTHON3 python3)
if(TESSERA_PYTHON3)
  foreach(check IN ITEMS selftest content limit unfinished filter chiplets refusals)
    add_test(NAME "scenario: trace ${check}"
             COMMAND ${TESSERA_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/platform/trace_check.py ${check}
                     --tessera $<TARGET_FILE:tessera> --source ${CMAKE_SOURCE_DIR}
                     --work ${TESSERA_SCENARIO_DIR}/trace_${check})
  endforeach()
endif()

# Hostile input and runaway work (docs/RELIABILITY.md).
include(${CMAKE_CURRENT_SOURCE_DIR}/hostile_scenarios.cmake)
