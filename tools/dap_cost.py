#!/usr/bin/env python3
# tools/dap_cost.py — what the debugger costs: callgrind's instructions in fbRules_RunSkipping per agent-step of the classic flock, without --dap and with breakpoints of each kind (docs/writing-rules.md, "What it costs").
# Usage: python3 tools/dap_cost.py build/flockbox [CASE ...]   (CASE: plain, none, other_file, dead_line, condition)
import json, os, re, socket, subprocess, sys, tempfile

AGENTS, STEPS = 300, 100
SCENARIO = "scripts/classic_flock.lua"
CASES = {
    "plain": None,                                                       # no --dap
    "none": {},                                                          # --dap, no breakpoint
    "other_file": {"behaviours/wander.lua": [{"line": 24}]},             # in a file this run never calls
    "dead_line": {"behaviours/soft_bounds.lua": [{"line": 19}]},         # in a rule it calls, a line that never runs
    "condition": {"behaviours/cohesion.lua": [{"line": 18, "condition": "a.id == -1"}]},  # evaluated per agent, never true
}


def drive(proc, breakpoints):
    """Connects, sets the breakpoints, lets the run go and reads until it ends."""
    port = None
    while port is None:
        line = proc.stderr.readline()
        if not line:
            sys.exit("flockbox ended before it listened")
        m = re.search(r"127\.0\.0\.1:(\d+)", line)
        port = m and int(m.group(1))
    sock = socket.create_connection(("127.0.0.1", port))
    seq = 0

    def send(command, arguments):
        nonlocal seq
        seq += 1
        body = json.dumps({"seq": seq, "type": "request", "command": command, "arguments": arguments}).encode()
        sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    send("initialize", {"adapterID": "flockbox"})
    send("attach", {})
    for path, bps in breakpoints.items():
        send("setBreakpoints", {"source": {"path": os.path.abspath(path)}, "breakpoints": bps})
    send("setExceptionBreakpoints", {"filters": []})
    send("configurationDone", {})
    while sock.recv(65536):
        pass


def cost(flockbox, case):
    out = tempfile.NamedTemporaryFile(suffix=".callgrind", delete=False).name
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", flockbox, "--headless", "--threads", "1",
           "--steps", str(STEPS), SCENARIO]
    bps = CASES[case]
    if bps is not None:
        cmd[-1:-1] = ["--dap", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if bps is not None:
        drive(proc, bps)
    proc.wait()
    report = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], capture_output=True, text=True).stdout
    os.unlink(out)
    m = re.search(r"^\s*([\d,]+)\s.*fbRules_RunSkipping", report, re.M)
    return int(m.group(1).replace(",", "")) / (AGENTS * STEPS) if m else float("nan")


flockbox = sys.argv[1]
for case in sys.argv[2:] or list(CASES):
    print(f"{case:11s} {cost(flockbox, case):8.0f} instructions per agent-step", flush=True)
