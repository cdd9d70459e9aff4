#!/usr/bin/env python3
"""What one client can hold of the server, measured (issues #44 and #46), against
samples/mcp_server with raw sockets (Python 3 stdlib only, about 40 s).

    http_budgets.py SERVER_BINARY [CHECK ...]

Each check starts the server on a free loopback port (small limits from the environment where it
needs them) and runs one attack; every check runs, then the test fails if any did:
  - CPU: 4 MiB bodies of the dearest JSON shapes (lists of empty objects, lists, numbers, an
    object of many keys) cost a bounded CPU time each, and another client is answered meanwhile;
  - the replay store: first rounds answered without a requestState (which the server seals and
    opens itself) do not spend the in-memory store's entries, so a real retry still opens;
  - waiting bytes: 2025-11-25 elicitations whose request carries a 3.9 MiB argument are counted
    at what they hold, not at 16 KiB: one client's share of the waiting budget is reached, RSS
    stays within the budget, and another client's elicitation still waits;
  - a client that never reads a 3.9 MiB question holds it no longer than the write timeout;
  - leave detection: a client that reads its question, sends one byte more and closes frees its
    waiting slot at once, not after the answer timeout;
  - pipelined bytes: 60 KiB sent on each of 512 waiting streams' connections, after the question
    or in the request's own write, are not kept beyond what the waiting budget counts a question at;
  - descriptors: with an open-file limit of 256, one address holding idle keep-alive connections
    cannot take every descriptor: another address is served, and the refusals are logged a
    line a second at most;
  - clients behind a proxy: with ELICIT_TRUSTED_PROXIES, the per-client session bound counts the
    address the proxy names last in X-Forwarded-For, and a peer that is not a trusted proxy is
    counted by its own address whatever it writes there; with the defaults one address opens at
    most a sixteenth of the sessions.
Fails with a list of the broken expectations; the server's stderr must hold no sanitizer report.
"""
import json
import os
import re
import select
import socket
import threading
import time

import http_attacks as attacks
from http_attacks import (ACCEPT, Server, Stream, check, connection, initialize, is_question, post, read_response,
                          served_from, session_headers)


# Whether RSS figures are checked (CMake says: an optimized build without sanitizers) or reported.
MEMORY_CHECKS = os.environ.get("ELICIT_TEST_MEMORY_CHECKS", "1") != "0"


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def call26(port, name, extra=None):
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}
    params = {"name": name, "arguments": {}, "_meta": meta, **(extra or {})}
    status, _, body = post(port, {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params},
                           {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name})
    return status, body


# ---- the replay store ------------------------------------------------------------------------------

def test_replay_store():
    server = Server({"ELICIT_REPLAY_CAPACITY": "50"}, name="budget-replay")
    port = server.port
    try:
        name = {"user_name": {"action": "accept", "content": {"name": "Ada"}}}
        done = 0
        for _ in range(60):  # more than the store remembers
            status, body = call26(port, "test_input_required_result_elicitation", {"inputResponses": name})
            done += status == 200 and "result" in (body or {}) and body["result"].get("resultType") == "complete"
        check(done == 60, f"60 first rounds answered without a requestState complete ({done})")
        status, body = call26(port, "test_input_required_result_request_state")
        state = (body or {}).get("result", {}).get("requestState")
        check(isinstance(state, str), f"a real first round gives a requestState (got {json.dumps(body)[:120]})")
        ok = {"confirm": {"action": "accept", "content": {"ok": True}}}
        status, body = call26(port, "test_input_required_result_request_state",
                              {"inputResponses": ok, "requestState": state})
        check(status == 200 and (body or {}).get("result", {}).get("resultType") == "complete",
              f"its retry still opens, the store not spent by the first rounds (got {json.dumps(body)[:160]})")
    finally:
        server.stop()


# ---- CPU from one body -------------------------------------------------------------------------------

