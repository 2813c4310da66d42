import { getMetadataStorage } from 'class-validator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Env } from './env';

const ASSIGNMENT = /^# ([A-Z][A-Z0-9_]+)=/;

describe('.env.example', () => {
  it('lists every variable the configuration reads, each under a line that says what it means', () => {
    const lines = readFileSync(join(__dirname, '..', '..', '.env.example'), 'utf8').split('\n');
    const listed = new Map<string, number>();
    lines.forEach((line, index) => {
      const name = ASSIGNMENT.exec(line)?.[1];
      if (name) listed.set(name, index);
    });
    const read = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(Env, '', false, false)
        .map((meta) => meta.propertyName),
    );
    expect(read.size).toBeGreaterThan(30);
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
    for (const [name, index] of listed) {
      const meaning = lines[index - 1];
      expect({ name, meaning: meaning.startsWith('# ') && !ASSIGNMENT.test(meaning) }).toEqual({ name, meaning: true });
    }
  });
});
