#!/bin/bash
# The simulated cycles of every workload on every reference netlist, as a
# tab-separated table (netlist, workload, size, cycles, PASS/FAIL). Two
# such tables, taken before and after a change, show what the change did to
# timing: `diff` them for a cycle-identity check, or give both to
# `scripts/cycle_table.sh -c BEFORE AFTER` for a Markdown before/after table
# with the change in percent.
#
#   scripts/cycle_table.sh [-N "net1 net2 ..."] [-w "w1 w2 ..."] BIN > table.tsv
#   scripts/cycle_table.sh -c BEFORE.tsv AFTER.tsv
#
# Sizes are chosen so that the whole table takes minutes, not hours: each
# workload runs at its `quick` size below (its default where none is given).
# A run that does not PASS is recorded as FAIL with cycles "-", and the
# script goes on. Run from the source tree.
set -euo pipefail

netlists="small_gpu r9_nano chiplet4_small cpelide_4chiplet mi200_2chiplet"
workloads=""

# Sizes for a quick table (workload=size); the rest run at their defaults.
declare -A quick=(
  [babelstream]=262144 [bfs]=20000 [conv2d]=256 [fir]=262144 [histogram]=262144
  [kmeans]=20000 [libm]=262144 [const_table]=262144 [nbody]=1024 [private_index]=65536
  [pruned_gemv_0]=512 [pruned_gemv_50]=512 [pruned_gemv_90]=512 [reduction]=262144
  [relu]=262144 [saxpy]=262144 [scan]=262144 [sgemm16]=128 [sgemm32]=128 [spmv]=20000
  [stencil2d]=256 [transpose]=512 [vector_add]=262144
  [pruned_gemm_0]=32 [pruned_gemm_20]=32 [pruned_gemm_40]=32 [pruned_gemm_60]=32
  [pruned_gemm_unrolled_0]=32 [pruned_gemm_unrolled_20]=32 [pruned_gemm_unrolled_40]=32 [pruned_gemm_unrolled_60]=32
)

# A workload in only one of the tables (added or removed between them) gets
# "-" for the other side's cycles, so that no row is dropped without a word.
compare() {
  echo "| netlist | workload | size | cycles before | cycles after | change |"
  echo "|---|---|---:|---:|---:|---:|"
  join -t $'\t' -a 1 -a 2 -e - -o 0,1.2,2.2,1.3,2.3 \
       <(awk -F'\t' '{print $1"/"$2"\t"$3"\t"$4}' "$1" | sort) \
       <(awk -F'\t' '{print $1"/"$2"\t"$3"\t"$4}' "$2" | sort) |
    awk -F'\t' '{
      split($1, k, "/")
      size = ($2 == "-" || $2 == $3) ? $3 : ($3 == "-" ? $2 : $2 " -> " $3)
      change = ($4 == "-" || $5 == "-") ? "-" : sprintf("%+.1f %%", 100 * ($5 - $4) / $4)
      printf "| %s | %s | %s | %s | %s | %s |\n", k[1], k[2], size, $4, $5, change
    }'
}

while getopts "N:w:c" opt; do
  case $opt in
    N) netlists=$OPTARG ;;
    w) workloads=$OPTARG ;;
    c) shift $((OPTIND - 1)); [[ $# -eq 2 ]] || { echo "usage: $0 -c BEFORE AFTER" >&2; exit 2; }
       compare "$1" "$2"; exit 0 ;;
    *) echo "usage: $0 [-N NETLISTS] [-w WORKLOADS] BIN | -c BEFORE AFTER" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 && -x $1 ]] || { echo "usage: $0 [-N NETLISTS] [-w WORKLOADS] BIN | -c BEFORE AFTER" >&2; exit 2; }
bin=$1
[[ -n $workloads ]] || workloads=$("$bin" workload --list | awk '/^  [a-z]/ {print $1}')

for net in $netlists; do
  file=json/platforms/$net.json
  [[ -f $file ]] || { echo "$0: no netlist $file" >&2; exit 2; }
  for w in $workloads; do
    size=${quick[$w]:-}
    out=$("$bin" workload "$w" --netlist "$file" ${size:+--size "$size"} 2>&1) || true
    result=$(awk -v w="$w" '$1 == "workload" && $2 == w {print $NF; exit}' <<<"$out")
    cycles=$(awk '/^  cycles/ {print $2; exit}' <<<"$out")
    shown_size=$(awk '/^  size/ {print $2; exit}' <<<"$out")
    [[ $result == PASS ]] || cycles="-"
    printf "%s\t%s\t%s\t%s\t%s\n" "$net" "$w" "${shown_size:-${size:-default}}" "${cycles:--}" "${result:-FAIL}"
  done
done
