/**
 * The truth for the sources fixture (tests/fixtures/src/sources.tsx): where each of its 24 component types is
 * defined, read from the source file itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scripts/chrome';

export const SOURCES_FILE = 'tests/fixtures/src/sources.tsx';
export const SOURCE = fs.readFileSync(path.join(ROOT, SOURCES_FILE), 'utf8').split('\n');

/** The line a type's name is defined on (a `memo`/`forwardRef` wrapper's const is not its definition), 0 if none. */
export function definitionLine(name: string): number {
  const re = new RegExp(`(?:function ${name}\\b|class ${name}\\b|const ${name} = (?!React))`);
  return SOURCE.findIndex((l) => re.test(l)) + 1;
}

/** The lines each of the types spans in the source: from its definition (wrappers included) to the next one's. */
export function spanOf(name: string, names: string[]): [number, number] {
  const line = (n: string): number => SOURCE.findIndex((l) => new RegExp(`(?:function|class|const) ${n}\\b`).test(l)) + 1;
  const starts = names.map(line).filter((l) => l > 0).sort((a, b) => a - b);
  const start = line(name);
  return [start, starts.find((l) => l > start) ?? SOURCE.length + 1];
}

/**
 * A development build's component placed by React's debug information: in the original file, within its own
 * definition's lines (the line of the first element it creates). The one anonymous memo is QuebecNote.
 */
export function placedInOwnSpan(name: string, source: { file: string; line: number } | null | undefined, names: string[]): boolean {
  const [from, to] = spanOf(name === 'Anonymous' ? 'QuebecNote' : name, names);
  return from > 0 && source?.file === SOURCES_FILE && source.line >= from && source.line < to;
}
