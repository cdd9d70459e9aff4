#!/usr/bin/env python3
"""The browser attack of issue #30 against samples/mcp_server (Python 3 stdlib and Chromium).

    smuggling.py SERVER_BINARY [CHROMIUM]

Headless Chromium opens a page at a foreign origin, http://evil.example:PAGE_PORT, which its
--host-resolver-rules map to 127.0.0.1 (as a DNS-rebinding attacker's name would resolve). The
page sends 30 plain no-cors POSTs to http://127.0.0.1:PORT/mcp (foreign Origin: 403) and 30
POSTs to http://evil.example:PORT/mcp (foreign Host: 403), each with a text/plain body that is
a whole second HTTP request: the answer to a form an "oracle" session (set up by this script)
waits on. The server must refuse each, close the connection, and never read the body as a
request: neither oracle's tool may get an answer. Fails otherwise, or when the page did not run.
"""
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance"))
sys.argv = [sys.argv[0], sys.argv[1]] + sys.argv[2:]
SERVER = sys.argv[1]
CHROMIUM = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("ELICIT_CHROMIUM", "/usr/bin/chromium")
import http_attacks as h  # noqa: E402  (its Server, Stream, initialize, smuggled_answer)


def page(port, oracles):
    # Over 1400 bytes, so that Chromium writes the body apart from the headers (it merges smaller
    # ones into one write): a padding header in the second request.
    seconds = [h.smuggled_answer(port, sid, qid).decode().replace("\r\n", "\r\nX-Pad: " + "a" * 2000 + "\r\n", 1)
               for sid, qid in oracles]
    return f"""<!doctype html><title>evil</title><script>
const seconds = {json.dumps(seconds)};
async function run() {{
  const sent = [];
  for (let i = 0; i < 30; i++) {{
    sent.push(fetch("http://127.0.0.1:{port}/mcp", {{method: "POST", mode: "no-cors", body: seconds[0],
                                                     headers: {{"Content-Type": "text/plain"}}}}).catch(() => null));
    sent.push(fetch("http://evil.example:{port}/mcp", {{method: "POST", body: seconds[1],
                                                       headers: {{"Content-Type": "text/plain"}}}}).catch(() => null));
  }}
  await Promise.all(sent);
  await fetch("/done");
}}
run();
</script>"""


def main():
    if not os.access(CHROMIUM, os.X_OK):
        h.check(False, f"Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
        sys.exit(1)
    server = h.Server(name="browser")
    port = server.port
    streams, oracles = [], []
    done = threading.Event()
    try:
        for i in range(2):
            sid, _ = h.initialize(port)
            s = h.Stream(port, sid, f"oracle-{i}")
            q = s.next_message()
            h.check(isinstance(q, dict) and q.get("method") == "elicitation/create", f"oracle {i}'s form waits")
            streams.append(s)
            oracles.append((sid, q["id"]))
        body = page(port, oracles).encode()

        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/done":
                    done.set()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
        threading.Thread(target=site.serve_forever, daemon=True).start()
        profile = tempfile.mkdtemp(prefix="smuggling-chromium-")
        browser = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             f"--user-data-dir={profile}", "--remote-debugging-port=0",
             "--host-resolver-rules=MAP evil.example 127.0.0.1", f"http://evil.example:{site.server_port}/"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            h.check(done.wait(60), "the page at http://evil.example sent its 60 POSTs")
            time.sleep(1.0)
        finally:
            os.killpg(browser.pid, signal.SIGKILL)
            browser.wait()
            site.shutdown()
        for i, s in enumerate(streams):
            result = s.next_message(timeout=1.0)
            h.check(result == "timeout", f"oracle {i} ({'foreign Origin' if i == 0 else 'foreign Host'}): no smuggled "
                                         f"request ran ({'it got: ' + json.dumps(result)[:80] if result != 'timeout' else 'nothing came'})")
    finally:
        for s in streams:
            s.close()
        server.stop()
    if h.FAILED:
        print(f"{len(h.FAILED)} expectation(s) broken")
        sys.exit(1)
    print("all expectations hold")


if __name__ == "__main__":
    main()
