/**
 * Source locations of component types (issue 15; docs/SOURCES.md): what the content script asks the worker to find
 * (`locate`) and what comes back (`located`). The function texts and scripts come from the page: data, capped.
 */
import { bool, INVALID, isRecord, nullable, num, oneOf, str, validItemsOf, type Validator } from './validate';

/**
 * React's own debug information about where a component's first element is created, for development builds whose
 * code is in no script the worker can read (webpack's eval source maps, blobs): `source` is React ≤ 18's
 * `_debugSource` (the JSX transform's original file, 1-based line and column), `stack` a frame of React 19's
 * `_debugStack` (the generated script's URL, 1-based line and column: mapped through that script's source map when
 * it can be read).
 */
export interface DebugHint {
  kind: 'source' | 'stack';
  url: string;
  line: number;
  column: number;
}

/** A component type's function text: `text` its first MAX_TYPE_TEXT characters, `length` the whole text's. */
export interface TypeText {
  typeId: number;
  text: string;
  length: number;
  hint: DebugHint | null;
  /**
   * Typed again because a hot update replaced its component's function: the scripts the worker has cached may hold the
   * old code under the same URL (Turbopack), so the one its stack names is read again first.
   */
  hot?: boolean;
}
export const MAX_TYPE_TEXT = 2000;
export const MAX_HINT_URL = 2048;

/**
 * The frame of a React 19 `_debugStack` that created the element: the first frame is React's own (jsx, jsxDEV,
 * createElement), the next is the component's render. V8 (`    at Name (url:1:2)`, `    at url:1:2`) and Firefox
 * (`Name@url:1:2`) formats. Null when there is no such frame (React's stand-in stack for unknown owners).
 */
export function creatorFrame(stack: string): { url: string; line: number; column: number } | null {
  const frames: { name: string; url: string; line: number; column: number }[] = [];
  for (const raw of stack.split('\n', 16)) {
    const l = raw.trim();
    const v8 = /^at (?:(.*?) \((.+):(\d+):(\d+)\)|(.+):(\d+):(\d+))$/.exec(l);
    const ff = v8 ? null : /^(.*?)@(.+):(\d+):(\d+)$/.exec(l);
    if (v8) frames.push(v8[2] !== undefined ? { name: v8[1], url: v8[2], line: +v8[3], column: +v8[4] } : { name: '', url: v8[5], line: +v8[6], column: +v8[7] });
    else if (ff) frames.push({ name: ff[1], url: ff[2], line: +ff[3], column: +ff[4] });
    if (frames.length === 2) break;
  }
  const f = frames[1];
  if (!f || /UnknownOwner|react[-_]stack[-_]bottom[-_]frame/.test(frames[0].name + f.name)) return null;
  const url = f.url.replace(/^async /, '');
  return url.length > MAX_HINT_URL || f.line < 1 ? null : { url, line: f.line, column: f.column };
}

export const MAX_LOCATE_TYPES = 500;
export const MAX_LOCATE_SCRIPTS = 200;
/** An inline script's text travels with the request up to this size (bigger ones are left out). */
export const MAX_INLINE_SCRIPT = 2 * 1024 * 1024;

export interface LocateRequest {
  types: { typeId: number; text: string; hint: DebugHint | null; hot?: boolean }[];
  /** In document order; `inline` is an inline script's text (its URL is the document's plus #inline-n). */
  scripts: { url: string; inline: string | null }[];
}

/**
 * `mapped`: found, and its source map gave the original file, line and (maybe) name. `no-map`: found in a script
 * without a source map (file and line are the script's). `map-error`: the map could not be used (`why`).
 * `react-debug`: its text is in none of the scripts, and React's debug information placed it (the line of the first
 * element it creates, not its definition: React ≤ 18's original file, or React 19's frame as it gives it). `not-found`:
 * none of these.
 */
export type SourceState = 'mapped' | 'no-map' | 'map-error' | 'react-debug' | 'not-found';

export interface LocatedType {
  typeId: number;
  /** The script it is in (null: not found), 1-based line, 0-based column. */
  url: string | null;
  line: number;
  column: number;
  state: SourceState;
  /** What to show and open: the original file when mapped, else the script. */
  file: string | null;
  fileUrl: string | null;
  fileLine: number;
  fileColumn: number;
  /** The name the map gives at the function's name, when it has one. */
  originalName: string | null;
  why: string | null;
}

const url = str(4096);
const hint = isRecord({ kind: oneOf(['source', 'stack'] as const), url: str(MAX_HINT_URL), line: num(1, 1e9), column: num(0, 1e9) });
/** A hint that does not validate is dropped (null), not its type. */
export const debugHintValidator: Validator<DebugHint | null> = (v) => {
  const r = v === undefined || v === null ? null : hint(v);
  return r === INVALID ? null : r;
};
/** A flag added later: absent is false. */
export const optionalBool = (v: unknown): boolean | typeof INVALID => (v === undefined ? false : bool(v));

export const locateRequestValidator: Validator<LocateRequest> = isRecord({
  types: validItemsOf(isRecord({ typeId: num(1, 2 ** 31), text: str(MAX_TYPE_TEXT), hint: debugHintValidator, hot: optionalBool }), MAX_LOCATE_TYPES),
  scripts: validItemsOf(isRecord({ url, inline: nullable(str(MAX_INLINE_SCRIPT)) }), MAX_LOCATE_SCRIPTS),
});

const state = oneOf(['mapped', 'no-map', 'map-error', 'react-debug', 'not-found'] as const);
const located: Validator<LocatedType> = isRecord({
  typeId: num(1, 2 ** 31), url: nullable(url), line: num(0, 1e9), column: num(0, 1e9), state, file: nullable(str(300)),
  fileUrl: nullable(url), fileLine: num(0, 1e9), fileColumn: num(0, 1e9), originalName: nullable(str(200)), why: nullable(str(300)),
});
export const locatedValidator: Validator<LocatedType[]> = (v) => {
  const r = validItemsOf(located, MAX_LOCATE_TYPES)(v);
  return r === INVALID ? INVALID : r;
};
