/**
 * A minimal source-map v3 reader (VLQ mappings, no dependency): turns a
 * position in the minified bundle that a CPU profile reports into the
 * original file, line and name, so hot-spot lists name `src/…` functions.
 */
import fs from 'node:fs';

export interface OriginalPosition {
  source: string;
  /** 1-based. */
  line: number;
  column: number;
  name: string | null;
  /** The original source line, trimmed (when the map carries sourcesContent). */
  text: string | null;
}

interface RawMap {
  sources: string[];
  names?: string[];
  mappings: string;
  sourcesContent?: (string | null)[];
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** Segments per generated line: [genCol, srcIdx, srcLine, srcCol, nameIdx | -1]. */
type Segment = [number, number, number, number, number];

export class SourceMap {
  private readonly lines: Segment[][] = [];
  private readonly sourceLines = new Map<number, string[]>();

  constructor(private readonly raw: RawMap) {
    let src = 0, sLine = 0, sCol = 0, name = 0;
    for (const lineText of raw.mappings.split(';')) {
      const segs: Segment[] = [];
      let gCol = 0;
      for (const seg of lineText.split(',')) {
        if (seg === '') continue;
        const v = decodeVlq(seg);
        gCol += v[0];
        if (v.length >= 4) {
          src += v[1]; sLine += v[2]; sCol += v[3];
          let n = -1;
          if (v.length >= 5) { name += v[4]; n = name; }
          segs.push([gCol, src, sLine, sCol, n]);
        }
      }
      this.lines.push(segs);
    }
  }

  static load(file: string): SourceMap | null {
    try {
      return new SourceMap(JSON.parse(fs.readFileSync(file, 'utf8')) as RawMap);
    } catch {
      return null;
    }
  }

  /** `line` and `column` 0-based, as in a CPU profile's callFrame. */
  lookup(line: number, column: number): OriginalPosition | null {
    const segs = this.lines[line];
    if (!segs || segs.length === 0) return null;
    let lo = 0, hi = segs.length - 1, best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (segs[mid][0] <= column) { best = mid; lo = mid + 1; } else hi = mid - 1;
    }
    if (best < 0) return null;
    const [, srcIdx, sLine, sCol, nameIdx] = segs[best];
    const source = (this.raw.sources[srcIdx] ?? '?').replace(/^webpack:\/\/[^/]*\/(\.\/)?/, '');
    return {
      source, line: sLine + 1, column: sCol + 1,
      name: nameIdx >= 0 ? this.raw.names?.[nameIdx] ?? null : null,
      text: this.lineText(srcIdx, sLine),
    };
  }

  private lineText(srcIdx: number, line: number): string | null {
    let ls = this.sourceLines.get(srcIdx);
    if (!ls) {
      const content = this.raw.sourcesContent?.[srcIdx];
      if (typeof content !== 'string') return null;
      ls = content.split('\n');
      this.sourceLines.set(srcIdx, ls);
    }
    const t = ls[line];
    return t === undefined ? null : t.trim();
  }
}

function decodeVlq(s: string): number[] {
  const out: number[] = [];
  let value = 0, shift = 0;
  for (const c of s) {
    const d = B64_INDEX.get(c);
    if (d === undefined) throw new Error(`bad VLQ digit ${c}`);
    value += (d & 31) << shift;
    if (d & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}
