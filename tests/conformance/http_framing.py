#!/usr/bin/env python3
"""HTTP framing attacks of the third hardening round (issues #44 and #46) against
samples/mcp_server, with raw sockets (Python 3 stdlib only, about 30 s).

    http_framing.py SERVER_BINARY [CHECK ...]

Each check starts the server on a free loopback port and runs one attack; every check runs,
then the test fails if any did:
  - smuggling through Transfer-Encoding (RFC 9112 6.1, 6.3): a Transfer-Encoding whose final
    coding is not chunked (`chunked, identity`, `gzip`, `xchunked`, `identity`), chunked twice,
    Transfer-Encoding with Content-Length (either order), obfuscated (a space before the colon,
    a vertical tab, two fields), and any Transfer-Encoding on HTTP/1.0, each carrying a complete
    tools/list in its body: 400, one response, the connection closed, and the smuggled request
    never answered. A well-framed chunked request is still served;
  - unbounded framing lines: a chunk-size line or a trailer that never ends, sent as fast as
    loopback takes it on four connections, is cut off and costs the server a bounded amount of
    memory (peak RSS), not the whole request deadline's worth;
  - trailer fields are not headers: a trailer `Origin: http://evil.example` (after the Host
    and Origin checks) is refused, and so is any trailer;
  - small ones: a Content-Length over 4 MiB gets 413; `Expect: 100-Continue` is matched without
    regard to case; an empty line before the request line is ignored (RFC 9112 2.2); an
    HTTP/1.0 client's SSE stream is not chunked (HTTP/1.0 has no chunked coding) and ends with
    the connection.
Fails with a list of the broken expectations; the server's stderr must hold no sanitizer report.
"""
import json
import os
import re
import socket
import threading
import time

import http_attacks as attacks
from http_attacks import ACCEPT, Server, check, initialize, raw_request, read_response, session_headers


# Whether RSS figures are checked (CMake says: an optimized build without sanitizers) or reported.
MEMORY_CHECKS = os.environ.get("ELICIT_TEST_MEMORY_CHECKS", "1") != "0"


def tools_list_body():
    return json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/list",
                       "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                            "io.modelcontextprotocol/clientCapabilities": {}}}}).encode()


