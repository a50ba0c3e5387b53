// One MCP server over the tools of ./tools.ts, for one client of one key: `/mcp` builds one per
// request (stateless), `slotwise mcp` one per process.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Scope } from '../../domain/api-key.js';
import { callOf, toolNamed, toolsFor, type ApiAnswer, type CallApi } from './tools.js';

export const MCP_SERVER_NAME = 'slotwise';

/** What the tools depend on: the key's scopes (which are listed) and whether it is an account key (`holderId`). */
export interface KeyTraits {
  scopes: readonly Scope[];
  accountKey: boolean;
}

export interface McpServerOptions {
  version: string;
  /** The key's traits; a thrown McpError (the key refused) answers the MCP request with it. */
  key(): Promise<KeyTraits> | KeyTraits;
  callApi: CallApi;
}

export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Slotwise books meetings: list_event_types, then find_slots for an event type, hold_slot while the guest decides, book (with the hold), and cancel_booking or reschedule_booking later. Instants are ISO-8601 with an offset; results are the API’s JSON; an error result is the API’s problem document (title, detail, errors per field).',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { scopes, accountKey } = await options.key();
    return {
      tools: toolsFor(scopes, accountKey).map(({ name, description, inputSchema }) => ({
        name,
        description,
        inputSchema,
      })),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = toolNamed(request.params.name, (await options.key()).accountKey);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    // A tool the key may not use is not listed, but called it still goes to the API, whose 403 says why.
    const outcome = callOf(tool, request.params.arguments ?? {});
    if (!outcome.ok) return problemResult(outcome.problem);
    return resultOf(await options.callApi(outcome.call));
  });
  return server;
}

/** The API's answer as a tool result: its JSON, or its problem document with `isError`. */
function resultOf(answer: ApiAnswer): CallToolResult {
  if (answer.status >= 400) return problemResult(answer.body);
  if (answer.body === null) return { content: [{ type: 'text', text: `Done (HTTP ${answer.status}, no content).` }] };
  const text = JSON.stringify(answer.body);
  const structured = typeof answer.body === 'object' && !Array.isArray(answer.body);
  return {
    content: [{ type: 'text', text }],
    ...(structured ? { structuredContent: answer.body as Record<string, unknown> } : {}),
  };
}

/** The problem document (type, title, status, detail, errors) as the text an agent reads. */
function problemResult(problem: unknown): CallToolResult {
  const text = typeof problem === 'string' ? problem : JSON.stringify(problem);
  return { isError: true, content: [{ type: 'text', text }] };
}
