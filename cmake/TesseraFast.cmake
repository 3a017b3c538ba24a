# The fast build (scripts/build.sh --fast): link-time optimisation and
# profile-guided optimisation with GCC, for long timing-mode runs. The
# simulator's time goes to thousands of small functions spread over many
# files (compute units, caches, crossbars, DRAM), so inlining across files
# and laying out code by measured branch frequencies pay off; the results do
# not change (no fast-math, no FP contraction: -std=c++17 keeps it off).
#
# TESSERA_LTO        ON: -flto for every target.
# TESSERA_PGO        "generate": instrument, so that runs write .gcda profiles;
#                    "use": optimise with them; empty: neither.
# TESSERA_PGO_DIR    where the profiles are written and read. The object
#                    paths in their names are taken relative to the build
#                    directory, so one build directory can train and another
#                    use the profile.
option(TESSERA_LTO "Link-time optimisation" OFF)
set(TESSERA_PGO "" CACHE STRING "Profile-guided optimisation stage: empty, generate or use")
set(TESSERA_PGO_DIR "" CACHE PATH "Directory of the training profiles (.gcda)")

if(TESSERA_LTO)
  include(CheckIPOSupported)
  check_ipo_supported(RESULT lto_ok OUTPUT lto_why LANGUAGES CXX)
  if(NOT lto_ok)
    message(FATAL_ERROR "TESSERA_LTO: this compiler cannot do link-time optimisation: ${lto_why}")
  endif()
  set(CMAKE_INTERPROCEDURAL_OPTIMIZATION ON)
endif()

if(TESSERA_PGO)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "TESSERA_PGO needs GCC (found ${CMAKE_CXX_COMPILER_ID})")
  endif()
  if(NOT TESSERA_PGO_DIR)
    message(FATAL_ERROR "TESSERA_PGO=${TESSERA_PGO} needs TESSERA_PGO_DIR, the directory of the profiles")
  endif()
  set(pgo_common -fprofile-dir=${TESSERA_PGO_DIR} -fprofile-prefix-path=${CMAKE_BINARY_DIR})
  if(TESSERA_PGO STREQUAL "generate")
    # The simulator is single-threaded: plain counter updates suffice.
    add_compile_options(${pgo_common} -fprofile-generate -fprofile-update=single)
    add_link_options(-fprofile-generate)
  elseif(TESSERA_PGO STREQUAL "use")
    # Code the training did not reach is optimised as usual, not for size
    # (-fprofile-partial-training), and its missing profile is no warning.
    add_compile_options(${pgo_common} -fprofile-use -fprofile-partial-training -Wno-missing-profile)
    add_link_options(-fprofile-use -fprofile-partial-training)
  else()
    message(FATAL_ERROR "TESSERA_PGO must be empty, 'generate' or 'use', not '${TESSERA_PGO}'")
  endif()
endif()
