#!/usr/bin/env bash
# Run a pytest selection while two CPU-bound co-runners keep the machine busy.
#
#   scripts/corun.sh tests/server/            # a selection (any pytest arguments)
#   CORUNNERS=3 scripts/corun.sh -x tests/server/test_timers.py
#
# The suite must not depend on how fast the machine is (no wall-clock windows; deadlines are
# checked on the hall's clock, sanh/server/clock.py): this is the check that it does not.
# Each co-runner is `python3 -c 'while True: pass'`; they are stopped (by their own process
# ids) when the run ends, however it ends. Prints the selection's wall time and exits with
# pytest's status.
set -u
cd "$(dirname "$0")/.."
count="${CORUNNERS:-2}"
pids=()
stop() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    wait 2>/dev/null
}
trap stop EXIT INT TERM
for _ in $(seq "$count"); do
    python3 -c 'while True: pass' &
    pids+=("$!")
done
echo "corun: $count CPU-bound co-runners (${pids[*]}), pytest $*" >&2
started=$(date +%s)
.venv/bin/pytest -p no:cacheprovider "$@"
status=$?
echo "corun: pytest exited $status after $(( $(date +%s) - started )) s beside $count co-runners" >&2
exit "$status"
