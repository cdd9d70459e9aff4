#!/usr/bin/env python3
"""The HTTP attacks of issue #30 against samples/mcp_server, with raw sockets (Python 3 stdlib only).

    http_attacks.py SERVER_BINARY [CHECK ...]

Each check starts the server on a free loopback port (with small limits from the environment
where it needs them) and runs one attack; every check runs, then the test fails if any did:
  - smuggling: a request refused with 403 (Origin, Host), 415 or 413 (an oversized chunked body)
    or 400 (duplicate headers) carries, as its body, a whole second request: the answer to a
    question an "oracle" session is waiting on. The refusal must be answered, the connection
    closed, and the oracle's tool must never get that answer;
  - duplicate Host, Origin or Content-Length headers: 400, and the connection closed;
  - slowloris: 64, then 200 sockets sending one header byte a second (reconnecting when cut)
    must not keep normal requests from being served, each within a second;
  - a whole-request deadline: headers that keep trickling in are cut off after the read
    timeout, not served forever;
  - keep-alive: the request deadline runs from a request's first byte, so a connection idle
    longer than it (and shorter than the idle timeout, announced as Keep-Alive: timeout=N) is
    still served, one idle longer is closed, and a request trickling in after an idle wait is
    still cut off at its own deadline;
  - per-client limits: a client (127.0.0.1) that opens all the sessions it may, or holds all
    the waiting elicitations it may, leaves room for another client (127.0.0.2); a client that
    opens sessions faster than the rate limit gets 429 with Retry-After.
Fails with a list of the broken expectations; the server's stderr must hold no sanitizer report.
"""
import http.client
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time

SERVER = sys.argv[1]
ONLY = set(sys.argv[2:])
ACCEPT = "application/json, text/event-stream"
FAILED = []
SANITIZER = re.compile(r"ERROR: \w+Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|terminate called")


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        FAILED.append(what)
    return condition


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One server process on a free port, with `env` added to the environment, and an open-file
    limit (soft and hard) of `open_files` when given."""

    def __init__(self, env=None, name="server", open_files=None):
        self.port = free_port()
        self.log = open(f"http_attacks.{name}.log", "w+")
        limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))) if open_files else None
        self.process = subprocess.Popen([SERVER, str(self.port)], stderr=self.log,
                                        env=dict(os.environ, **(env or {})), preexec_fn=limit)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port)).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def stop(self):
        alive = self.process.poll() is None
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.seek(0)
        check(alive and not SANITIZER.search(self.log.read()), "the server ran throughout, no sanitizer report")


def connection(port, source="127.0.0.1", timeout=10):
    return http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))


def post(port, body, headers=None, source="127.0.0.1"):
    conn = connection(port, source)
    h = {"Content-Type": "application/json", "Accept": ACCEPT}
    h.update(headers or {})
    try:
        conn.request("POST", "/mcp", body=json.dumps(body), headers=h)
        r = conn.getresponse()
        text = r.read().decode()
        return r.status, r.headers, (json.loads(text) if text.startswith("{") else text)
    finally:
        conn.close()


def initialize(port, source="127.0.0.1", capabilities=None):
    """A session id, or the refusing status."""
    status, headers, _ = post(port, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                     "params": {"protocolVersion": "2025-11-25",
                                                "capabilities": capabilities or {"elicitation": {}},
                                                "clientInfo": {"name": "http-attacks", "version": "1"}}},
                              source=source)
    if status != 200:
        return status, headers
    sid = headers["Mcp-Session-Id"]
    post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session_headers(sid), source)
    return sid, headers


def session_headers(sid):
    return {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}


def is_question(message):
    """Whether a message read from a stream is our elicitation/create (not an error, a timeout)."""
    return isinstance(message, dict) and message.get("method") == "elicitation/create"


def served_from(port, source, timeout):
    """Whether a 2026-07-28 tools/list from `source` (on a new connection) is answered 200 within
    `timeout` seconds to connect and one more to answer."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0)) as sock:
            sock.sendall(keep_alive_request(port))
            status, _, _ = read_response(sock, timeout=1)
        return status == 200
    except OSError:
        return False


