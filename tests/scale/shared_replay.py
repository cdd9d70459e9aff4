#!/usr/bin/env python3
"""Three instances of samples/mcp_server behind nginx, sharing one real Redis as their replay
store and one key file (issue #29, item 3; Python 3 stdlib only).

    shared_replay.py MCP_SERVER

Starts redis-server (Debian's package) on a free loopback port with a directory of its own
(append-only file on, so that a restart keeps what it was told), three instances with
ELICIT_REDIS_URL and ELICIT_KEY_FILE, and nginx in front (tests/scale/nginx.conf.in, as
round_robin.py runs it). The flows are redeem_voucher's: the call, answered with an
InputRequiredResult and a sealed state, then the retry that confirms; its state opens once
across every instance. Two clients run such flows through nginx all along, retrying a round on
a connection error or a 502 (as a real client would), while the test:
  - answers a state on instance A, then replays it on B and through nginx: refused (-32602), the
    log says "opened before", and Redis holds the state's id with its expiry;
  - rotates the keys in three phases by editing the key file and sending SIGHUP to every
    instance (a bad file between phases: refused, ring kept), with flows left pending across
    each phase: none fails; new states sealed with k1, then k2; a k1 state after phase 3 refused;
  - freezes Redis (SIGSTOP), then stops it: retries fail closed with the one -32602 within the
    guard's timeouts, the log saying the store did not answer; nothing hangs; Redis started
    again: flows complete, the same instance processes, and a state used before the stop is
    still refused;
  - SIGKILLs one instance while flows run: every 2026-07-28 flow completes through the others,
    every 2025-11-25 flow on the dead instance ends with a clear error at the client, and the
    others complete; none hangs; every state accepted is replayed once more and refused.
Prints each figure (flows started, completed, refused, replays refused) and checks it; every
process is stopped at the end, on failure too (and killed with this script if it dies).
"""
import base64
import ctypes
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import types

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import round_robin as rr  # noqa: E402  (its Nginx, free_port, wait_for_port, check)

SERVER = os.path.abspath(sys.argv[1])
REDIS = shutil.which("redis-server", path=os.environ.get("PATH", "") + ":/usr/bin:/usr/sbin")
PREFIX = "mcp_server:replay:"  # the sample's key prefix
META = rr.META
ACCEPT = rr.ACCEPT
TIMEOUT = 10       # every client request: nothing may hang past it
FAIL_CLOSED = 2.0  # a refusal while Redis cannot answer comes within this (the guard's timeouts: 0.5 s)
LIBC = ctypes.CDLL(None, use_errno=True)
check = rr.check
secret = rr.secret
key_of = rr.key_of


def die_with_parent():
    LIBC.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: never outlive this script


# nginx too, through round_robin's Popen.
rr.subprocess = types.SimpleNamespace(
    Popen=lambda *a, **k: subprocess.Popen(*a, preexec_fn=die_with_parent, **k),
    DEVNULL=subprocess.DEVNULL, STDOUT=subprocess.STDOUT)


def token_id(state):
    """The id the replay store keeps for a state: base64url of its nonce (after the key id)."""
    raw = base64.urlsafe_b64decode(state + "=" * (-len(state) % 4))
    at = 10 + raw[9]
    return base64.urlsafe_b64encode(raw[at:at + 12]).decode().rstrip("=")


# ---- The processes --------------------------------------------------------------------------------

class Redis:
    """A redis-server of the test's own; command() talks RESP on a socket of its own."""

    def __init__(self, workdir):
        if not REDIS:
            raise AssertionError("redis-server is not installed (Debian package redis-server; build.sh installs it)")
        self.dir = os.path.join(workdir, "redis")
        os.makedirs(self.dir)
        self.port = rr.free_port()
        self.proc = None
        self.start()

    def start(self):
        self.log = open(os.path.join(self.dir, "stdout.log"), "a")
        self.proc = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--logfile", os.path.join(self.dir, "redis.log"),
             "--daemonize", "no"], stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent)
        deadline = time.monotonic() + 10
        while True:
            try:
                if self.command("PING") == "PONG":
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("redis-server did not start")
            time.sleep(0.02)

    def command(self, *args):
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
            s.sendall(f"*{len(args)}\r\n".encode() + b"".join(
                f"${len(str(a).encode())}\r\n{a}\r\n".encode() for a in args))
            f = s.makefile("rb")
            line = f.readline().rstrip(b"\r\n").decode()
            kind, rest = line[:1], line[1:]
            if kind in "+-":
                return rest
            if kind == ":":
                return int(rest)
            if kind == "$":
                return None if rest == "-1" else f.read(int(rest) + 2)[:-2].decode()
            raise AssertionError(f"Redis answered {line!r}")

    def freeze(self):
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self):
        self.proc.send_signal(signal.SIGCONT)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.log.close()


