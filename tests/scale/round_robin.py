#!/usr/bin/env python3
"""Three instances of samples/mcp_server behind Debian's nginx (Python 3 stdlib only).

    round_robin.py MCP_SERVER [NGINX]

Starts three instances on free loopback ports, sharing one key ring through the environment
(ELICIT_STATE_SECRET and _KEY_ID, ELICIT_STATE_SECRET_NEXT and _KEY_ID_NEXT,
ELICIT_STATE_SEAL_WITH), and nginx in front of them as the current user (its own prefix, pid,
logs and temp paths in a temporary directory; `daemon off`, stopped by this script), with
nginx.conf.in beside this file: 2026-07-28 requests round robin with no affinity, everything
else (2025-11-25 sessions) sticky. Then checks, each failure stopping the test:
  - a Host that is not loopback is refused (403) by nginx, a foreign Origin by the instance;
  - 2026-07-28 multi-round flows complete with each round on another instance (nginx names the
    instance in X-Upstream), and every instance serves;
  - a state sealed by one instance opens on another, talked to directly; an instance with
    another secret under the same key id refuses it (the control);
  - a key rotation in the three documented phases, each a rolling replacement of the instances
    one by one (the new instance started, nginx reloaded without the old one, the old one
    stopped once nginx's old worker is gone), while a client runs flows all along and other
    flows are left pending across each phase: no request fails, no pending state is refused;
    states are sealed with the first key until phase 2 and with the next after; once phase 3
    retired the first key, a state it sealed is refused (why phase 3 waits out the states'
    time to live);
  - 2025-11-25: a session through nginx, with elicitation/create on its SSE stream and the
    answer POSTed apart, works with affinity; without it (a round-robin path kept for this
    control), the session is unknown to the other instances (404);
  - every instance ends by SIGTERM, nginx exits 0 on SIGQUIT, no instance's stderr holds a
    sanitizer report, each "requestState refused" line is one a control caused, and nginx's
    error log holds nothing at level error or above.
"""
import base64
import http.client
import json
import os
import pwd
import grp
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SERVER = os.path.abspath(sys.argv[1])
NGINX = sys.argv[2] if len(sys.argv) > 2 else shutil.which("nginx", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
HERE = os.path.dirname(os.path.abspath(__file__))
SANITIZER = re.compile(r"ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|"
                       r"Segmentation fault|terminate called|Assertion .* failed")
STATE_VARIABLES = ("ELICIT_STATE_SECRET", "ELICIT_STATE_KEY_ID", "ELICIT_STATE_SECRET_NEXT",
                   "ELICIT_STATE_KEY_ID_NEXT", "ELICIT_STATE_SEAL_WITH")
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}
ACCEPT = "application/json, text/event-stream"
STARTED = time.monotonic()


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok   {what}  ({time.monotonic() - STARTED:.1f} s)", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, alive, what):
    for _ in range(200):
        if not alive():
            raise AssertionError(f"{what} ended at start")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"{what} does not listen on {port} after 10 s")


def secret():
    return base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")


def key_of(state):
    """The key id a requestState names: version (1), type tag (8), key id length (1), key id."""
    raw = base64.urlsafe_b64decode(state + "=" * (-len(state) % 4))
    return raw[10:10 + raw[9]].decode()


# ---- The processes --------------------------------------------------------------------------------

class Instance:
    """One mcp_server, with the key ring of `ring` (a dict of the ELICIT_STATE_* variables)."""
    count = 0

    def __init__(self, workdir, ring):
        Instance.count += 1
        self.name = f"instance{Instance.count}"
        self.port = free_port()
        self.log_path = os.path.join(workdir, f"{self.name}-{self.port}.log")
        env = {k: v for k, v in os.environ.items() if k not in STATE_VARIABLES}
        env.update(ring)
        env["ELICIT_TRUSTED_PROXIES"] = "127.0.0.1"  # nginx: the client is the one it forwards
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen([SERVER, str(self.port)], env=env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=log)
        wait_for_port(self.port, lambda: self.proc.poll() is None, self.name)
        self.rc = None

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def sealing_key(self):
        m = re.search(r'sealing requestState with key "([^"]+)"', self.log())
        return m.group(1) if m else None

    def stop(self):
        if self.rc is None:
            self.proc.send_signal(signal.SIGTERM)
            self.rc = self.proc.wait(timeout=10)
        return self.rc