class Stream:
    """A 2025-11-25 tools/call whose form waits on its SSE stream."""

    def __init__(self, port, sid, request_id, source="127.0.0.1"):
        self.conn = connection(port, source)
        body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                "params": {"name": "test_elicitation", "arguments": {}}}
        self.conn.request("POST", "/mcp", body=json.dumps(body),
                          headers={"Content-Type": "application/json", "Accept": ACCEPT, **session_headers(sid)})
        self.response = self.conn.getresponse()

    def next_message(self, timeout=10):
        self.conn.sock.settimeout(timeout)
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return None
                line = line.decode().strip()
                if line.startswith("data:"):
                    return json.loads(line[5:])
        except (socket.timeout, TimeoutError):
            return "timeout"

    def close(self):
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


def raw_request(method, headers, body=b""):
    lines = [f"{method} /mcp HTTP/1.1"] + [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def read_response(sock, timeout=5):
    """(status, whole bytes read until the server closed or `timeout` passed, closed?)."""
    sock.settimeout(timeout)
    data, closed, deadline = b"", False, time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (socket.timeout, TimeoutError):
            break
        except ConnectionResetError:
            closed = True
            break
        if not chunk:
            closed = True
            break
        data += chunk
        if not closed and b"\r\n\r\n" in data:
            sock.settimeout(max(0.05, min(1.5, deadline - time.monotonic())))  # then wait for the close
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.") else None
    return status, data, closed


# ---- smuggling ---------------------------------------------------------------------------------

def smuggled_answer(port, sid, question_id):
    """The whole second request: the oracle session's answer to its waiting question."""
    body = json.dumps({"jsonrpc": "2.0", "id": question_id,
                       "result": {"action": "accept", "content": {"username": "smuggled", "email": "s@evil.example"}}})
    return raw_request("POST", [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json"),
                                ("Accept", ACCEPT), ("Mcp-Session-Id", sid), ("MCP-Protocol-Version", "2025-11-25"),
                                ("Content-Length", str(len(body)))], body.encode())


def smuggle(port, name, expected_status, make_request):
    """Sends make_request(second) on one connection, where `second` is a smuggled answer."""
    sid, _ = initialize(port)
    stream = Stream(port, sid, "oracle")
    question = stream.next_message()
    if not check(isinstance(question, dict) and question.get("method") == "elicitation/create",
                 f"{name}: the oracle session's form waits"):
        return
    with socket.create_connection(("127.0.0.1", port)) as sock:
        head, body = make_request(smuggled_answer(port, sid, question["id"])).split(b"\r\n\r\n", 1)
        sock.sendall(head + b"\r\n\r\n")
        time.sleep(0.2)  # the body in segments of its own, as a browser sends it: read apart from the headers
        try:
            sock.sendall(body)
        except OSError:
            pass  # closed already: nothing of the body is read
        status, data, closed = read_response(sock)
    check(status == expected_status, f"{name}: refused with {expected_status} (got {status})")
    check(data.count(b"HTTP/1.1 ") <= 1, f"{name}: one response only on the connection")
    check(closed, f"{name}: the connection is closed after the refusal")
    result = stream.next_message(timeout=1.0)
    check(result == "timeout", f"{name}: the smuggled answer never reached the oracle's tool "
                               f"({'it got: ' + json.dumps(result)[:90] if result != 'timeout' else 'nothing'})")
    stream.close()


def test_smuggling():
    server = Server(name="smuggling")
    port = server.port
    try:
        def refused(headers):
            return lambda second: raw_request("POST", headers + [("Content-Length", str(len(second)))], second)

        loopback = [("Host", f"127.0.0.1:{port}"), ("Accept", ACCEPT)]
        smuggle(port, "403 foreign Origin", 403,
                refused(loopback + [("Content-Type", "application/json"), ("Origin", "http://evil.example")]))
        smuggle(port, "403 foreign Host", 403,
                refused([("Host", f"evil.example:{port}"), ("Content-Type", "application/json")]))
        smuggle(port, "415 text/plain", 415, refused(loopback + [("Content-Type", "text/plain")]))
        smuggle(port, "400 two Host headers", 400,
                refused(loopback + [("Host", "evil.example"), ("Content-Type", "application/json")]))

        def oversized(second):  # a chunked body over 4 MiB, then the second request
            chunk = b"x" * 65536
            body = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(65)) + b"0\r\n\r\n"
            return raw_request("POST", loopback + [("Content-Type", "application/json"),
                                                   ("Transfer-Encoding", "chunked")], body + second)
        smuggle(port, "413 oversized chunked body", 413, oversized)
    finally:
        server.stop()