class Instance:
    """One mcp_server with the key file and the Redis."""
    count = 0

    def __init__(self, workdir, key_file, redis_port):
        Instance.count += 1
        self.name = f"instance{Instance.count}"
        self.port = rr.free_port()
        self.log_path = os.path.join(workdir, f"{self.name}-{self.port}.log")
        env = {k: v for k, v in os.environ.items() if not k.startswith("ELICIT_")}
        env.update(ELICIT_KEY_FILE=key_file, ELICIT_REDIS_URL=f"redis://127.0.0.1:{redis_port}",
                   ELICIT_TRUSTED_PROXIES="127.0.0.1")
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen([SERVER, str(self.port)], env=env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=log, preexec_fn=die_with_parent)
        rr.wait_for_port(self.port, lambda: self.proc.poll() is None, self.name)
        self.rc = None

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def where(self):
        return f"127.0.0.1:{self.port}"

    def stop(self):
        if self.rc is None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
            try:
                self.rc = self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.rc = "hung on SIGTERM"
        return self.rc


class KeyFile:
    def __init__(self, workdir):
        self.path = os.path.join(workdir, "keys")
        self.secrets = {}

    def write(self, keys, seal):
        """Written whole and renamed over the old one: no instance reads half of it."""
        text = "# the sample's state keys\n" + "".join(f"key {k} {self.secrets.setdefault(k, secret())}\n" for k in keys)
        self.write_text(text + f"seal {seal}\n")

    def write_text(self, text):
        with open(self.path + ".new", "w") as f:
            f.write(text)
        os.chmod(self.path + ".new", 0o600)
        os.replace(self.path + ".new", self.path)


def hang_up(instances, expect):
    """SIGHUP to every instance; returns once each logged its reload (or refusal), checked."""
    marks = [i.log().count("mcp_server: key file ") for i in instances]
    for i in instances:
        i.proc.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 5
    for i, mark in zip(instances, marks):
        while i.log().count("mcp_server: key file ") <= mark:
            if time.monotonic() > deadline:
                raise AssertionError(f"{i.name} logged no reload within 5 s:\n{i.log()[-1500:]}")
            time.sleep(0.02)
        last = [l for l in i.log().splitlines() if l.startswith("mcp_server: key file ")][-1]
        if expect not in last:
            raise AssertionError(f"{i.name}: {last!r}, not {expect!r}")


# ---- The flows ----------------------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.started = self.completed = self.refused = self.replays = self.replays_refused = 0
        self.lost = self.retried_rounds = self.restarted = 0
        self.accepted = []        # the states that redeemed, one entry per success
        self.failures = []
        self.slowest = 0.0

    def add(self, **counts):
        with self.lock:
            for k, v in counts.items():
                setattr(self, k, getattr(self, k) + v)


TALLY = Tally()
CODE_OF = {}  # the voucher code of each accepted state, to replay its very retry


def accept(v):
    TALLY.add(completed=1)
    with TALLY.lock:
        TALLY.accepted.append(v.state)
        CODE_OF[v.state] = v.code
PHASE = ["start"]
REFUSALS_ALLOWED = {"redis frozen", "redis stopped", "redis back"}  # while Redis cannot answer, and just after
CODES = iter(range(1, 10 ** 9))
CODES_LOCK = threading.Lock()


def next_code(prefix="V"):
    with CODES_LOCK:
        return f"{prefix}{next(CODES)}"


