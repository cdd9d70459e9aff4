#!/usr/bin/env python3
"""book_shipment as a task of the tasks extension (SEP-2663), against its rounds (Python 3 stdlib only).

    http_tasks.py SERVER_BINARY

Starts the server on a free loopback port and drives, over raw HTTP at 2026-07-28:
  - book_shipment as rounds (InputRequiredResult, requestState) and as a task (tasks/get,
    tasks/update) with the same answers: the same questions (message and requestedSchema, in the
    same order), the same final text; an invalid first address re-asked in the same words, under
    a key the task had not used; a decline giving the same text;
  - multi_input's two questions asked together: one answered, the other still open, then both;
  - a task is its creator's: another principal's tasks/get, tasks/update and tasks/cancel get the
    error an unknown id gets; a client that does not declare the extension gets -32021;
  - tasks/cancel of a waiting task: cancelled, its questions gone;
  - status notifications on a subscriptions/listen stream (SSE): the acknowledgement naming only
    the caller's own task, the task as tasks/get has it, each change as it comes (a question
    answered, the task cancelled), then the closing response and the stream's end; a listen for
    tasks without the extension refused with -32021; a client leaving a stream in the middle.
Every tasks result (CreateTaskResult, GetTaskResult, UpdateTaskResult, CancelTaskResult) and every
notifications/tasks is validated against the extension's schema (tests/spec/extensions/tasks/
schema.json), the acknowledgement and the closing response against 2026-07-28's (python3-jsonschema).
Fails with the first broken expectation; the server's stderr must hold no sanitizer report.
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import jsonschema

SERVER = sys.argv[1]
SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec")
SCHEMA = json.load(open(os.path.join(SPEC, "extensions", "tasks", "schema.json")))
SCHEMA_2026 = json.load(open(os.path.join(SPEC, "2026-07-28", "schema.json")))
validated = {}


def validate(definition, value, schema=SCHEMA):
    """`value` against the $defs entry `definition` of `schema` (the extension's, by default)."""
    validator = jsonschema.Draft202012Validator(dict(schema, **{"$ref": f"#/$defs/{definition}"}))
    errors = sorted(validator.iter_errors(value), key=str)
    if errors:
        raise AssertionError(f"{definition} does not validate: {errors[0].message}: {json.dumps(value)[:400]}")
    validated[definition] = validated.get(definition, 0) + 1
TASKS = "io.modelcontextprotocol/tasks"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = free_port()
ids = iter(range(1, 1 << 30))


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok   {what}")


def post(method, params, tasks=True, who="Bearer alice", request_id=None):
    """Sends one 2026-07-28 request; returns the connection and its response, not read yet."""
    caps = {"elicitation": {"form": {}}}
    if tasks:
        caps["extensions"] = {TASKS: {}}
    params = dict(params, _meta={"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                 "io.modelcontextprotocol/clientCapabilities": caps})
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Authorization": who}
    name = params.get("name", params.get("taskId"))
    if name is not None:
        headers["Mcp-Name"] = name
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    conn.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": next(ids) if request_id is None else request_id,
                                                  "method": method, "params": params}), headers=headers)
    return conn, conn.getresponse()


def rpc(method, params, tasks=True, who="Bearer alice"):
    """One 2026-07-28 request; returns its JSON-RPC response."""
    conn, response = post(method, params, tasks, who)
    body = response.read().decode()
    conn.close()
    response = json.loads(body)
    result = response.get("result")
    if result is not None:
        if method == "tools/call" and result.get("resultType") == "task":
            validate("CreateTaskResult", result)
        elif method in ("tasks/get", "tasks/update", "tasks/cancel"):
            validate({"tasks/get": "GetTaskResult", "tasks/update": "UpdateTaskResult",
                      "tasks/cancel": "CancelTaskResult"}[method], result)
    return response


def questions(requests):
    """The questions of an inputRequests object, in order, each its message and requestedSchema as
    JSON text: the same keys in the same order (a client shows a form's fields in it)."""
    return [json.dumps([r["params"]["message"], r["params"]["requestedSchema"]]) for r in requests.values()]


ADDRESS = {"street": "1 High St", "city": "London", "postcode": "SW1A 1AA", "country_code": "GB"}
BAD_ADDRESS = dict(ADDRESS, postcode="X", country_code="United Kingdom")
SLOT = {"slot": "wed-am"}
OPTIONS = {"country_code": "IE", "insured_value_gbp": 250, "signature_required": True}


def accept(content):
    return {"action": "accept", "content": content}


def as_rounds(answers):
    """book_shipment as rounds; each round's questions answered with the next answer. Returns
    (the questions asked, in order, the final text)."""
    asked, params = [], {"name": "book_shipment", "arguments": {"shipment_id": "SHP-1"}}
    answers = list(answers)
    while True:
        r = rpc("tools/call", params, tasks=False)["result"]
        if r["resultType"] != "input_required":
            return asked, r["content"][0]["text"]
        asked += questions(r["inputRequests"])
        key = next(iter(r["inputRequests"]))
        params = dict(params, inputResponses={key: answers.pop(0)}, requestState=r["requestState"])


