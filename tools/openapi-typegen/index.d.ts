/** The `.d.ts` text openapi-typescript generates for an OpenAPI document (an object or JSON text). */
export function generateTypes(document: object | string): Promise<string>;
