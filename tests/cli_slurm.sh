#!/usr/bin/env bash
# cli_slurm.sh — the script `flockbox sweep --slurm` prints, submitted with sbatch to a real single-node Slurm (munge, slurmctld, slurmd started here, private to the test), gives the same results as a local sweep, byte for byte.
set -euo pipefail
flockbox=$(realpath "$1")
repo=$PWD
source "$(dirname "$0")/check_lib.sh"

# Slurm's daemons run as root here (SlurmUser=root: no slurm account needed, tasks run as the
# submitter). CI (CI=true, root, Debian 12 with setup.sh's packages) must run this test; elsewhere a
# missing piece is a visible skip.
missing=""
for tool in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd munge sbatch squeue sinfo scontrol scancel flock; do
  command -v "$tool" >/dev/null || missing+=" $tool"
done
[ "$(id -u)" -eq 0 ] || missing+=" root (the test's Slurm runs as root)"
if [ -n "$missing" ]; then
  if [ "${CI:-}" = true ]; then
    echo "FAIL cannot start a Slurm: missing$missing (setup.sh installs slurm-wlm and munge)"
    exit 1
  fi
  echo "SKIP cannot start a Slurm: missing$missing (packages slurm-wlm and munge; ./setup.sh installs them)"
  exit 77
fi

pid_of() { [ -s "$1" ] && cat "$1"; }  # pid_of PIDFILE
stop() {  # stop PIDFILE NAME: TERM, up to 10 s to end, then KILL; only a process of that name
  local pid
  pid=$(pid_of "$1") || return 0
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}
stop_all() {  # stop_all SLURM_FOLDER: the daemons whose pid files are there, the clients' last first
  stop "$1/slurmd.pid" slurmd
  stop "$1/slurmctld.pid" slurmctld
  stop "$1/munge/munged.pid" munged
}

# One test Slurm at a time on this machine (the Release and the sanitizer builds' copies of this
# test, or other worktrees): the second waits for the first, then fails clearly. The daemons are
# started without the lock's descriptor, so none can hold it past the test.
lock=/tmp/flockbox-cli_slurm.lock
exec 9>>"$lock"
if ! flock -w 240 9; then
  echo "FAIL another cli_slurm has held $lock for 240 s; not starting a second Slurm"
  exit 1
fi

# A test killed outright (SIGKILL) could not stop its daemons: the lock file names its folder, and
# the next test stops what that folder's pid files name before starting its own.
old=$(head -1 "$lock")
if [ -n "$old" ] && [ -f "$old/slurm.conf" ] && head -1 "$old/slurm.conf" | grep -q 'tests/cli_slurm.sh'; then
  echo "note: stopping the daemons a killed cli_slurm left in $old"
  stop_all "$old"
  rm -rf "$(dirname "$old")"
fi

slurm=$tmp/slurm  # everything of the test's Slurm: config, keys, state, spool, logs, pid files
mkdir -p "$slurm"/{munge,state,spool,log}
chmod 0711 "$tmp" "$slurm"  # munged refuses a socket in a folder others cannot enter (mktemp's 0700)
printf '%s\n' "$slurm" >"$lock"
export SLURM_CONF=$slurm/slurm.conf  # every client (sbatch, squeue, sinfo, scontrol, scancel) reads this one

