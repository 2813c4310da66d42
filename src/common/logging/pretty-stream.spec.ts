import { prettyLine } from './pretty-stream';

describe('prettyLine', () => {
  it('shows time, level, context and message, then the fields the message does not already say', () => {
    const time = new Date(2026, 0, 2, 3, 4, 5).getTime();
    const line = JSON.stringify({ level: 40, time, pid: 1, context: 'Config', msg: 'REDIS_URL: down', setting: 'REDIS_URL', attempt: 2 });
    expect(prettyLine(line, false)).toBe('03:04:05 WARN  [Config] REDIS_URL: down attempt=2\n');
  });

  it('puts an error stack on the lines after, and passes through what is not JSON', () => {
    const line = JSON.stringify({ level: 60, time: 0, err: { message: 'boom', stack: 'Error: boom\n    at x' } });
    expect(prettyLine(line, false)).toMatch(/ FATAL boom\nError: boom\n {4}at x\n$/);
    expect(prettyLine('plain text', false)).toBe('plain text\n');
  });
});
