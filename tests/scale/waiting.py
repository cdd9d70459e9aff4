#!/usr/bin/env python3
"""Many waiting elicitations on one conformance server, and what each costs (Python 3 stdlib only).

    waiting.py SERVER_BINARY [COUNT] [--max-bytes N] [--json]

Starts the server with its defaults on a free loopback port (raising this process's open-file
limit to its hard limit first: each waiting elicitation is a socket), and then:
  - COUNT clients (default 200), each with a 2025-11-25 session of its own, call the
    test_elicitation tool and leave its form waiting: every one must get its elicitation/create;
  - with all of them waiting, an unrelated ping is served (20 of them, the p99 reported) and the
    server's RSS is read: (RSS now - RSS before the sessions) / COUNT is the memory one waiting
    elicitation costs, its session and connection included; with --max-bytes it must be under N
    (8192 for an optimized build: issue #45's bound), else it is reported;
  - every client answers its own form, and every tool returns that client's own answer;
  - with all of them done, the server's thread count is still its pool's (no thread per wait).
Bounded: every socket has a 30 s timeout, and the server is stopped at the end. The test
scale.waiting_200 runs it with 200; the 10,000 run (tests/scale/waiting_10k.sh) is by hand.
"""
import json
import os
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time

SERVER = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 200
MAX_BYTES = int(sys.argv[sys.argv.index("--max-bytes") + 1]) if "--max-bytes" in sys.argv else None
ACCEPT = "application/json, text/event-stream"
SANITIZER = re.compile(r"ERROR: \w+Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|terminate called")


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        raise SystemExit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_field(pid, name):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(name + ":"):
                return int(line.split()[1])
    return 0


class Client:
    """One keep-alive connection speaking HTTP/1.1 by hand: a request, then its response head."""

    def __init__(self, port):
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buffer = b""

    def send(self, body, headers=()):
        data = json.dumps(body).encode()
        head = [f"POST /mcp HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Content-Type: application/json",
                f"Accept: {ACCEPT}", f"Content-Length: {len(data)}"] + [f"{k}: {v}" for k, v in headers]
        self.sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + data)

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk

    def head(self):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        return int(lines[0].split()[1]), headers

    def body(self, headers):
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return json.loads(body) if body else None

    def request(self, body, headers=()):
        self.send(body, headers)
        status, h = self.head()
        return status, h, self.body(h)

    def event(self):
        """The next JSON-RPC message of a chunked SSE response."""
        while True:
            match = re.search(rb"data: (.*)\n\n", self.buffer)
            if match:
                self.buffer = self.buffer[match.end():]
                return json.loads(match.group(1))
            self._fill()


def session_headers(sid):
    return (("Mcp-Session-Id", sid), ("MCP-Protocol-Version", "2025-11-25"))


