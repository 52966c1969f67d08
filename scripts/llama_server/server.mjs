// A minimal OpenAI-compatible /v1/chat/completions server over node-llama-cpp.
//
// Why it exists: the benchmark in docs/models.md needs a real llama.cpp model on a
// machine where llama-cpp-python has no prebuilt wheel (compiling it did not finish in
// 65 min on 2 cores) but node-llama-cpp ships prebuilt linux-x64 binaries in the npm
// registry. Only what the gateway uses is implemented:
//
//   - messages: system / user / assistant (text);
//   - response_format {"type": "json_object", "schema": {...}} (llama.cpp's form) and
//     {"type": "json_schema", "json_schema": {"schema": {...}}}: decoding is constrained
//     to the schema by node-llama-cpp's JSON-schema grammar; json_object without a schema
//     gets a grammar for any JSON object;
//   - max_tokens, temperature, top_p, seed;
//   - tools: rejected with a 400 naming `tools` (as servers without function calling do);
//   - a client that disconnects aborts its generation (llama-server does the same);
//   - a prompt that does not fit the context is a 400 naming the context size;
//   - a slot keeps its evaluated tokens between requests, and a request goes to the free
//     slot whose last prompt shares the longest prefix with its own: only the tokens
//     after the common prefix are evaluated again (llama-server's cache_prompt and slot
//     similarity; docs/engine.md "Prompt layout" puts what a round's calls share first).
//     --cache-prompt false clears the slot before every request instead.
//
// Not a project dependency and not used by tests: scripts/real_model_run.sh installs
// node-llama-cpp next to a copy of this file and runs it.
//
// Usage: node server.mjs --model FILE [--alias NAME] [--ctx 8192] [--parallel 3]
//                        [--host 127.0.0.1] [--port 8089] [--threads 2]
//                        [--cache-prompt true]

import http from "node:http";
import { parseArgs } from "node:util";
import { getLlama, LlamaChat } from "node-llama-cpp";

const { values: args } = parseArgs({
  options: {
    model: { type: "string" },
    alias: { type: "string", default: "local-model" },
    ctx: { type: "string", default: "8192" },
    parallel: { type: "string", default: "3" },
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "8089" },
    threads: { type: "string", default: "2" },
    "cache-prompt": { type: "string", default: "true" },
  },
});
if (!args.model) {
  console.error("--model is required");
  process.exit(2);
}

const contextSize = Number(args.ctx);
const parallel = Number(args.parallel);
const cachePrompt = args["cache-prompt"] !== "false";
const log = (...parts) => console.log(new Date().toISOString(), ...parts);

// build "never": only the prebuilt binary; this machine must not try to compile.
const llama = await getLlama({ gpu: false, build: "never", maxThreads: Number(args.threads) });
const model = await llama.loadModel({ modelPath: args.model });
const context = await model.createContext({ contextSize, sequences: parallel });
log(`model ${args.model} loaded as ${args.alias}: ctx ${context.contextSize} x ${parallel} slots`);

// One sequence per concurrent request, like llama-server's slots; more requests wait.
const freeSequences = [];
for (let i = 0; i < parallel; i++) freeSequences.push(context.getSequence());
const lastPrompt = new Map(); // sequence -> the prompt text it last evaluated
const waiters = [];

function commonPrefixLength(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

// The free sequence whose last prompt shares the most with this one (llama-server's
// slot similarity), so the kept tokens are those this request can reuse.
function acquireSequence(promptText) {
  if (freeSequences.length) {
    let best = 0;
    for (let i = 1; i < freeSequences.length; i++) {
      const shared = (seq) => commonPrefixLength(lastPrompt.get(seq) ?? "", promptText);
      if (shared(freeSequences[i]) > shared(freeSequences[best])) best = i;
    }
    return Promise.resolve(freeSequences.splice(best, 1)[0]);
  }
  return new Promise((resolve) => waiters.push(resolve));
}
function releaseSequence(sequence) {
  const next = waiters.shift();
  if (next) next(sequence);
  else freeSequences.push(sequence);
}

class BadRequest extends Error {}

// node-llama-cpp's grammar takes a subset of JSON schema: oneOf (not anyOf), no
// numeric bounds, no titles or defaults. Pydantic's schemas are mapped onto it.
const KEPT = new Set([
  "type", "properties", "required", "items", "prefixItems", "enum", "const", "oneOf",
  "$ref", "$defs", "minItems", "maxItems", "minLength", "maxLength", "additionalProperties",
  "description", "format", "minProperties", "maxProperties",
]);
function toGrammarSchema(node) {
  if (Array.isArray(node)) return node.map(toGrammarSchema);
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "anyOf" || key === "oneOf") out.oneOf = value.map(toGrammarSchema);
    else if (key === "allOf" && value.length === 1) Object.assign(out, toGrammarSchema(value[0]));
    else if (key === "properties" || key === "$defs") {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toGrammarSchema(v)]));
    } else if (key === "format" && !["date-time", "time", "date"].includes(value)) continue;
    else if (KEPT.has(key)) out[key] = toGrammarSchema(value);
  }
  // The grammar writes every listed property, optional or not, and no others.
  return out;
}

async function grammarFor(responseFormat) {
  if (!responseFormat || responseFormat.type === "text") return undefined;
  let schema;
  if (responseFormat.type === "json_object") schema = responseFormat.schema ?? { type: "object" };
  else if (responseFormat.type === "json_schema") schema = responseFormat.json_schema?.schema;
  else throw new BadRequest(`response_format type "${responseFormat.type}" is not supported`);
  if (!schema) throw new BadRequest("response_format json_schema has no schema");
  try {
    return await llama.createGrammarForJsonSchema(toGrammarSchema(schema));
  } catch (error) {
    throw new BadRequest(`response_format schema not supported: ${error.message}`);
  }
}

