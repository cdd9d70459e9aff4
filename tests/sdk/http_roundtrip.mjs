// The official MCP TypeScript SDK as the client of samples/mcp_server over Streamable HTTP, in
// both protocol versions:
//   - v2 (@modelcontextprotocol/client) pinned to 2026-07-28: it connects with server/discover,
//     lists the tools, and calls the input-required tools. Each question comes back in an
//     InputRequiredResult; the SDK answers it through the handler registered here and retries the
//     call itself with inputResponses and the requestState, byte for byte. The test reads what
//     went over the wire (a recording fetch) as well as what the SDK returned.
//   - v1 (@modelcontextprotocol/sdk) at 2025-11-25: initialize opens a session, the tool asks
//     with elicitation/create on the call's SSE stream, and the handler's answer is POSTed back.
// Each flow is answered with accept, decline, cancel and an invalid answer, and the results are
// the texts written out by hand below. The server is started here on a free loopback port and
// stopped with SIGTERM at the end: it must have run the whole time, end by that signal (or exit
// 0), and its stderr must hold no sanitizer report, and exactly the log lines the cases cause.
// Then book_shipment, the one tool both samples serve, by four clients (shipment_runs.mjs): v1
// and v2 over HTTP against the HTTP sample (samples/mcp_server), and over stdio against
// samples/stdio_server (one process per session, which must exit by itself with status 0 and a
// clean stderr).
//   node http_roundtrip.mjs CONFORMANCE_SERVER SHIPMENT_SERVER [MCP_SERVER]
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { shipmentRuns } from "./shipment_runs.mjs";

const [serverPath, stdioServerPath, sampleServerPath] = process.argv.slice(2);
const sanitizerReport = /ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|Segmentation fault|terminate called|Assertion .* failed/;

// ---- The server ---------------------------------------------------------------------------------

