// The official MCP TypeScript SDK as the client of samples/stdio_server: it calls the
// book_shipment tool and answers each elicitation with accept, decline, cancel or an invalid
// answer, and the test asserts the tool's results. What the server writes is also read as
// text: each requestedSchema must be the committed schema file with its keys in the same order,
// and each session must end with the server exiting by itself with status 0 and no sanitizer
// report on its stderr.
//   node roundtrip.mjs SHIPMENT_SERVER SCHEMAS_DIR
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { slotSchema } from "./shipment_runs.mjs";  // the slot form, written once for every run

const [serverPath, schemasDir] = process.argv.slice(2);
const schemaFile = (name) => JSON.parse(readFileSync(`${schemasDir}/${name}.schema.json`, "utf8"));
// A value as compact text, keys in the order they came (JSON.parse keeps the order of text keys),
// so that two objects with the same members in another order differ.
const orderedText = (value) => JSON.stringify(value);
// Every key of a value, depth first, as "path: key" lines: a failure shows where the order differs.
function keyOrder(value, path = "") {
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => keyOrder(v, `${path}/${i}`));
  return Object.keys(value).flatMap((k) => [`${path || "/"}: ${k}`, ...keyOrder(value[k], `${path}/${k}`)]);
}
// What must not be on the server's stderr: a sanitizer report or a crash message (its own log
// lines are fine).
const sanitizerReport = /ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|Segmentation fault|terminate called|Assertion .* failed/;

const address = { street: "1 High St", city: "London", postcode: "SW1A 1AA", country_code: "GB" };
const slot = { slot: "wed-am" };
const options = { country_code: "IE", insured_value_gbp: 250, signature_required: true };
const accept = (content) => () => ({ action: "accept", content });
const decline = () => ({ action: "decline" });
const cancel = () => ({ action: "cancel" });

