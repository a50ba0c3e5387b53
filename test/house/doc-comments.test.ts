// A doc comment sits on what it documents. One directly followed by another documents nothing:
// the code it described moved or was deleted, and an editor shows the second comment alone, so
// the first misleads whoever reads the file (the review of 2026-11-27 found three; this, a fourth).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The lines of `code` where a doc comment ends and the next line opens another. */
function orphanedDocComments(code: string): number[] {
  return [...code.matchAll(/\*\/[ \t]*\r?\n[ \t]*\/\*\*/g)].map(
    (match) => code.slice(0, match.index).split('\n').length,
  );
}

describe('doc comments', () => {
  it('each stands on what it documents: none is followed directly by another', () => {
    const orphaned = ['src', 'bench', 'test'].flatMap((dir) =>
      sourceFiles(join(ROOT, dir)).flatMap((file) =>
        orphanedDocComments(readFileSync(file, 'utf8')).map((line) => `${relative(ROOT, file)}:${line}`),
      ),
    );
    expect(orphaned).toEqual([]);
  });

  it('when a doc comment has lost its code, then the check names its line (the check is really running)', () => {
    const code = ['const a = 1;', '/** Was on a deleted function. */', '/** Documents b. */', 'const b = 2;'].join(
      '\n',
    );
    expect(orphanedDocComments(code)).toEqual([2]);
    expect(orphanedDocComments(['/** Documents a. */', 'const a = 1;', '', '/** Documents b. */'].join('\n'))).toEqual(
      [],
    );
  });
});