def call(port, params, rid):
    """One 2026-07-28 tools/call on its own connection: (status, X-Upstream, body, seconds)."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                                                      "params": params}),
                     headers={"Content-Type": "application/json", "Accept": ACCEPT,
                              "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
                              "Mcp-Name": params["name"]})
        r = conn.getresponse()
        text = r.read().decode()
        took = time.monotonic() - start
        with TALLY.lock:
            TALLY.slowest = max(TALLY.slowest, took)
        try:
            body = json.loads(text)
        except ValueError:
            body = text
        return r.status, r.headers.get("X-Upstream"), body, took
    finally:
        conn.close()


class Voucher:
    """redeem_voucher, one round at a time; a round is sent again on a connection error or a 502."""

    def __init__(self, port, code=None):
        self.port = port
        self.code = code or next_code()
        self.state = None
        self.upstreams = []
        self.lost_contact = False  # the confirming round's answer never came (a connection error, a 502)
        TALLY.add(started=1)

    def params(self, retry):
        p = {"name": "redeem_voucher", "arguments": {"voucher": self.code}, "_meta": META}
        if retry:
            p.update(inputResponses={"redeem": {"action": "accept", "content": {}}}, requestState=self.state)
        return p

    def send(self, retry, port=None):
        for attempt in range(8):
            try:
                status, upstream, body, took = call(port or self.port, self.params(retry), 2 if retry else 1)
                if status not in (502, 503, 504):
                    self.upstreams.append(upstream)
                    return status, upstream, body, took
            except (OSError, http.client.HTTPException):
                pass
            self.lost_contact = self.lost_contact or retry  # the confirming round's answer never came
            TALLY.add(retried_rounds=1)
            time.sleep(0.05 * (attempt + 1))
        raise AssertionError(f"{self.code}: no answer after 8 attempts (retry={retry})")

    def ask(self, port=None):
        status, upstream, body, _ = self.send(False, port)
        r = body.get("result", {}) if isinstance(body, dict) else {}
        question = r.get("inputRequests", {}).get("redeem", {}).get("params", {}).get("message")
        if status != 200 or r.get("resultType") != "input_required" or question != f"Redeem voucher {self.code}?":
            raise AssertionError(f"{self.code} round 1 on {upstream}: HTTP {status} {json.dumps(body)[:300]}")
        self.state = r["requestState"]
        return self

    def confirm(self, port=None):
        """'redeemed' or 'refused' (the one -32602), with the seconds it took."""
        status, upstream, body, took = self.send(True, port)
        if status == 200 and isinstance(body, dict) and body.get("result", {}).get("content", [{}])[0].get("text") == \
                f"Voucher {self.code} redeemed.":
            return "redeemed", took
        if status == 200 and isinstance(body, dict) and body.get("error") == \
                {"code": -32602, "message": "invalid or expired requestState"}:
            return "refused", took
        raise AssertionError(f"{self.code} round 2 on {upstream}: HTTP {status} {json.dumps(body)[:300]}")

    def run(self, redis):
        """The whole flow, counted. A state refused after a lost answer, and held by Redis, was
        accepted by an instance that died before it answered: counted as lost, the flow started
        again (a new voucher code: the old one may have been redeemed)."""
        outcome, took = self.ask().confirm()
        phase = PHASE[0]
        if outcome == "redeemed":
            accept(self)
            return True
        TALLY.add(refused=1)
        if self.lost_contact and phase == "kill" and redis.command("EXISTS", PREFIX + token_id(self.state)) == 1:
            TALLY.add(lost=1, restarted=1)
            return Voucher(self.port, self.code + "r").run(redis)
        if phase in REFUSALS_ALLOWED:
            if took > FAIL_CLOSED and phase != "redis back":
                TALLY.failures.append(f"{self.code}: refused only after {took:.2f} s while Redis was {phase}")
            return False
        TALLY.failures.append(f"{self.code}: refused in phase {phase!r} (upstreams {self.upstreams})")
        return False


class Load(threading.Thread):
    """A client running whole flows through nginx one after the other until stopped."""

    def __init__(self, port, redis):
        super().__init__(daemon=True)
        self.port, self.redis = port, redis
        self.begun = self.ended = 0
        self.halt = threading.Event()

    def run(self):
        while not self.halt.is_set():
            self.begun += 1
            try:
                Voucher(self.port).run(self.redis)
            except Exception as e:  # noqa: BLE001 - every failure is reported at the end
                TALLY.failures.append(f"phase {PHASE[0]!r}: {e}")
            self.ended += 1

    def settle(self):
        """Returns once the flow in progress now has ended: every flow after it begins later."""
        mark = self.begun
        deadline = time.monotonic() + 15
        while self.ended < mark and time.monotonic() < deadline:
            time.sleep(0.01)


# ---- The checks ---------------------------------------------------------------------------------

def test_replay(lb, instances, redis):
    a, b, _ = instances
    v = Voucher(a.port).ask()
    outcome, _ = v.confirm()
    check(outcome == "redeemed", f"a voucher asked and confirmed on {a.name}, talked to directly")
    accept(v)
    outcome, _ = v.confirm(b.port)
    TALLY.add(replays=1, replays_refused=outcome == "refused")
    check(outcome == "refused" and "requestState refused: the request state was opened before" in b.log(),
          f"the same answer replayed on {b.name}: refused (-32602), {b.name}'s log says it was opened before")
    outcome, _ = v.confirm(lb.port)
    TALLY.add(replays=1, replays_refused=outcome == "refused")
    check(outcome == "refused", "replayed through nginx (another instance again): refused")
    ttl = redis.command("PTTL", PREFIX + token_id(v.state))
    check(isinstance(ttl, int) and 14 * 60 * 1000 < ttl <= 16 * 60 * 1000,
          f"Redis holds the state's id with the state's own expiry ({ttl / 1000:.0f} s left)")
    flows = [Voucher(lb.port) for _ in range(6)]
    for f in flows:
        f.ask()
        if f.confirm()[0] != "redeemed":
            raise AssertionError(f"{f.code} refused through nginx")
        accept(f)
    spread = {u for f in flows for u in f.upstreams}
    check(spread == {i.where() for i in instances}, "6 flows through nginx, their rounds on all three instances")


def test_rotation(lb, instances, keys, loads):
    PHASE[0] = "rotation"
    pending = []
    at_start = TALLY.completed
    steady = 0.3  # the clients' flows run this long in each phase

    def hang_up_all(expect):
        hang_up(instances, expect)
        time.sleep(steady)

    def leave_pending(n):
        new = [Voucher(lb.port).ask() for _ in range(n)]
        pending.extend(new)
        return new

    def finish(flows):
        for f in flows:
            outcome, _ = f.confirm()
            if outcome != "redeemed":
                raise AssertionError(f"{f.code}, pending across the rotation, refused")
            accept(f)

    stale = Voucher(lb.port).ask()  # the control: a k1 state kept until k1 is retired
    k1_states = leave_pending(4)
    check(all(key_of(f.state) == "k1" for f in k1_states + [stale]), "phase 0: states sealed with k1; 4 left pending")
    keys.write(["k1", "k2"], "k1")
    hang_up_all("reloaded: 2 keys (k1, k2), sealing with k1")
    finish(k1_states[:2])
    more_k1 = leave_pending(2)
    check(all(key_of(f.state) == "k1" for f in more_k1),
          "phase 1 (k2 added, SIGHUP to every instance): still sealed with k1, pending k1 states open")
    keys.write_text("key k3 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nseal k3\n")
    hang_up_all("refused, ring kept")
    check(all(key_of(Voucher(lb.port).ask().state) == "k1" for _ in range(3)),
          "a bad key file (a weak secret) between phases: refused by every instance, the ring kept")
    keys.write(["k1", "k2"], "k2")
    hang_up_all("reloaded: 2 keys (k1, k2), sealing with k2")
    k2_states = leave_pending(3)
    check(all(key_of(f.state) == "k2" for f in k2_states), "phase 2 (switch, SIGHUP): new states sealed with k2")
    finish([f for f in pending if key_of(f.state) == "k1" and f.state not in TALLY.accepted])
    for load in loads:  # every k1 state of the clients ends before k1 goes (the docs wait out the TTL)
        load.settle()
    keys.write(["k2"], "k2")
    hang_up_all("reloaded: 1 key (k2), sealing with k2")
    finish(k2_states)
    check(all(f.state in TALLY.accepted for f in pending),
          f"phase 3 (k1 retired, SIGHUP): all {len(pending)} flows left pending across the phases completed")
    outcome, _ = stale.confirm()
    TALLY.add(refused=1)
    check(outcome == "refused" and any("sealed with a key not in the ring" in i.log() for i in instances),
          "the control: once k1 is retired, a state it sealed is refused")
    check(not TALLY.failures, f"the clients meanwhile: {TALLY.completed - at_start} flows completed through the "
                              f"rotation, none failed")
    PHASE[0] = "after rotation"


def test_redis_down(lb, instances, redis, loads):
    time.sleep(0.3)
    pids = [i.proc.pid for i in instances]
    before = Voucher(lb.port).ask()
    if before.confirm()[0] != "redeemed":
        raise AssertionError("a flow before Redis went down refused")
    accept(before)
    waiting = [Voucher(lb.port).ask() for _ in range(3)]
    PHASE[0] = "redis frozen"
    redis.freeze()
    frozen = [Voucher(lb.port).ask().confirm() for _ in range(3)]
    TALLY.add(refused=sum(o == "refused" for o, _ in frozen))
    check(all(o == "refused" and t < FAIL_CLOSED for o, t in frozen),
          f"Redis frozen (SIGSTOP): retries fail closed with -32602 in {max(t for _, t in frozen):.2f} s at most "
          f"(the guard's command timeout: 0.5 s)")
    redis.thaw()
    PHASE[0] = "redis stopped"
    redis.stop()
    stopped = [f.confirm() for f in waiting]
    TALLY.add(refused=sum(o == "refused" for o, _ in stopped))
    check(all(o == "refused" and t < FAIL_CLOSED for o, t in stopped),
          f"Redis stopped: retries fail closed with -32602 in {max(t for _, t in stopped):.2f} s at most")
    said = sum(i.log().count("requestState refused: the replay store did not answer") for i in instances)
    check(said >= len(frozen) + len(stopped),
          f"the logs say why, {said} times: the replay store did not answer (not \"replayed\")")
    PHASE[0] = "redis back"
    redis.start()
    for load in loads:
        load.settle()
    PHASE[0] = "after redis"
    for f in waiting:  # refused while Redis was down, never used: they open now, once
        outcome, _ = f.confirm()
        if outcome != "redeemed":
            raise AssertionError(f"{f.code}, refused while Redis was down, does not open once it is back")
        accept(f)
    again = Voucher(lb.port).ask()
    ok = again.confirm()[0] == "redeemed"
    if ok:
        accept(again)
    check(ok and [i.proc.pid for i in instances] == pids and all(i.proc.poll() is None for i in instances),
          "Redis started again: flows complete, and the states refused while it was down open now, "
          "with the same three instance processes (no restart)")
    outcome, _ = before.confirm()
    TALLY.add(replays=1, replays_refused=outcome == "refused")
    check(outcome == "refused", "a state used before Redis stopped is still refused after its restart "
                                "(its append-only file kept the id)")


class Session2025:
    """A 2025-11-25 session through nginx from `source` (the sticky hash is by client address),
    its redeem_voucher call waiting on its SSE stream for the answer."""

    def __init__(self, lb_port, source):
        self.port, self.source = lb_port, source
        status, headers, _ = self.post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                        "params": {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                                                   "clientInfo": {"name": "shared-replay", "version": "1"}}})
        self.sid, self.home = headers.get("Mcp-Session-Id"), headers.get("X-Upstream")
        if status != 200 or not self.sid:
            raise AssertionError(f"initialize from {source}: HTTP {status}")
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.conn = http.client.HTTPConnection("127.0.0.1", lb_port, timeout=TIMEOUT, source_address=(source, 0))
        self.conn.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                                           "params": {"name": "redeem_voucher",
                                                                      "arguments": {"voucher": next_code()}}}),
                          headers={"Content-Type": "application/json", "Accept": ACCEPT, **self.headers()})
        self.stream = self.conn.getresponse()
        question = self.next_message()
        if not isinstance(question, dict) or question.get("method") != "elicitation/create":
            raise AssertionError(f"session from {source}: no elicitation/create ({question})")
        self.question = question["id"]

    def headers(self):
        return {"Mcp-Session-Id": self.sid, "MCP-Protocol-Version": "2025-11-25"}

    def post(self, body):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT, source_address=(self.source, 0))
        try:
            h = {"Content-Type": "application/json", "Accept": ACCEPT}
            if getattr(self, "sid", None):
                h.update(self.headers())
            conn.request("POST", "/mcp", body=json.dumps(body), headers=h)
            r = conn.getresponse()
            text = r.read().decode()
            return r.status, r.headers, (json.loads(text) if text.startswith("{") else text)
        finally:
            conn.close()

    def next_message(self):
        """The next JSON-RPC message on the stream, or why there is none."""
        try:
            while True:
                line = self.stream.readline()
                if not line:
                    return "the stream ended without a result"
                line = line.decode().strip()
                if line.startswith("data:"):
                    return json.loads(line[5:])
        except (OSError, http.client.HTTPException) as e:
            return f"the stream broke: {type(e).__name__}"

    def finish(self):
        """('completed', text) or ('error', what the client saw)."""
        try:
            status, _, body = self.post({"jsonrpc": "2.0", "id": self.question,
                                         "result": {"action": "accept", "content": {}}})
        except (OSError, http.client.HTTPException) as e:
            status, body = None, f"{type(e).__name__}"
        if status != 202:
            what = body.get("error", {}).get("message") if isinstance(body, dict) else str(body)[:80]
            stream = self.next_message()
            self.conn.close()
            return "error", f"the answer got HTTP {status} ({what}); on the call's stream, {stream}"
        result = self.next_message()
        self.conn.close()
        if isinstance(result, dict) and "result" in result:
            return "completed", result["result"]["content"][0]["text"]
        return "error", result if isinstance(result, str) else json.dumps(result)[:100]


def test_kill(lb, instances, redis, loads):
    sessions, victim = [], None
    for n in range(1, 60):
        s = Session2025(lb.port, f"127.0.0.{n}")
        sessions.append(s)
        victim = victim or next(i for i in instances if i.where() == s.home)
        on = sum(x.home == victim.where() for x in sessions)
        if on >= 2 and len(sessions) - on >= 2:
            break
    on_victim = [s for s in sessions if s.home == victim.where()]
    check(len(on_victim) >= 2 and len(sessions) > len(on_victim),
          f"{len(sessions)} 2025-11-25 sessions through nginx (by client address), each waiting for an answer on "
          f"its stream: {len(on_victim)} on {victim.name}")
    pending = [Voucher(lb.port).ask() for _ in range(6)]
    mark = set(TALLY.accepted)
    PHASE[0] = "kill"
    time.sleep(0.3)
    victim.proc.send_signal(signal.SIGKILL)
    victim.proc.wait()
    victim.rc = -signal.SIGKILL
    start = time.monotonic()
    ends = [(s, s.finish()) for s in sessions]
    took = time.monotonic() - start
    dead = [e for s, e in ends if s in on_victim]
    alive = [e for s, e in ends if s not in on_victim]
    for outcome, what in dead:
        print(f"     a 2025-11-25 flow on {victim.name}: {what}", flush=True)
    check(all(o == "error" for o, _ in dead) and
          all(o == "completed" and t.startswith("Voucher ") and t.endswith(" redeemed.") for o, t in alive),
          f"{victim.name} SIGKILLed: its {len(dead)} 2025-11-25 flows end with an error at the client, the other "
          f"{len(alive)} complete; all within {took:.1f} s")
    for f in pending:
        if not f.run(redis):
            raise AssertionError(f"{f.code}, pending when {victim.name} died, did not complete")
    check(True, f"the {len(pending)} 2026-07-28 flows pending when {victim.name} died complete through the others")
    time.sleep(1.0)
    for load in loads:
        load.settle()
    PHASE[0] = "replays"
    since = [state for state in TALLY.accepted if state not in mark]
    refused = sum(replay(lb.port, state) == "refused" for state in since)
    TALLY.add(replays=len(since), replays_refused=refused)
    check(refused == len(since) and len(since) > 0,
          f"every state accepted since the kill ({len(since)}), replayed once more through nginx: refused")
    return victim


def replay(port, state):
    """The retry that redeemed `state`, sent once more."""
    code = CODE_OF[state]
    v = Voucher.__new__(Voucher)
    v.port, v.code, v.state, v.upstreams, v.lost_contact = port, code, state, [], False
    return v.confirm()[0]


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))
    workdir = tempfile.mkdtemp(prefix="elicit-shared-replay-")
    instances, lb, redis, loads = [], None, None, []
    ok = False
    try:
        redis = Redis(workdir)
        keys = KeyFile(workdir)
        keys.write(["k1"], "k1")
        instances = [Instance(workdir, keys.path, redis.port) for _ in range(3)]
        check(all('replay store: Redis at 127.0.0.1' in i.log() and 'sealing requestState with key "k1"' in i.log()
                  for i in instances),
              f"redis-server on {redis.port} and three instances sharing it and one key file (sealing with k1)")
        lb = rr.Nginx(workdir, [i.port for i in instances])
        check(True, f"nginx {lb.port} in front of {', '.join(str(i.port) for i in instances)}")
        test_replay(lb, instances, redis)
        loads = [Load(lb.port, redis) for _ in range(2)]
        for load in loads:
            load.start()
        test_rotation(lb, instances, keys, loads)
        test_redis_down(lb, instances, redis, loads)
        test_kill(lb, instances, redis, loads)
        ok = True
    except AssertionError as e:
        print(f"FAIL {e}")
    finally:
        for load in loads:
            load.halt.set()
        for load in loads:
            load.join(timeout=30)
        problems = [] if ok else ["(see above)"]
        hung = [load for load in loads if load.is_alive()]
        if hung:
            problems.append(f"{len(hung)} client threads still running 30 s after the end: a request hangs")
        if TALLY.failures:
            problems.append(f"{len(TALLY.failures)} flows failed, e.g.:\n  " + "\n  ".join(TALLY.failures[:8]))
        nginx_rc = lb.stop() if lb else 0
        if lb and nginx_rc != 0:
            problems.append(f"nginx exited with {nginx_rc} on SIGQUIT")
        if lb:
            with open(lb.error_log, errors="replace") as f:
                bad = [l for l in f if re.search(r"\[(crit|alert|emerg)\]", l)]
            if bad:
                problems.append("nginx's error log:\n" + "".join(bad[:10]))
        up = redis and redis.proc and redis.proc.poll() is None
        keys_held = redis.command("DBSIZE") if up else None
        redis_held = redis.command("EXISTS", *[PREFIX + token_id(x) for x in TALLY.accepted]) if up and TALLY.accepted \
            else 0
        logs = ""
        for i in instances:
            rc = i.stop()
            text = i.log()
            logs += text
            if rc not in (0, -signal.SIGTERM, -signal.SIGKILL):
                problems.append(f"{i.name} ended with {rc}")
            if rr.SANITIZER.search(text):
                problems.append(f"{i.name}'s stderr reports an error:\n{text[-3000:]}")
        if redis:
            redis.stop()
        t = TALLY
        print(f"     figures: flows started {t.started}, completed {t.completed}, refused {t.refused} "
              f"(while Redis could not answer, and the controls), lost with the killed instance {t.lost} "
              f"(restarted, completed), rounds sent again after a connection error or a 502 {t.retried_rounds}; "
              f"replays {t.replays}, replays refused {t.replays_refused}; slowest request {t.slowest:.2f} s; "
              f"state ids in Redis {keys_held}", flush=True)
        if ok:
            redeemed = re.findall(r"voucher (\S+) redeemed", logs)
            twice = {c for c in redeemed if redeemed.count(c) > 1}
            if len(set(t.accepted)) != len(t.accepted):
                problems.append("a state was accepted twice by the clients' count")
            if twice:
                problems.append(f"vouchers redeemed twice in the logs: {sorted(twice)[:5]}")
            if t.replays_refused != t.replays:
                problems.append(f"{t.replays - t.replays_refused} of {t.replays} replays accepted")
            if redis_held != len(t.accepted):
                problems.append(f"Redis holds {redis_held} of the {len(t.accepted)} accepted states' ids")
            if t.completed != len(t.accepted) or t.completed + t.refused + len(t.failures) < t.started - 2:
                problems.append("the counts do not add up")
            logged_refusals = logs.count("requestState refused")
            if not t.refused + t.replays_refused <= logged_refusals <= t.refused + t.replays_refused + t.retried_rounds:
                problems.append(f"{logged_refusals} refusals in the logs for {t.refused + t.replays_refused} seen")
            if len(redeemed) < t.completed:
                problems.append(f"{len(redeemed)} redemptions logged for {t.completed} completed")
            if not problems:
                check(True, f"every state accepted once: {len(t.accepted)} accepted, all distinct, each held by Redis, "
                            f"{len(redeemed)} redemptions logged, no voucher twice; {logged_refusals} refusals "
                            f"logged with their reasons for the {t.refused + t.replays_refused} the clients got")
        if problems and ok:
            print("FAIL " + "\nFAIL ".join(problems))
            ok = False
        elif problems[1:]:
            print("FAIL " + "\nFAIL ".join(problems[1:]))
        if ok:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f"the logs are in {workdir}")
    print(f"scale: {'passed' if ok else 'FAILED'} in {time.monotonic() - rr.STARTED:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
