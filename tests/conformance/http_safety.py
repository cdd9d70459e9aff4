#!/usr/bin/env python3
"""What the conformance suite does not probe in samples/mcp_server, probed (Python 3 stdlib only).

    http_safety.py SERVER_BINARY

Starts the server on a free loopback port with short limits (sessions idle for 2 s expire) and
checks, each as a client of its own:
  - a foreign Origin or Host gets 403, a text/plain or typeless body 415, before any body is read;
  - one session cannot answer another session's elicitation (ids are per session and an answer
    is taken only from the session that was asked), nor can a request without a session;
  - notifications/cancelled ends the waiting call without a response, and its question with it;
  - half-open sockets do not stall a normal client, and keep-alive requests are not delayed
    (TCP_NODELAY: without it each one waits for the client's delayed ACK, about 40 ms);
  - at most 8 elicitations of a session wait at once (the default), and one more is refused at
    once; with ELICIT_MAX_WAITING=16, a 17th in all is refused too; a client that leaves its
    stream frees its question at once (the server sees the socket's end at once);
  - an idle session expires (404);
  - at 2026-07-28, the name question and the prompt take an answer without a requestState as the
    answer to their first round, and the confirmation does not.
Fails with the first broken expectation; the server's stderr must hold no sanitizer report.
"""
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time

SERVER = sys.argv[1]
ACCEPT = "application/json, text/event-stream"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = free_port()
HOST = f"127.0.0.1:{PORT}"


def check(condition, what, quiet=False):
    if not condition:
        raise AssertionError(what)
    if not quiet:
        print(f"ok   {what}")


def post(body, headers=None, conn=None):
    """One POST /mcp; returns (status, headers, parsed JSON body or text)."""
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    h = {"Content-Type": "application/json", "Accept": ACCEPT}
    h.update(headers or {})
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    conn.request("POST", "/mcp", body=data, headers=h)
    r = conn.getresponse()
    text = r.read().decode()
    if own:
        conn.close()
    try:
        return r.status, r.headers, json.loads(text) if text else None
    except ValueError:
        return r.status, r.headers, text


def initialize(capabilities):
    status, headers, body = post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                  "params": {"protocolVersion": "2025-11-25", "capabilities": capabilities,
                                             "clientInfo": {"name": "http-safety", "version": "1"}}})
    check(status == 200 and headers.get("Mcp-Session-Id"), "initialize opens a session")
    sid = headers["Mcp-Session-Id"]
    status, _, _ = post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session_headers(sid))
    return sid


def session_headers(sid):
    return {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}


class Stream:
    """A tools/call answered on an SSE stream, read event by event; or, for a call the server
    answers at once (a refusal), as a JSON body: its one message."""

    def __init__(self, sid, request_id, tool="test_elicitation", arguments=None, method="tools/call"):
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        body = {"jsonrpc": "2.0", "id": request_id, "method": method,
                "params": {"name": tool, "arguments": arguments or {}}}
        headers = {"Content-Type": "application/json", "Accept": ACCEPT, **session_headers(sid)}
        self.conn.request("POST", "/mcp", body=json.dumps(body), headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status
        self.body = None
        if self.response.getheader("Content-Type", "").startswith("application/json"):
            self.body = json.loads(self.response.read())

    def next_message(self):
        """The next JSON-RPC message on the stream, or None at its end (comments skipped)."""
        if self.response.getheader("Content-Type", "").startswith("application/json"):
            message, self.body = self.body, None
            return message
        while True:
            line = self.response.readline()
            if not line:
                return None
            line = line.decode().strip()
            if line.startswith("data:"):
                return json.loads(line[5:])

    def close(self):
        self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


def answer(sid, question_id, content):
    return post({"jsonrpc": "2.0", "id": question_id, "result": {"action": "accept", "content": content}},
                session_headers(sid) if sid else {})


def test_refusals():
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    status, _, body = post(ping, {"Origin": "http://evil.example"})
    check(status == 403 and "origin" in body["error"]["message"], "a foreign Origin gets 403")
    status, _, _ = post(ping, {"Host": "evil.example:%d" % PORT})
    check(status == 403, "a foreign Host (DNS rebinding) gets 403")
    status, _, _ = post(ping, {"Origin": "null"})
    check(status == 403, "Origin: null gets 403")
    status, _, body = post(json.dumps(ping), {"Content-Type": "text/plain"})
    check(status == 415 and "application/json" in body["error"]["message"], "a text/plain body gets 415")
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=5)
    conn.putrequest("POST", "/mcp")
    conn.putheader("Content-Length", "2")
    conn.endheaders(b"{}")
    check(conn.getresponse().status == 415, "a body without Content-Type gets 415")
    conn.close()
    status, _, body = post(ping, {"Origin": f"http://localhost:{PORT}", "Mcp-Session-Id": "x"})
    check(status == 404, "a loopback Origin passes (then: unknown session, 404)")