logs() {  # the daemons' last words, for a failure
  for f in "$slurm"/log/*.log; do
    [ -f "$f" ] && { echo "---- the tail of $f"; tail -n 25 "$f"; }
  done
}
cleanup() {
  set +e
  if [ -S "$slurm/munge/munge.sock" ] && [ -n "$(pid_of "$slurm/slurmctld.pid")" ]; then
    timeout -k 2 10 scancel --quiet --user="$(id -un)"
    for _ in $(seq 50); do  # the tasks end before their slurmd does: no slurmstepd outlives the test
      [ -z "$(timeout -k 2 5 squeue -h -o %i 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  stop_all "$slurm"
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP  # a signal (Ctrl-C, kill) ends the test through the EXIT trap too
trap 'exit 130' INT
trap 'exit 143' TERM
fatal() {  # fatal MESSAGE: what did not work, the daemons' logs, exit 1
  echo "FAIL $1"
  logs
  exit 1
}

# Two free ports in the 16800s, far from Slurm's 6817/6818: a system Slurm never clashes.
listening() {  # the TCP ports something listens on
  local _ local_address _ state _
  for f in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$f" ] || continue
    while read -r _ local_address _ state _; do
      [ "$state" = 0A ] && echo $((16#${local_address##*:}))
    done < <(tail -n +2 "$f")
  done
}
ports=()
taken=" $(listening | tr '\n' ' ') "
for port in $(seq 16817 16899); do
  [[ $taken == *" $port "* ]] || ports+=("$port")
  [ ${#ports[@]} -eq 2 ] && break
done
[ ${#ports[@]} -eq 2 ] || fatal "no two free TCP ports in 16817-16899 for slurmctld and slurmd"

# munge: a key of our own (munged wants it unreadable to others) and a daemon on our own socket.
dd if=/dev/urandom of="$slurm/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$slurm/munge/munge.key"
timeout -k 5 20 /usr/sbin/munged --socket="$slurm/munge/munge.sock" --key-file="$slurm/munge/munge.key" \
  --pid-file="$slurm/munge/munged.pid" --log-file="$slurm/log/munged.log" --seed-file="$slurm/munge/munged.seed" 9>&- ||
  fatal "munged did not start"
timeout -k 2 10 munge -S "$slurm/munge/munge.sock" -n | timeout -k 2 10 unmunge -S "$slurm/munge/munge.sock" >/dev/null ||
  fatal "munged started but does not encode and decode a credential"

# One node, this machine, as slurmd -C sees it. Plugins that need neither cgroups nor systemd;
# no accounting database, so each task's end is written by jobcomp/filetxt instead of sacct.
host=$(hostname -s)
node=$(/usr/sbin/slurmd -C | head -1 | sed 's/^NodeName=[^ ]* //')
cat >"$SLURM_CONF" <<EOF
# The private single-node Slurm of tests/cli_slurm.sh; made and removed by the test.
ClusterName=flockboxtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$slurm/munge/munge.sock
StateSaveLocation=$slurm/state
SlurmdSpoolDir=$slurm/spool
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/log/slurmctld.log
SlurmdLogFile=$slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$slurm/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=10 State=UP
EOF
timeout -k 5 30 /usr/sbin/slurmctld -f "$SLURM_CONF" 9>&- || fatal "slurmctld did not start (exit $?)"
timeout -k 5 30 /usr/sbin/slurmd -f "$SLURM_CONF" 9>&- || fatal "slurmd did not start (exit $?)"
idle=false
for _ in $(seq 60); do  # 30 s
  if [ "$(timeout -k 2 5 sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ]; then idle=true; break; fi
  sleep 0.5
done
if ! $idle; then
  for daemon in munge/munged slurmctld slurmd; do  # which one is gone, if one is
    pid=$(pid_of "$slurm/$daemon.pid") && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "${daemon#munge/}" ] ||
      echo "${daemon#munge/} is not running (no live process in $slurm/$daemon.pid)"
  done
  fatal "the node $host is not idle 30 s after slurmctld and slurmd started (sinfo: $(sinfo -h -o '%T %E' 2>&1))"
fi

# ---- the sweeps ----------------------------------------------------------------------------------
# submit NAME SCRIPT FOLDER: sbatch from FOLDER (not where the script was written: it must not
# matter); the array's job id goes into $tmp/NAME.job.
submit() {
  (cd "$3" && timeout -k 5 30 sbatch --parsable "$2") >"$tmp/$1.job" || fatal "sbatch refused $2"
  check "$1: sbatch gives a job id" grep -qx '[0-9][0-9]*' "$tmp/$1.job"
}
# tasks NAME: the array's ended tasks, one line each: "TASK STATE EXIT_CODE", from jobcomp/filetxt.
tasks() {
  local job
  job=$(cat "$tmp/$1.job")
  [ -f "$slurm/log/jobcomp.txt" ] || return 0
  grep " ArrayJobId=$job " "$slurm/log/jobcomp.txt" |
    sed 's/.* JobState=\([A-Z_]*\) .* ArrayTaskId=\([0-9]*\) .* ExitCode=\([0-9:]*\).*/\2 \1 \3/' | sort -n
}
# wait_for NAME COUNT: until COUNT tasks of the array have ended, at most 120 s.
wait_for() {
  for _ in $(seq 240); do
    [ "$(tasks "$1" | wc -l)" -ge "$2" ] && return 0
    sleep 0.5
  done
  echo "---- squeue"; squeue 2>&1 || true
  fatal "$1: $2 tasks have not all ended in 120 s"
}
sweep() { timeout -k 5 120 "$flockbox" sweep "$@"; }

# 1. The plain case: a 2 x 2 grid x 2 seeds, the experiment and the out folder relative to the
# repository, where the script is written; submitted from elsewhere.
exp=tests/data/sweep_flock.lua
plain=(--seeds 1-2 --quiet)
sweep "$exp" "${plain[@]}" --jobs 2 --out "$tmp/local" >/dev/null
sweep "$exp" "${plain[@]}" --out "$tmp/viaslurm" --slurm >"$tmp/plain.sbatch"
check "plain: the script is an array of 8 runs" grep -qx '#SBATCH --array=1-8' "$tmp/plain.sbatch"
submit plain "$tmp/plain.sbatch" "$tmp"

