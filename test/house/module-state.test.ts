// The house rule that the layer check cannot see: domain/, app/ and secrets/ hold no mutable state
// at module level. Caches, pools and the keyring are instances that the composition root
// (src/server.ts) builds and injects, so that what a request can see is visible there and tests
// can reset it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync, type ModuleItem } from '@swc/core';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const MUTABLE_CONSTRUCTORS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'Uint8Array', 'Float64Array']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Module-level declarations of `code` that hold state: `let`/`var`, or a const made by a mutable constructor. */
function moduleState(code: string): string[] {
  const found: string[] = [];
  const visit = (item: ModuleItem) => {
    const declaration =
      item.type === 'VariableDeclaration'
        ? item
        : item.type === 'ExportDeclaration' && item.declaration.type === 'VariableDeclaration'
          ? item.declaration
          : null;
    const klass =
      item.type === 'ClassDeclaration'
        ? item
        : item.type === 'ExportDeclaration' && item.declaration.type === 'ClassDeclaration'
          ? item.declaration
          : null;
    if (klass) {
      for (const member of klass.body) {
        if (member.type === 'ClassProperty' && member.isStatic && !member.readonly)
          found.push(`static ${JSON.stringify(member.key)}`);
        if (member.type === 'ClassProperty' && member.isStatic && member.value?.type === 'NewExpression')
          found.push('static cache');
      }
    }
    if (!declaration) return;
    for (const declarator of declaration.declarations) {
      const name = declarator.id.type === 'Identifier' ? declarator.id.value : '(pattern)';
      if (declaration.kind !== 'const') found.push(`${declaration.kind} ${name}`);
      const init = declarator.init;
      if (
        init?.type === 'NewExpression' &&
        init.callee.type === 'Identifier' &&
        MUTABLE_CONSTRUCTORS.has(init.callee.value)
      ) {
        found.push(`const ${name} = new ${init.callee.value}(…)`);
      }
    }
  };
  for (const item of parseSync(code, { syntax: 'typescript' }).body) visit(item);
  return found;
}

describe('module-level state', () => {
  it('does see state where there is some (the check is really running)', () => {
    expect(moduleState('let count = 0; const cache = new Map(); class Z { static zones = new Map(); }')).toEqual([
      'let count',
      'const cache = new Map(…)',
      expect.stringContaining('static'),
      'static cache',
    ]);
    expect(
      moduleState("export const LIMIT = 5; export const NAMES = ['a'] as const; function f() { let x = 1; return x; }"),
    ).toEqual([]);
  });

  for (const layer of ['src/domain', 'src/app', 'src/secrets']) {
    it(`when ${layer}/ is read, then no module holds mutable state at its top level`, () => {
      const offenders = sourceFiles(join(ROOT, layer)).flatMap((file) =>
        moduleState(readFileSync(file, 'utf8')).map((what) => `${relative(ROOT, file)}: ${what}`),
      );
      expect(offenders).toEqual([]);
    });
  }
});