def test_initialize_version():
    # The server implements 2025-11-25 (and, without initialize, 2026-07-28): whatever older
    # version a client asks for, initialize answers 2025-11-25, the one it really speaks, and the
    # client decides whether to go on (it would otherwise get 2025-11-25 shapes under an older name).
    for asked in ("2025-06-18", "2025-03-26", "2024-11-05", "2025-11-25"):
        status, headers, body = post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                      "params": {"protocolVersion": asked, "capabilities": {},
                                                 "clientInfo": {"name": "http-safety", "version": "1"}}})
        got = body["result"]["protocolVersion"] if status == 200 else None
        check(got == "2025-11-25", f"initialize asking for {asked} is answered with 2025-11-25 (got {got})")
        sid = headers.get("Mcp-Session-Id")
        # The session then speaks 2025-11-25 only: a request naming another version in its header
        # is refused (400) rather than answered in shapes of the wrong version.
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        for named in ("2025-06-18", "2025-03-26", "2024-11-05"):
            status, _, body = post(ping, {"Mcp-Session-Id": sid, "MCP-Protocol-Version": named})
            check(status == 400 and body["id"] == 2 and named in body["error"]["message"],
                  f"a ping of that session naming {named} is refused with 400 (got {status})")
        status, _, body = post(ping, {"Mcp-Session-Id": sid})
        check(status == 200 and body["result"] == {}, "a ping without MCP-Protocol-Version speaks the negotiated one")
        status, _, body = post(ping, session_headers(sid))
        check(status == 200 and body["result"] == {}, "a ping naming 2025-11-25 is answered")
        if sid:
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
            conn.request("DELETE", "/mcp", headers={"Mcp-Session-Id": sid})
            conn.getresponse().read()
            conn.close()


def test_session_isolation():
    victim, attacker = initialize({"elicitation": {}}), initialize({"elicitation": {}})
    stream = Stream(victim, 10, arguments={"message": "victim's form"})
    question = stream.next_message()
    check(question["method"] == "elicitation/create", "the victim's call asks its form")
    forged = {"username": "attacker", "email": "attacker@evil.example"}
    status, _, _ = answer(attacker, question["id"], forged)
    check(status == 400, f"another session's answer to question {question['id']} is refused (400)")
    status, _, _ = answer(None, question["id"], forged)
    check(status == 400, "an answer without a session is refused (400)")
    status, _, _ = answer("0" * 32, question["id"], forged)
    check(status == 404, "an answer from an unknown session is refused (404)")
    own = Stream(attacker, 10)
    check(own.next_message()["id"] == question["id"], "question ids are per session (both sessions' first is the same id)")
    own.close()
    status, _, _ = answer(victim, question["id"], {"username": "victim", "email": "victim@example.com"})
    check(status == 202, "the victim's own answer is taken (202)")
    result = stream.next_message()
    text = result["result"]["content"][0]["text"]
    check("victim@example.com" in text and "attacker" not in text, "the victim's tool got the victim's answer only")
    stream.close()


def test_cancellation():
    sid = initialize({"elicitation": {}})
    stream = Stream(sid, "call-7")
    question = stream.next_message()
    status, _, _ = post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                         "params": {"requestId": "call-7", "reason": "user pressed stop"}}, session_headers(sid))
    check(status == 202, "notifications/cancelled is accepted (202)")
    check(stream.next_message() is None, "the cancelled call's stream ends without a response")
    status, _, _ = answer(sid, question["id"], {"username": "late", "email": "late@example.com"})
    check(status == 400, "the cancelled call's question takes no answer (400)")


