#!/usr/bin/env python3
# dap_client.py — a Debug Adapter Protocol client (Python's standard library only) that drives
# `flockbox --headless --dap 0`: breakpoints in a shipped rule, scopes, evaluate, steps, conditions,
# stop on error, malformed messages; and the final hash equals a run without the debugger.
import json, os, re, socket, subprocess, sys

flockbox = os.path.abspath(sys.argv[1])
failures = 0
passed = 0


def check(what, ok, detail=""):
    global failures, passed
    if ok:
        passed += 1
    else:
        failures += 1
        print(f"FAIL {what} {detail}")


class Client:
    """One run of flockbox with --dap 0, and its connection. Messages are read in order; events and
    responses that arrive while waiting for something else are kept."""

    def __init__(self, scenario, steps, extra=()):
        self.proc = subprocess.Popen([flockbox, "--headless", "--steps", str(steps), "--dap", "0", *extra, scenario],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        port = re.search(r"127\.0\.0\.1:(\d+)", line)
        assert port, f"no port in {line!r}"
        self.sock = socket.create_connection(("127.0.0.1", int(port.group(1))))
        self.sock.settimeout(60)
        self.buf = b""
        self.seq = 0
        self.kept = []
        self.outputs = []

    def send_raw(self, data):
        self.sock.sendall(data)

    def send(self, command, arguments=None):
        self.seq += 1
        msg = {"seq": self.seq, "type": "request", "command": command}
        if arguments is not None:
            msg["arguments"] = arguments
        body = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return self.seq

    def read(self):
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        header, rest = self.buf.split(b"\r\n\r\n", 1)
        length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
        while len(rest) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            rest += chunk
        self.buf = rest[length:]
        msg = json.loads(rest[:length])
        if msg.get("type") == "event" and msg["event"] == "output":
            self.outputs.append(msg["body"]["output"])
        return msg

    def wait(self, match):
        for i, m in enumerate(self.kept):
            if match(m):
                return self.kept.pop(i)
        while True:
            m = self.read()
            if m is None:
                return None
            if match(m):
                return m
            self.kept.append(m)

    def request(self, command, arguments=None):
        seq = self.send(command, arguments)
        return self.wait(lambda m: m.get("type") == "response" and m.get("request_seq") == seq)

    def event(self, name):
        return self.wait(lambda m: m.get("type") == "event" and m.get("event") == name)

    def start(self, breakpoints=None, errors=True):
        init = self.request("initialize", {"adapterID": "flockbox", "linesStartAt1": True, "columnsStartAt1": True})
        self.event("initialized")
        self.request("attach", {})
        replies = {}
        for path, bps in (breakpoints or {}).items():
            replies[path] = self.request("setBreakpoints", {"source": {"path": path}, "breakpoints": bps})
        self.request("setExceptionBreakpoints", {"filters": ["error"] if errors else []})
        self.request("configurationDone")
        return init, replies

    def finish(self):
        """The rest of the run: its exit status, its stdout, and the exited event's code."""
        exited = self.event("exited")
        out, _ = self.proc.communicate(timeout=600)
        return self.proc.returncode, out, exited

    def top_frame(self):
        trace = self.request("stackTrace", {"threadId": 1})
        return trace["body"]["stackFrames"][0]

    def evaluate(self, expression, frame):
        r = self.request("evaluate", {"expression": expression, "frameId": frame, "context": "watch"})
        return r["body"]["result"] if r["success"] else "error: " + r.get("message", "")

    def variables(self, reference):
        r = self.request("variables", {"variablesReference": reference})
        return {v["name"]: v for v in r["body"]["variables"]}


def hash_of(text):
    m = re.search(r"hash ([0-9a-f]{16})", text)
    return m.group(1) if m else None


def plain_run(scenario, steps, extra=()):
    r = subprocess.run([flockbox, "--headless", "--steps", str(steps), *extra, scenario], capture_output=True, text=True)
    return r.returncode, hash_of(r.stdout)


rule = os.path.abspath("behaviours/cohesion.lua")
STEER_LINE = 18   # `local k = 1 / (p.divisor * step * step)` inside steer
RETURN_LINE = 19
flock = "scripts/classic_flock.lua"
STEPS = 6
_, plain_hash = plain_run(flock, STEPS)
check("a plain run prints a hash", plain_hash is not None)

# --- A breakpoint in cohesion's steer: a and p, evaluate, next, stepOut, continue -----------------
c = Client(flock, STEPS)
init, replies = c.start({rule: [{"line": STEER_LINE}, {"line": 1}, {"line": 9999}]})
caps = init["body"]
for cap in ("supportsConfigurationDoneRequest", "supportsConditionalBreakpoints", "supportsHitConditionalBreakpoints",
            "supportsEvaluateForHovers"):
    check(f"initialize answers {cap}", caps.get(cap) is True)
check("an exception filter 'error'", [f["filter"] for f in caps.get("exceptionBreakpointFilters", [])] == ["error"])
bps = replies[rule]["body"]["breakpoints"]
check("the breakpoint in steer is verified", bps[0]["verified"] is True, bps[0])
check("a comment line is not, with a message", bps[1]["verified"] is False and "no code" in bps[1].get("message", ""), bps[1])
check("a line past the end is not", bps[2]["verified"] is False and "past the end" in bps[2].get("message", ""), bps[2])
stopped = c.event("stopped")
check("stopped at the breakpoint", stopped["body"]["reason"] == "breakpoint", stopped)
check("threads names one thread", c.request("threads")["body"]["threads"][0]["id"] == 1)
top = c.top_frame()
check("the top frame is at the breakpoint", top["source"]["path"] == rule and top["line"] == STEER_LINE, top)
scopes = {s["name"]: s["variablesReference"] for s in c.request("scopes", {"frameId": top["id"]})["body"]["scopes"]}
check("scopes Locals, Upvalues, a and p", {"Locals", "Upvalues", "a (agent view)", "p (params)"} <= set(scopes), scopes)
params = c.variables(scopes.get("p (params)", 0))
check("p holds the scenario's divisor", params.get("divisor", {}).get("value") == "2000", params)
local_vars = c.variables(scopes.get("Locals", 0))
check("Locals hold a, p and step", {"a", "p", "step"} <= set(local_vars), local_vars.keys())
check("a opens as a table", local_vars.get("a", {}).get("variablesReference", 0) > 0)
check("evaluate p.divisor * 2", c.evaluate("p.divisor * 2", top["id"]) in ("4000", "4000.0"))
first_id = c.evaluate("a.id", top["id"])
check("evaluate a.id gives an integer", re.fullmatch(r"\d+", first_id) is not None, first_id)
check("evaluate calls fb: the step being computed", c.evaluate("fb.time()", top["id"]) == "0")
check("a bad expression is an error, not a crash", c.evaluate("a..", top["id"]).startswith("error"))
c.request("next", {"threadId": 1})
stopped = c.event("stopped")
top = c.top_frame()
check("next stops at the next line", stopped["body"]["reason"] == "step" and top["line"] == RETURN_LINE, top)
check("the local k is there after next", c.evaluate("k", top["id"]) == "0.2", c.evaluate("k", top["id"]))
c.request("stepOut", {"threadId": 1})
stopped = c.event("stopped")
check("stepOut stops in the next rule run", stopped["body"]["reason"] == "step", stopped)
c.request("continue", {"threadId": 1})
stopped = c.event("stopped")
top = c.top_frame()
scopes = {s["name"]: s["variablesReference"] for s in c.request("scopes", {"frameId": top["id"]})["body"]["scopes"]}
view = c.variables(scopes.get("a (agent view)", 0))
check("the next agent's view holds the fields the rule reads", {"x", "cx"} <= set(view), view.keys())
check("another agent", c.evaluate("a.id", top["id"]) != first_id)
c.request("setBreakpoints", {"source": {"path": rule}, "breakpoints": []})
c.request("continue", {"threadId": 1})
code, out, exited = c.finish()
check("the run ends with exit 0 and an exited event", code == 0 and exited and exited["body"]["exitCode"] == 0, (code, exited))
check("stopping and stepping leave the hash as without a debugger", hash_of(out) == plain_hash, (hash_of(out), plain_hash))

# --- Conditions: agent 12 from its second hit; the world's `step` (before the rule's own local step)
c = Client(flock, STEPS)
c.start({rule: [{"line": STEER_LINE, "condition": "a.id == 12", "hitCondition": ">= 2"},
                {"line": STEER_LINE - 1, "condition": "step >= 4 and a.id == 3"}]})
seen = []
while True:
    m = c.wait(lambda m: m.get("type") == "event" and m["event"] in ("stopped", "exited"))
    if m is None or m["event"] == "exited":
        break
    top = c.top_frame()
    seen.append((top["line"], c.evaluate("a.id", top["id"]), c.evaluate("fb.time()", top["id"])))
    c.request("continue", {"threadId": 1})
code, out, _ = c.finish()
expected = [(STEER_LINE, "12", str(s)) for s in range(1, STEPS)] + [(STEER_LINE - 1, "3", str(s)) for s in range(4, STEPS)]
check("conditions stop for agent 12 from its second hit, and agent 3 from step 4", sorted(seen) == sorted(expected), seen)
check("the conditional run's hash is the plain one", hash_of(out) == plain_hash)

# --- Hostile conditions and expressions never hang the run (they run under an instruction budget) -----
c = Client(flock, STEPS)
c.start({rule: [{"line": STEER_LINE, "condition": "while true do end"},
                {"line": RETURN_LINE, "condition": "error('no good')"},
                {"line": STEER_LINE - 1, "condition": "a.id == 5 and step == 2"}]})
stopped = c.event("stopped")
top = c.top_frame()
check("after looping and raising conditions, the third breakpoint stops", stopped and stopped["body"]["reason"] == "breakpoint"
      and top["line"] == STEER_LINE - 1, (stopped, top))
too_long = [o for o in c.outputs if "took too long" in o]
check("a looping condition is reported once, naming its breakpoint's file:line", len(too_long) == 1
      and f"cohesion.lua:{STEER_LINE}" in too_long[0], c.outputs)
raised = [o for o in c.outputs if "no good" in o]
check("a raising condition is reported once, as false", len(raised) == 1 and f"cohesion.lua:{RETURN_LINE}" in raised[0], c.outputs)
looped = c.evaluate("(function() while true do end end)()", top["id"])
check("an evaluate that loops is an error saying so", looped.startswith("error") and "took too long" in looped, looped)
nested = c.evaluate("coroutine.wrap(function() while true do end end)()", top["id"])
check("... also inside a coroutine it makes", nested.startswith("error") and "took too long" in nested, nested)
check("evaluate still works after", c.evaluate("a.id", top["id"]) == "5")
check("an assignment does not reach the frame", c.evaluate("a = 1", top["id"]).startswith("error")
      and c.evaluate("type(a)", top["id"]) == '"table"')
c.request("setBreakpoints", {"source": {"path": rule}, "breakpoints": []})
c.request("continue", {"threadId": 1})
code, out, _ = c.finish()
check("the run goes on to the same hash", code == 0 and hash_of(out) == plain_hash, (code, hash_of(out), plain_hash))

# --- The line hook only in files with a breakpoint: stops on both sides of a call between files ---------
calls = "tests/data/dap_calls.lua"
caller = os.path.abspath("tests/behaviours/calls_then_scales.lua")
library = os.path.abspath("behaviours/lib/steering.lua")
_, calls_hash = plain_run(calls, STEPS)
c = Client(calls, STEPS)
c.start({caller: [{"line": 6}], library: [{"line": 113}]})
places = []
for _ in range(4):
    stopped = c.event("stopped")
    top = c.top_frame()
    places.append((os.path.basename(top["source"]["path"]), top["line"]))
    c.request("continue", {"threadId": 1})
check("stops in the library, then after the call back in the rule", places == [("steering.lua", 113), ("calls_then_scales.lua", 6)] * 2,
      places)
c.request("setBreakpoints", {"source": {"path": caller}, "breakpoints": []})
c.request("setBreakpoints", {"source": {"path": library}, "breakpoints": []})
c.request("continue", {"threadId": 1})
code, out, _ = c.finish()
check("the calls run's hash is the plain one", code == 0 and hash_of(out) == calls_hash, (code, hash_of(out), calls_hash))

# --- A breakpoint in a scenario's hook (on_step), with a condition -------------------------------------
hooked = "tests/data/param_hook.lua"
_, hooked_hash = plain_run(hooked, STEPS)
c = Client(hooked, STEPS)
c.start({os.path.abspath(hooked): [{"line": 18, "condition": "step == 3"}]})
stopped = c.event("stopped")
top = c.top_frame()
check("stopped in the scenario's on_step", stopped["body"]["reason"] == "breakpoint" and top["source"]["path"].endswith(hooked)
      and top["line"] == 18, top)
check("its argument is there", c.evaluate("step", top["id"]) == "3")
c.request("continue", {"threadId": 1})
code, out, _ = c.finish()
check("the hook run's hash is the plain one", code == 0 and hash_of(out) == hooked_hash, (code, hash_of(out), hooked_hash))

# --- Stop on error: a rule that fails on purpose ---------------------------------------------------
failing = "tests/data/fails_later.lua"
plain_code, failing_hash = plain_run(failing, 30)
c = Client(failing, 30)
c.start()
stopped = c.event("stopped")
check("stopped on the error", stopped["body"]["reason"] == "exception" and "broke at" in stopped["body"].get("text", ""), stopped)
top = c.top_frame()
check("the top frame is the failing rule's error line", top["source"]["path"].endswith("breaks_at.lua") and top["line"] == 7, top)
check("its locals are there", c.evaluate("t", top["id"]) == "1.0" or c.evaluate("t", top["id"]).startswith("1"),
      c.evaluate("t", top["id"]))
c.request("continue", {"threadId": 1})
code, out, exited = c.finish()
check("the run goes on as without a debugger (exit 3, same hash)", code == plain_code == 3 and hash_of(out) == failing_hash,
      (code, plain_code, hash_of(out), failing_hash))

# --- Malformed messages, unknown requests, pause, disconnect (all before configurationDone: the run waits)
c = Client(flock, STEPS)
c.send_raw(b"Content-Length: abc\r\n\r\n")
c.send_raw(b"Content-Length: 5\r\n\r\n{bad}")
c.send_raw(b"Content-Length: 4\r\n\r\n[1,2")  # a body that is not an object, cut short
init = c.request("initialize", {"adapterID": "flockbox"})
check("after malformed messages, initialize is answered", init is not None and init["success"], init)
check("each malformed message is reported", sum("dropped a message" in o for o in c.outputs) >= 3, c.outputs)
unknown = c.request("fooBar", {})
check("an unknown request gets success=false with a message", unknown["success"] is False and "fooBar" in unknown["message"])
not_stopped = c.request("stackTrace", {"threadId": 1})
check("stackTrace while running is refused", not_stopped["success"] is False)
c.request("pause", {"threadId": 1})
c.request("configurationDone")
stopped = c.event("stopped")
check("pause stops at the next line", stopped is not None and stopped["body"]["reason"] == "pause", stopped)
c.request("disconnect", {})
out, _ = c.proc.communicate(timeout=600)
check("after disconnect the run finishes as without a debugger", c.proc.returncode == 0 and hash_of(out) == plain_hash)

print(f"dap_client: {passed} passed, {failures} failed")
sys.exit(1 if failures else 0)
