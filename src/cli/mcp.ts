// `slotwise mcp`: the MCP tools over stdio for a local agent (contract §17), calling a Slotwise
// service over HTTP with SLOTWISE_API_KEY, so that everything the API checks is checked there.
// Stdout carries the protocol alone; diagnostics go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpClientConfig } from '../config.js';
import type { Scope } from '../domain/api-key.js';
import { HOLDER_HEADER } from '../http/auth.js';
import { createMcpServer, type KeyTraits } from '../http/mcp/server.js';
import { bodyOf, type ApiAnswer, type ApiCall } from '../http/mcp/tools.js';
import { packageVersion } from '../http/openapi.js';
import { problem } from '../http/problems.js';

/** How long one API request may take before the tool answers that the service did not. */
const REQUEST_TIMEOUT_MS = 30_000;

interface Connection {
  baseUrl: string;
  apiKey: string;
}

/** Serves MCP on stdin/stdout until stdin closes. */
export async function serveMcpOverStdio(config: McpClientConfig): Promise<void> {
  const connection = { baseUrl: config.url, apiKey: config.apiKey };
  let known: KeyTraits | undefined;
  const server = createMcpServer({
    version: packageVersion(),
    // Asked once it is needed and kept once known: a wrong key answers each MCP request with why.
    key: async () => (known ??= await keyTraits(connection)),
    callApi: (call) => send(connection, call.holderId ?? config.holderId, call),
  });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  await closed;
}

/** The key's scopes and kind, from `GET /me` asked without `Slotwise-Holder` (an account key then answers `account`). */
async function keyTraits(connection: Connection): Promise<KeyTraits> {
  const answer = await send(connection, undefined, { method: 'GET', path: '/api/v1/me' });
  const body = answer.body as { account?: unknown; key?: { scopes?: Scope[] }; title?: string; detail?: string };
  if (answer.status !== 200 || !body.key?.scopes) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      `Slotwise refused SLOTWISE_API_KEY (${answer.status}): ${body.title ?? ''}: ${body.detail ?? JSON.stringify(body)}`,
    );
  }
  return { scopes: body.key.scopes, accountKey: body.account !== undefined };
}

/** One API request over HTTP; a service that cannot be reached answers as the API's 503 would. */
async function send(connection: Connection, holder: string | undefined, call: ApiCall): Promise<ApiAnswer> {
  const url = new URL(`${connection.baseUrl}${call.path}`);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { authorization: `Bearer ${connection.apiKey}` };
  if (holder !== undefined) headers[HOLDER_HEADER] = holder;
  if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(url, {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, body: bodyOf(await response.text()) };
  } catch (error) {
    return {
      status: 503,
      body: problem(
        'unavailable',
        `Slotwise at ${connection.baseUrl} did not answer: ${error instanceof Error ? error.message : String(error)}.`,
      ),
    };
  }
}
