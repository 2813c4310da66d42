import { classifyCommit, sortCommits, splitHash } from './commit-sorter';

const sectionOf = (commit: string) => {
  const verdict = classifyCommit(commit);
  return 'skip' in verdict ? `skip:${verdict.skip}` : verdict.section;
};
const itemOf = (commit: string) => {
  const verdict = classifyCommit(commit);
  if ('skip' in verdict) throw new Error(`${commit} was skipped as ${verdict.skip}`);
  return verdict.item;
};

describe('classifyCommit', () => {
  it.each([
    ['feat: add dark mode', 'new'],
    ['feat(widget): add dark mode', 'new'],
    ['Feat: capitalised type', 'new'],
    ['perf: cache the feed', 'improved'],
    ['refactor(api): split the service', 'improved'],
    ['fix: stop double emails', 'fixed'],
    ['fix(security): escape titles', 'security'],
    ['fix(auth, security): rotate tokens', 'security'],
    ['security: bump the TLS floor', 'security'],
    ['feat(api)!: drop v1', 'breaking'],
    ['fix!: change the default', 'breaking'],
    ['chore!: require Node 20', 'breaking'],
    ['wip: half a thing', 'other'],
    ['Add a logo to the footer', 'other'],
    ['i18n(fr): translate the widget', 'other'],
  ])('sorts %j into %s', (commit, section) => {
    expect(sectionOf(commit)).toBe(section);
  });

  it.each([
    ['chore: tidy', 'housekeeping'],
    ['ci: cache npm', 'housekeeping'],
    ['build(deps): bump ws', 'housekeeping'],
    ['test: cover the feed', 'housekeeping'],
    ['style: prettier', 'housekeeping'],
    ['docs(readme): typo', 'housekeeping'],
    ['Bump lodash from 4.17.20 to 4.17.21', 'housekeeping'],
    ["Merge branch 'main' into feature/x", 'merges'],
    ['Merge pull request #12 from acme/feature', 'merges'],
    ["Merge remote-tracking branch 'origin/main'", 'merges'],
    ['Merged PR 42: Add export', 'merges'],
    ['Revert "feat: add dark mode"', 'reverts'],
    ['revert: feat: add dark mode', 'reverts'],
    ['Revert "x"\n\nThis reverts commit 1234567.', 'reverts'],
    ['v1.2.3', 'version_bumps'],
    ['1.2.3', 'version_bumps'],
    ['2.0.0-beta.1', 'version_bumps'],
    ['chore(release): 1.4.0', 'version_bumps'],
    ['release: 1.4.0', 'version_bumps'],
    ['Release 1.2.3', 'version_bumps'],
    ['Release v2.0.0', 'version_bumps'],
    ['Bump version to 1.2.3', 'version_bumps'],
    ['Bump version', 'version_bumps'],
    ['Version 3.1.0', 'version_bumps'],
  ])('skips %j as %s', (commit, kind) => {
    expect(sectionOf(commit)).toBe(`skip:${kind}`);
  });

  it('keeps a release-notes subject that names no version', () => {
    expect(sectionOf('Release notes page shows labels')).toBe('other');
  });

  it('reads type, scope and subject', () => {
    expect(itemOf('feat(widget): add dark mode')).toEqual({
      subject: 'add dark mode',
      scope: 'widget',
      type: 'feat',
      breaking: false,
      note: null,
    });
    expect(itemOf('feat(a): use (b): c')).toMatchObject({ scope: 'a', subject: 'use (b): c' });
    expect(itemOf('Add a logo')).toEqual({ subject: 'Add a logo', scope: null, type: null, breaking: false, note: null });
    expect(itemOf('wip(x): y')).toMatchObject({ type: 'wip', scope: 'x', subject: 'y' });
  });

  it('marks `!` commits breaking without repeating the subject as a note', () => {
    expect(itemOf('feat(api)!: drop v1')).toMatchObject({ breaking: true, note: null, type: 'feat', scope: 'api', subject: 'drop v1' });
  });

  it.each(['BREAKING CHANGE', 'BREAKING-CHANGE'])('reads a %s footer in a whole message', (keyword) => {
    const message = `fix(config): read the new file\n\nThe loader now looks in one place.\n\n${keyword}: config.yml moved\nto config/app.yml\n\nRefs #12`;
    expect(sectionOf(message)).toBe('breaking');
    expect(itemOf(message)).toEqual({
      subject: 'read the new file',
      scope: 'config',
      type: 'fix',
      breaking: true,
      note: 'config.yml moved to config/app.yml',
    });
  });

  it('counts a breaking footer on a housekeeping or non-conventional commit', () => {
    expect(sectionOf('build: drop Node 18\n\nBREAKING CHANGE: Node 20 is required')).toBe('breaking');
    expect(sectionOf('Rework the config\n\nBREAKING CHANGE: new file name')).toBe('breaking');
    expect(itemOf('Rework the config\n\nBREAKING CHANGE: new file name')).toMatchObject({ type: null, subject: 'Rework the config' });
  });

  it('takes the description from the first line only', () => {
    expect(itemOf('feat: add export\n\nLong body\nwith lines')).toMatchObject({ subject: 'add export', breaking: false });
  });
});

describe('splitHash', () => {
  it('reads a tab-separated full hash (git log --format=%H%x09%s) and keeps 7 characters', () => {
    expect(splitHash('0123456789abcdef0123456789abcdef01234567\tfeat: x')).toEqual({ hash: '0123456', message: 'feat: x' });
  });

  it('reads a short hash followed by a space (git log --oneline)', () => {
    expect(splitHash('a1b2c3d fix: y')).toEqual({ hash: 'a1b2c3d', message: 'fix: y' });
    expect(itemOf('A1B2C3D fix(ui): y')).toMatchObject({ hash: 'a1b2c3d', type: 'fix', scope: 'ui' });
  });

  it('does not take a word of hex letters for a hash', () => {
    expect(splitHash('defaced homepage restored')).toEqual({ message: 'defaced homepage restored' });
    expect(splitHash('abc12 short')).toEqual({ message: 'abc12 short' });
  });

  it('keeps the rest of a whole message', () => {
    expect(splitHash('abcdef1\tfeat: x\n\nBREAKING CHANGE: y')).toEqual({ hash: 'abcdef1', message: 'feat: x\n\nBREAKING CHANGE: y' });
  });
});

describe('sortCommits', () => {
  it('orders sections with breaking first, keeps input order inside a section and counts skips', () => {
    const sorted = sortCommits([
      'fix: b',
      'feat: a',
      'chore: x',
      'feat(api)!: c',
      'Merge pull request #1 from a/b',
      'feat: d',
      'v1.0.0',
      'Revert "feat: e"',
      'perf: f',
      'security: g',
      'Tweak h',
    ]);
    expect(sorted.sections.map((section) => [section.title, section.items.map((item) => item.subject)])).toEqual([
      ['Breaking changes', ['c']],
      ['Security', ['g']],
      ['New', ['a', 'd']],
      ['Improved', ['f']],
      ['Fixed', ['b']],
      ['Other changes', ['Tweak h']],
    ]);
    expect(sorted.skipped).toEqual({ total: 4, housekeeping: 1, merges: 1, reverts: 1, version_bumps: 1 });
  });

  it('leaves empty sections out', () => {
    expect(sortCommits(['chore: x', 'docs: y'])).toEqual({
      sections: [],
      skipped: { total: 2, housekeeping: 2, merges: 0, reverts: 0, version_bumps: 0 },
    });
  });
});
