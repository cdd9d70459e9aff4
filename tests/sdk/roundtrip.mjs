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
const options = { country_code: "IE", insured_value_gbp: 250, signature_required: true };
const accept = (content) => () => ({ action: "accept", content });
const decline = () => ({ action: "decline" });
const cancel = () => ({ action: "cancel" });

// One session: connect, call the tool, answer each elicitation with the next answer.
async function book(answers) {
  const client = new Client({ name: "elicit-sdk-roundtrip", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    const answer = answers.shift();
    assert.ok(answer, `an unexpected elicitation: ${request.params.message}`);
    return answer(request.params);
  });
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
  try {
    result = await client.callTool({ name: "book_shipment", arguments: { shipment_id: "SHP-4471" } });
    assert.equal(answers.length, 0, "some answers were not asked for");
  } finally {
    await client.close();  // closes the server's stdin: it must exit by itself, with status 0
  }
  const { code, signal } = await exited;
  assert.ok(!sanitizerReport.test(stderr), `the server reported an error on stderr:\n${stderr}`);
  assert.equal(signal, null, `the server was ended by ${signal}; its stderr:\n${stderr}`);
  assert.equal(code, 0, `the server exited with status ${code}; its stderr:\n${stderr}`);
  // Requests the server sent, read from its own text (not from the SDK's parsed copies).
  const sent = wire.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l))
    .filter((m) => m.method === "elicitation/create").map((m) => m.params);
  return { text: result.content.map((c) => c.text).join("\n"), isError: result.isError ?? false, asked, sent };
}

// The schema the server sent is the committed file, member for member and in the same order.
function assertSameSchemaText(sent, name) {
  const committed = schemaFile(name);
  assert.deepEqual(keyOrder(sent), keyOrder(committed), `${name}: the keys are not in the committed file's order`);
  assert.equal(orderedText(sent), orderedText(committed), `${name}: the schema sent is not the committed file`);
}

const cases = [
  ["accept both forms", async () => {
    const r = await book([accept(address), accept(options)]);
    assert.equal(r.isError, false);
    assert.match(r.text, /Shipment SHP-4471 booked to 1 High St, London SW1A 1AA, United Kingdom/);
    assert.match(r.text, /destination country Ireland; insured for £250; signature required/);
    // What the client was shown is exactly the committed schema of each form: the same values
    // as the SDK parsed them, and the same text, keys in the same order, as the server wrote it.
    assert.equal(r.asked.length, 2);
    assert.equal(r.asked[0].mode ?? "form", "form");
    assert.equal(r.asked[0].message, "Where should shipment SHP-4471 be delivered?");
    assert.deepEqual(r.asked[0].requestedSchema, schemaFile("DeliveryAddress"));
    assert.deepEqual(r.asked[1].requestedSchema, schemaFile("ShipmentOptions"));
    assert.equal(r.sent.length, 2);
    assert.deepEqual(Object.keys(r.sent[0]), ["mode", "message", "requestedSchema"]);
    assertSameSchemaText(r.sent[0].requestedSchema, "DeliveryAddress");
    assertSameSchemaText(r.sent[1].requestedSchema, "ShipmentOptions");
    assert.deepEqual(Object.keys(r.sent[0].requestedSchema.properties), ["street", "city", "postcode", "country_code"]);
    assert.deepEqual(Object.keys(r.sent[1].requestedSchema.properties),
                     ["country_code", "insured_value_gbp", "signature_required"]);
  }],
  ["optional field left out: the default cover", async () => {
    const r = await book([accept(address), accept({ country_code: "FR" })]);
    assert.match(r.text, /insured for £50 \(the default cover\); signature not required/);
  }],
  ["decline the address", async () => {
    const r = await book([decline]);
    assert.equal(r.isError, false);
    assert.equal(r.text, "Shipment SHP-4471 was not booked: you declined to give the delivery address.");
  }],
  ["cancel the address", async () => {
    const r = await book([cancel]);
    assert.equal(r.isError, false);
    assert.match(r.text, /was cancelled before the delivery address was given; nothing was booked/);
  }],
  ["decline the options after giving the address", async () => {
    const r = await book([accept(address), decline]);
    assert.equal(r.text, "Shipment SHP-4471 was not booked: you declined to give the shipment options.");
  }],
  ["an invalid address, then a valid one", async () => {
    const r = await book([accept({ ...address, postcode: "X", country_code: "United Kingdom" }), accept(address), accept(options)]);
    assert.equal(r.isError, false);
    assertSameSchemaText(r.sent[1].requestedSchema, "DeliveryAddress");  // asked again, the same form
    assert.match(r.asked[1].message, /Please check: \/postcode: Postcode must be at least 5 characters long; got 1 character\. \(minLength\); \/country_code: Country must be one of/);
    assert.match(r.text, /booked to 1 High St/);
  }],
  ["an invalid address twice", async () => {
    const bad = { street: 42, city: "London", postcode: "SW1A 1AA", country_code: "GB" };
    const r = await book([accept(bad), accept(bad)]);
    assert.equal(r.isError, true);
    assert.match(r.text, /not booked: the delivery address was invalid: \/street: Street address must be text; got the number 42\. \(type\)/);
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
