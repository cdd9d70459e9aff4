// The TypeScript baseline of the serving benchmark: the sample's 2025-11-25 tool test_elicitation
// (tests/conformance/server/conformance_server.cpp: one form, a username and an e-mail address, asked once on the
// call's stream) served by the official MCP SDK v1 the way its documentation shows a stateful
// Streamable HTTP server: one McpServer and one transport per session, elicitInput to ask.
// SDK v1 has no 2026-07-28 server, so this serves 2025-11-25 only.
//   node ts_server.mjs PORT      (serves http://127.0.0.1:PORT/mcp)
// ELICIT_ANSWER_TIMEOUT_SECONDS: how long a question waits for its answer, as for the sample
// (default 60, the SDK's default request timeout and the sample's default).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const port = Number(process.argv[2]);
const answerTimeoutMs = 1000 * Number(process.env.ELICIT_ANSWER_TIMEOUT_SECONDS || 60);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error("usage: node ts_server.mjs PORT");
  process.exit(2);
}

// The same schema the sample derives from its UserInfo struct.
const userInfo = {
  type: "object",
  properties: {
    username: { type: "string", description: "User's response" },
    email: { type: "string", description: "User's email address" },
  },
  required: ["username", "email"],
};

function newServer() {
  const server = new McpServer({ name: "elicit-bench-ts-server", version: "0.1.0" });
  server.registerTool(
    "test_elicitation",
    {
      description: "Asks the user for a username and an e-mail address.",
      inputSchema: { message: z.string().describe("The message to show the user").optional() },
    },
    async ({ message }, extra) => {
      // relatedRequestId: the question goes on this call's SSE stream, as the sample sends it.
      const answer = await server.server.elicitInput(
        { message: message ?? "Please provide your information", requestedSchema: userInfo },
        { relatedRequestId: extra.requestId, timeout: answerTimeoutMs },
      );
      const content = answer.action === "accept" ? JSON.stringify(answer.content ?? {}) : "{}";
      return { content: [{ type: "text", text: `User response: action=${answer.action}, content=${content}` }] };
    },
  );
  return server;
}

const transports = new Map();  // by Mcp-Session-Id

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

const http = createServer(async (req, res) => {
  try {
    if (new URL(req.url, "http://127.0.0.1").pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const id = req.headers["mcp-session-id"];
    if (id !== undefined) {
      const transport = transports.get(id);
      if (!transport) {
        res.writeHead(404, { "Content-Type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      await transport.handleRequest(req, res, req.method === "POST" ? await readJson(req) : undefined);
      return;
    }
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (!isInitializeRequest(body)) {
      res.writeHead(400, { "Content-Type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Bad Request: no session" }, id: null }));
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
    });
    transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
    await newServer().connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (error) {
    if (!res.headersSent) {
      res.writeHead(400, { "Content-Type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: String(error) }, id: null }));
    } else {
      res.end();
    }
  }
});
http.keepAliveTimeout = 5000;
http.headersTimeout = 10000;
http.listen(port, "127.0.0.1", () => console.error(`elicit-bench-ts-server listening on http://127.0.0.1:${port}/mcp`));
// SIGTERM from the driver ends it at once.
process.on("SIGTERM", () => process.exit(0));
