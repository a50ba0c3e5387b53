// Prometheus text as the tests read it: `/metrics` parsed into samples, and one sample's value.
import { expect } from 'vitest';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text exposition into samples (comments skipped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = value!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}
