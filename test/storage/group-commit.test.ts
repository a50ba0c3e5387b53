// The group-commit protocol on its own, over a session that records the statements it is asked
// for (the real engine runs it in test/storage/store-contract.test.ts and sqlite-group-commit).
import { describe, expect, it } from 'vitest';
import { GroupCommit, type BatchSession } from '../../src/storage/group-commit.js';

interface Recorder {
  statements: string[];
  failOn?: string;
}

function groupCommitOver(recorder: Recorder) {
  const step = (name: string) => async () => {
    recorder.statements.push(name);
    if (recorder.failOn === name) throw new Error(`${name} failed`);
  };
  const session: BatchSession<string[]> = {
    tx: recorder.statements,
    begin: step('begin'),
    savepoint: step('savepoint'),
    release: step('release'),
    rollbackToSavepoint: step('rollback to savepoint'),
    commit: step('commit'),
    rollback: step('rollback'),
  };
  return new GroupCommit<string[]>((use) => use(session));
}

describe('group commit', () => {
  it('when units arrive in the same turn, then they run in one transaction, each in a savepoint, and one commit', async () => {
    const recorder: Recorder = { statements: [] };
    const group = groupCommitOver(recorder);
    const failure = new Error('unit 2 refuses');

    const results = await Promise.allSettled([
      group.run(async (log) => log.push('unit 1')),
      group.run(async (log) => {
        log.push('unit 2');
        throw failure;
      }),
      group.run(async (log) => {
        log.push('unit 3');
        return 'three';
      }),
    ]);

    expect(recorder.statements).toEqual([
      'begin',
      'savepoint',
      'unit 1',
      'release',
      'savepoint',
      'unit 2',
      'rollback to savepoint',
      'savepoint',
      'unit 3',
      'release',
      'commit',
    ]);
    expect(results[1]).toEqual({ status: 'rejected', reason: failure });
    expect(results[2]).toEqual({ status: 'fulfilled', value: 'three' });
  });

  it('when the commit fails, then every unit of the batch fails, those whose work succeeded too', async () => {
    const recorder: Recorder = { statements: [], failOn: 'commit' };
    const group = groupCommitOver(recorder);

    const results = await Promise.allSettled([group.run(async () => 'a'), group.run(async () => 'b')]);

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('commit failed');
    expect(recorder.statements.slice(-2)).toEqual(['commit', 'rollback']);
  });

  it('when a unit fails and the engine has dropped the whole transaction with it (a full disk), then every unit of the batch fails with that unit’s error', async () => {
    const recorder: Recorder = { statements: [], failOn: 'rollback to savepoint' };
    const group = groupCommitOver(recorder);
    const full = new Error('SQLITE_FULL: the disk is full');

    const results = await Promise.allSettled([
      group.run(async (log) => log.push('unit 1')),
      group.run(async () => {
        throw full;
      }),
    ]);

    expect(results).toEqual([
      { status: 'rejected', reason: full },
      { status: 'rejected', reason: full },
    ]);
    expect(recorder.statements).not.toContain('commit');
  });

  it('when every unit of a batch fails, then the transaction is rolled back, not committed', async () => {
    const recorder: Recorder = { statements: [] };
    const group = groupCommitOver(recorder);
    const results = await Promise.allSettled([
      group.run(async () => {
        throw new Error('first refuses');
      }),
      group.run(async () => {
        throw new Error('second refuses');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(recorder.statements).not.toContain('commit');
    expect(recorder.statements.at(-1)).toBe('rollback');
  });

  it('when a unit completes, then its caller hears of it only after the commit', async () => {
    const recorder: Recorder = { statements: [] };
    const group = groupCommitOver(recorder);
    const seenAtResolution: string[][] = [];

    await Promise.all(
      [1, 2, 3].map((n) => group.run(async () => n).then(() => seenAtResolution.push([...recorder.statements]))),
    );

    for (const seen of seenAtResolution) expect(seen.at(-1)).toBe('commit');
  });

  it('when a unit arrives while a batch is committing, then it runs in the next batch', async () => {
    const recorder: Recorder = { statements: [] };
    const group = groupCommitOver(recorder);

    let second: Promise<unknown> | undefined;
    const first = group.run(async () => {
      // Arrives while the first batch is open: it must not join a transaction already under way.
      second = group.run(async (log) => log.push('late unit'));
    });
    await first;
    await second;

    expect(recorder.statements.filter((s) => s === 'commit')).toHaveLength(2);
    expect(recorder.statements.lastIndexOf('begin')).toBeLessThan(recorder.statements.indexOf('late unit'));
    expect(recorder.statements.indexOf('commit')).toBeLessThan(recorder.statements.indexOf('late unit'));
  });
});