def wait_for(task_id, statuses, who="Bearer alice"):
    deadline = time.time() + 10
    while time.time() < deadline:
        t = rpc("tasks/get", {"taskId": task_id}, who=who)["result"]
        if t["status"] in statuses:
            return t
        time.sleep(0.05)
    raise AssertionError(f"task {task_id} did not reach {statuses}")


def as_task(answers):
    """book_shipment as a task, the same way; also returns the keys used."""
    created = rpc("tools/call", {"name": "book_shipment", "arguments": {"shipment_id": "SHP-1"}})["result"]
    check(created["resultType"] == "task" and created["status"] in ("working", "input_required"),
          "tools/call of book_shipment by a client that takes tasks creates a task")
    task_id, asked, keys, answers = created["taskId"], [], [], list(answers)
    while True:
        t = wait_for(task_id, ("input_required", "completed", "failed", "cancelled"))
        if t["status"] != "input_required":
            check(t["status"] == "completed", f"the task completed ({t['status']})")
            return asked, t["result"]["content"][0]["text"], keys
        asked += questions(t["inputRequests"])
        key = next(iter(t["inputRequests"]))
        keys.append(key)
        ack = rpc("tasks/update", {"taskId": task_id, "inputResponses": {key: answers.pop(0)}})["result"]
        check(set(ack) - {"_meta"} == {"resultType"} and ack["resultType"] == "complete", "tasks/update: an empty ack")


def test_book_shipment():
    for name, answers in (("valid answers", [accept(ADDRESS), accept(SLOT), accept(OPTIONS)]),
                          ("an invalid first address", [accept(BAD_ADDRESS), accept(ADDRESS), accept(SLOT),
                                                        accept(OPTIONS)]),
                          ("a decline", [{"action": "decline"}])):
        print(f"-- book_shipment, {name}")
        rounds_asked, rounds_text = as_rounds(answers)
        task_asked, task_text, keys = as_task(answers)
        check(task_asked == rounds_asked, f"the same {len(rounds_asked)} questions, words and schemas, in both")
        check(task_text == rounds_text, f"the same final text: {task_text}")
        check(len(set(keys)) == len(keys), f"no key used twice in the task: {keys}")
    check("invalid" not in rounds_text, "the re-asked address was then taken")


def test_partial_answers():
    print("-- multi_input: two questions together, answered one at a time")
    task_id = rpc("tools/call", {"name": "multi_input", "arguments": {}})["result"]["taskId"]
    t = wait_for(task_id, ("input_required",))
    k1, k2 = list(t["inputRequests"])[:2]
    rpc("tasks/update", {"taskId": task_id, "inputResponses": {k1: accept({"name": "Ada", "confirm": True})}})
    t = rpc("tasks/get", {"taskId": task_id})["result"]
    check(t["status"] == "input_required" and list(t["inputRequests"]) == [k2], "one answered: the other alone open")
    rpc("tasks/update", {"taskId": task_id, "inputResponses": {k1: accept({"name": "Eve", "confirm": True}),
                                                               k2: accept({"name": "Bob", "confirm": True})}})
    t = wait_for(task_id, ("completed", "failed"))
    check(t["result"]["content"][0]["text"] == "Got Ada and Bob.", "both answered: done; a key answered twice kept its first")


def test_owner_and_capability():
    print("-- a task is its creator's")
    task_id = rpc("tools/call", {"name": "book_shipment", "arguments": {}})["result"]["taskId"]
    wait_for(task_id, ("input_required",))
    check(len(task_id) >= 22, "a task id carries 128 random bits (22 base64url characters)")
    unknown = rpc("tasks/get", {"taskId": "no-such-task"})["error"]
    for method, extra in (("tasks/get", {}), ("tasks/update", {"inputResponses": {"address": accept(ADDRESS)}}),
                          ("tasks/cancel", {})):
        e = rpc(method, dict({"taskId": task_id}, **extra), who="Bearer mallory")["error"]
        check(e == unknown, f"another principal's {method}: the error of an unknown id ({e['code']})")
        e = rpc(method, dict({"taskId": task_id}, **extra), tasks=False)["error"]
        check(e["code"] == -32021 and TASKS in json.dumps(e["data"]), f"{method} without the extension: -32021")
    t = rpc("tasks/get", {"taskId": task_id})["result"]
    check(t["status"] == "input_required" and list(t["inputRequests"]) == ["address"], "the task is untouched")
    ack = rpc("tasks/cancel", {"taskId": task_id})["result"]
    t = rpc("tasks/get", {"taskId": task_id})["result"]
    check(ack["resultType"] == "complete" and t["status"] == "cancelled" and "inputRequests" not in t,
          "tasks/cancel of a waiting task: cancelled, no question left")


