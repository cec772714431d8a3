/**
 * Source locations of component types (issue 15; docs/SOURCES.md): what the content script asks the worker to find
 * (`locate`) and what comes back (`located`). The function texts and scripts come from the page: data, capped.
 */
import { INVALID, isRecord, nullable, num, oneOf, str, validItemsOf, type Validator } from './validate';

/** A component type's function text: `text` its first MAX_TYPE_TEXT characters, `length` the whole text's. */
export interface TypeText {
  typeId: number;
  text: string;
  length: number;
}
export const MAX_TYPE_TEXT = 2000;

export const MAX_LOCATE_TYPES = 500;
export const MAX_LOCATE_SCRIPTS = 200;
/** An inline script's text travels with the request up to this size (bigger ones are left out). */
export const MAX_INLINE_SCRIPT = 2 * 1024 * 1024;

export interface LocateRequest {
  types: { typeId: number; text: string }[];
  /** In document order; `inline` is an inline script's text (its URL is the document's plus #inline-n). */
  scripts: { url: string; inline: string | null }[];
}

/**
 * `mapped`: found, and its source map gave the original file, line and (maybe) name. `no-map`: found in a script
 * without a source map (file and line are the script's). `map-error`: the map could not be used (`why`).
 * `not-found`: its text is in none of the scripts.
 */
export type SourceState = 'mapped' | 'no-map' | 'map-error' | 'not-found';

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
export const locateRequestValidator: Validator<LocateRequest> = isRecord({
  types: validItemsOf(isRecord({ typeId: num(1, 2 ** 31), text: str(MAX_TYPE_TEXT) }), MAX_LOCATE_TYPES),
  scripts: validItemsOf(isRecord({ url, inline: nullable(str(MAX_INLINE_SCRIPT)) }), MAX_LOCATE_SCRIPTS),
});

const state = oneOf(['mapped', 'no-map', 'map-error', 'not-found'] as const);
const located: Validator<LocatedType> = isRecord({
  typeId: num(1, 2 ** 31), url: nullable(url), line: num(0, 1e9), column: num(0, 1e9), state, file: nullable(str(300)),
  fileUrl: nullable(url), fileLine: num(0, 1e9), fileColumn: num(0, 1e9), originalName: nullable(str(200)), why: nullable(str(300)),
});
export const locatedValidator: Validator<LocatedType[]> = (v) => {
  const r = validItemsOf(located, MAX_LOCATE_TYPES)(v);
  return r === INVALID ? INVALID : r;
};