// One session: connect, call the tool, answer each elicitation with the next answer.
async function book(answers, { abortOnFirst = false } = {}) {
  const client = new Client({ name: "elicit-sdk-roundtrip", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const asked = [];
  const abort = new AbortController();
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    if (abortOnFirst && asked.length === 1) {
      abort.abort();  // the user closes the tool call: the SDK sends notifications/cancelled
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const answer = answers.shift();
    assert.ok(answer, `an unexpected elicitation: ${request.params.message}`);
    return answer(request.params);
  });
  // What the SDK reports beside the calls (e.g. "Received a response for an unknown message ID").
  const clientErrors = [];
  client.onerror = (error) => { clientErrors.push(String(error?.message ?? error)); };
  const transport = new StdioClientTransport({ command: serverPath, args: [], stderr: "pipe" });
  let stderr = "";
  transport.stderr.on("data", (chunk) => { stderr += chunk; });
  await client.connect(transport);
  // The server process (the SDK keeps it in _process): its exit, and the text it writes.
  const child = transport._process;
  assert.ok(child, "the SDK's transport exposes no server process");
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let wire = "";
  child.stdout.on("data", (chunk) => { wire += chunk; });
  let result;
  let aborted = false;
  try {
    try {
      result = await client.callTool({ name: "book_shipment", arguments: { shipment_id: "SHP-4471" } }, undefined,
                                     { signal: abort.signal });
    } catch (error) {
      if (!abortOnFirst) throw error;
      aborted = true;
      // Time for the form's answer to reach the server, were it sent after the cancellation.
      await new Promise((resolve) => setTimeout(resolve, 400));
      // The server stopped asking and still serves the session: the next call is answered.
      const list = await client.listTools();
      assert.equal(list.tools[0].name, "book_shipment");
    }
    assert.equal(answers.length, 0, "some answers were not asked for");
  } finally {
    await client.close();  // closes the server's stdin: it must exit by itself, with status 0
  }
  const { code, signal } = await exited;
  assert.ok(!sanitizerReport.test(stderr), `the server reported an error on stderr:\n${stderr}`);
  assert.equal(signal, null, `the server was ended by ${signal}; its stderr:\n${stderr}`);
  assert.equal(code, 0, `the server exited with status ${code}; its stderr:\n${stderr}`);
  // Requests the server sent, read from its own text (not from the SDK's parsed copies).
  const messages = wire.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const sent = messages.filter((m) => m.method === "elicitation/create").map((m) => m.params);
  // The server answers requests only: a response of the client's (a late answer to a question it
  // stopped waiting for) gets no response back, which the SDK would report as unknown.
  const answeredResponses = messages.filter((m) => m.error && m.error.code === -32601);
  assert.deepEqual(answeredResponses, [], "the server answered a message that was not a request");
  assert.deepEqual(clientErrors, [], "the SDK reported errors beside the calls");
  if (aborted) return { aborted, asked, sent, stderr, wire };
  return { text: result.content.map((c) => c.text).join("\n"), isError: result.isError ?? false, asked, sent };
}

// The schema the server sent is the committed file, member for member and in the same order.
function assertSameSchemaText(sent, name) {
  const committed = schemaFile(name);
  assert.deepEqual(keyOrder(sent), keyOrder(committed), `${name}: the keys are not in the committed file's order`);
  assert.equal(orderedText(sent), orderedText(committed), `${name}: the schema sent is not the committed file`);
}

// What the server must send for the run-time forms, written out by hand: the delivery slot
// (slotSchema, from shipment_runs.mjs) offers the free slots of the sample's table; the shipment
// options start from the address's country (a default, so that field is no longer required).
function optionsFrom(country) {
  const committed = schemaFile("ShipmentOptions");
  const { country_code, ...rest } = committed.properties;
  const { required, ...top } = committed;
  assert.deepEqual(required, ["country_code"]);
  return { ...top, properties: { country_code: { ...country_code, default: country }, ...rest } };
}

const cases = [
  ["accept every form", async () => {
    const r = await book([accept(address), accept(slot), accept(options)]);
    assert.equal(r.isError, false);
    assert.match(r.text, /Shipment SHP-4471 booked to 1 High St, London SW1A 1AA, United Kingdom; arriving Wednesday 8:00-12:00;/);
    assert.match(r.text, /destination country Ireland; insured for £250; signature required/);
    // What the client was shown: the committed schema for a form fixed at compile time, the
    // hand-written one for a run-time form; the same values as the SDK parsed them, and the
    // same text, keys in the same order, as the server wrote it.
    assert.equal(r.asked.length, 3);
    assert.equal(r.asked[0].mode ?? "form", "form");
    assert.equal(r.asked[0].message, "Where should shipment SHP-4471 be delivered?");
    assert.deepEqual(r.asked[0].requestedSchema, schemaFile("DeliveryAddress"));
    assert.deepEqual(r.asked[1].requestedSchema, slotSchema);
    assert.deepEqual(r.asked[2].requestedSchema, optionsFrom("GB"));
    assert.equal(r.sent.length, 3);
    assert.deepEqual(Object.keys(r.sent[0]), ["mode", "message", "requestedSchema"]);
    assertSameSchemaText(r.sent[0].requestedSchema, "DeliveryAddress");
    assert.equal(orderedText(r.sent[1].requestedSchema), orderedText(slotSchema));
    assert.equal(orderedText(r.sent[2].requestedSchema), orderedText(optionsFrom("GB")));
    assert.deepEqual(Object.keys(r.sent[0].requestedSchema.properties), ["street", "city", "postcode", "country_code"]);
  }],
  ["the destination left as prefilled, the optional field left out", async () => {
    const r = await book([accept({ ...address, country_code: "FR" }), accept(slot), accept({})]);
    assert.deepEqual(r.asked[2].requestedSchema, optionsFrom("FR"));
    assert.match(r.text, /destination country France; insured for £50 \(the default cover\); signature not required/);
  }],
  ["decline the address", async () => {
    const r = await book([decline]);
    assert.equal(r.isError, false);
    assert.equal(r.text, "Shipment SHP-4471 was not booked: you declined to give the delivery address.");
  }],
  ["cancel the address", async () => {
    const r = await book([cancel]);
    assert.equal(r.isError, false);
    assert.match(r.text, /was cancelled when asked for the delivery address; nothing was booked/);
  }],
  ["decline the options after giving the address", async () => {
    const r = await book([accept(address), accept(slot), decline]);
    assert.equal(r.text, "Shipment SHP-4471 was not booked: you declined to give the shipment options.");
  }],
  ["an invalid address, then a valid one: plain words, the valid answers kept", async () => {
    const r = await book([accept({ ...address, postcode: "X", country_code: "United Kingdom" }),
                          accept({ postcode: "SW1A 1AA", country_code: "GB" }), accept(slot), accept(options)]);
    assert.equal(r.isError, false);
    assert.equal(r.asked[1].message,
                 "Where should shipment SHP-4471 be delivered?\n\nPlease correct these:\n" +
                 "- Postcode must be at least 5 characters long; got 1 character.\n" +
                 "- Country got the title \"United Kingdom\" where the value of that choice, \"GB\", must be sent.");
    // Asked again: the same form, with what was valid prefilled (so no longer required).
    const committed = schemaFile("DeliveryAddress");
    const again = structuredClone(committed);
    again.properties.street.default = "1 High St";
    again.properties.city.default = "London";
    again.required = ["postcode", "country_code"];
    assert.equal(orderedText(r.sent[1].requestedSchema), orderedText(again));
    assert.match(r.text, /booked to 1 High St, London SW1A 1AA/);
  }],
  ["a slot that is not offered is refused, the note kept", async () => {
    const r = await book([accept(address), accept({ slot: "tue-am", note: "Leave it with the neighbour" }),
                          accept({ slot: "thu-am" }), accept(options)]);
    assert.equal(r.asked[2].message,
                 "When should shipment SHP-4471 arrive?\n\nPlease correct this:\n" +
                 "- Delivery slot must be one of \"Tuesday 12:00-18:00\", \"Wednesday 8:00-12:00\", \"Thursday 8:00-12:00\"; got the text \"tue-am\".");
    assert.equal(r.asked[2].requestedSchema.properties.note.default, "Leave it with the neighbour");
    assert.match(r.text, /arriving Thursday 8:00-12:00 \(note: Leave it with the neighbour\);/);
  }],
  ["an invalid address three times", async () => {
    const bad = { street: 42, city: "London", postcode: "SW1A 1AA", country_code: "GB" };
    const r = await book([accept(bad), accept(bad), accept(bad)]);
    assert.equal(r.isError, true);
    assert.match(r.text, /not booked: the delivery address was still invalid after 3 attempts: \/street: Street address must be text; got the number 42\. \(type\)/);
  }],
  ["the client fails to show the form: not the user's mistake", async () => {
    const r = await book([() => { throw new Error("no display"); }]);
    assert.equal(r.isError, true);
    assert.equal(r.asked.length, 1, "a client error is not asked again");
    assert.match(r.text, /not booked: the client could not ask for the delivery address: .*no display/);
  }],
  ["the tool call cancelled while the form is open: the server stops asking", async () => {
    const r = await book([accept(address)], { abortOnFirst: true });
    assert.equal(r.aborted, true);
    assert.equal(r.asked.length, 1, "the server asked again after the call was cancelled");
    assert.match(r.stderr, /request \d+ ended unanswered: the client cancelled it/);
    // The server withdraws its question (notifications/cancelled for its request 1), and the
    // SDK, told, drops the answer the handler still gives: nothing late reaches the server.
    assert.match(r.wire, /"method":"notifications\/cancelled","params":\{"requestId":1,"reason":"The tool call was cancelled"\}/);
    assert.doesNotMatch(r.stderr, /ignored a response/);
  }],
];

let failed = 0;
for (const [name, run] of cases) {
  try {
    await run();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`not ok - ${name}\n  ${String(error.stack ?? error).split("\n").join("\n  ")}`);
  }
}
console.log(`sdk round trip: ${cases.length - failed} of ${cases.length} cases passed`);
process.exit(failed === 0 ? 0 : 1);