def test_prompt_words_at_2025():
    # At 2025-11-25 the prompt that asks speaks that version: a code it defines (not 2026-07-28's
    # -32021) for a client without form elicitation, and no 2026 input key in an invalid answer's error.
    prompt = "test_input_required_result_prompt"
    sid = initialize({})
    stream = Stream(sid, "p-1", tool=prompt, method="prompts/get")
    error = (stream.next_message() or {}).get("error", {})
    check(error.get("code") == -32600 and "form" in error.get("message", ""),
          f"a prompt that needs a form, asked by a client without one: -32600 saying why (got {error})")
    stream.close()
    sid = initialize({"elicitation": {}})
    stream = Stream(sid, "p-2", tool=prompt, method="prompts/get")
    question = stream.next_message()
    check(question and question.get("method") == "elicitation/create", "the prompt asks its question on the stream")
    # The prompt is written once: an invalid answer is asked again (three forms in all), then
    # it is the one -32602.
    for attempt in range(3):
        answer(sid, question["id"], {"context": 42})
        message = stream.next_message() or {}
        if attempt < 2:
            check(message.get("method") == "elicitation/create" and "Please correct this" in
                  message.get("params", {}).get("message", ""), f"invalid answer {attempt + 1} is asked again (got {message})")
            question = message
    error = message.get("error", {})
    check(error.get("code") == -32602 and "user_context" not in json.dumps(error),
          f"a third invalid answer: -32602 with no 2026-07-28 input key (got {error})")
    stream.close()


def call26(method, name, extra=None):
    """A 2026-07-28 tools/call or prompts/get of `name` with a form-mode client; (status, body)."""
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}
    params = {"name": name, "_meta": meta, **(extra or {})}
    if method == "tools/call":
        params["arguments"] = {}
    status, _, body = post({"jsonrpc": "2.0", "id": 9, "method": method, "params": params},
                           {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Mcp-Name": name})
    return status, body


def test_first_round_without_state():
    # The name question and the prompt (elicit::tools written once) take an answer sent without a
    # requestState as the answer to their first round; a tool whose state matters does not.
    name = {"user_name": {"action": "accept", "content": {"name": "Ada"}}}
    status, body = call26("tools/call", "test_input_required_result_elicitation", {"inputResponses": name})
    text = ((body or {}).get("result", {}).get("content") or [{}])[0].get("text")
    check(status == 200 and text == "Hello, Ada!", f"the name answered without a state: the result (got {body})")
    bad = {"user_name": {"action": "accept", "content": {"name": 42}}}
    status, body = call26("tools/call", "test_input_required_result_elicitation", {"inputResponses": bad})
    error = (body or {}).get("error", {})
    check(error.get("code") == -32602 and error.get("data", {}).get("inputKey") == "user_name",
          f"an invalid name without a state: -32602 naming user_name (got {body})")
    forged = {"inputResponses": name, "requestState": "AAAA" * 20}
    status, body = call26("tools/call", "test_input_required_result_elicitation", forged)
    check((body or {}).get("error", {}).get("message") == "invalid or expired requestState",
          f"the name answered with a state that is not the server's: refused (got {body})")
    context = {"user_context": {"action": "accept", "content": {"context": "tea"}}}
    status, body = call26("prompts/get", "test_input_required_result_prompt", {"inputResponses": context})
    messages = (body or {}).get("result", {}).get("messages") or [{}]
    check(messages[0].get("content", {}).get("text") == "Use this context: tea",
          f"the prompt answered without a state: its messages (got {body})")
    ok = {"confirm": {"action": "accept", "content": {"ok": True}}}
    status, body = call26("tools/call", "test_input_required_result_request_state", {"inputResponses": ok})
    check((body or {}).get("error", {}).get("message") == "invalid or expired requestState",
          f"the confirmation answered without its state: refused (got {body})")


def test_half_open_and_latency():
    idle = []
    for i in range(40):
        s = socket.create_connection(("127.0.0.1", PORT))
        if i % 2:
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
        idle.append(s)
    time.sleep(0.2)
    start = time.monotonic()
    status, _, _ = post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "x", "version": "1"}}})
    elapsed = time.monotonic() - start
    check(status == 200 and elapsed < 1.0, f"with 40 half-open sockets a client is served in {elapsed * 1000:.0f} ms")
    for s in idle:
        s.close()
    sid = initialize({})
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=5)
    times = []
    for i in range(20):
        start = time.monotonic()
        status, _, _ = post({"jsonrpc": "2.0", "id": i + 2, "method": "ping"}, session_headers(sid), conn)
        times.append(time.monotonic() - start)
    conn.close()
    median = statistics.median(times) * 1000
    check(median < 20, f"keep-alive requests take {median:.1f} ms (median of 20; about 40 without TCP_NODELAY)")


