// book_shipment (samples/book_shipment.hpp), one handler, run by four official SDK clients:
// v1 (@modelcontextprotocol/sdk) at 2025-11-25 and v2 (@modelcontextprotocol/client) pinned
// to 2026-07-28, each over stdio (samples/stdio_server) and over Streamable HTTP
// (samples/mcp_server). What the four must see is written out once, here: the questions in
// their order (message and requestedSchema) and the final text, for an accepted booking, an
// invalid first answer (asked again in the same words in both eras) and a decline. A run
// passes only when its questions and text are these, so the four cannot drift apart.
import assert from "node:assert/strict";

const accept = (content) => () => ({ action: "accept", content });
const decline = () => ({ action: "decline" });

const address = { street: "1 High St", city: "London", postcode: "SW1A 1AA", country_code: "GB" };
const slot = { slot: "wed-am", note: "Ring twice" };
const options = { country_code: "IE", insured_value_gbp: 250, signature_required: true };

// The three forms as the server must send them (the committed schema files, and the run-time
// parts: the free slots offered, the destination prefilled from the address's country).
const countries = [["GB", "United Kingdom"], ["IE", "Ireland"], ["FR", "France"], ["DE", "Germany"], ["NL", "Netherlands"]]
  .map(([c, title]) => ({ const: c, title }));
const addressSchema = {
  type: "object",
  properties: {
    street: { type: "string", title: "Street address", maxLength: 120 },
    city: { type: "string", title: "City", maxLength: 60 },
    postcode: { type: "string", title: "Postcode", description: "UK format, e.g. SW1A 1AA", minLength: 5, maxLength: 8 },
    country_code: { type: "string", title: "Country", oneOf: countries },
  },
  required: ["street", "city", "postcode", "country_code"],
};
// Also the stdio round trip's (roundtrip.mjs) expectation for the run-time slot form.
export const slotSchema = {
  type: "object",
  properties: {
    slot: { type: "string", title: "Delivery slot", description: "The slots still free",
            oneOf: [{ const: "tue-pm", title: "Tuesday 12:00-18:00" }, { const: "wed-am", title: "Wednesday 8:00-12:00" },
                    { const: "thu-am", title: "Thursday 8:00-12:00" }] },
    note: { type: "string", title: "Note for the driver", maxLength: 200 },
  },
  required: ["slot"],
};
const optionsSchema = {
  type: "object",
  properties: {
    country_code: { type: "string", title: "Destination country", oneOf: countries, default: "GB" },
    insured_value_gbp: { type: "integer", title: "Insured value (GBP)", description: "Leave blank for the default cover of £50.",
                         minimum: 0, maximum: 5000 },
    signature_required: { type: "boolean", title: "Signature required", default: false },
  },
};
const where = "Where should shipment SHP-4471 be delivered?";
const askedAddress = { message: where, requestedSchema: addressSchema };
const askedSlot = { message: "When should shipment SHP-4471 arrive?", requestedSchema: slotSchema };
const askedOptions = { message: "How should shipment SHP-4471 travel?", requestedSchema: optionsSchema };
// The address asked again: the plain words of what to fix, what was valid prefilled.
const askedAgain = {
  message: `${where}\n\nPlease correct these:\n- Postcode must be at least 5 characters long; got 1 character.\n` +
           "- Country got the title \"United Kingdom\" where the value of that choice, \"GB\", must be sent.",
  requestedSchema: {
    ...addressSchema,
    properties: { street: { ...addressSchema.properties.street, default: "1 High St" },
                  city: { ...addressSchema.properties.city, default: "London" },
                  postcode: addressSchema.properties.postcode, country_code: addressSchema.properties.country_code },
    required: ["postcode", "country_code"],
  },
};
const booked = "Shipment SHP-4471 booked to 1 High St, London SW1A 1AA, United Kingdom; arriving Wednesday 8:00-12:00 " +
               "(note: Ring twice); destination country Ireland; insured for £250; signature required.";

export const shipmentCases = [
  { name: "accept every form", answers: [accept(address), accept(slot), accept(options)],
    asked: [askedAddress, askedSlot, askedOptions], text: booked },
  { name: "an invalid first answer, asked again in the same words",
    answers: [accept({ ...address, postcode: "X", country_code: "United Kingdom" }),
              accept({ postcode: "SW1A 1AA", country_code: "GB" }), accept(slot), accept(options)],
    asked: [askedAddress, askedAgain, askedSlot, askedOptions], text: booked },
  { name: "decline the address", answers: [decline], asked: [askedAddress],
    text: "Shipment SHP-4471 was not booked: you declined to give the delivery address." },
];

// Runs every case with every client. A client is { name, book(answers) }: book calls
// book_shipment {"shipment_id":"SHP-4471"} in a fresh connection, answers each elicitation
// with the next answer, and returns { text, isError, asked } (asked: each elicitation's params
// as the SDK handed them to the handler). Returns [name, run] pairs for the caller's runner.
export function shipmentRuns(clients) {
  return clients.flatMap((client) => shipmentCases.map((c) => [`book_shipment, ${client.name}: ${c.name}`, async () => {
    const r = await client.book(c.answers.slice());
    assert.deepEqual(r.asked.map((a) => ({ mode: a.mode ?? "form", message: a.message, requestedSchema: a.requestedSchema })),
                     c.asked.map((a) => ({ mode: "form", ...a })), "not the questions, or not in this order");
    assert.equal(r.text, c.text);
    assert.equal(r.isError, false);
  }]));
}
