#!/usr/bin/env python3
"""Tasks that outlive their instance: two conformance servers sharing a real redis-server as their
task store (the tasks extension, SEP-2663). Python 3 stdlib only.

    shared_tasks.py CONFORMANCE_SERVER

- book_shipment started as a task on instance A; A killed with SIGKILL while the task waits for
  the delivery address (input_required); tasks/get and tasks/update on B find it where A left it
  and complete it, with the same final text as ever;
- another principal's tasks/get of that id on B: the error of an unknown id;
- a task still working (slow_compute) when its instance is killed: reported failed with a reason
  once its lease (ELICIT_TASK_LEASE_MS, 1.5 s here) has run out, never left working;
- Redis stopped: tasks/get and a new task fail closed, with -32603 in words, and no task is
  reported done.
Needs redis-server (Debian's package) and a conformance server built with hiredis.
"""
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import round_robin as rr  # noqa: E402
import shared_replay as sr  # noqa: E402  (its Redis of the test's own, die_with_parent)

SERVER = os.path.abspath(sys.argv[1])
TASKS = "io.modelcontextprotocol/tasks"
check = rr.check
ids = iter(range(1, 1 << 30))


class Instance:
    """One conformance server on the shared Redis."""

    def __init__(self, workdir, name, redis_port):
        self.name, self.port = name, rr.free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("ELICIT_")}
        env.update(ELICIT_REDIS_URL=f"redis://127.0.0.1:{redis_port}", ELICIT_TASK_LEASE_MS="1500")
        self.log_path = os.path.join(workdir, f"{name}.log")
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen([SERVER, str(self.port)], env=env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=log, preexec_fn=sr.die_with_parent)
        rr.wait_for_port(self.port, lambda: self.proc.poll() is None, name)

    def rpc(self, method, params, who="Bearer alice"):
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}, "extensions": {TASKS: {}}}}
        params = dict(params, _meta=meta)
        headers = {"Content-Type": "application/json", "Accept": rr.ACCEPT, "MCP-Protocol-Version": "2026-07-28",
                   "Mcp-Method": method, "Mcp-Name": params.get("name", params.get("taskId", "")),
                   "Authorization": who}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0", "id": next(ids), "method": method,
                                                 "params": params}), headers)
        response = json.loads(conn.getresponse().read())
        conn.close()
        return response

    def wait_for(self, task_id, statuses, within=10):
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            t = self.rpc("tasks/get", {"taskId": task_id})["result"]
            if t["status"] in statuses:
                return t
            time.sleep(0.05)
        raise AssertionError(f"{self.name}: task {task_id} did not reach {statuses}")

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)


def accept(content):
    return {"action": "accept", "content": content}


def main():
    with tempfile.TemporaryDirectory(prefix="elicit-shared-tasks-") as workdir:
        redis = sr.Redis(workdir)
        a = Instance(workdir, "A", redis.port)
        b = Instance(workdir, "B", redis.port)
        c = Instance(workdir, "C", redis.port)
        try:
            print("-- a task waiting for a person outlives its instance")
            created = a.rpc("tools/call", {"name": "book_shipment", "arguments": {"shipment_id": "SHP-9"}})["result"]
            task_id = created["taskId"]
            t = a.wait_for(task_id, ("input_required",))
            check(list(t["inputRequests"]) == ["address"], "A: the task asks for the address")
            a.kill()
            t = b.rpc("tasks/get", {"taskId": task_id})["result"]
            check(t["status"] == "input_required" and list(t["inputRequests"]) == ["address"],
                  "A killed (SIGKILL): B finds the task waiting for the address")
            answers = {"address": {"street": "1 High St", "city": "London", "postcode": "SW1A 1AA", "country_code": "GB"},
                       "slot": {"slot": "wed-am"},
                       "options": {"country_code": "IE", "insured_value_gbp": 250, "signature_required": True}}
            while t["status"] == "input_required":
                key = next(iter(t["inputRequests"]))
                b.rpc("tasks/update", {"taskId": task_id, "inputResponses": {key: accept(answers[key])}})
                t = b.wait_for(task_id, ("input_required", "completed", "failed"))
            check(t["status"] == "completed" and t["result"]["content"][0]["text"].startswith(
                "Shipment SHP-9 booked to 1 High St, London SW1A 1AA"), "B completes it: " + t["result"]["content"][0]["text"])
            e = b.rpc("tasks/get", {"taskId": task_id}, who="Bearer mallory")["error"]
            unknown = b.rpc("tasks/get", {"taskId": "no-such-task"})["error"]
            check(e == unknown, f"another principal's tasks/get on B: the error of an unknown id ({e['code']})")

            print("-- a task working when its instance dies fails once its lease runs out")
            working = c.rpc("tools/call", {"name": "slow_compute", "arguments": {"seconds": 60, "label": "lease"}})
            work_id = working["result"]["taskId"]
            time.sleep(0.3)
            c.kill()
            t = b.rpc("tasks/get", {"taskId": work_id})["result"]
            check(t["status"] == "working", "C killed: within the lease, B reports the task working")
            t = b.wait_for(work_id, ("failed", "completed", "cancelled"), within=5)
            check(t["status"] == "failed" and t.get("statusMessage") and t["error"]["code"] == -32603,
                  f"past the lease: failed, saying why ({t.get('statusMessage')})")

            print("-- Redis stopped: task requests fail closed")
            redis.stop()
            started = time.monotonic()
            e = b.rpc("tasks/get", {"taskId": task_id}).get("error")
            check(e is not None and e["code"] == -32603 and "task store" in e["message"],
                  f"tasks/get: {e and e['message']}")
            e = b.rpc("tools/call", {"name": "slow_compute", "arguments": {"seconds": 0}}).get("error")
            check(e is not None and e["code"] == -32603, "a new task: refused, no task made")
            check(time.monotonic() - started < 5, "within the store's timeouts")
            check(b.proc.poll() is None, "B ran the whole time")
        finally:
            for i in (a, b, c):
                i.stop()
            redis.stop()
        with open(b.log_path) as log:
            text = log.read()
        check("Sanitizer" not in text and "terminate called" not in text, "B's stderr holds no crash report")


if __name__ == "__main__":
    main()