# ---- duplicate headers ---------------------------------------------------------------------------

def test_duplicates():
    server = Server(name="duplicates")
    port = server.port
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                       "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                            "io.modelcontextprotocol/clientCapabilities": {}}}}).encode()
    common = [("Content-Type", "application/json"), ("Accept", ACCEPT), ("MCP-Protocol-Version", "2026-07-28"),
              ("Mcp-Method", "server/discover")]
    host = ("Host", f"127.0.0.1:{port}")
    length = ("Content-Length", str(len(ping)))
    cases = {
        "two Host headers (loopback, then foreign)": [host, ("Host", "evil.example")] + common + [length],
        "two loopback Host headers": [host, host] + common + [length],
        "two Origin headers (loopback, then foreign)": [host, ("Origin", f"http://127.0.0.1:{port}"),
                                                        ("Origin", "http://evil.example")] + common + [length],
        "two different Content-Length headers": [host] + common + [length, ("Content-Length", str(len(ping) - 5))],
        "two equal Content-Length headers": [host] + common + [length, length],
    }
    try:
        with socket.create_connection(("127.0.0.1", port)) as sock:  # the control
            sock.sendall(raw_request("POST", [host] + common + [length], ping))
            status, _, _ = read_response(sock, timeout=1)
        check(status == 200, f"control: the same request with single headers is served (got {status})")
        for name, headers in cases.items():
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(raw_request("POST", headers, ping))
                status, _, closed = read_response(sock)
            check(status == 400 and closed, f"{name}: 400 and closed (got {status}, closed={closed})")
    finally:
        server.stop()


# ---- slow clients --------------------------------------------------------------------------------

def slowloris(port, sockets, seconds):
    """`sockets` connections sending a header byte a second, reopened when cut, for `seconds`;
    meanwhile one normal request after another. Returns (served, failed, slowest seconds, cut)."""
    stop = threading.Event()
    cut = [0]
    header = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: " + "a" * 10000

    def attacker():
        socks = []
        for _ in range(sockets):  # each sends its first byte at once: the server has taken it on
            try:
                s = socket.create_connection(("127.0.0.1", port))
                s.send(header[0].encode())
                socks.append([s, 1])
            except OSError:
                pass
        while not stop.wait(1.0):
            for entry in socks:
                try:
                    entry[0].send(header[entry[1]].encode())
                    entry[1] += 1
                except OSError:
                    cut[0] += 1
                    entry[0].close()
                    try:
                        entry[:] = [socket.create_connection(("127.0.0.1", port)), 0]
                    except OSError:
                        pass
        for s, _ in socks:
            s.close()

    thread = threading.Thread(target=attacker)
    thread.start()
    time.sleep(1.5)
    served = failed = 0
    slowest = 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            sid, _ = initialize(port)
            ok = isinstance(sid, str)
        except OSError:
            ok = False
        took = time.monotonic() - start
        slowest = max(slowest, took)
        if ok and took < 1.0:
            served += 1
        else:
            failed += 1
        time.sleep(0.2)
    stop.set()
    thread.join()
    return served, failed, slowest, cut[0]


