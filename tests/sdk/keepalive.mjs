// The keep-alive seen by the official TypeScript SDK (v1, @modelcontextprotocol/sdk) at
// 2025-11-25 over Streamable HTTP: a person who takes 2.5 s to answer, a client whose request
// times out after 1 s unless progress resets it, and a server that sends notifications/progress
// every 250 ms (ELICIT_PROGRESS_INTERVAL_MS) while the question waits.
//   - resetTimeoutOnProgress: the call completes with the answer, onprogress was called several
//     times, progress increasing, with the server's message;
//   - the control, without it: the same call times out (the test can fail).
//   - the same over stdio (samples/stdio_server, book_shipment): the first question answered
//     after 2.5 s, the call kept alive by the progress notifications on stdout.
//   node keepalive.mjs MCP_SERVER STDIO_SERVER
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [serverPath, stdioServerPath] = process.argv.slice(2);
const freePort = () => new Promise((resolve, reject) => {
  const probe = createServer();
  probe.once("error", reject);
  probe.listen(0, "127.0.0.1", () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
});
const port = await freePort();
const url = new URL(`http://127.0.0.1:${port}/mcp`);
const server = spawn(serverPath, [String(port)], {
  stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ELICIT_PROGRESS_INTERVAL_MS: "250" },
});
let stderr = "";
server.stderr.on("data", (chunk) => { stderr += chunk; });
process.on("exit", () => { if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL"); });
setTimeout(() => { console.log(`not ok - did not end within 30 s; the server's stderr:\n${stderr}`); process.exit(1); },
           30_000).unref();
for (let i = 0; !stderr.includes("listening on"); i += 1) {
  assert.ok(i < 100 && server.exitCode === null, `the server did not start; its stderr:\n${stderr}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

// One call of test_elicitation, answered after 2.5 s, with a 1 s request timeout.
async function slowCall(resetTimeoutOnProgress) {
  const client = new Client({ name: "elicit-keepalive", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    return { action: "accept", content: { username: "ada", email: "ada@example.org" } };
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  const progress = [];
  try {
    const result = await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } },
                                         undefined,
                                         { timeout: 1000, resetTimeoutOnProgress, onprogress: (p) => progress.push(p) });
    return { result, progress };
  } catch (error) {
    return { error, progress };
  } finally {
    await client.close();
  }
}

const kept = await slowCall(true);
assert.equal(kept.error, undefined, `the kept-alive call failed: ${kept.error}`);
assert.notEqual(kept.result.isError, true, JSON.stringify(kept.result));
assert.match(kept.result.content[0].text, /ada/);
assert.ok(kept.progress.length >= 5, `onprogress called ${kept.progress.length} times (2.5 s at 250 ms: about 9)`);
kept.progress.forEach((p, i) => {
  assert.equal(p.progress, i + 1);
  assert.equal(p.message, "Waiting for the user's answer");
});
console.log(`ok - resetTimeoutOnProgress: the call completed after ${kept.progress.length} progress notifications`);

const control = await slowCall(false);
assert.ok(control.error, "without resetTimeoutOnProgress the call should time out after 1 s");
assert.equal(control.error.code, -32001, `${control.error}`);  // the SDK's RequestTimeout
console.log(`ok - the control: without resetTimeoutOnProgress the call timed out (${control.error.message})`);

// Over stdio: book_shipment's first question (the address) answered after 2.5 s, the others at once.
const overStdio = new Client({ name: "elicit-keepalive", version: "1.0.0" }, { capabilities: { elicitation: {} } });
let asked = 0;
overStdio.setRequestHandler(ElicitRequestSchema, async (request) => {
  const fields = Object.keys(request.params.requestedSchema.properties);
  if (asked++ === 0) await new Promise((resolve) => setTimeout(resolve, 2500));
  if (fields.includes("street"))
    return { action: "accept", content: { street: "1 High St", city: "London", postcode: "SW1A 1AA", country_code: "GB" } };
  if (fields.includes("slot")) return { action: "accept", content: { slot: "wed-am" } };
  return { action: "accept", content: { country_code: "IE", insured_value_gbp: 250, signature_required: true } };
});
let stdioErr = "";
const stdioTransport = new StdioClientTransport({
  command: stdioServerPath, env: { ...process.env, ELICIT_PROGRESS_INTERVAL_MS: "250" }, stderr: "pipe" });
stdioTransport.stderr?.on("data", (chunk) => { stdioErr += chunk; });
await overStdio.connect(stdioTransport);
const stdioProgress = [];
const booked = await overStdio.callTool({ name: "book_shipment", arguments: { shipment_id: "SHP-4471" } }, undefined,
                                        { timeout: 1000, resetTimeoutOnProgress: true,
                                          onprogress: (p) => stdioProgress.push(p) });
await overStdio.close();
assert.notEqual(booked.isError, true, JSON.stringify(booked));
assert.match(booked.content[0].text, /Shipment SHP-4471 booked/);
assert.ok(stdioProgress.length >= 5, `over stdio, onprogress called ${stdioProgress.length} times (about 9)`);
stdioProgress.forEach((p, i) => assert.equal(p.progress, i + 1));
assert.doesNotMatch(stdioErr, /Sanitizer|runtime error:|terminate called/, stdioErr);
console.log(`ok - over stdio: book_shipment completed after ${stdioProgress.length} progress notifications`);

server.kill("SIGTERM");
await new Promise((resolve) => server.once("exit", resolve));
assert.doesNotMatch(stderr, /Sanitizer|runtime error:|terminate called/, stderr);