def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_cpu_per_body():
    """4 MiB bodies of the dearest shapes, sent by one client while another probes with a 1 s
    timeout: each body costs a bounded CPU time (1 MiB of `[{},...]` took 40 s before #44) and
    every probe is answered."""
    server = Server(name="budget-cpu")
    port = server.port
    try:
        def body_of(item):
            items = (4 * 1024 * 1024 - 2) // (len(item) + 1)
            return ("[" + ",".join([item] * items) + "]").encode()
        bodies = [body_of("{}"), body_of("[]"), body_of("1"),
                  ("{" + ",".join(f'"k{i}":0' for i in range(400_000)) + "}").encode()[:4 * 1024 * 1024 - 1] + b"}",
                  # the dearest object accepted whole (its members sorted), keys in reverse order
                  ("{" + ",".join(f'"k{i}":0' for i in range(65_535, 0, -1)) + "}").encode(),
                  b'"' + b"\\n" * (2 * 1024 * 1024 - 1) + b'"']  # a string of escapes
        head = [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json"), ("Accept", ACCEPT),
                ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/list")]
        before = cpu_seconds(server.process.pid)
        statuses = []

        def attacker():
            for body in bodies * 3:
                with socket.create_connection(("127.0.0.1", port)) as sock:
                    sock.sendall(attacks.raw_request("POST", head + [("Content-Length", str(len(body)))], body))
                    status, _, _ = read_response(sock, timeout=30)
                    statuses.append(status)

        thread = threading.Thread(target=attacker)
        thread.start()
        answered = probes = 0
        while thread.is_alive() and probes < 200:
            probes += 1
            answered += served_from(port, "127.0.0.2", timeout=1)
        thread.join()
        spent = cpu_seconds(server.process.pid) - before
        check(statuses == [400] * len(bodies) * 3, f"{len(bodies) * 3} bodies of 4 MiB refused with 400 ({statuses})")
        check(spent / (len(bodies) * 3) < 2.0,  # generous for the sanitizer build; a quadratic parse takes minutes
              f"the server spent {spent:.2f} s of CPU on them, {spent * 1000 / (len(bodies) * 3):.0f} ms a body")
        check(probes > 0 and answered == probes, f"another client was answered meanwhile: {answered} of {probes} probes")
    finally:
        server.stop()


# ---- the bytes a waiting question holds -------------------------------------------------------------

def big_stream(port, sid, request_id, pad, source="127.0.0.1"):
    conn = connection(port, source)
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": "test_elicitation", "arguments": {"pad": pad}}}
    conn.request("POST", "/mcp", body=json.dumps(body),
                 headers={"Content-Type": "application/json", "Accept": ACCEPT, **session_headers(sid)})
    stream = Stream.__new__(Stream)
    stream.conn, stream.response = conn, conn.getresponse()
    return stream


def test_waiting_bytes():
    # 64 MiB for waiting elicitations, 16 MiB of it per client (a quarter): each call holds its
    # 3.9 MiB request, so three wait and the fourth is refused.
    server = Server({"ELICIT_WAITING_MEMORY_MB": "64"}, name="budget-bytes")
    port = server.port
    streams = []
    try:
        pad = "x" * (3900 * 1024)
        before = rss_kib(server.process.pid)
        waiting, refused = 0, None
        for i in range(20):
            sid, _ = initialize(port)
            s = big_stream(port, sid, i, pad)
            streams.append(s)
            m = s.next_message()
            if is_question(m):
                waiting += 1
            else:
                refused = m
                break
        grown = (rss_kib(server.process.pid) - before) >> 10
        check(refused is not None and "error" in refused and waiting <= 4,
              f"elicitations holding a 3.9 MiB request each: {waiting} wait, then refused "
              f"({json.dumps(refused)[:160]})")
        check(grown < 32 or not MEMORY_CHECKS, f"the server's RSS grew {grown} MiB with them waiting (16 MiB is the client's share"
                                         f"{'' if MEMORY_CHECKS else '; not checked in this build'})")
        sid, _ = initialize(port, source="127.0.0.2")
        other = Stream(port, sid, 1, source="127.0.0.2")
        streams.append(other)
        m = other.next_message()
        check(is_question(m),
              f"another client's elicitation still waits (got {json.dumps(m)[:100]})")
    finally:
        for s in streams:
            s.close()
        server.stop()


def slot_freed_within(port, sid, seconds, pause):
    """Asks again in session `sid` until a question waits (a slot is free) or `seconds` pass:
    the seconds it took, or None."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        probe = Stream(port, sid, f"probe-{time.monotonic()}")
        m = probe.next_message()
        probe.close()
        if is_question(m):
            return time.monotonic() - start
        time.sleep(pause)
    return None


# ---- a client that never reads ------------------------------------------------------------------

def test_slow_reader():
    """A 3.9 MiB question to a client that reads none of it (a 4 KiB receive buffer): held no
    longer than the write timeout (10 s), then the call ends and its slot is freed."""
    server = Server({"ELICIT_MAX_WAITING_PER_SESSION": "1"}, name="budget-slow-reader")
    port = server.port
    try:
        sid, _ = initialize(port)
        before = rss_kib(server.process.pid)
        reader = socket.socket()
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.connect(("127.0.0.1", port))
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "test_elicitation", "arguments": {"message": "m" * (3900 * 1024)}}})
        reader.sendall(attacks.raw_request("POST", [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json"),
                                                    ("Accept", ACCEPT), *session_headers(sid).items(),
                                                    ("Content-Length", str(len(body)))], body.encode()))
        time.sleep(1.5)
        held = (rss_kib(server.process.pid) - before) >> 10
        took = slot_freed_within(port, sid, 20, 0.5)
        check(took is not None and took < 12.5,
              f"a question the client never reads ({held} MiB held) is dropped at the write timeout: "
              f"{'its slot freed %.1f s later' % (took + 1.5) if took is not None else 'not within 20 s'}")
        reader.close()
    finally:
        server.stop()


# ---- leave detection ------------------------------------------------------------------------------

def test_pipelined_byte_leave():
    server = Server({"ELICIT_ANSWER_TIMEOUT_SECONDS": "60"}, name="budget-leave")
    port = server.port
    try:
        sid, _ = initialize(port)
        for i in range(8):  # the session's bound (ELICIT_MAX_WAITING_PER_SESSION, 8)
            s = Stream(port, sid, i)
            m = s.next_message()
            check(is_question(m), f"question {i + 1} waits",
                  ) if i == 0 else None
            s.conn.sock.sendall(b"X")  # one pipelined byte, then gone
            time.sleep(0.05)
            s.close()
        took = slot_freed_within(port, sid, 5, 0.2)
        check(took is not None and took < 2, f"8 clients that sent one byte more and left freed their slots "
                                             f"({'within %.1f s' % took if took is not None else 'not within 5 s'})")
    finally:
        server.stop()


def check_within_counted(grown_kib, streams, what):
    """Checks that `what` grew the server by less than the 16 KiB the waiting budget counts each
    of its `streams` at (in an optimized build without sanitizers; reported elsewhere)."""
    check(grown_kib < streams * 16 or not MEMORY_CHECKS,
          f"{what} grew the server by {grown_kib >> 10} MiB (at most {streams * 16 >> 10} MiB: 16 KiB each"
          f"{'' if MEMORY_CHECKS else '; not checked in this build'})")


def test_pipelined_hoard():
    """Bytes a client sends on its waiting streams' connections (a "pipelined" next request that
    cannot be served until the stream ends) are not a store outside the waiting budget: 512
    waiting streams of one client, 60 KiB sent on each, grow the server by less than the
    16 KiB a waiting question is counted at."""
    server = Server({"ELICIT_ANSWER_TIMEOUT_SECONDS": "60"}, name="budget-pipelined")
    port = server.port
    streams = []
    try:
        for _ in range(64):  # 8 a session (ELICIT_MAX_WAITING_PER_SESSION), 512 for the client
            sid, _ = initialize(port)
            for i in range(8):
                s = Stream(port, sid, i)
                streams.append(s)
                check(is_question(s.next_message()), "a question waits") if len(streams) == 1 else None
        time.sleep(0.5)
        before = rss_kib(server.process.pid)
        hoard = b"POST /mcp HTTP/1.1\r\nX-Pad: " + b"p" * (60 * 1024)
        for s in streams:
            try:
                s.conn.sock.sendall(hoard)
            except OSError:  # the server closed it: what it does not keep
                pass
        time.sleep(1.0)
        check_within_counted(rss_kib(server.process.pid) - before, 512, "60 KiB sent on each of 512 waiting streams")
    finally:
        for s in streams:
            s.close()
        server.stop()


def hoarding_call(port, sid, request_id, junk):
    """In one write: a ping with a chunked body (for which the server makes room to read 64 KiB at
    once), a tools/call, and `junk`: the call's stream begins with what that read took past it.
    Its socket once the question came, or None."""
    sock = socket.create_connection(("127.0.0.1", port))
    headers = [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json"), ("Accept", ACCEPT),
               *session_headers(sid).items()]
    ping = json.dumps({"jsonrpc": "2.0", "id": f"p{request_id}", "method": "ping", "params": {"_": "x" * 2048}}).encode()
    chunked = f"{len(ping):x}\r\n".encode() + ping + b"\r\n0\r\n\r\n"
    call = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": "test_elicitation", "arguments": {}}}).encode()
    sock.sendall(attacks.raw_request("POST", headers + [("Transfer-Encoding", "chunked")], chunked) +
                 attacks.raw_request("POST", headers + [("Content-Length", str(len(call)))], call) + junk)
    sock.settimeout(10)
    seen = b""
    try:
        while b"elicitation/create" not in seen:
            chunk = sock.recv(65536)
            if not chunk:
                break
            seen += chunk
    except OSError:
        pass
    return sock if b"elicitation/create" in seen else None


def test_pipelined_with_request():
    """The same hoard sent in the request's own write: what the server read past the request
    before its stream began is bounded as what it reads after (512 streams, 60 KiB each)."""
    server = Server({"ELICIT_ANSWER_TIMEOUT_SECONDS": "60"}, name="budget-pipelined-with")
    port = server.port
    socks = []
    try:
        junk = b"POST /mcp HTTP/1.1\r\nX-Pad: " + b"p" * (60 * 1024)
        before = rss_kib(server.process.pid)
        waiting = 0
        for _ in range(64):
            sid, _ = initialize(port)
            for i in range(8):
                sock = hoarding_call(port, sid, i, junk)
                waiting += sock is not None
                socks.append(sock)
        time.sleep(0.5)
        check_within_counted(rss_kib(server.process.pid) - before, 512,
                             f"512 calls sent with 60 KiB more in their write ({waiting} questions waiting)")
    finally:
        for sock in socks:
            if sock is not None:
                sock.close()
        server.stop()


# ---- descriptors ----------------------------------------------------------------------------------

def responses_within(socks, seconds):
    """How many of `socks` get a whole 200 response (and stay open) within `seconds`, read together."""
    pending = {s: b"" for s in socks}
    ok, end = 0, time.monotonic() + seconds
    while pending and time.monotonic() < end:
        ready, _, _ = select.select(list(pending), [], [], max(0.0, end - time.monotonic()))
        for s in ready:
            try:
                chunk = s.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                del pending[s]
                continue
            pending[s] += chunk
            head, sep, body = pending[s].partition(b"\r\n\r\n")
            length = re.search(rb"(?i)content-length: *(\d+)", head)
            if sep and length and len(body) >= int(length.group(1)):
                ok += head.startswith(b"HTTP/1.1 200")
                del pending[s]
    return ok


def test_descriptors():
    server = Server(name="budget-descriptors", open_files=256)
    port = server.port
    held = []
    try:
        for _ in range(300):  # idle keep-alive connections, each after one request, from one address
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=2)
                s.sendall(attacks.keep_alive_request(port))
                held.append(s)
            except OSError:
                break
        kept = responses_within(held, 2.0)
        check(kept <= 64, f"one address holds {kept} of 300 keep-alive connections (at most its share)")
        served, slowest = 0, 0.0
        for _ in range(10):
            start = time.monotonic()
            served += served_from(port, "127.0.0.2", timeout=2)
            slowest = max(slowest, time.monotonic() - start)
        check(served == 10, f"another address is served meanwhile: {served} of 10 (slowest {slowest:.2f} s)")
        server.log.flush()
        server.log.seek(0)
        text = server.log.read()
        lines = len(re.findall(r"refused a connection|accept: ", text))
        check(0 < lines <= 10, f"the refusals are logged, a line a second at most ({lines} lines)")
        check("at most" in text and "open-file limit" in text, "the server says how many connections it can hold")
    finally:
        for s in held:
            s.close()
        server.stop()


# ---- clients behind a proxy -------------------------------------------------------------------------

def initialize_via(port, forwarded, source="127.0.0.1"):
    status, headers, _ = post(port, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                     "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                                "clientInfo": {"name": "proxied", "version": "1"}}},
                              {"X-Forwarded-For": forwarded} if forwarded else {}, source)
    return status


def test_behind_a_proxy():
    server = Server({"ELICIT_TRUSTED_PROXIES": "127.0.0.1", "ELICIT_MAX_SESSIONS_PER_CLIENT": "5",
                     "ELICIT_MAX_SESSIONS": "100"}, name="budget-proxy")
    port = server.port
    try:
        first = [initialize_via(port, "192.0.2.1") for _ in range(6)]
        check(first[:5] == [200] * 5 and first[5] == 429,
              f"behind the trusted proxy, one forwarded client opens its 5 sessions, then 429 ({first})")
        check(initialize_via(port, "192.0.2.2") == 200, "another forwarded client still opens one")
        check(initialize_via(port, "198.51.100.7, 192.0.2.1") == 429,
              "the address the proxy put last is the one counted, not one the client wrote before it")
        untrusted = [initialize_via(port, f"192.0.2.{100 + i}", source="127.0.0.2") for i in range(6)]
        check(untrusted[:5] == [200] * 5 and untrusted[5] == 429,
              f"a peer that is no trusted proxy is counted by its own address, whatever it forwards ({untrusted})")
    finally:
        server.stop()
    server = Server(name="budget-defaults")
    port = server.port
    try:
        opened, refused = 0, None
        while opened < 1100:
            status = initialize_via(port, None)
            if status != 200:
                refused = status
                break
            opened += 1
        check(refused == 429 and opened <= 16384 // 16,
              f"with the defaults one address opens {opened} sessions, at most a sixteenth of 16384, then {refused}")
    finally:
        server.stop()


def main():
    attacks.run_checks([test_cpu_per_body, test_replay_store, test_waiting_bytes, test_slow_reader, test_pipelined_byte_leave, test_pipelined_hoard, test_pipelined_with_request, test_descriptors, test_behind_a_proxy])


if __name__ == "__main__":
    main()