def test_slowloris():
    server = Server(name="slowloris")
    try:
        for sockets in (64, 200):
            served, failed, slowest, cut = slowloris(server.port, sockets, 7)
            check(served > 0 and failed == 0,
                  f"{sockets} slowloris sockets: {served} normal requests served within 1 s, {failed} not "
                  f"(slowest {slowest:.2f} s; slow sockets cut {cut} times)")
    finally:
        server.stop()


def trickle_headers(sock, every, give_up):
    """Begins a request's headers on `sock`, then sends one more byte of a header every `every`
    seconds until the server closes the connection or `give_up` seconds pass: (closed, seconds)."""
    sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    start = time.monotonic()
    while time.monotonic() - start < give_up:
        time.sleep(every)
        try:
            sock.send(b"a")
        except OSError:
            return True, time.monotonic() - start
    return False, time.monotonic() - start


def test_request_deadline():
    server = Server(name="deadline")
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            closed, took = trickle_headers(sock, every=0.5, give_up=12)
        check(closed and took < 11, f"headers trickling in a byte every 0.5 s are cut off "
                                    f"({'after %.1f s' % took if closed else 'not within 12 s'})")
    finally:
        server.stop()


def keep_alive_request(port):
    """A 2026-07-28 tools/list, kept alive, as raw bytes."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                       "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                            "io.modelcontextprotocol/clientCapabilities": {}}}}).encode()
    return raw_request("POST", [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json"),
                                ("Accept", ACCEPT), ("MCP-Protocol-Version", "2026-07-28"),
                                ("Mcp-Method", "tools/list"), ("Content-Length", str(len(body)))], body)


def read_one_response(sock, timeout=5):
    """(status, head text) of one whole response with a Content-Length, or (None, what came)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return None, data.decode(errors="replace") or "closed"
            data += chunk
        head, rest = data.split(b"\r\n\r\n", 1)
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                return None, "closed mid-body"
            rest += chunk
    except (socket.timeout, TimeoutError):
        return None, "timeout"
    except ConnectionResetError:
        return None, "reset"
    return int(head.split(b" ", 2)[1]), head.decode(errors="replace")


