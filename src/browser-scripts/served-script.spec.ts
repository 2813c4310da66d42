import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { bundleFromSources } from './bundle-source';
import { BASE_URL_PLACEHOLDER, type BrowserBundle, asStringContent, serveBundle } from './served-script';
import { decodeSegment } from './source-map-columns';

/** Every mapping as [generated line, generated column], in order. */
function generatedPositions(mappings: string): [number, number][] {
  return mappings.split(';').flatMap((line, index) => {
    let column = 0;
    return line ? line.split(',').map((segment): [number, number] => [index, (column += decodeSegment(segment)[0])]) : [];
  });
}

const codeOf = (text: string) => text.replace(/\n\/\/# sourceMappingURL=[^\n]*\n$/, '');

describe('serveBundle', () => {
  let bundles: BrowserBundle[];

  beforeAll(async () => {
    bundles = await bundleFromSources();
  });

  it.each(['https://a.io', 'https://launch.example.com/behind/a/long/proxy/prefix'])(
    'writes %s in once and keeps every source-map position on the same code',
    (baseUrl) => {
      for (const bundle of bundles) {
        const served = serveBundle(bundle, baseUrl);
        const code = codeOf(served.latest.identity.body.toString('utf8'));
        expect(code).not.toContain(BASE_URL_PLACEHOLDER);
        expect(code.split(`"${baseUrl}"`)).toHaveLength(2);

        const builtCode = codeOf(bundle.script.toString('utf8'));
        const builtLines = builtCode.split('\n');
        const servedLines = code.split('\n');
        const before = generatedPositions(JSON.parse(bundle.map.toString('utf8')).mappings);
        const after = generatedPositions(JSON.parse(served.map.identity.body.toString('utf8')).mappings);
        expect(after).toHaveLength(before.length);
        const placeholderLine = builtLines.findIndex((line) => line.includes(BASE_URL_PLACEHOLDER));
        const placeholderColumn = builtLines[placeholderLine].indexOf(BASE_URL_PLACEHOLDER);
        // The (up to) 12 characters each mapping points at are the same before and after the address
        // was written in, short of the address itself.
        const moved = before.filter(([line, column], index) => {
          const [servedLine, servedColumn] = after[index];
          const reachesAddress = line === placeholderLine && column <= placeholderColumn && placeholderColumn < column + 12;
          const length = reachesAddress ? placeholderColumn - column : 12;
          expect(servedLines[servedLine].slice(servedColumn, servedColumn + length)).toBe(builtLines[line].slice(column, column + length));
          return servedColumn !== column;
        });
        expect(moved.length).toBeGreaterThan(0);
      }
    },
  );

  it('names each map beside its address, hashes the served bytes and gives the pinned copy its integrity', () => {
    const [bundle] = bundles;
    const served = serveBundle(bundle, 'https://a.io');
    const latest = served.latest.identity.body.toString('utf8');
    const pinned = served.pinned.identity.body.toString('utf8');
    expect(served.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(latest.endsWith(`\n//# sourceMappingURL=${bundle.name}.js.map\n`)).toBe(true);
    expect(pinned.endsWith(`\n//# sourceMappingURL=${bundle.name}.${served.hash}.js.map\n`)).toBe(true);
    expect(codeOf(pinned)).toBe(codeOf(latest));
    expect(served.integrity).toBe(`sha384-${createHash('sha384').update(served.pinned.identity.body).digest('base64')}`);
    expect(serveBundle(bundle, 'https://b.io').hash).not.toBe(served.hash);
    expect(serveBundle(bundle, 'https://a.io').hash).toBe(served.hash);
  });

  it('gzips each file once, with an ETag per encoding', () => {
    const served = serveBundle(bundles[0], 'https://a.io');
    for (const file of [served.latest, served.pinned, served.map]) {
      expect(gunzipSync(file.gzip.body).equals(file.identity.body)).toBe(true);
      expect(file.gzip.body.length).toBeLessThan(file.identity.body.length);
      expect(file.identity.etag).toMatch(/^"[\w-]{43}"$/);
      expect(file.gzip.etag).not.toBe(file.identity.etag);
    }
  });

  it('refuses a bundle without the address placeholder, or with two', () => {
    const bundle = bundles[0];
    const without = { ...bundle, script: Buffer.from(bundle.script.toString('utf8').replace(BASE_URL_PLACEHOLDER, 'x')) };
    const twice = { ...bundle, script: Buffer.from(`${bundle.script.toString('utf8')};"${BASE_URL_PLACEHOLDER}"`) };
    for (const broken of [without, twice]) {
      expect(() => serveBundle(broken, 'https://a.io')).toThrow(`${bundle.name}.js must hold ${BASE_URL_PLACEHOLDER} exactly once`);
    }
  });
});

describe('asStringContent', () => {
  it('reads back unchanged inside any kind of string literal, whatever the address holds', () => {
    const value = 'https://x.test/a"b\'c`${d}\\e\n</script>\u2028';
    const inside = asStringContent(value);
    expect(inside).toMatch(/^[\w.:/?#@!&=+,;%~\\-]+$/);
    for (const quote of ['"', "'", '`']) expect(runInNewContext(`${quote}${inside}${quote}`)).toBe(value);
    expect(asStringContent('https://launch.example.com:8443/base?x=1')).toBe('https://launch.example.com:8443/base?x=1');
  });
});
