// The layer rules of docs/architecture.md, checked by `npm run lint` (part of `npm test`).
// Arrows point down: http, worker and cli call app; app uses domain and its own ports; storage
// implements app's ports; secrets/ implements the keyring port; the composition root
// (src/server.ts, src/cli/, src/config.ts) may import anything.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes two modules one (type-only imports included); split what both need into a third.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ is pure: it imports only itself and its few libraries (no I/O, no layer above).',
      from: { path: '^src/domain/' },
      to: { path: '^src/(?!domain/)' },
    },
    {
      name: 'domain-without-io',
      severity: 'error',
      comment: 'domain/ takes the clock, zones and randomness as arguments: no node: modules.',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'ports-speak-domain',
      severity: 'error',
      comment: 'A port (app/ports/) is an interface in domain terms: it imports domain types only.',
      from: { path: '^src/app/ports/' },
      to: { path: '^src/(?!domain/|app/ports/)' },
    },
    {
      name: 'app-below-entry-points',
      severity: 'error',
      comment: 'app/ knows neither its callers (http, worker, cli) nor the storage behind its ports.',
      from: { path: '^src/app/' },
      to: { path: '^src/(http|worker|cli|storage)/|^src/(server|config)\\.ts$' },
    },
    {
      name: 'http-calls-app',
      severity: 'error',
      comment: 'http/ calls use cases; it never reaches storage, the worker or the composition root.',
      from: { path: '^src/http/' },
      to: { path: '^src/(storage|worker|cli)/|^src/(server|config)\\.ts$' },
    },
    {
      name: 'worker-calls-app',
      severity: 'error',
      comment: 'worker/ calls use cases and works through or implements ports, as http/ does; never storage, HTTP or the root.',
      from: { path: '^src/worker/' },
      to: { path: '^src/(storage|http|cli)/|^src/(server|config)\\.ts$' },
    },
    {
      name: 'storage-implements-ports',
      severity: 'error',
      comment: 'storage/ implements app/ports/ in domain terms; it knows no use case and no entry point.',
      from: { path: '^src/storage/' },
      to: { path: '^src/(http|worker|cli)/|^src/app/(?!ports/)|^src/(server|config)\\.ts$' },
    },
    {
      name: 'secrets-implement-their-port',
      severity: 'error',
      comment: 'secrets/ implements app/ports/keyring.ts with node:crypto and its key file; it knows no layer but the port.',
      from: { path: '^src/secrets/' },
      to: { path: '^src/(?!secrets/|app/ports/|domain/)' },
    },
    {
      name: 'keyring-through-its-port',
      severity: 'error',
      comment: 'Only the composition root builds the keyring (src/secrets/); everything else holds the Keyring port it is given.',
      from: { path: '^src/(domain|app|http|worker|storage)/' },
      to: { path: '^src/secrets/' },
    },
    {
      name: 'kysely-stays-in-storage',
      severity: 'error',
      comment: 'Only storage/ speaks SQL: Kysely and the drivers stay behind the ports.',
      from: { path: '^src/', pathNot: '^src/storage/' },
      to: { path: 'node_modules/(kysely|pg|better-sqlite3)/' },
    },
    {
      name: 'fastify-stays-in-http',
      severity: 'error',
      comment: 'Only http/ (and the composition root that builds it) knows the web framework.',
      from: { path: '^src/', pathNot: '^src/(http/|server\\.ts$)' },
      to: { path: 'node_modules/(fastify|@fastify)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.build.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
