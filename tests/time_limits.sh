# time_limits.sh — the one way the cli_*.sh tests bound a command: CPU time for what it does, wall time only for a hang.
# Sourced by a test (check_lib.sh sources it).

# What a test checks never depends on how fast the machine is: a command is given a
# budget of CPU time, which a run the engine's CPU-time watchdog must stop needs however busy the
# machine is, and the only wall-clock limit is a guard against a hang (a process blocked without
# using the CPU), long enough for a 2-core machine kept busy by twenty other processes.
hang_s=${FB_TEST_HANG_S:-900}

# bounded CPU_S COMMAND...: COMMAND with CPU_S seconds of CPU time for each of its processes (the
# kernel's RLIMIT_CPU, set by prlimit: past it SIGXCPU ends the process, status 152) and the hang guard
# (status 124). For a command run in the background, write the same line out instead of calling the
# function: `prlimit --cpu=CPU_S:HARD timeout -k 5 "$hang_s" COMMAND &`, so that $! is the command (a
# function run with & is a subshell, which ignores the SIGINT a test sends to stop it).
bounded() {
  local cpu=$1
  shift
  prlimit --cpu="$cpu:$((cpu + 5))" timeout -k 5 "$hang_s" "$@"
}