const freePort = () => new Promise((resolve, reject) => {
  const probe = createServer();
  probe.once("error", reject);
  probe.listen(0, "127.0.0.1", () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
});

const port = await freePort();
const url = new URL(`http://127.0.0.1:${port}/mcp`);
const server = spawn(serverPath, [String(port)], { stdio: ["ignore", "ignore", "pipe"] });
let stderr = "";
server.stderr.on("data", (chunk) => { stderr += chunk; });
// Whatever happens, the server does not outlive this script; and no case hangs the test.
process.on("exit", () => { if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL"); });
setTimeout(() => {
  console.log(`not ok - the round trip did not end within 120 s; the server's stderr:\n${stderr}`);
  process.exit(1);
}, 120_000).unref();
let exit = null;
const exited = new Promise((resolve) => server.once("exit", (code, signal) => { exit = { code, signal }; resolve(exit); }));
for (let i = 0; !stderr.includes("listening on") && exit === null; i += 1) {
  assert.ok(i < 100, `the server did not start within 10 s; its stderr:\n${stderr}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
assert.equal(exit, null, `the server ended at start: ${JSON.stringify(exit)}; its stderr:\n${stderr}`);

// The HTTP sample (samples/mcp_server), for book_shipment: the clients run it as they run the stdio
// sample, and it must stop by SIGTERM with a clean stderr. Without its path, the server above.
let sample = { url, stop: async () => "" };
if (sampleServerPath) {
  const samplePort = await freePort();
  const child = spawn(sampleServerPath, [String(samplePort)], { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk) => { errors += chunk; });
  process.on("exit", () => { if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL"); });
  const ended = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  for (let i = 0; !errors.includes("listening on"); i += 1) {
    assert.ok(i < 100 && child.exitCode === null, `the HTTP sample did not start within 10 s; its stderr:\n${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  sample = {
    url: new URL(`http://127.0.0.1:${samplePort}/mcp`),
    async stop() {  // what went wrong, or ""
      child.kill("SIGTERM");
      const { code, signal } = await ended;
      if (sanitizerReport.test(errors)) return `the HTTP sample's stderr reports an error:\n${errors}`;
      return code === 0 || signal === "SIGTERM" ? "" : `the HTTP sample ended with ${JSON.stringify({ code, signal })}`;
    },
  };
}

// ---- What the server must send, written out by hand -----------------------------------------------

const nameSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const colorSchema = { type: "object", properties: { color: { type: "string" } }, required: ["color"] };
const userInfoSchema = {
  type: "object",
  properties: { username: { type: "string", description: "User's response" },
                email: { type: "string", description: "User's email address" } },
  required: ["username", "email"],
};
const tools2026 = ["test_input_required_result_elicitation", "test_input_required_result_request_state",
                   "test_input_required_result_tampered_state", "test_input_required_result_multi_round",
                   "test_input_required_result_multiple_inputs", "test_input_required_result_capabilities",
                   "test_input_required_result_sampling", "test_input_required_result_list_roots",
                   "test_missing_capability", "test_streaming_elicitation", "test_logging_tool", "greet",
                   "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input",
                   "test_tool_with_task", "redeem_voucher", "book_shipment"];
// The tools written once (the name, the confirmation, the two rounds, redeem_voucher, book_shipment)
// are in both lists.
const tools2025 = ["test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums",
                   "test_input_required_result_elicitation", "test_input_required_result_request_state",
                   "test_input_required_result_tampered_state", "test_input_required_result_multi_round",
                   "redeem_voucher", "book_shipment"];
// What the prompt asks again after an invalid answer (7 for the context), in both eras.
const contextAgain = "What context should the prompt use?\n\nPlease correct this:\n- context must be text; got the number 7.";
const declined = (question) => `The user declined to answer "${question}"; nothing was done.`;
const cancelled = (question) => `The user cancelled the question "${question}"; nothing was done.`;
const textOf = (result) => result.content.map((c) => c.text).join("\n");

// ---- SDK v2 at 2026-07-28 -------------------------------------------------------------------------

// A v2 client pinned to 2026-07-28 whose every HTTP exchange is recorded: the request's headers
// and parsed body, the response's status and text. `alter` may rewrite a request body first.
async function clientV2({ capabilities = { elicitation: { form: {} } }, mode = { pin: "2026-07-28" }, alter, at = url } = {}) {
  const wire = [];
  const recording = async (input, init = {}) => {
    let body = init.body;
    if (alter && typeof body === "string") body = JSON.stringify(alter(JSON.parse(body)));
    const response = await fetch(input, { ...init, body });
    const text = await response.clone().text();
    wire.push({ method: init.method, headers: new Headers(init.headers),
                body: typeof body === "string" ? JSON.parse(body) : undefined, status: response.status, text });
    return response;
  };
  const client = new ClientV2({ name: "elicit-sdk-v2", version: "1.0.0" },
                              { capabilities, versionNegotiation: { mode } });
  const asked = [];
  let answers = [];
  // (The SDK takes a handler only for a capability the client declares.)
  if (capabilities.elicitation) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      const answer = answers.shift();
      assert.ok(answer, `an unexpected elicitation: ${request.params.message}`);
      return answer(request.params);
    });
  }
  await client.connect(new TransportV2(at, { fetch: recording }));
  // The tools/call POSTs of one call, each with the result or error the server answered.
  const calls = (name) => wire.filter((w) => w.body?.method === "tools/call" && w.body.params.name === name)
    .map((w) => ({ ...w, answer: JSON.parse(w.text) }));
  return {
    client, wire, asked, calls,
    answer(...next) { answers = next; asked.length = 0; wire.length = 0; },
    left: () => answers.length,
  };
}

const accept = (content) => () => ({ action: "accept", content });
const decline = () => ({ action: "decline" });
const cancel = () => ({ action: "cancel" });

// The SDK's error for a call, or a failure when the call succeeded.
async function rejection(promise) {
  try {
    const result = await promise;
    assert.fail(`expected an error, got ${JSON.stringify(result)}`);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    return error;
  }
}

// One call of `tool` answered with `answers`, through a fresh pinned client.
async function callV2(tool, answers, options) {
  const c = await clientV2(options);
  c.answer(...answers);
  try {
    const outcome = await c.client.callTool({ name: tool, arguments: {} }).then((result) => ({ result }), (error) => ({ error }));
    assert.equal(c.left(), 0, "some answers were not asked for");
    return { ...outcome, asked: [...c.asked], posts: c.calls(tool) };
  } finally {
    await c.client.close();
  }
}

const v2cases = [
  ["v2: connects with server/discover at 2026-07-28, and lists the 2026-07-28 tools only", async () => {
    const c = await clientV2();
    try {
      assert.equal(c.client.getNegotiatedProtocolVersion(), "2026-07-28");
      assert.deepEqual(c.client.getServerVersion(), { name: "elicit-sample-server", version: "0.1.0" });
      const discover = c.wire.find((w) => w.body?.method === "server/discover");
      assert.ok(discover, "no server/discover was sent");
      assert.equal(discover.status, 200);
      assert.equal(discover.headers.get("mcp-protocol-version"), "2026-07-28");
      assert.equal(discover.headers.get("mcp-method"), "server/discover");
      assert.deepEqual(JSON.parse(discover.text).result.supportedVersions, ["2026-07-28", "2025-11-25"]);
      assert.ok(!c.wire.some((w) => w.body?.method === "initialize"), "a pinned client sent initialize");
      const { tools } = await c.client.listTools();
      assert.deepEqual(tools.map((t) => t.name), tools2026);
      const list = c.wire.find((w) => w.body?.method === "tools/list");
      assert.equal(list.body.params._meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
      assert.equal(JSON.parse(list.text).result.resultType, "complete");
    } finally {
      await c.client.close();
    }
  }],
  ["v2: auto mode negotiates 2026-07-28 too", async () => {
    const c = await clientV2({ mode: "auto" });
    try {
      assert.equal(c.client.getNegotiatedProtocolVersion(), "2026-07-28");
    } finally {
      await c.client.close();
    }
  }],
  ["v2: accept: the SDK retries with inputResponses and the tool answers", async () => {
    const r = await callV2("test_input_required_result_elicitation", [accept({ name: "Ada" })]);
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(textOf(r.result), "Hello, Ada!");
    assert.equal(r.result.isError ?? false, false);
    assert.deepEqual(r.asked, [{ mode: "form", message: "What is your name?", requestedSchema: nameSchema }]);
    assert.equal(r.posts.length, 2);
    assert.equal(r.posts[0].answer.result.resultType, "input_required");
    assert.equal(r.posts[0].body.params.inputResponses, undefined);
    assert.deepEqual(r.posts[1].body.params.inputResponses, { user_name: { action: "accept", content: { name: "Ada" } } });
    assert.equal(r.posts[1].headers.get("mcp-name"), "test_input_required_result_elicitation");
    assert.equal(r.posts[1].answer.result.resultType, "complete");
  }],
  ["v2: decline: a complete result saying so", async () => {
    const r = await callV2("test_input_required_result_elicitation", [decline]);
    assert.equal(textOf(r.result), declined("What is your name?"));
    assert.equal(r.result.isError ?? false, false);
    assert.deepEqual(r.posts[1].body.params.inputResponses, { user_name: { action: "decline" } });
  }],
  ["v2: cancel: a complete result saying so", async () => {
    const r = await callV2("test_input_required_result_elicitation", [cancel]);
    assert.equal(textOf(r.result), cancelled("What is your name?"));
  }],
  ["v2: an invalid answer: -32602 naming the input and each violation", async () => {
    const r = await callV2("test_input_required_result_elicitation", [accept({ name: 42 })]);
    assert.equal(r.error?.code, -32602, String(r.error));
    assert.equal(r.error.message, 'Invalid answer to "user_name": /name: name must be text; got the number 42. (type)');
    assert.deepEqual(r.error.data, { violations: [{ pointer: "/name", keyword: "type", message: "name must be text; got the number 42." }],
                                     inputKey: "user_name" });
    const missing = await callV2("test_input_required_result_elicitation", [accept({})]);
    assert.equal(missing.error?.code, -32602);
    assert.deepEqual(missing.error.data.violations, [{ pointer: "/name", keyword: "required", message: "name is required." }]);
  }],
  ["v2: a sealed requestState comes back byte for byte", async () => {
    const r = await callV2("test_input_required_result_request_state", [accept({ ok: true })]);
    assert.equal(textOf(r.result), "state-ok: confirmed yes");
    assert.deepEqual(r.asked.map((a) => a.message), ["Please confirm"]);
    const state = r.posts[0].answer.result.requestState;
    assert.match(state, /^\S{40,}$/, "the first answer carries no sealed state");
    assert.equal(r.posts[1].body.params.requestState, state);
  }],
  ["v2: multi-round: two questions, each retry carrying the latest state", async () => {
    const r = await callV2("test_input_required_result_multi_round", [accept({ name: "Ada" }), accept({ color: "green" })]);
    assert.equal(textOf(r.result), "Ada likes green.");
    assert.deepEqual(r.asked, [{ mode: "form", message: "Step 1: What is your name?", requestedSchema: nameSchema },
                               { mode: "form", message: "Step 2: What is your favorite color?", requestedSchema: colorSchema }]);
    assert.equal(r.posts.length, 3);
    const [first, second, third] = r.posts;
    assert.equal(first.body.params.requestState, undefined);
    assert.equal(second.body.params.requestState, first.answer.result.requestState);
    assert.deepEqual(Object.keys(second.body.params.inputResponses), ["step1"]);
    assert.equal(second.answer.result.resultType, "input_required");
    assert.notEqual(second.answer.result.requestState, first.answer.result.requestState);
    assert.equal(third.body.params.requestState, second.answer.result.requestState);
    assert.deepEqual(third.body.params.inputResponses, { step2: { action: "accept", content: { color: "green" } } });
  }],
  ["v2: multi-round: declined at the second step", async () => {
    const r = await callV2("test_input_required_result_multi_round", [accept({ name: "Ada" }), decline]);
    assert.equal(textOf(r.result), declined("Step 2: What is your favorite color?"));
  }],
  ["v2: multi-round: an invalid first answer is -32602", async () => {
    const r = await callV2("test_input_required_result_multi_round", [accept({ name: ["Ada"] })]);
    assert.equal(r.error?.code, -32602, String(r.error));
    assert.equal(r.error.data.inputKey, "step1");
  }],
  ["v2: a form, a sampling and the roots at once, each through its handler", async () => {
    const c = await clientV2({ capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } });
    const sampled = [];
    c.client.setRequestHandler("sampling/createMessage", async (request) => {
      sampled.push(request.params);
      return { role: "assistant", content: { type: "text", text: "Hello there" }, model: "test-model" };
    });
    c.client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    c.answer(accept({ name: "Ada" }));
    try {
      const result = await c.client.callTool({ name: "test_input_required_result_multiple_inputs", arguments: {} });
      assert.equal(textOf(result), "Name: Ada. Greeting: Hello there. Root: file:///work. ");
      assert.deepEqual(sampled, [{ messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 }]);
      const posts = c.calls("test_input_required_result_multiple_inputs");
      assert.equal(posts.length, 2);
      assert.deepEqual(Object.keys(posts[0].answer.result.inputRequests).sort(), ["client_roots", "greeting", "user_name"]);
    } finally {
      await c.client.close();
    }
  }],
  ["v2: the prompt asks its context with an InputRequiredResult", async () => {
    const c = await clientV2();
    c.answer(accept({ context: "tea" }));
    try {
      const result = await c.client.getPrompt({ name: "test_input_required_result_prompt" });
      assert.equal(result.description, "A prompt with context");
      assert.deepEqual(result.messages, [{ role: "user", content: { type: "text", text: "Use this context: tea" } }]);
      assert.equal(c.asked[0].message, "What context should the prompt use?");
    } finally {
      await c.client.close();
    }
  }],
  ["v2: the prompt asks an invalid answer again in the words of 2025-11-25, then -32602", async () => {
    const c = await clientV2();
    c.answer(accept({ context: 7 }), accept({ context: 7 }), accept({ context: 7 }));
    try {
      const bad = await rejection(c.client.getPrompt({ name: "test_input_required_result_prompt" }));
      assert.equal(bad.code, -32602);
      assert.deepEqual(bad.data?.violations?.map((v) => v.pointer), ["/context"]);
      assert.equal(bad.data?.inputKey, "user_context");
      assert.deepEqual(c.asked.map((a) => a.message), ["What context should the prompt use?", contextAgain, contextAgain]);
    } finally {
      await c.client.close();
    }
  }],
  ["v2: an altered requestState is refused with the one error", async () => {
    const alter = (body) => {
      const state = body.params?.requestState;
      if (typeof state === "string") body.params.requestState = state.slice(0, -2) + (state.endsWith("AA") ? "BB" : "AA");
      return body;
    };
    const r = await callV2("test_input_required_result_tampered_state", [accept({ ok: true })], { alter });
    assert.equal(r.error?.code, -32602, String(r.error));
    assert.equal(r.error.message, "invalid or expired requestState");
  }],
  ["v2: a client that declared no elicitation is not asked: -32021", async () => {
    const r = await callV2("test_input_required_result_elicitation", [], { capabilities: {} });
    assert.equal(r.error?.code, -32021, String(r.error));
    assert.deepEqual(r.error.data, { requiredCapabilities: { elicitation: { form: {} } } });
    assert.equal(r.posts[0].status, 400);
  }],
];

// ---- SDK v1 at 2025-11-25 -------------------------------------------------------------------------

async function clientV1(at = url) {
  const client = new ClientV1({ name: "elicit-sdk-v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const asked = [];
  let answers = [];
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    asked.push(request.params);
    const answer = answers.shift();
    assert.ok(answer, `an unexpected elicitation: ${request.params.message}`);
    return answer(request.params, extra);
  });
  const transport = new TransportV1(at);
  await client.connect(transport);
  return { client, transport, asked, answer(...next) { answers = next; asked.length = 0; }, left: () => answers.length };
}

// One call of the 2025-11-25 tool test_elicitation, answered with `answers`, in a fresh session.
async function callV1(answers, tool = "test_elicitation", args = { message: "Who are you?" }) {
  const c = await clientV1();
  c.answer(...answers);
  try {
    const outcome = await c.client.callTool({ name: tool, arguments: args }).then((result) => ({ result }), (error) => ({ error }));
    assert.equal(c.left(), 0, "some answers were not asked for");
    return { ...outcome, asked: [...c.asked] };
  } finally {
    await c.transport.terminateSession();
    await c.client.close();
  }
}

const v1cases = [
  ["v1: initialize opens a 2025-11-25 session with the 2025-11-25 tools only; DELETE ends it", async () => {
    const c = await clientV1();
    const session = c.transport.sessionId;
    try {
      assert.equal(c.transport.protocolVersion, "2025-11-25");
      assert.match(session, /^[0-9a-f]{32}$/);
      assert.deepEqual(c.client.getServerVersion(), { name: "elicit-sample-server", version: "0.1.0" });
      assert.deepEqual(c.client.getServerCapabilities(), { prompts: {}, tools: {} });
      const { tools } = await c.client.listTools();
      assert.deepEqual(tools.map((t) => t.name), tools2025);
      const unknown = await rejection(c.client.callTool({ name: "test_input_required_result_sampling", arguments: {} }));
      assert.equal(unknown.code, -32602);
      assert.match(unknown.message, /Unknown tool: test_input_required_result_sampling/);
      await c.transport.terminateSession();
    } finally {
      await c.client.close();
    }
    const after = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream",
                 "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(after.status, 404, "the deleted session still answers");
    assert.equal((await after.json()).error.code, -32001);
  }],
  ["v1: accept: elicitation/create on the call's stream, the answer as it came", async () => {
    const r = await callV1([accept({ username: "ada", email: "ada@example.com" })]);
    assert.equal(r.error, undefined, String(r.error));
    assert.equal(textOf(r.result), 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
    assert.deepEqual(r.asked, [{ mode: "form", message: "Who are you?", requestedSchema: userInfoSchema }]);
  }],
  ["v1: decline", async () => {
    const r = await callV1([decline]);
    assert.equal(textOf(r.result), "User response: action=decline, content={}");
  }],
  ["v1: cancel", async () => {
    const r = await callV1([cancel]);
    assert.equal(textOf(r.result), "User response: action=cancel, content={}");
  }],
  ["v1: an invalid answer is reported with every violation", async () => {
    const r = await callV1([accept({ username: 42 })]);
    assert.equal(textOf(r.result), "User response: action=accept, invalid: /username: username must be text; got the number 42. (type); " +
                                   "/email: email is required. (required)");
  }],
  ["v1: the five shapes of a choice, answered", async () => {
    const r = await callV1([accept({ untitledSingle: "option2", titledSingle: "value3", legacyEnum: "opt1",
                                     untitledMulti: ["option1", "option3"], titledMulti: ["value2"] })],
                           "test_elicitation_sep1330_enums", {});
    assert.equal(textOf(r.result), 'Elicitation completed: action=accept, content={"untitledSingle":"option2","titledSingle":"value3",' +
                                   '"legacyEnum":"opt1","untitledMulti":["option1","option3"],"titledMulti":["value2"]}');
    const props = r.asked[0].requestedSchema.properties;
    assert.deepEqual(Object.keys(props), ["untitledSingle", "titledSingle", "legacyEnum", "untitledMulti", "titledMulti"]);
    assert.deepEqual(props.titledSingle.oneOf, [{ const: "value1", title: "First Option" }, { const: "value2", title: "Second Option" },
                                                { const: "value3", title: "Third Option" }]);
  }],
  ["v1: the client fails to show the form: -32603 naming it, not a user's answer", async () => {
    const r = await callV1([() => { throw new Error("no display"); }]);
    assert.equal(r.error?.code, -32603, String(r.error));
    assert.match(r.error.message, /The client answered the elicitation with an error: .*no display/);
  }],
  ["v1: the prompt: accept, decline, and an invalid answer asked again, then -32602", async () => {
    const c = await clientV1();
    try {
      c.answer(accept({ context: "tea" }));
      const accepted = await c.client.getPrompt({ name: "test_input_required_result_prompt" });
      assert.deepEqual(accepted.messages, [{ role: "user", content: { type: "text", text: "Use this context: tea" } }]);
      assert.equal(c.asked[0].message, "What context should the prompt use?");
      c.answer(decline);
      const no = await c.client.getPrompt({ name: "test_input_required_result_prompt" });
      assert.equal(no.description, "No context");
      assert.equal(no.messages[0].content.text, declined("What context should the prompt use?"));
      // The prompt is written once: an invalid answer is asked again in plain words, three forms
      // in all, as at 2026-07-28; the error names no input key (a 2026-07-28 word).
      c.answer(accept({ context: 7 }), accept({ context: 7 }), accept({ context: 7 }));
      const bad = await rejection(c.client.getPrompt({ name: "test_input_required_result_prompt" }));
      assert.equal(bad.code, -32602);
      assert.deepEqual(bad.data?.violations?.map((v) => v.pointer), ["/context"]);
      assert.equal(bad.data?.inputKey, undefined);
      assert.deepEqual(c.asked.map((a) => a.message), ["What context should the prompt use?", contextAgain, contextAgain]);
    } finally {
      await c.transport.terminateSession();
      await c.client.close();
    }
  }],
  ["v1: the tools written once ask on the call's stream, in the words of 2026-07-28", async () => {
    const name = await callV1([accept({ name: "Ada" })], "test_input_required_result_elicitation", {});
    assert.equal(textOf(name.result), "Hello, Ada!");
    assert.deepEqual(name.asked, [{ mode: "form", message: "What is your name?", requestedSchema: nameSchema }]);
    const no = await callV1([decline], "test_input_required_result_elicitation", {});
    assert.equal(textOf(no.result), declined("What is your name?"));
    const ok = await callV1([accept({ ok: true })], "test_input_required_result_request_state", {});
    assert.equal(textOf(ok.result), "state-ok: confirmed yes");
    assert.deepEqual(ok.asked.map((a) => a.message), ["Please confirm"]);
    const two = await callV1([accept({ name: "Ada" }), accept({ color: "green" })], "test_input_required_result_multi_round", {});
    assert.equal(textOf(two.result), "Ada likes green.");
    assert.deepEqual(two.asked, [{ mode: "form", message: "Step 1: What is your name?", requestedSchema: nameSchema },
                                 { mode: "form", message: "Step 2: What is your favorite color?", requestedSchema: colorSchema }]);
    const later = await callV1([accept({ name: "Ada" }), cancel], "test_input_required_result_multi_round", {});
    assert.equal(textOf(later.result), cancelled("Step 2: What is your favorite color?"));
  }],
  ["v1: the tool call cancelled while the form is open: no response, the session goes on", async () => {
    const c = await clientV1();
    const abort = new AbortController();
    c.answer(async () => {
      abort.abort();  // the user closes the call: the SDK POSTs notifications/cancelled
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { action: "accept", content: { username: "late", email: "late@example.com" } };
    });
    try {
      const error = await rejection(c.client.callTool({ name: "test_elicitation", arguments: {} }, undefined, { signal: abort.signal }));
      assert.match(String(error.message), /abort/i);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const { tools } = await c.client.listTools();
      assert.deepEqual(tools.map((t) => t.name), tools2025);
    } finally {
      await c.transport.terminateSession();
      await c.client.close();
    }
  }],
];

// ---- book_shipment, by four clients ----------------------------------------------------------------

const shipment = { name: "book_shipment", arguments: { shipment_id: "SHP-4471" } };
const booking = (result, asked) => ({ text: textOf(result), isError: result.isError ?? false, asked });

// A v2 client pinned to 2026-07-28 or a v1 client, with its answers: over stdio.
function stdioClient(v2, answers, asked) {
  const next = async (request) => {
    asked.push(request.params);
    const answer = answers.shift();
    assert.ok(answer, `an unexpected elicitation: ${request.params.message}`);
    return answer(request.params);
  };
  if (v2) {
    const client = new ClientV2({ name: "elicit-sdk-v2", version: "1.0.0" },
                                { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    client.setRequestHandler("elicitation/create", next);
    return client;
  }
  const client = new ClientV1({ name: "elicit-sdk-v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, next);
  return client;
}

// tools/list before tools/call, as the official clients do: the v2 client refuses a 2026-07-28
// list without its caching hints (ttlMs, cacheScope), which the stdio sample once left out.
async function listsBookShipment(client) {
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === "book_shipment"), `book_shipment is not listed: ${JSON.stringify(tools)}`);
}

async function bookOverStdio(v2, answers) {
  const asked = [];
  const client = stdioClient(v2, answers, asked);
  const transport = new (v2 ? StdioV2 : StdioV1)({ command: stdioServerPath, args: [], stderr: "pipe" });
  let errors = "";
  transport.stderr.on("data", (chunk) => { errors += chunk; });
  await client.connect(transport);
  const child = transport._process;
  assert.ok(child, "the SDK's stdio transport exposes no server process");
  const ended = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let result;
  try {
    if (v2) assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    await listsBookShipment(client);  // as a real client does: the v2 client checks the list's shape
    result = await client.callTool(shipment);
    assert.equal(answers.length, 0, "some answers were not asked for");
  } finally {
    await client.close();  // closes the server's stdin: it must exit by itself, with status 0
  }
  const { code, signal } = await ended;
  assert.ok(!sanitizerReport.test(errors), `the stdio server reported an error on stderr:\n${errors}`);
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, `the stdio server's stderr:\n${errors}`);
  return booking(result, asked);
}

const shipmentClients = [
  { name: "SDK v1 over stdio at 2025-11-25", book: (answers) => bookOverStdio(false, answers) },
  { name: "SDK v2 over stdio pinned to 2026-07-28", book: (answers) => bookOverStdio(true, answers) },
  { name: "SDK v1 over HTTP at 2025-11-25", async book(answers) {
    const c = await clientV1(sample.url);
    c.answer(...answers);
    try {
      await listsBookShipment(c.client);
      const result = await c.client.callTool(shipment);
      assert.equal(c.left(), 0, "some answers were not asked for");
      return booking(result, [...c.asked]);
    } finally {
      await c.transport.terminateSession();
      await c.client.close();
    }
  } },
  { name: "SDK v2 over HTTP pinned to 2026-07-28", async book(answers) {
    const c = await clientV2({ at: sample.url });
    c.answer(...answers);
    try {
      await listsBookShipment(c.client);
      const result = await c.client.callTool(shipment);
      assert.equal(c.left(), 0, "some answers were not asked for");
      // One request per round: the first call, then one retry per question answered.
      const posts = c.calls("book_shipment");
      assert.equal(posts.length, c.asked.length + 1);
      assert.ok(posts.slice(0, -1).every((p) => p.answer.result.resultType === "input_required"));
      return booking(result, [...c.asked]);
    } finally {
      await c.client.close();
    }
  } },
];

// ---- Run ----------------------------------------------------------------------------------------

let failed = 0;  // cases
let broken = 0;  // what the server did
const cases = [...v2cases, ...v1cases, ...shipmentRuns(shipmentClients)];
const started = Date.now();
for (const [name, run] of cases) {
  try {
    await run();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`not ok - ${name}\n  ${String(error.stack ?? error).split("\n").join("\n  ")}`);
  }
  if (exit !== null) {
    broken += 1;
    console.log(`not ok - the server ended during "${name}": ${JSON.stringify(exit)}`);
    break;
  }
}

// The server: still running, then stopped by SIGTERM; nothing on its stderr but its own lines.
if (exit === null) {
  server.kill("SIGTERM");
  const { code, signal } = await exited;
  if (!(signal === "SIGTERM" || code === 0)) {
    broken += 1;
    console.log(`not ok - the server, stopped with SIGTERM, ended with ${JSON.stringify({ code, signal })}`);
  }
}
const sampleEnd = await sample.stop();
if (sampleEnd) {
  broken += 1;
  console.log(`not ok - ${sampleEnd}`);
}
const expectLog = (pattern, count, what) => {
  const n = (stderr.match(new RegExp(pattern.source, "g")) ?? []).length;
  if (n !== count) {
    broken += 1;
    console.log(`not ok - the server's stderr has ${n} lines of ${what}, not ${count}`);
  }
};
if (sanitizerReport.test(stderr)) {
  broken += 1;
  console.log("not ok - the server's stderr reports an error");
}
expectLog(/requestState refused: /, 1, "a refused requestState (the altered one)");
expectLog(/tools\/call \S+ ended without a response: the call was cancelled/, 1, "a cancelled call");
if (failed + broken > 0) console.log(`the server's stderr:\n${stderr}`);
console.log(`sdk http round trip: ${cases.length - failed} of ${cases.length} cases passed` +
            ` in ${((Date.now() - started) / 1000).toFixed(1)} s` +
            (broken > 0 ? `; ${broken} check(s) of the server failed` : ""));
process.exit(failed + broken === 0 ? 0 : 1);