def test_waiting_bound_and_expiry():
    idle_session, idle_since = initialize({}), time.monotonic()
    sessions = [initialize({"elicitation": {}}) for _ in range(2)]
    streams = []
    for i in range(8):
        streams.append(Stream(sessions[0], i))
        check(streams[-1].next_message()["method"] == "elicitation/create", f"elicitation {i + 1} of a session waits")
    ninth = Stream(sessions[0], 99)
    refused = ninth.next_message()
    check("error" in refused and "too many" in refused["error"]["message"] and "session" in refused["error"]["message"],
          "a session's 9th waiting elicitation is refused at once")
    ninth.close()
    for sid in sessions[1:]:
        for i in range(8):
            s = Stream(sid, i)
            s.next_message()
            streams.append(s)
    other = initialize({"elicitation": {}})
    s17 = Stream(other, 1)
    refused = s17.next_message()
    check("error" in refused and "too many" in refused["error"]["message"] and "in all" in refused["error"]["message"],
          "a 17th waiting elicitation (16 in all) is refused at once")
    s17.close()
    start = time.monotonic()
    status, _, _ = post({"jsonrpc": "2.0", "id": 5, "method": "tools/list"}, session_headers(other))
    check(status == 200 and time.monotonic() - start < 0.5, "with 16 elicitations waiting, other requests are served")
    for s in streams:
        s.close()
    start, attempt = time.monotonic(), 0
    while True:  # the server sees a closed stream's end of file as it comes
        attempt += 1
        again = Stream(other, f"again-{attempt}")
        message = again.next_message()
        again.close()
        if message and message.get("method") == "elicitation/create":
            break
        check(time.monotonic() - start < 5, "questions of closed streams are freed within 5 s", quiet=True)
        time.sleep(0.2)
    took = time.monotonic() - start
    check(took < 1.0, f"questions of closed streams are freed at once (within {took:.1f} s, {attempt} attempt(s))")
    time.sleep(max(0.0, 2.5 - (time.monotonic() - idle_since)))
    status, _, _ = post({"jsonrpc": "2.0", "id": 6, "method": "tools/list"}, session_headers(idle_session))
    check(status == 404, "a session idle for longer than ELICIT_SESSION_IDLE_SECONDS (2 s) has expired (404)")


def main():
    env = dict(os.environ, ELICIT_SESSION_IDLE_SECONDS="2", ELICIT_ANSWER_TIMEOUT_SECONDS="30", ELICIT_MAX_WAITING="16")
    log = open("http_safety.server.log", "w+")
    server = subprocess.Popen([SERVER, str(PORT)], stderr=log, env=env)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", PORT)).close()
                break
            except OSError:
                time.sleep(0.05)
        for test in (test_refusals, test_initialize_version, test_session_isolation, test_cancellation,
                     test_prompt_words_at_2025, test_first_round_without_state, test_half_open_and_latency,
                     test_waiting_bound_and_expiry):
            print(f"-- {test.__name__}")
            test()
        check(server.poll() is None, "the server ran the whole time")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    log.seek(0)
    report = re.search(r"ERROR: \w+Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|terminate called", log.read())
    check(report is None, "the server's stderr holds no sanitizer report")


if __name__ == "__main__":
    main()