function toHistory(messages) {
  if (!Array.isArray(messages) || !messages.length) throw new BadRequest("messages is empty");
  const text = (m) =>
    typeof m.content === "string"
      ? m.content
      : (m.content ?? []).map((part) => part.text ?? "").join("");
  const history = messages.map((m) => {
    if (m.role === "system" || m.role === "developer") return { type: "system", text: text(m) };
    if (m.role === "user") return { type: "user", text: text(m) };
    if (m.role === "assistant") return { type: "model", response: [text(m)] };
    throw new BadRequest(`message role "${m.role}" is not supported`);
  });
  history.push({ type: "model", response: [] });
  return history;
}

async function complete(body, signal) {
  if (body.tools?.length) throw new BadRequest("tools are not supported by this server");
  if (body.stream) throw new BadRequest("stream is not supported by this server");
  const history = toHistory(body.messages);
  const grammar = await grammarFor(body.response_format);
  const promptText = history.map((h) => h.text ?? h.response.join("")).join("\n");
  const promptTokens = model.tokenize(promptText).length;
  const maxTokens = body.max_tokens ?? body.max_completion_tokens;
  if (promptTokens + (maxTokens ?? 0) > context.contextSize) {
    throw new BadRequest(
      `the request exceeds the available context size (${promptTokens} prompt tokens + ` +
        `${maxTokens} max_tokens > ${context.contextSize}); try increasing the context size`,
    );
  }
  const sequence = await acquireSequence(promptText);
  const started = Date.now();
  // What the slot kept that this request begins with (tokens of the common text).
  const kept = cachePrompt
    ? model.tokenize(promptText.slice(0, commonPrefixLength(lastPrompt.get(sequence) ?? "", promptText))).length
    : 0;
  try {
    if (signal.aborted) throw signal.reason ?? new Error("client went away");
    // A fresh chat per request: requests are independent, as with llama-server. The
    // sequence keeps its tokens: LlamaChat evaluates the prompt against them, keeps the
    // common prefix and erases only the mismatched tail (adaptStateToTokens).
    if (!cachePrompt) await sequence.clearHistory();
    lastPrompt.set(sequence, promptText);
    const chat = new LlamaChat({ contextSequence: sequence });
    try {
      const result = await chat.generateResponse(history, {
        grammar,
        maxTokens,
        temperature: body.temperature ?? 0.7,
        topP: body.top_p,
        seed: body.seed,
        signal,
        stopOnAbortSignal: false,
        // Requests are already fitted by the gateway; never drop the system prompt.
        contextShift: { strategy: "eraseFirstResponseAndKeepFirstSystem" },
      });
      const completionTokens = model.tokenize(result.response).length;
      const stop = result.metadata.stopReason;
      return {
        id: `chatcmpl-${started}-${Math.random().toString(36).slice(2, 8)}`,
        object: "chat.completion",
        created: Math.floor(started / 1000),
        model: body.model ?? args.alias,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: result.response },
            finish_reason: stop === "maxTokens" ? "length" : "stop",
          },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
        timings: { seconds: (Date.now() - started) / 1000, prompt_kept: kept },
      };
    } finally {
      chat.dispose({ disposeSequence: false });
    }
  } finally {
    releaseSequence(sequence);
  }
}

function send(res, status, payload) {
  if (res.writableEnded || res.destroyed) return;
  const data = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, "http://x");
  if (req.method === "GET" && (url.pathname === "/v1/models" || url.pathname === "/models")) {
    return send(res, 200, { object: "list", data: [{ id: args.alias, object: "model", owned_by: "local",
                                                      meta: { n_ctx: context.contextSize } }] });
  }
  // As llama.cpp's llama-server says its context size: Council sizes its text bounds
  // from it (docs/models.md, "Text bounds from the context").
  if (req.method === "GET" && url.pathname === "/props") {
    return send(res, 200, { default_generation_settings: { n_ctx: context.contextSize },
                            total_slots: parallel });
  }
  if (req.method === "GET" && url.pathname === "/health") return send(res, 200, { status: "ok" });
  if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
    return send(res, 404, { error: { message: `no route ${req.method} ${url.pathname}`, type: "not_found" } });
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const aborter = new AbortController();
  // The client closing its socket before the answer is written: stop generating.
  res.on("close", () => {
    if (!res.writableFinished) aborter.abort(new Error("client went away"));
  });
  const started = Date.now();
  let body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return send(res, 400, { error: { message: "request body is not JSON", type: "invalid_request_error" } });
  }
  const mode = body.response_format?.type ?? (body.tools ? "tools" : "text");
  try {
    const answer = await complete(body, aborter.signal);
    log(`200 ${mode} max_tokens=${body.max_tokens} prompt=${answer.usage.prompt_tokens} ` +
        `kept=${answer.timings.prompt_kept} completion=${answer.usage.completion_tokens} ` +
        `finish=${answer.choices[0].finish_reason} ` +
        `${((Date.now() - started) / 1000).toFixed(1)}s`);
    send(res, 200, answer);
  } catch (error) {
    if (aborter.signal.aborted) {
      log(`aborted ${mode} after ${((Date.now() - started) / 1000).toFixed(1)}s: client went away`);
      return;
    }
    const status = error instanceof BadRequest ? 400 : 500;
    log(`${status} ${mode}: ${error.message}`);
    send(res, status, {
      error: { message: error.message, type: status === 400 ? "invalid_request_error" : "server_error", code: status },
    });
  }
});
server.listen(Number(args.port), args.host, () => log(`listening on http://${args.host}:${args.port}/v1`));
