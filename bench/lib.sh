# SPDX-License-Identifier: GPL-2.0-or-later
# The helpers the bench scripts share (run.sh, randread.sh, commit.sh source this file).

log() { echo "== $*" >&2; }
# An awk expression's value with $2 decimals (default 2).
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }
# Seconds taken by a command (its output discarded).
timed() {
    local t0=$EPOCHREALTIME
    "$@" > /dev/null
    calc "$EPOCHREALTIME - $t0" 4
    echo
}
# key=value lines from pakbench into variables named PREFIX_key.
load() {
    local prefix=$1 line
    shift
    while IFS= read -r line; do
        [[ $line == *=* ]] && printf -v "${prefix}_${line%%=*}" '%s' "${line#*=}"
    done < <("$@")
}
# "met" or "NOT met": whether an awk condition holds.
verdict() { awk "BEGIN { exit !($1) }" && echo "met" || echo "NOT met"; }
# MB/s (one decimal) of $1 bytes in $2 seconds (an awk expression).
mbps() { calc "$1 / ($2) / 1e6" 1; }