def closed_within(sock, seconds):
    """Whether the server closes `sock` (end of file or reset) within `seconds`."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except (socket.timeout, TimeoutError):
        return False
    except ConnectionResetError:
        return True


def test_idle_keep_alive():
    """#30 leftover: the request deadline (1 s here) runs from a request's first byte, and a
    kept-alive connection waits idle up to its own timeout (4 s here), announced."""
    server = Server({"ELICIT_REQUEST_TIMEOUT_SECONDS": "1", "ELICIT_IDLE_TIMEOUT_SECONDS": "4"}, name="idle")
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(keep_alive_request(server.port))
            status, head = read_one_response(sock)
            check(status == 200 and re.search(r"(?im)^keep-alive: *timeout=4\r?$", head) is not None,
                  f"a kept-alive response announces the idle timeout (Keep-Alive: timeout=4): {head[:200]!r}")
            time.sleep(2.5)  # past the request deadline, within the idle timeout
            sock.sendall(keep_alive_request(server.port))
            status, head = read_one_response(sock)
            check(status == 200, f"a connection idle 2.5 s (request deadline 1 s, idle timeout 4 s) is still "
                                 f"served: {status} {head[:80]!r}")
            start = time.monotonic()
            closed = closed_within(sock, 8)
            took = time.monotonic() - start
            # Never before the time announced (a client may send until then), and a second later.
            check(closed and 4.0 <= took < 6.5, f"a connection idle past the idle timeout (4 s) is closed, not "
                                                f"before it: {'after %.1f s' % took if closed else 'not within 8 s'}")
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(keep_alive_request(server.port))
            read_one_response(sock)
            time.sleep(2)  # idle, then a request that trickles: its deadline runs from its first byte
            closed, took = trickle_headers(sock, every=0.25, give_up=6)
            check(closed and took < 3, f"after an idle wait, a request trickling in is cut off at its own deadline "
                                       f"(1 s from its first byte): {'after %.1f s' % took if closed else 'not within 6 s'}")
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            check(closed_within(sock, 4), "a new connection that sends nothing is closed at the request deadline, "
                                          "not held for the idle timeout")
    finally:
        server.stop()


# ---- per-client limits -----------------------------------------------------------------------------

def test_client_sessions():
    server = Server({"ELICIT_MAX_SESSIONS": "40", "ELICIT_MAX_SESSIONS_PER_CLIENT": "10"}, name="client-sessions")
    try:
        opened, refused = 0, None
        for _ in range(1100):  # the old sample holds 1,000 sessions
            sid, _ = initialize(server.port)
            if not isinstance(sid, str):
                refused = sid
                break
            opened += 1
        check(refused is not None, f"one client's sessions are bounded: {opened} opened, then {refused}")
        other, _ = initialize(server.port, source="127.0.0.2")
        check(isinstance(other, str), f"another client still opens a session (got {other})")
    finally:
        server.stop()


def test_client_waiting():
    server = Server({"ELICIT_MAX_WAITING": "40", "ELICIT_MAX_WAITING_PER_CLIENT": "12"}, name="client-waiting")
    streams = []
    try:
        waiting, refused = 0, None
        while waiting < 60 and refused is None:
            sid, _ = initialize(server.port)
            for i in range(4):  # within any bound per session (the old sample's: 4)
                s = Stream(server.port, sid, i)
                streams.append(s)
                m = s.next_message()
                if is_question(m):
                    waiting += 1
                else:
                    refused = m
                    break
        check(refused is not None and "error" in refused,
              f"one client's waiting elicitations are bounded: {waiting} wait, then refused")
        sid, _ = initialize(server.port, source="127.0.0.2")
        other = Stream(server.port, sid, 1, source="127.0.0.2")
        m = other.next_message()
        streams.append(other)
        check(is_question(m),
              f"another client's elicitation still waits (got {json.dumps(m)[:100]})")
    finally:
        for s in streams:
            s.close()
        server.stop()


def test_session_rate():
    server = Server({"ELICIT_SESSION_RATE": "5", "ELICIT_SESSION_BURST": "5"}, name="session-rate")
    try:
        start = time.monotonic()
        results = [initialize(server.port) for _ in range(30)]
        took = time.monotonic() - start
        opened = sum(isinstance(sid, str) for sid, _ in results)
        limited = [(sid, h) for sid, h in results if sid == 429]
        check(opened <= 5 + 5 * took + 1 and limited,
              f"30 sessions asked for in {took:.1f} s: {opened} opened, {len(limited)} refused with 429")
        check(bool(limited) and limited[0][1].get("Retry-After"), "the 429 says Retry-After")
        other, _ = initialize(server.port, source="127.0.0.2")
        check(isinstance(other, str), f"another client still opens a session (got {other})")
    finally:
        server.stop()


def run_checks(tests):
    """Runs each test (those named on the command line, if any), each failure counted, not
    stopping the others; then exits 1 with the list of broken expectations, or says all hold."""
    for test in tests:
        if ONLY and test.__name__ not in ONLY:
            continue
        print(f"-- {test.__name__}", flush=True)
        try:
            test()
        except Exception as e:  # one attack's failure does not hide the others
            check(False, f"{test.__name__} raised {type(e).__name__}: {e}")
    if FAILED:
        print(f"{len(FAILED)} expectation(s) broken:\n  " + "\n  ".join(FAILED))
        sys.exit(1)
    print("all expectations hold")


def main():
    run_checks([test_smuggling, test_duplicates, test_slowloris, test_request_deadline, test_idle_keep_alive,
                test_client_sessions, test_client_waiting, test_session_rate])


if __name__ == "__main__":
    main()