class Nginx:
    def __init__(self, workdir, ports):
        if not NGINX or not os.access(NGINX, os.X_OK):
            raise AssertionError("nginx is not installed (Debian package nginx; build.sh installs it)")
        self.dir = os.path.join(workdir, "nginx")
        os.makedirs(self.dir)
        self.conf = os.path.join(self.dir, "nginx.conf")
        self.error_log = os.path.join(self.dir, "error.log")
        self.port = free_port()
        self.write(ports)
        self.out = open(os.path.join(self.dir, "stdout.log"), "w")
        # -e: the error log before the configuration is read (the default is under /var/log).
        self.proc = subprocess.Popen([NGINX, "-p", self.dir, "-c", self.conf, "-e", self.error_log],
                                     stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT)
        wait_for_port(self.port, lambda: self.proc.poll() is None, "nginx")
        self.rc = None

    def write(self, ports):
        with open(os.path.join(HERE, "nginx.conf.in")) as f:
            text = f.read()
        user = ""
        if os.geteuid() == 0:  # root's workers would run as nobody, who cannot enter the temp dir
            user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};"
        upstreams = "\n".join(f"    server 127.0.0.1:{p} max_fails=0;" for p in ports)
        text = (text.replace("@user@", user).replace("@dir@", self.dir).replace("@port@", str(self.port))
                .replace("@upstreams@", upstreams))
        with open(self.conf, "w") as f:
            f.write(text)

    def workers(self):
        """The master's worker processes: {pid: shutting down?}."""
        out = {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                if ppid != self.proc.pid:
                    continue
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmdline = f.read().decode(errors="replace")
            except (OSError, ValueError, IndexError):
                continue
            if "worker process" in cmdline:
                out[int(pid)] = "shutting down" in cmdline
        return out

    def reload(self, ports):
        """Points the upstreams at `ports` (SIGHUP), and returns once the old workers have ended,
        so that no connection to an instance left out is still open."""
        before = set(self.workers())
        self.write(ports)
        self.proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            now = self.workers()
            if now and not (set(now) & before) and not any(now.values()):
                return
            time.sleep(0.02)
        raise AssertionError(f"nginx did not reload within 15 s; its error log:\n{open(self.error_log).read()[-3000:]}")

    def stop(self):
        if self.rc is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: the workers finish their requests
            self.rc = self.proc.wait(timeout=15)
            self.out.close()
        return self.rc


# ---- HTTP ---------------------------------------------------------------------------------------

def post(port, body, headers=None, path="/mcp"):
    """One POST on its own connection: (status, headers, parsed JSON body or text)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        h = {"Content-Type": "application/json", "Accept": ACCEPT}
        h.update(headers or {})
        conn.request("POST", path, body=json.dumps(body), headers=h)
        r = conn.getresponse()
        text = r.read().decode()
        try:
            return r.status, r.headers, json.loads(text) if text else None
        except ValueError:
            return r.status, r.headers, text
    finally:
        conn.close()


def call26(port, tool, extra=None, rid=1):
    """A 2026-07-28 tools/call: (status, the instance that answered (X-Upstream, through nginx), body)."""
    params = {"name": tool, "arguments": {}, "_meta": META}
    params.update(extra or {})
    status, headers, body = post(port, {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params},
                                 {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool})
    return status, headers.get("X-Upstream"), body


COLORS = ["green", "blue", "red", "amber", "teal"]


class Flow:
    """test_input_required_result_multi_round, one round at a time: the first call, the answer to
    step 1 with the state of round 1, the answer to step 2 with the state of round 2."""
    count = 0

    def __init__(self, port):
        Flow.count += 1
        self.port = port
        self.name = f"user{Flow.count}"
        self.color = COLORS[Flow.count % len(COLORS)]
        self.round = 0
        self.state = None
        self.keys = []        # the key id of each state received
        self.upstreams = []   # the instance of each round
        self.done = False

    def next_round(self):
        """One round; raises AssertionError with what the server said when it is not as expected."""
        tool = "test_input_required_result_multi_round"
        if self.round == 0:
            extra = {}
        elif self.round == 1:
            extra = {"inputResponses": {"step1": {"action": "accept", "content": {"name": self.name}}},
                     "requestState": self.state}
        else:
            extra = {"inputResponses": {"step2": {"action": "accept", "content": {"color": self.color}}},
                     "requestState": self.state}
        status, upstream, body = call26(self.port, tool, extra, rid=self.round + 1)
        self.upstreams.append(upstream)
        what = f"{self.name} round {self.round + 1} on {upstream}: HTTP {status} {json.dumps(body)[:300]}"
        if status != 200 or not isinstance(body, dict) or "result" not in body:
            raise AssertionError(what)
        result = body["result"]
        if self.round < 2:
            expected_key = "step1" if self.round == 0 else "step2"
            if result.get("resultType") != "input_required" or list(result.get("inputRequests", {})) != [expected_key]:
                raise AssertionError(what)
            self.state = result["requestState"]
            self.keys.append(key_of(self.state))
        else:
            text = result.get("content", [{}])[0].get("text")
            if result.get("resultType") != "complete" or text != f"{self.name} likes {self.color}.":
                raise AssertionError(what)
            self.done = True
        self.round += 1
        return self

    def finish(self):
        while not self.done:
            self.next_round()
        return self


class Load(threading.Thread):
    """A client running whole flows through nginx one after the other until stopped."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.begun = self.completed = 0
        self.failures = []
        self.halt = threading.Event()

    def run(self):
        while not self.halt.is_set():
            self.begun += 1
            try:
                Flow(self.port).finish()
                self.completed += 1
            except Exception as e:  # noqa: BLE001 - every failure is reported at the end
                self.failures.append(str(e))

    def settle(self):
        """Returns once the flow in progress now has ended: every flow after it begins later."""
        mark = self.begun
        deadline = time.monotonic() + 10
        while self.completed + len(self.failures) < mark and time.monotonic() < deadline:
            time.sleep(0.01)


# ---- The checks ---------------------------------------------------------------------------------

def test_hosts(lb):
    status, _, body = post(lb.port, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, {"Host": "evil.example"})
    check(status == 403 and body["error"]["code"] == -32600, "nginx refuses a Host that is not loopback (403)")
    status, _, body = post(lb.port, {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META}},
                           {"Origin": "http://evil.example", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"})
    check(status == 403 and "origin" in body["error"]["message"], "an instance refuses a foreign Origin behind nginx (403)")


def test_spread(lb, instances):
    flows = [Flow(lb.port).finish() for _ in range(9)]
    ports = {f"127.0.0.1:{i.port}" for i in instances}
    for f in flows:
        if len(set(f.upstreams)) != 3 or not set(f.upstreams) <= ports:
            raise AssertionError(f"{f.name}: rounds on {f.upstreams}, not on three of {sorted(ports)}")
    check(True, "9 multi-round flows complete through nginx, the three rounds of each on three instances")
    used = {u for f in flows for u in f.upstreams}
    check(used == ports, "round robin: every instance served")


def test_state_moves(instances, workdir, ring):
    a, b, c = instances
    tool = "test_input_required_result_request_state"
    status, _, first = call26(a.port, tool)
    state = first["result"]["requestState"]
    retry = {"inputResponses": {"confirm": {"action": "accept", "content": {"ok": True}}}, "requestState": state}
    status, _, body = call26(b.port, tool, retry, rid=2)
    check(status == 200 and body["result"]["content"][0]["text"] == "state-ok: confirmed yes",
          f"a state sealed by {a.name} opens on {b.name}")
    flow = Flow(a.port).next_round()
    flow.port = b.port
    flow.next_round()
    flow.port = c.port
    flow.next_round()
    check(flow.done, f"a multi-round flow done on {a.name}, then {b.name}, then {c.name}, each talked to directly")
    stranger = Instance(workdir, {"ELICIT_STATE_SECRET": secret(), "ELICIT_STATE_KEY_ID": ring["ELICIT_STATE_KEY_ID"]})
    try:
        status, _, body = call26(stranger.port, tool, retry, rid=3)
        check(status == 200 and body.get("error", {}).get("message") == "invalid or expired requestState",
              "the control: an instance with another secret under the same key id refuses it")
    finally:
        stranger.stop()
    return stranger


def test_rotation(lb, instances, workdir, k1, k2):
    """The three phases of docs/samples.md, each a rolling replacement; returns the instances."""
    phase1 = {"ELICIT_STATE_SECRET": k1, "ELICIT_STATE_KEY_ID": "k1",
              "ELICIT_STATE_SECRET_NEXT": k2, "ELICIT_STATE_KEY_ID_NEXT": "k2"}
    phase2 = dict(phase1, ELICIT_STATE_SEAL_WITH="k2")
    phase3 = {"ELICIT_STATE_SECRET": k2, "ELICIT_STATE_KEY_ID": "k2"}
    load = Load(lb.port)
    load.start()
    pending = []     # flows left between rounds, resumed in later phases

    def leave_pending(n):
        new = [Flow(lb.port) for _ in range(n)]
        for i, f in enumerate(new):
            f.next_round()
            if i % 2:
                f.next_round()
        pending.extend(new)
        return new

    def resume_some():
        for f in [f for f in pending if not f.done][:2]:
            f.next_round()

    def roll(ring, seals_with):
        for i, old in enumerate(list(instances)):
            new = Instance(workdir, ring)
            if new.sealing_key() != seals_with:
                raise AssertionError(f"{new.name} seals with {new.sealing_key()!r}, not {seals_with!r}:\n{new.log()}")
            instances[i] = new
            lb.reload([x.port for x in instances])
            old.stop()
            if old.rc not in (0, -signal.SIGTERM):
                raise AssertionError(f"{old.name} ended with {old.rc} on SIGTERM:\n{old.log()[-2000:]}")
            resume_some()           # states of earlier phases, on a mix of old and new instances
            leave_pending(1)
            stopped.append(old)

    stopped = []
    stale = Flow(lb.port).next_round()  # the control, never resumed until k1 is retired
    sealed_k1 = leave_pending(6)
    check(all(k == "k1" for f in sealed_k1 + [stale] for k in f.keys), "phase 0: states sealed with k1; 6 flows left pending")
    roll(phase1, "k1")
    check(all(k == "k1" for f in pending for k in f.keys),
          "phase 1 (k2 added to every instance, one by one): states still sealed with k1, pending ones resumed")
    roll(phase2, "k2")
    after = leave_pending(4)
    check(all(k == "k2" for f in after for k in f.keys),
          "phase 2 (every instance seals with k2, one by one): new states sealed with k2")
    # Phase 3 retires k1: the documentation waits out the states' time to live (15 minutes) first;
    # here, every state sealed with k1 is carried to its end instead, but the control.
    load.settle()
    for f in pending:
        if f.keys[-1] == "k1":
            f.finish()
    roll(phase3, "k2")
    for f in pending:
        f.finish()
    load.halt.set()
    load.join(timeout=30)
    check(all(f.done for f in pending),
          f"phase 3 (k1 retired, one by one): all {len(pending)} pending flows completed across the phases")
    if load.failures:
        raise AssertionError(f"{len(load.failures)} of {load.begun} flows of the running client failed, e.g.:\n" +
                             "\n".join(load.failures[:5]))
    check(load.completed > 0, f"the client running all along: {load.completed} flows, none failed")
    try:
        stale.next_round()
        raise AssertionError("a state sealed with the retired k1 still opens")
    except AssertionError as e:
        check("invalid or expired requestState" in str(e),
              "the control: once k1 is retired, a state it sealed is refused (hence the wait in phase 3)")
    return stopped


def test_2025(lb):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                       "clientInfo": {"name": "scale", "version": "1"}}}
    status, headers, _ = post(lb.port, init)
    sid = headers.get("Mcp-Session-Id")
    home = headers.get("X-Upstream")
    check(status == 200 and sid, f"2025-11-25: initialize through nginx opens a session (on {home})")
    session = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
    post(lb.port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    conn = http.client.HTTPConnection("127.0.0.1", lb.port, timeout=30)
    conn.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                                  "params": {"name": "test_elicitation", "arguments": {"message": "Who?"}}}),
                 headers={"Content-Type": "application/json", "Accept": ACCEPT, **session})
    stream = conn.getresponse()
    upstreams = [stream.headers.get("X-Upstream")]

    def next_message():
        while True:
            line = stream.readline()
            if not line:
                return None
            line = line.decode().strip()
            if line.startswith("data:"):
                return json.loads(line[5:])

    question = next_message()
    check(stream.status == 200 and question and question.get("method") == "elicitation/create",
          "the call's SSE stream brings elicitation/create through nginx")
    status, headers, _ = post(lb.port, {"jsonrpc": "2.0", "id": question["id"],
                                        "result": {"action": "accept", "content": {"username": "ada", "email": "ada@example.com"}}},
                              session)
    upstreams.append(headers.get("X-Upstream"))
    result = next_message()
    conn.close()
    check(status == 202 and result and result["result"]["content"][0]["text"] ==
          'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
          "the answer, POSTed apart, reaches the waiting call: the tool's result")
    conn = http.client.HTTPConnection("127.0.0.1", lb.port, timeout=10)
    conn.request("DELETE", "/mcp", headers=session)
    r = conn.getresponse()
    r.read()
    upstreams.append(r.headers.get("X-Upstream"))
    conn.close()
    check(r.status == 200 and set(upstreams) == {home},
          f"every request of the session went to {home} (affinity), DELETE included")

    # The control: the same session through round robin.
    status, headers, _ = post(lb.port, init, path="/mcp-no-affinity")
    sid, home = headers.get("Mcp-Session-Id"), headers.get("X-Upstream")
    session = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
    answers = []
    for i in range(3):
        status, headers, body = post(lb.port, {"jsonrpc": "2.0", "id": 10 + i, "method": "tools/list"}, session,
                                     path="/mcp-no-affinity")
        answers.append((status, headers.get("X-Upstream"), body))
    lost = [a for a in answers if a[0] == 404]
    check(lost and all(a[1] != home and a[2]["error"]["code"] == -32001 for a in lost) and
          all(a[1] == home for a in answers if a[0] == 200),
          f"the control: without affinity, {len(lost)} of 3 requests of a session reach another instance: 404 Session not found")


