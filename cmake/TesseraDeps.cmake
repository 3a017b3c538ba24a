# Finds every Debian package Tessera builds against and fails with a message
# that names the package to install (scripts/install-deps.sh installs them all).
find_package(PkgConfig)

macro(tessera_missing what package)
  message(FATAL_ERROR "Tessera needs ${what}: install the Debian package '${package}' "
                      "(or run scripts/install-deps.sh, which installs everything).")
endmacro()

if(NOT PKG_CONFIG_FOUND)
  tessera_missing("pkg-config" "pkg-config")
endif()

pkg_check_modules(SYSTEMC QUIET IMPORTED_TARGET systemc)
if(NOT SYSTEMC_FOUND)
  tessera_missing("SystemC 2.3.4 with TLM-2.0" "libsystemc-dev")
endif()

find_package(nlohmann_json 3.10 QUIET)
if(NOT nlohmann_json_FOUND)
  tessera_missing("nlohmann-json 3" "nlohmann-json3-dev")
endif()

find_package(Boost 1.74 QUIET)
if(NOT Boost_FOUND)
  tessera_missing("Boost headers" "libboost-dev")
endif()

find_package(Catch2 2 QUIET)
if(NOT Catch2_FOUND)
  tessera_missing("Catch2 v2" "catch2")
endif()

pkg_check_modules(LIBELF QUIET IMPORTED_TARGET libelf)
if(NOT LIBELF_FOUND)
  tessera_missing("libelf" "libelf-dev")
endif()

pkg_check_modules(UNICORN QUIET IMPORTED_TARGET unicorn)
if(NOT UNICORN_FOUND)
  tessera_missing("Unicorn" "libunicorn-dev")
endif()

find_program(TESSERA_CLANG clang-14)
find_program(TESSERA_LLD ld.lld-14)
find_program(TESSERA_OBJDUMP llvm-objdump-14)
if(NOT TESSERA_CLANG)
  tessera_missing("clang-14 (compiles OpenCL C kernels to gfx90a)" "clang-14")
endif()
if(NOT TESSERA_LLD)
  tessera_missing("ld.lld-14 (links gfx90a code objects)" "lld-14")
endif()
if(NOT TESSERA_OBJDUMP)
  tessera_missing("llvm-objdump-14 (the disassembler oracle)" "llvm-14")
endif()
set(TESSERA_LIBCLC_BC /usr/lib/clc/amdgcn--amdhsa.bc)
if(NOT EXISTS ${TESSERA_LIBCLC_BC} OR NOT EXISTS /usr/include/clc/clc.h)
  tessera_missing("libclc for amdgcn" "libclc-14-dev")
endif()

find_program(TESSERA_RISCV_GCC riscv64-unknown-elf-gcc)
if(NOT TESSERA_RISCV_GCC)
  tessera_missing("the RISC-V toolchain (builds CP firmware)" "gcc-riscv64-unknown-elf")
endif()

find_program(TESSERA_VERILATOR verilator)
if(NOT TESSERA_VERILATOR)
  tessera_missing("Verilator" "verilator")
endif()

find_package(OpenCL QUIET)
if(NOT OpenCL_FOUND)
  tessera_missing("the OpenCL ICD loader (differential tests run kernels on PoCL)" "ocl-icd-opencl-dev")
endif()
