import type { NextFunction, Request, Response } from 'express';

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;

/** The bytes a path segment stands for; a '%' not followed by two hex digits is itself. */
function segmentBytes(segment: string): number[] {
  const bytes: number[] = [];
  for (let index = 0; index < segment.length;) {
    const pair = segment.slice(index + 1, index + 3);
    if (segment[index] === '%' && HEX_PAIR.test(pair)) {
      bytes.push(parseInt(pair, 16));
      index += 3;
    } else {
      // The request line arrives as Latin-1 text: one character per byte.
      bytes.push(...Buffer.from(segment[index], segment.charCodeAt(index) < 256 ? 'latin1' : 'utf8'));
      index += 1;
    }
  }
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** The segment with its bytes read as UTF-8, each invalid sequence as U+FFFD, encoded again. */
function repairSegment(segment: string): string {
  return decodes(segment) ? segment : encodeURIComponent(utf8.decode(Uint8Array.from(segmentBytes(segment))));
}

/**
 * Express decodes each path parameter with decodeURIComponent and answers a bare 400 when that
 * throws (`%FF`, `%zz`, an encoded lone surrogate), before any route's guard or pipe runs. Such a
 * path is read as browsers read it instead: every undecodable byte becomes U+FFFD. No id, slug or
 * token holds that character, so the route answers as for any other unknown value: credentials
 * first, then its own not-found (path-param.pipe.ts).
 */
export function lenientPathDecoding(req: Request, _res: Response, next: NextFunction): void {
  const queryStart = req.url.indexOf('?');
  const path = queryStart === -1 ? req.url : req.url.slice(0, queryStart);
  if (path.includes('%') && !decodes(path)) {
    req.url = path.split('/').map(repairSegment).join('/') + (queryStart === -1 ? '' : req.url.slice(queryStart));
  }
  next();
}