def open_session(port):
    for _ in range(100):
        c = Client(port)
        status, headers, body = c.request({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                           "params": {"protocolVersion": "2025-11-25",
                                                      "capabilities": {"elicitation": {}},
                                                      "clientInfo": {"name": "waiting", "version": "1"}}})
        if status == 429:  # the session rate limit: wait as told
            c.sock.close()
            time.sleep(float(headers.get("retry-after", "1")))
            continue
        check(status == 200, f"initialize: {status} {body}") if status != 200 else None
        sid = headers["mcp-session-id"]
        c.request({"jsonrpc": "2.0", "method": "notifications/initialized"}, session_headers(sid))
        return c, sid
    check(False, "initialize kept getting 429")


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    check(hard > COUNT + 100, f"open-file limit {hard} holds {COUNT} clients")
    port = free_port()
    log = open(f"waiting_{COUNT}.server.log", "w+")
    server = subprocess.Popen([SERVER, str(port)], stderr=log, preexec_fn=lambda: resource.setrlimit(
        resource.RLIMIT_NOFILE, (hard, hard)))
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.05)
        warm, sid = open_session(port)  # the allocator warmed up by one whole round trip
        warm.send({"jsonrpc": "2.0", "id": "warm", "method": "tools/call",
                   "params": {"name": "test_elicitation", "arguments": {}}}, session_headers(sid))
        warm.head()
        q = warm.event()
        answerer = Client(port)
        answerer.request({"jsonrpc": "2.0", "id": q["id"],
                          "result": {"action": "accept", "content": {"username": "w", "email": "w@example.com"}}},
                         session_headers(sid))
        warm.event()
        time.sleep(0.3)
        threads_idle = status_field(server.pid, "Threads")
        rss_before = status_field(server.pid, "VmRSS")
        start = time.monotonic()
        clients = []
        for i in range(COUNT):
            c, sid = open_session(port)
            c.send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                    "params": {"name": "test_elicitation", "arguments": {"message": f"form {i}"}}},
                   session_headers(sid))
            clients.append((c, sid))
        questions = []
        for c, sid in clients:
            status, _ = c.head()
            questions.append(c.event() if status == 200 else {"status": status})
        asked = sum(q.get("method") == "elicitation/create" for q in questions)
        took = time.monotonic() - start
        check(asked == COUNT, f"{asked} of {COUNT} elicitations wait ({took:.1f} s to set up)")
        time.sleep(0.5)
        rss_waiting = status_field(server.pid, "VmRSS")
        per_waiting = (rss_waiting - rss_before) * 1024 / COUNT
        psid = clients[0][1]
        pinger = Client(port)
        times = []
        for i in range(20):
            t = time.monotonic()
            status, _, _ = pinger.request({"jsonrpc": "2.0", "id": f"ping-{i}", "method": "ping"},
                                          session_headers(psid))
            times.append(time.monotonic() - t)
        p99 = sorted(times)[-1] * 1000
        check(status == 200, f"with {COUNT} waiting, a ping is served (p99 of 20: {p99:.1f} ms, "
                             f"median {statistics.median(times) * 1000:.1f} ms)")
        threads_waiting = status_field(server.pid, "Threads")
        check(threads_waiting == threads_idle,
              f"the server runs {threads_waiting} threads with {COUNT} waiting, as many as idle ({threads_idle})")
        check(MAX_BYTES is None or per_waiting < MAX_BYTES,
              f"RSS {rss_before // 1024} MiB idle, {rss_waiting // 1024} MiB with {COUNT} waiting: "
              f"{per_waiting / 1024:.1f} KiB per waiting elicitation, session and connection included"
              + (f" (< {MAX_BYTES / 1024:.0f} KiB)" if MAX_BYTES else " (not checked: not an optimized build)"))
        answered = 0
        answerer = Client(port)  # a fresh connection: an idle one is closed (ELICIT_IDLE_TIMEOUT_SECONDS)
        for i, (c, sid) in enumerate(clients):
            status, _, _ = answerer.request(
                {"jsonrpc": "2.0", "id": questions[i]["id"],
                 "result": {"action": "accept", "content": {"username": f"user{i}", "email": f"u{i}@example.com"}}},
                session_headers(sid))
            answered += status == 202
        own = 0
        for i, (c, sid) in enumerate(clients):
            result = c.event()
            own += f"u{i}@example.com" in result["result"]["content"][0]["text"]
            c.sock.close()
        check(answered == COUNT and own == COUNT,
              f"{answered} answers taken, {own} of {COUNT} tools returned their own client's answer")
        if "--json" in sys.argv:
            print(json.dumps({"count": COUNT, "rss_idle_kib": rss_before, "rss_waiting_kib": rss_waiting,
                              "bytes_per_waiting": round(per_waiting), "ping_p99_ms": round(p99, 2),
                              "setup_s": round(took, 1), "threads": threads_waiting}))
        check(server.poll() is None, "the server ran throughout")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    log.seek(0)
    check(not SANITIZER.search(log.read()), "the server's stderr holds no sanitizer report")


if __name__ == "__main__":
    main()
