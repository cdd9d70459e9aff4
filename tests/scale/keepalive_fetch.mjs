// Keep-alive a real client can trust (issue 45): Node's own fetch (undici, its global agent, no
// retry logic of ours) against the conformance server with a 5 s idle timeout. 1,000 requests at
// once open 1,000 keep-alive connections (counted in the server's /proc/PID/fd); then more rounds
// of 1,000 after the connections idled 1 s and 3.5 s (reused), 4.5 s (fetch drops an idle socket
// a second before the Keep-Alive header's timeout) and 6.5 s (past the announced timeout, and
// past the second more the server waits). Every request must succeed: a connection the server
// closed while fetch still counted on it is an error here, as it is for a user. About 20 s.
//
//   node keepalive_fetch.mjs SERVER_BINARY
import { spawn } from "node:child_process";
import { readdirSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";

const server_binary = process.argv[2];
const CONNECTIONS = 1000;
const IDLE_SECONDS = 5;

let child;
function check(condition, what) {
  if (!condition) {
    console.error(`FAIL ${what}`);
    child?.kill("SIGTERM");  // the server never outlives the test
    process.exit(1);
  }
  console.log(`ok   ${what}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function free_port() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = s.address().port;
      s.close(() => resolve(port));
    });
  });
}

function sockets_of(pid) {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

const port = await free_port();
child = spawn(server_binary, [String(port)], {
  env: { ...process.env, ELICIT_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS) },
  stdio: ["ignore", "ignore", "pipe"],
});
let stderr = "";
child.stderr.on("data", (d) => (stderr += d));
const url = `http://127.0.0.1:${port}/mcp`;
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

let next_id = 1;
async function discover() {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "server/discover",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: next_id++, method: "server/discover", params: { _meta: meta } }),
  });
  const body = await response.json();
  if (response.status !== 200 || !body.result) throw new Error(`HTTP ${response.status} ${JSON.stringify(body)}`);
  return response.headers.get("keep-alive");
}

// CONNECTIONS requests at once: the errors by message, and one Keep-Alive header seen.
async function round() {
  const outcomes = await Promise.allSettled(Array.from({ length: CONNECTIONS }, () => discover()));
  const errors = {};
  let keep_alive;
  for (const o of outcomes) {
    if (o.status === "fulfilled") keep_alive = o.value;
    else {
      const why = String(o.reason?.cause?.code ?? o.reason?.cause?.message ?? o.reason?.message);
      errors[why] = (errors[why] ?? 0) + 1;
    }
  }
  return { errors, keep_alive };
}

try {
  let up = false;
  for (let i = 0; i < 100 && !up; i++) {
    try {
      await discover();
      up = true;
    } catch {
      await sleep(50);
    }
  }
  check(up, "the server answers");
  const first = await round();
  check(Object.keys(first.errors).length === 0, `${CONNECTIONS} requests at once, no error: ${JSON.stringify(first.errors)}`);
  check(first.keep_alive === `timeout=${IDLE_SECONDS}`, `each response announces its idle timeout: Keep-Alive: ${first.keep_alive}`);
  const held = sockets_of(child.pid);
  check(held >= CONNECTIONS, `the server holds the ${CONNECTIONS} keep-alive connections (${held} sockets)`);
  for (const idle_ms of [1000, 3500, 4500, 6500]) {
    await sleep(idle_ms);
    const r = await round();
    check(Object.keys(r.errors).length === 0,
          `after ${idle_ms / 1000} s idle (announced ${IDLE_SECONDS} s), ${CONNECTIONS} more at once, no error: ` +
            JSON.stringify(r.errors));
  }
  check(child.exitCode === null, "the server ran the whole time");
} finally {
  child.kill("SIGTERM");
}
await new Promise((r) => (child.exitCode !== null ? r() : child.on("exit", r)));
check(!/ERROR: \w+Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|terminate called/.test(stderr),
      "the server's stderr holds no sanitizer report");