def main():
    workdir = tempfile.mkdtemp(prefix="elicit-scale-")
    k1, k2 = secret(), secret()
    ring = {"ELICIT_STATE_SECRET": k1, "ELICIT_STATE_KEY_ID": "k1"}
    instances, stopped, lb = [], [], None
    ok = False
    try:
        instances = [Instance(workdir, ring) for _ in range(3)]
        check(all(i.sealing_key() == "k1" for i in instances), "three instances share the key ring, sealing with k1")
        lb = Nginx(workdir, [i.port for i in instances])
        check(True, f"nginx {lb.port} in front of {', '.join(str(i.port) for i in instances)}, as the current user")
        test_hosts(lb)
        test_spread(lb, instances)
        stopped.append(test_state_moves(instances, workdir, ring))
        test_2025(lb)
        stopped.extend(test_rotation(lb, instances, workdir, k1, k2))
        ok = True
    except AssertionError as e:
        print(f"FAIL {e}")
    finally:
        nginx_rc = lb.stop() if lb else 0
        for i in instances:
            i.stop()
        everyone = stopped + instances
        problems = []
        if lb and nginx_rc != 0:
            problems.append(f"nginx exited with {nginx_rc} on SIGQUIT")
        if lb:
            with open(lb.error_log, errors="replace") as f:
                errors = [l for l in f if re.search(r"\[(error|crit|alert|emerg)\]", l)]
            if errors:
                problems.append("nginx's error log:\n" + "".join(errors[:10]))
        refused = 0
        for i in everyone:
            text = i.log()
            refused += text.count("requestState refused")
            if i.rc not in (0, -signal.SIGTERM):
                problems.append(f"{i.name} ended with {i.rc} on SIGTERM")
            if SANITIZER.search(text):
                problems.append(f"{i.name}'s stderr reports an error:\n{text[-3000:]}")
        if ok and refused != 2:
            problems.append(f"{refused} requestState refusals on the instances' stderr, not the controls' 2")
        if problems:
            print("FAIL " + "\nFAIL ".join(problems))
            ok = False
        elif ok:
            check(True, f"{len(everyone)} instances ended by SIGTERM with clean stderr, nginx exited 0, "
                        "its error log clean, the 2 refusals the controls caused")
        if ok:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f"the logs are in {workdir}")
    print(f"scale: {'passed' if ok else 'FAILED'} in {time.monotonic() - STARTED:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