def next_event(stream):
    """The next SSE event's JSON-RPC message on a listen stream (comments skipped), or None at its end."""
    data = []
    while True:
        line = stream.readline().decode()
        if line == "":
            return None
        line = line.rstrip("\r\n")
        if line == "":
            if data:
                return json.loads("\n".join(data))
            continue
        if line.startswith("data:"):
            data.append(line[5:].lstrip(" "))


def task_notification(stream, sub_id):
    n = next_event(stream)
    validate("TaskStatusNotification", n)
    check(n["params"]["_meta"] == {"io.modelcontextprotocol/subscriptionId": sub_id},
          f"notifications/tasks ({n['params']['status']}) carries the subscription's id")
    return n["params"]


def test_listen():
    print("-- status notifications on a subscriptions/listen stream")
    task_id = rpc("tools/call", {"name": "book_shipment", "arguments": {}})["result"]["taskId"]
    others = rpc("tools/call", {"name": "book_shipment", "arguments": {}}, who="Bearer mallory")["result"]["taskId"]
    wait_for(task_id, ("input_required",))
    conn, stream = post("subscriptions/listen", {"notifications": {"taskIds": [task_id, others, "no-such-task"]}},
                        request_id="listen-1")
    check(stream.status == 200 and stream.getheader("Content-Type") == "text/event-stream",
          "subscriptions/listen answers with an SSE stream")
    ack = next_event(stream)
    validate("SubscriptionsAcknowledgedNotification", ack, SCHEMA_2026)
    validate("TaskSubscriptionAcknowledgedNotifications", ack["params"]["notifications"])
    check(ack["params"]["notifications"] == {"taskIds": [task_id]} and
          ack["params"]["_meta"] == {"io.modelcontextprotocol/subscriptionId": "listen-1"},
          "acknowledged first: the caller's own task alone (another's and an unknown id left out alike)")
    first = task_notification(stream, "listen-1")
    now = rpc("tasks/get", {"taskId": task_id})["result"]
    check({k: v for k, v in first.items() if k != "_meta"} == {k: v for k, v in now.items()
                                                               if k not in ("_meta", "resultType")},
          "then the task as it is: what tasks/get returns")
    rpc("tasks/update", {"taskId": task_id, "inputResponses": {"address": accept(ADDRESS)}})
    seen = []
    while not seen or seen[-1]["status"] != "input_required":
        seen.append(task_notification(stream, "listen-1"))
    check(list(seen[-1]["inputRequests"]) == ["slot"], f"each change as it comes: {[t['status'] for t in seen]}")
    rpc("tasks/cancel", {"taskId": task_id})
    check(task_notification(stream, "listen-1")["status"] == "cancelled", "the task's end is sent once")
    closing = next_event(stream)
    validate("SubscriptionsListenResultResponse", closing, SCHEMA_2026)
    check(closing["id"] == "listen-1" and
          closing["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen-1",
          "no task left to watch: the subscription's closing response")
    check(next_event(stream) is None, "and the stream's end")
    conn.close()

    e = rpc("subscriptions/listen", {"notifications": {"taskIds": [others]}}, tasks=False)["error"]
    check(e["code"] == -32021 and TASKS in json.dumps(e["data"]), "a listen for tasks without the extension: -32021")

    waiting = rpc("tools/call", {"name": "book_shipment", "arguments": {}})["result"]["taskId"]
    conn, stream = post("subscriptions/listen", {"notifications": {"taskIds": [waiting]}})
    next_event(stream)  # the acknowledgement
    next_event(stream)  # the task as it is
    conn.close()  # the client leaves in the middle
    rpc("tasks/cancel", {"taskId": waiting})
    check(rpc("tasks/get", {"taskId": waiting})["result"]["status"] == "cancelled", "a client left a stream: served on")


def main():
    log = open("http_tasks.server.log", "w+")
    server = subprocess.Popen([SERVER, str(PORT)], stderr=log, env=dict(os.environ))
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", PORT)).close()
                break
            except OSError:
                time.sleep(0.05)
        test_book_shipment()
        test_partial_answers()
        test_owner_and_capability()
        test_listen()
        check(set(validated) == {"CreateTaskResult", "GetTaskResult", "UpdateTaskResult", "CancelTaskResult",
                                 "TaskStatusNotification", "SubscriptionsAcknowledgedNotification",
                                 "TaskSubscriptionAcknowledgedNotifications", "SubscriptionsListenResultResponse"},
              f"every tasks result validated against the extension's schema: {validated}")
        check(server.poll() is None, "the server ran the whole time")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    log.seek(0)
    report = re.search(r"ERROR: \w+Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|terminate called", log.read())
    check(report is None, "the server's stderr holds no sanitizer report")


if __name__ == "__main__":
    main()