def modern_headers(port):
    return [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json"), ("Accept", ACCEPT),
            ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/list")]


def tools_list(port):
    """A whole 2026-07-28 tools/list request with a Content-Length: what is smuggled."""
    body = tools_list_body()
    return raw_request("POST", modern_headers(port) + [("Content-Length", str(len(body)))], body)


def chunked(body):
    return b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"


def send_raw(port, data, timeout=3):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass
        return read_response(sock, timeout=timeout)


# ---- Transfer-Encoding --------------------------------------------------------------------------

def test_transfer_encoding():
    server = Server(name="framing-te")
    port = server.port
    try:
        control = raw_request("POST", modern_headers(port) + [("Transfer-Encoding", "chunked")],
                              chunked(tools_list_body()))
        status, data, _ = send_raw(port, control, timeout=1)
        check(status == 200 and b'"tools"' in data, f"control: a chunked tools/list is served (got {status})")

        smuggled = tools_list(port)
        head = "POST /mcp HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in modern_headers(port))
        cases = {
            "Transfer-Encoding: chunked, identity": [("Transfer-Encoding", "chunked, identity")],
            "Transfer-Encoding: gzip": [("Transfer-Encoding", "gzip")],
            "Transfer-Encoding: xchunked": [("Transfer-Encoding", "xchunked")],
            "Transfer-Encoding: identity": [("Transfer-Encoding", "identity")],
            "Transfer-Encoding: chunked, chunked": [("Transfer-Encoding", "chunked, chunked")],
            "two fields, chunked then identity": [("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "identity")],
            "Transfer-Encoding with Content-Length": [("Transfer-Encoding", "chunked"), ("Content-Length", "0")],
            "Content-Length with Transfer-Encoding": [("Content-Length", "0"), ("Transfer-Encoding", "chunked")],
        }
        for name, fields in cases.items():
            chunk_body = chunked(smuggled) if any(v.startswith("chunked") and "," not in v and k == "Transfer-Encoding"
                                                  and len(fields) == 1 for k, v in fields) else smuggled
            request = (head + "".join(f"{k}: {v}\r\n" for k, v in fields) + "\r\n").encode() + chunk_body
            expect_refused(port, name, request)
        raw_cases = {
            "a space before the colon (Transfer-Encoding : chunked)": b"Transfer-Encoding : chunked\r\n",
            "a vertical tab before chunked": b"Transfer-Encoding:\x0bchunked\r\n",
            "Transfer-Encoding on HTTP/1.0": None,
        }
        for name, field in raw_cases.items():
            if field is None:
                request = (head.replace("HTTP/1.1", "HTTP/1.0") + "Transfer-Encoding: chunked\r\n\r\n").encode() + \
                          chunked(smuggled)
            else:
                request = head.encode() + field + b"\r\n" + smuggled
            expect_refused(port, name, request)
    finally:
        server.stop()


def expect_refused(port, name, request):
    status, data, closed = send_raw(port, request)
    check(status == 400, f"{name}: 400 (got {status})")
    responses = len(re.findall(rb"(?m)^HTTP/1\.[01] \d{3} ", data))
    check(responses <= 1, f"{name}: one response only, the smuggled request never answered ({responses} responses)")
    check(b'"tools"' not in data, f"{name}: no tools/list result on the connection")
    check(closed, f"{name}: the connection is closed")


# ---- framing lines that never end -----------------------------------------------------------------

def rss_peak_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def flood(port, prefix, filler, seconds, sent):
    """Sends `prefix` then `filler` as fast as the server takes it, until it closes or `seconds`."""
    try:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.settimeout(0.5)
            sock.sendall(prefix)
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                try:
                    sent[0] += sock.send(filler)
                except (socket.timeout, TimeoutError):
                    continue
    except OSError:
        pass  # cut off: what is wanted


def test_endless_lines():
    server = Server(name="framing-lines")
    port = server.port
    try:
        before = rss_peak_kib(server.process.pid)
        head = raw_request("POST", modern_headers(port) + [("Transfer-Encoding", "chunked")])
        filler = b"a" * 65536
        for name, prefix in (("a chunk-size line", head + b"1"), ("a chunk extension", head + b"1;ext="),
                             ("a trailer", head + b"1\r\na\r\n0\r\nX-Trailer: ")):
            sent = [0]
            threads = [threading.Thread(target=flood, args=(port, prefix, filler, 3, sent)) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            peak = rss_peak_kib(server.process.pid)
            check(peak - before < 32 * 1024 or not MEMORY_CHECKS,
                  f"{name} that never ends, on 4 connections ({sent[0] >> 20} MiB sent): the server's peak RSS grew "
                  f"{(peak - before) >> 10} MiB (at most 32{'' if MEMORY_CHECKS else ': not checked in this build'})")
        status, _, _ = send_raw(port, tools_list(port), timeout=1)
        check(status == 200, f"the server still serves (got {status})")
    finally:
        server.stop()


# ---- trailers ------------------------------------------------------------------------------------

def test_trailers():
    server = Server(name="framing-trailers")
    port = server.port
    try:
        head = raw_request("POST", modern_headers(port) + [("Transfer-Encoding", "chunked")])
        body = tools_list_body()
        for name, trailer in (("a trailer Origin: http://evil.example", b"Origin: http://evil.example\r\n"),
                              ("a trailer Host: evil.example", b"Host: evil.example\r\n"),
                              ("a harmless trailer", b"X-Checksum: 1\r\n")):
            request = head + b"%x\r\n" % len(body) + body + b"\r\n0\r\n" + trailer + b"\r\n"
            status, data, closed = send_raw(port, request)
            check(status == 400 and b'"tools"' not in data and closed,
                  f"{name}: refused with 400 and closed, the request not served (got {status}, closed={closed})")
    finally:
        server.stop()


# ---- small ones ------------------------------------------------------------------------------------

def test_small_ones():
    server = Server(name="framing-small")
    port = server.port
    try:
        big = raw_request("POST", modern_headers(port) + [("Content-Length", str((4 << 20) + 1))])
        status, data, closed = send_raw(port, big)
        check(status == 413 and closed, f"a Content-Length over 4 MiB: 413 and closed (got {status})")

        body = tools_list_body()
        for expect in ("100-continue", "100-Continue", "100-CONTINUE"):
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(raw_request("POST", modern_headers(port) + [("Content-Length", str(len(body))),
                                                                        ("Expect", expect)]))
                sock.settimeout(2)
                try:
                    first = sock.recv(65536)
                except (socket.timeout, TimeoutError):
                    first = b""
                check(first.startswith(b"HTTP/1.1 100"), f"Expect: {expect} gets 100 Continue (got {first[:20]!r})")
                sock.sendall(body)
                status, data, _ = read_response(sock, timeout=1)
                check(b'"tools"' in first + data, f"Expect: {expect}: then the request is served")

        status, data, _ = send_raw(port, b"\r\n" + tools_list(port), timeout=1)
        check(status == 200 and b'"tools"' in data, f"an empty line before the request line is ignored (got {status})")

        sid, _ = initialize(port)
        call = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                           "params": {"name": "test_elicitation", "arguments": {}}}).encode()
        request = raw_request("POST", [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json"),
                                       ("Accept", ACCEPT), *session_headers(sid).items(),
                                       ("Content-Length", str(len(call)))], call).replace(b"HTTP/1.1", b"HTTP/1.0", 1)
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(request)
            sock.settimeout(5)
            data = b""
            while b"elicitation/create" not in data or not data.endswith(b"\n\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            check(head.startswith(b"HTTP/1.") and b"transfer-encoding" not in head.lower() and
                  rest.startswith(b"event: message"),
                  f"an HTTP/1.0 client's SSE stream is not chunked: {head[:200]!r} / {rest[:40]!r}")
            question = json.loads(rest.split(b"data: ", 1)[1].split(b"\n", 1)[0]) if b"data: " in rest else {}
            attacks.post(port, {"jsonrpc": "2.0", "id": question.get("id"),
                                "result": {"action": "accept", "content": {"username": "ann", "email": "a@b.example"}}},
                         session_headers(sid))
            _, tail, closed = read_response(sock, timeout=3)
            check(closed and b'"result"' in tail and not tail.startswith(b"0\r\n"),
                  f"and it ends with the connection, the result sent unchunked: {tail[:80]!r}")
    finally:
        server.stop()


def main():
    attacks.run_checks([test_transfer_encoding, test_endless_lines, test_trailers, test_small_ones])


if __name__ == "__main__":
    main()
