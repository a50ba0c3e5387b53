// openapi-typescript, run with the TypeScript 5 compiler API it is built on. The project itself
// compiles with TypeScript 7, whose package has no such API; installing openapi-typescript through
// this local package lets npm give it its own TypeScript 5 (nested here) without a peer conflict.
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The `.d.ts` text openapi-typescript generates for an OpenAPI document (an object or JSON text).
 * @param {object | string} document
 * @returns {Promise<string>}
 */
export async function generateTypes(document) {
  const source = typeof document === 'string' ? JSON.parse(document) : document;
  const ast = await openapiTS(source, { silent: true });
  return astToString(ast);
}
