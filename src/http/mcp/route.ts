// `POST /mcp`: MCP over Streamable HTTP, stateless (contract §17). Each request gets a server and
// a transport of its own, answers in JSON and keeps nothing: no session id, so any instance
// answers any request. The key is the API's bearer key, checked by the API's own auth hook (a
// missing or wrong key is the API's 401 before the body is read); the tools call the API's routes
// in-process with `inject`, with that key and `Slotwise-Holder`, so scopes, idempotency, rate
// limits, logging and error mapping are the API's, applied once per tool call.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app/context.js';
import { HOLDER_HEADER, registerAuth } from '../auth.js';
import { packageVersion } from '../openapi.js';
import type { PerMinuteLimit } from '../per-minute-limit.js';
import { createMcpServer } from './server.js';
import { bodyOf, type ApiAnswer, type ApiCall } from './tools.js';

export const MCP_PATH = '/mcp';

/**
 * Registers `/mcp` on `app` (the root instance, which the tools' requests are injected into). Not
 * in the OpenAPI document: it is one JSON-RPC endpoint, not a REST route (docs/api.md).
 */
export async function registerMcp(app: FastifyInstance, context: AppContext, failures?: PerMinuteLimit): Promise<void> {
  const version = packageVersion();
  await app.register(async (mcp) => {
    registerAuth(mcp, context, failures);
    mcp.post(MCP_PATH, { schema: { hide: true } }, async (request, reply) => {
      const principal = request.principal!;
      const server = createMcpServer({
        version,
        key: () => ({ scopes: principal.scopes, accountKey: principal.keyHolderId === null }),
        callApi: (call) => injectCall(app, request, call),
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const response = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
        reply.code(response.status);
        response.headers.forEach((value, name) => void reply.header(name, value));
        const text = await response.text();
        return reply.send(text === '' ? null : text);
      } finally {
        await server.close();
      }
    });
  });
}

/**
 * The request's method and headers for the SDK's transport; the body is passed parsed. The URL's
 * host is a fixed one: the transport does not read it, and a client's Host header could make an
 * invalid URL (a 500 instead of an answer).
 */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://slotwise.invalid${MCP_PATH}`, { method: request.method, headers });
}

/** One API request of a tool, through the app as if it came over the network with the same key. */
async function injectCall(app: FastifyInstance, request: FastifyRequest, call: ApiCall): Promise<ApiAnswer> {
  const holder = call.holderId ?? request.headers[HOLDER_HEADER];
  const headers: Record<string, string> = {
    authorization: request.headers.authorization ?? '',
    // The tool's request shares the MCP request's id: one id to find both in the log.
    'x-request-id': request.id,
    ...(holder === undefined ? {} : { [HOLDER_HEADER]: Array.isArray(holder) ? holder.join(', ') : holder }),
    ...(call.idempotencyKey === undefined ? {} : { 'idempotency-key': call.idempotencyKey }),
    ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const response = await app.inject({
    method: call.method,
    url: call.path,
    headers,
    remoteAddress: request.ip,
    ...(call.query ? { query: call.query } : {}),
    ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
  });
  return { status: response.statusCode, body: bodyOf(response.body) };
}