# 2. A folder named as Slurm's #SBATCH parser and its %-patterns do not expect: the work folder
# and the out folder hold a space, '#', '%' and quotes. (A backslash Slurm cannot take: refused.)
odd=$tmp/'work #1 50%x "q" it'\''s'
mkdir -p "$odd"
ln -s "$repo/scripts" "$odd/scripts"
cp "$exp" "$odd/sweep.lua"
oddout='out #2 %A_%a "q" 5%'
status=0
(cd "$odd" && sweep sweep.lua --seeds 1 --quiet --out 'back\slash' --slurm >/dev/null 2>"$tmp/refused") || status=$?
check "an out folder with a backslash: exit 2" test $status -eq 2
check "saying why" grep -q "sweep: sweep.lua: out: Slurm cannot write its output under '.*/back.slash': slurmstepd drops a backslash" "$tmp/refused"
(cd "$odd" && sweep sweep.lua --seeds 1 --quiet --jobs 2 --out local >/dev/null)
(cd "$odd" && sweep sweep.lua --seeds 1 --quiet --out "$oddout" --slurm) >"$tmp/odd.sbatch"
submit odd "$tmp/odd.sbatch" "$tmp"

# 3. Runs that fail: their tasks must end FAILED with the sweep's exit status 3, or the state
# check below could not fail.
fails=(--scenario tests/data/sweep_outcomes.lua --grid world.width=200 --seeds 1-2 --steps 20 --quiet)
sweep "${fails[@]}" --out "$tmp/fails" --slurm >"$tmp/fails.sbatch"
submit fails "$tmp/fails.sbatch" "$tmp"

# 4. A folder the node cannot enter (moved after the script was written): Slurm would run the
# task in /tmp; the script must say so and exit 2 instead.
mkdir -p "$tmp/here"
ln -s "$repo/tests" "$tmp/here/tests"
(cd "$tmp/here" && sweep --scenario tests/data/sweep_outcomes.lua --seeds 1 --steps 20 --quiet --out "$tmp/moved_out" \
  --slurm) >"$tmp/moved.sbatch"
mv "$tmp/here" "$tmp/there"
submit moved "$tmp/moved.sbatch" "$tmp"

wait_for plain 8
wait_for odd 4
wait_for fails 2
wait_for moved 1

check "plain: every task COMPLETED with exit code 0" test "$(tasks plain)" = "$(printf '%s COMPLETED 0:0\n' 1 2 3 4 5 6 7 8)"
check "plain: every run's status says complete" \
  test "$(grep -l '^state complete$' "$tmp/viaslurm"/runs/*.status | wc -l)" -eq 8
status=0
sweep "$exp" "${plain[@]}" --out "$tmp/viaslurm" --collect >/dev/null || status=$?
check "plain: --collect after the array exits 0" test $status -eq 0
for f in results.csv summary.csv; do
  check "plain: $f the same bytes as the local sweep" cmp "$tmp/local/$f" "$tmp/viaslurm/$f"
done
check "plain: each task's Slurm output is in the out folder" test "$(ls "$tmp/viaslurm"/runs/slurm-*_*.out | wc -l)" -eq 8

check "odd names: every task COMPLETED with exit code 0" test "$(tasks odd)" = "$(printf '%s COMPLETED 0:0\n' 1 2 3 4)"
status=0
(cd "$odd" && sweep sweep.lua --seeds 1 --quiet --out "$oddout" --collect >/dev/null) || status=$?
check "odd names: --collect exits 0" test $status -eq 0
for f in results.csv summary.csv; do
  check "odd names: $f the same bytes as the local sweep" cmp "$odd/local/$f" "$odd/$oddout/$f"
done
check "odd names: the Slurm output lands in the out folder, % and all" \
  test "$(ls "$odd/$oddout"/runs/slurm-*_*.out | wc -l)" -eq 4

check "failing runs: the tasks end FAILED, exit code 3" test "$(tasks fails)" = "$(printf '%s FAILED 3:0\n' 1 2)"

check "a folder gone: the task ends FAILED, exit code 2" test "$(tasks moved)" = "1 FAILED 2:0"
check "a folder gone: the task's output says which folder" \
  grep -q "cannot enter $tmp/here" "$tmp/moved_out"/runs/slurm-*_1.out

[ $failures -eq 0 ] || logs
finish
