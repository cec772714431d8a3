/**
 * Where a component type is defined, and its original name (issue 15; docs/SOURCES.md). The content script sends
 * each new type's function text (read in the page with the native Function.prototype.toString) and the page's
 * scripts; here, off the page's main thread, each script's text is fetched once (the extension's host access; inline
 * scripts come with their text), the function text is looked up in it (exact text: what toString returns is the
 * slice of the script that defines the function), and the offset becomes a line and column. When the script names a
 * source map (`//# sourceMappingURL=`, inline `data:` or fetched, or a SourceMap header), the map is parsed once with
 * @jridgewell/trace-mapping and the location mapped to the original file, line and column, and the name at the
 * function's name to the original name.
 *
 * Security: the script URLs come from the page. A script of the page's own origin is fetched with its cookies (the
 * page could read it itself); any other only without credentials (what anyone on the network could read), so the
 * page cannot use us to read another origin's private responses. Only http(s) is fetched.
 *
 * Bounded: scripts over MAX_SCRIPT_BYTES and maps over MAX_MAP_BYTES are not read (said per type), at most
 * MAX_CACHED_SCRIPTS script texts and MAX_CACHED_MAPS parsed maps are kept (least recently used go), and the whole
 * cache is dropped after IDLE_DROP_MS without a request.
 */
import { decodedMappings, FlattenMap, originalPositionFor, sourceContentFor, type TraceMap } from '@jridgewell/trace-mapping';
import type { DebugHint, LocatedType, LocateRequest } from '../protocol/sources';

export const MAX_SCRIPT_BYTES = 20 * 1024 * 1024;
export const MAX_MAP_BYTES = 40 * 1024 * 1024;
const MAX_CACHED_SCRIPTS = 64;
const MAX_CACHED_MAPS = 8;
const IDLE_DROP_MS = 120_000;
const FETCH_TIMEOUT_MS = 15_000;

interface ScriptText {
  text: string | null;
  /** The map's URL (absolute or data:), or null. */
  mapUrl: string | null;
  error: string | null;
  /** Line start offsets, computed on first use. */
  lines: number[] | null;
  /** Whether it holds modules given to `eval` as strings (webpack's eval devtools), found on first use. */
  evals?: boolean;
  /** Which fetch of its URL this is: a script fetched again has its map read again too. */
  gen?: number;
}

type Fetcher = (url: string, withCookies: boolean) => Promise<{ ok: boolean; status: number; text: string; header: (name: string) => string | null }>;

const defaultFetch: Fetcher = async (url, withCookies) => {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), FETCH_TIMEOUT_MS);
  try {
    const r = await fetch(url, { credentials: withCookies ? 'include' : 'omit', signal: ctl.signal });
    const len = Number(r.headers.get('content-length') ?? 0);
    if (len > MAX_MAP_BYTES) return { ok: false, status: 413, text: '', header: () => null };
    return { ok: r.ok, status: r.status, text: await r.text(), header: (n) => r.headers.get(n) };
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The last `//# sourceMappingURL=` comment of a script (alone on the end of its line), resolved against the script's
 * URL; else the SourceMap header. Searched from the end: an inline map can be megabytes long, and a 20 MB bundle is
 * not scanned whole.
 */
export function mapUrlOf(text: string, scriptUrl: string, header: string | null = null): string | null {
  let raw: string | null = null;
  const comment = /\/\/[#@]\s*sourceMappingURL=([^\s'"]+)[ \t]*(?:\r?\n|$)/y;
  for (let at = text.lastIndexOf('sourceMappingURL='), tries = 0; at >= 0 && tries < 8; at = text.lastIndexOf('sourceMappingURL=', at - 1), tries++) {
    const start = text.lastIndexOf('//', at);
    if (start < 0 || at - start > 8) continue;
    comment.lastIndex = start;
    const m = comment.exec(text);
    if (m) {
      raw = m[1];
      break;
    }
  }
  raw ??= header;
  if (!raw) return null;
  if (raw.startsWith('data:')) return raw;
  try {
    return new URL(raw, scriptUrl).href;
  } catch {
    return null;
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 0-based offset → 1-based line, 0-based column. */
export function lineColumn(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] };
}

/**
 * Where the function's name is, from its text and what precedes it: `function NAME(`, `class NAME`, or
 * `NAME = ` / `NAME: ` just before an arrow or anonymous function. Offset into the script, or -1.
 */
export function nameOffset(script: string, at: number, fnText: string): number {
  // `class extends Base {…}` has no name of its own: "extends" is not one.
  const head = /^(?:async\s*)?(?:function\s*\*?\s*|class\s+(?!extends\b))([\w$]+)/.exec(fnText);
  if (head) return at + head[0].length - head[1].length;
  const before = script.slice(Math.max(0, at - 200), at);
  const m = /([\w$]+)\s*(?:=|:)\s*$/.exec(before);
  if (m && !/^(?:return|case|default|yield|await)$/.test(m[1])) return at - before.length + (m.index ?? 0);
  return -1;
}

/**
 * A path people read: the URL's path without the host, or the map source with webpack:// and ../ taken off, and `./`
 * segments dropped (`webpack://app/./src/App.tsx` → `app/src/App.tsx`).
 */
export function displayFile(source: string): string {
  let s = source;
  try {
    const u = new URL(source);
    s = u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'file:' ? u.pathname : `${u.host}${u.pathname}`;
  } catch {
    // A relative path already.
  }
  return s.replace(/\/(?:\.\/)+/g, '/').replace(/^\/+/, '').replace(/^(?:\.\.?\/)+/, '').slice(0, 300);
}

/** An eval'd module inside a script: its code (the string literal decoded) and the URL its `sourceURL` names. */
export interface EvalModule {
  code: string;
  url: string;
}

/** Longest eval'd module read (its code and inline map). */
const MAX_EVAL_MODULE = 4 * 1024 * 1024;

/**
 * The eval'd module holding `fnText`, for bundles that ship each module as a string given to `eval` (webpack's
 * `eval`, `eval-source-map`, `eval-cheap-module-source-map`…): the function's text is in the script only escaped, as
 * JSON.stringify writes it. The literal around it is read with JSON.parse (never run); its code keeps its own
 * `sourceURL` and inline map. Null when the text is not there in that form.
 */
export function evalModuleHolding(script: string, fnText: string): EvalModule | null {
  const escaped = JSON.stringify(fnText).slice(1, -1);
  const at = script.indexOf(escaped);
  if (at < 0) return null;
  const open = script.lastIndexOf('eval("', at);
  if (open < 0 || at - open > MAX_EVAL_MODULE) return null;
  // The literal's end: the first quote not escaped after the text.
  let end = at + escaped.length;
  for (; end < script.length && end - open < MAX_EVAL_MODULE; end++) {
    const c = script.charCodeAt(end);
    if (c === 92 /* \ */) end++;
    else if (c === 34 /* " */) break;
  }
  if (script.charCodeAt(end) !== 34) return null;
  let code: unknown;
  try {
    code = JSON.parse(script.slice(open + 5, end + 1));
  } catch {
    return null;
  }
  if (typeof code !== 'string' || !code.includes(fnText)) return null;
  // The last sourceURL comment names the module (webpack writes `[module]` first, then the real one).
  const urls = [...code.slice(-2000).matchAll(/\/\/[#@]\s*sourceURL=([^\s'"]+)/g)];
  const url = urls.length > 0 ? urls[urls.length - 1][1] : '';
  return url ? { code, url } : null;
}

/**
 * The name a function is declared with, read from the original source at its position: `function NAME`,
 * `class NAME`, or `NAME = ` / `NAME: ` right before it. Null when it has none (an arrow passed to memo()).
 */
export function declaredName(line: string, column: number): string | null {
  const at = /^(?:async\s+)?(?:function\s*\*?\s*|class\s+(?!extends\b))([\w$]+)/.exec(line.slice(column));
  if (at) return at[1];
  // At the name itself, right after its keyword (a minifier that maps `v=class extends …` to `class Clock`'s name).
  const own = /^[\w$]+/.exec(line.slice(column));
  if (own && /(?:^|[^\w$])(?:function\s*\*?|class)\s+$/.test(line.slice(0, column))) return own[0];
  const before = /([\w$]+)\s*[:=]\s*(?:async\s*)?$/.exec(line.slice(0, column));
  return before && !/^(?:return|case|default|yield|await)$/.test(before[1]) ? before[1] : null;
}

/**
 * The name a line declares, for maps without columns (webpack's `cheap` modes map a whole line to its column 0): the
 * last `function NAME` or `class NAME` on it (`const Tags = memo(function Tags(…` → Tags), else `const NAME =`.
 */
export function lineDeclaration(line: string): string | null {
  const fns = [...line.matchAll(/(?:^|[^\w$.])(?:function\s*\*?\s*|class\s+(?!extends\b))([\w$]+)/g)];
  if (fns.length > 0) return fns[fns.length - 1][1];
  return /^\s*(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*=/.exec(line)?.[1] ?? null;
}

const contentLines = new WeakMap<TraceMap, Map<string, string[]>>();
function originalLine(map: TraceMap, source: string, line: number): string | null {
  let bySource = contentLines.get(map);
  if (!bySource) contentLines.set(map, (bySource = new Map()));
  let lines = bySource.get(source);
  if (!lines) {
    const content = sourceContentFor(map, source);
    if (content === null) return null;
    lines = content.split('\n');
    bySource.set(source, lines);
  }
  return lines[line - 1] ?? null;
}

export class SourceLocator {
  private scripts = new Map<string, Promise<ScriptText>>();
  private fetches = 0;
  private maps = new Map<string, Promise<TraceMap | string>>();
  private idleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly fetcher: Fetcher = defaultFetch) {}

  private touch<K, V>(m: Map<K, V>, k: K, v: V, max: number): void {
    m.delete(k);
    m.set(k, v);
    while (m.size > max) m.delete(m.keys().next().value as K);
  }

  /** `origin`: the requesting frame's (from the port's sender, not from the page). */
  private allowed(url: string, origin: string | null): { ok: boolean; cookies: boolean } {
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, cookies: false };
      return { ok: true, cookies: origin !== null && u.origin === origin };
    } catch {
      return { ok: false, cookies: false };
    }
  }

  /** `fresh`: fetched again, whatever is cached (a hot update rewrote it under the same URL). */
  private script(url: string, inline: string | null, origin: string | null, fresh = false): Promise<ScriptText> {
    const how = this.allowed(url, origin);
    const key = inline === null ? `${how.cookies ? 1 : 0} ${url}` : `${url}\u0000${inline.length}`;
    let p = fresh ? undefined : this.scripts.get(key);
    if (!p) {
      const gen = ++this.fetches;
      p = (async (): Promise<ScriptText> => {
        if (inline !== null) return { text: inline, mapUrl: mapUrlOf(inline, url), error: null, lines: null };
        if (!how.ok) return { text: null, mapUrl: null, error: 'only http(s) scripts are read', lines: null };
        try {
          const r = await this.fetcher(url, how.cookies);
          if (!r.ok) return { text: null, mapUrl: null, error: `the script answered HTTP ${r.status}`, lines: null };
          if (r.text.length > MAX_SCRIPT_BYTES) return { text: null, mapUrl: null, error: `the script is over ${MAX_SCRIPT_BYTES >> 20} MB`, lines: null };
          return { text: r.text, mapUrl: mapUrlOf(r.text, url, r.header('SourceMap') ?? r.header('X-SourceMap')), error: null, lines: null, gen };
        } catch (e) {
          return { text: null, mapUrl: null, error: `the script could not be fetched (${(e as Error).message})`, lines: null };
        }
      })();
    }
    this.touch(this.scripts, key, p, MAX_CACHED_SCRIPTS);
    return p;
  }

  /** `base`: the script's URL, which an inline (data:) map's relative sources are resolved against. */
  private map(url: string, origin: string | null, base: string, gen = 0): Promise<TraceMap | string> {
    const how = this.allowed(url, origin);
    const inline = url.startsWith('data:');
    const key = `${how.cookies ? 1 : 0} ${url.length > 300 ? `${url.slice(0, 200)}…${url.length}` : url}${inline ? ` ${base}` : ` ${gen}`}`;
    let p = this.maps.get(key);
    if (!p) {
      p = (async (): Promise<TraceMap | string> => {
        try {
          let text: string;
          if (url.startsWith('data:')) {
            const comma = url.indexOf(',');
            const body = url.slice(comma + 1);
            text = /;base64/i.test(url.slice(0, comma)) ? atob(body) : decodeURIComponent(body);
            // atob gives Latin-1 bytes: decode them as UTF-8 (names and paths may be non-ASCII).
            if (/;base64/i.test(url.slice(0, comma))) text = new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0)));
          } else {
            if (!how.ok) return 'only http(s) and data: source maps are read';
            const r = await this.fetcher(url, how.cookies);
            if (!r.ok) return `the source map answered HTTP ${r.status}`;
            text = r.text;
          }
          if (text.length > MAX_MAP_BYTES) return `the source map is over ${MAX_MAP_BYTES >> 20} MB: not read`;
          // FlattenMap reads plain maps and indexed (sectioned) ones alike: Turbopack's dev chunks (Next.js) and
          // some bundlers' concatenated outputs write the latter, which TraceMap alone throws on.
          return FlattenMap(text, inline ? base : url);
        } catch (e) {
          return `the source map could not be read (${(e as Error).message.slice(0, 120)})`;
        }
      })();
    }
    this.touch(this.maps, key, p, MAX_CACHED_MAPS);
    return p;
  }

  /**
   * Finds each type's text in the scripts and maps it. The last script given that holds the text wins: the page lists
   * its scripts oldest first, and after a hot update (Vite's `App.tsx?t=…`, a webpack hot-update chunk) the component's
   * new function may have the very text of the old one in an older script (a definition moved down two lines).
   */
  async locate(req: LocateRequest, frameUrl: string | null): Promise<LocatedType[]> {
    this.keepAlive();
    let origin: string | null = null;
    try {
      origin = frameUrl ? new URL(frameUrl).origin : null;
    } catch {
      // No origin: nothing is fetched with cookies.
    }
    const out: LocatedType[] = [];
    const left = new Map(req.types.map((t) => [t.typeId, t]));
    // The script a type's creation stack names, by its text: as cached, then (`stale`: only) fetched again, once per
    // URL in a request — a hot update that keeps a chunk's URL (Turbopack under `next dev`) rewrites the file.
    const refetched = new Set<string>();
    const inStackScript = async (typeId: number, t: LocateRequest['types'][number], stale: boolean): Promise<boolean> => {
      const url = t.hint?.kind === 'stack' ? t.hint.url : null;
      if (url === null || !this.allowed(url, origin).ok) return false;
      for (const again of stale ? [true] : [false, true]) {
        // Fetched again in this request already: the cached copy is that one (tried first unless stale).
        if (again && refetched.has(url) && !stale) break;
        const fresh = again && !refetched.has(url);
        if (fresh) refetched.add(url);
        const st = await this.script(url, null, origin, fresh);
        const at = st.text?.indexOf(t.text) ?? -1;
        if (at >= 0) {
          left.delete(typeId);
          out.push(await this.placed(typeId, t.text, url, st, at, origin));
          return true;
        }
      }
      return false;
    };
    // A hot update's new function first: the text cached (or a definition moved down, whose text is the old one's)
    // would place it where it was.
    for (const [typeId, t] of left) if (t.hot) await inStackScript(typeId, t, true);
    for (let i = req.scripts.length - 1; i >= 0; i--) {
      const s0 = req.scripts[i];
      if (left.size === 0) break;
      const st0 = await this.script(s0.url, s0.inline, origin);
      if (st0.text === null) continue;
      for (const [typeId, t] of left) {
        // In the script as it is, else in one of its eval'd modules (read as a script of its own, with its inline map).
        let s = s0, st = st0;
        let at = st0.text!.indexOf(t.text);
        if (at < 0) {
          st0.evals ??= st0.text!.includes('eval("');
          const mod = st0.evals ? evalModuleHolding(st0.text!, t.text) : null;
          if (mod === null) continue;
          s = { url: mod.url, inline: mod.code };
          st = await this.script(mod.url, mod.code, origin);
          at = st.text?.indexOf(t.text) ?? -1;
          if (at < 0) continue;
        }
        left.delete(typeId);
        out.push(await this.placed(typeId, t.text, s.url, st, at, origin));
      }
    }
    // In no <script> element: the script its creation stack names (a module eval'd with a `sourceURL`).
    for (const [typeId, t] of left) await inStackScript(typeId, t, false);
    for (const [typeId, t] of left) {
      if (t.hint) {
        out.push(await this.fromHint(typeId, t.hint, origin));
        continue;
      }
      out.push({
        typeId, url: null, line: 0, column: 0, state: 'not-found', file: null, fileUrl: null, fileLine: 0, fileColumn: 0,
        originalName: null, why: 'its text is in none of the page\'s scripts (eval, a blob or a worker?)',
      });
    }
    return out;
  }

  /** A type found at `at` in the script `url` (its text `st`): its line and column there, mapped when it names a map. */
  private async placed(typeId: number, fnText: string, url: string, st: ScriptText, at: number, origin: string | null): Promise<LocatedType> {
    const scriptText = st.text!;
    st.lines ??= lineStarts(scriptText);
    const gen = lineColumn(st.lines, at);
    const result: LocatedType = {
      typeId, url, line: gen.line, column: gen.column, state: 'no-map', file: displayFile(url), fileUrl: url,
      fileLine: gen.line, fileColumn: gen.column, originalName: null, why: null,
    };
    if (st.mapUrl !== null) {
      const map = await this.map(st.mapUrl, origin, url, st.gen);
      if (typeof map === 'string') {
        result.state = 'map-error';
        result.why = map;
      } else {
        const exact = originalPositionFor(map, { line: gen.line, column: gen.column });
        const nameAt = nameOffset(scriptText, at, fnText);
        const named = nameAt >= 0 ? originalPositionFor(map, lineColumn(st.lines, nameAt)) : null;
        // Code a compiler wrote around the author's (a Vue SFC's `setup(e){`, its render function: issue 63) has no
        // mapping of its own, at its start or its name: the first mapped code inside the function's text is the author's.
        const inside = exact.source !== null || (named !== null && named.source !== null) ? null
          : firstMapped(map, gen, lineColumn(st.lines, at + fnText.length));
        const pos = inside === null ? exact : originalPositionFor(map, inside);
        const orig = pos.source !== null ? pos : named && named.source !== null ? named : null;
        if (orig && orig.source !== null && orig.line !== null) {
          result.state = 'mapped';
          result.fileUrl = orig.source;
          result.file = displayFile(orig.source);
          result.fileLine = orig.line;
          result.fileColumn = orig.column ?? 0;
          // The map's names entry at the function's name; else the original source's declaration there.
          let name = named?.name ?? null;
          if (name === null && pos.source !== null && pos.line !== null) {
            const text = originalLine(map, pos.source, pos.line);
            if (text !== null) name = declaredName(text, pos.column ?? 0) ?? (pos.column ? null : lineDeclaration(text));
          }
          result.originalName = name;
        } else {
          result.state = 'map-error';
          result.why = 'the source map has no mapping for it';
        }
      }
    }
    return result;
  }

  /**
   * A type whose text is in no script, placed by React's debug information (docs/SOURCES.md): `source` is already the
   * original file; a `stack` frame's position is in a generated script, shown as the frame gives it. Called after
   * `locate` looked for the text in the frame's script: when that script could be read, the code that ran is not its
   * own (Turbopack evaluates a hot update's code under its chunk's URL, with a map only the page saw), so its map would
   * place it wrongly; when it could not (webpack-internal://, an error), there is no map to read.
   */
  private async fromHint(typeId: number, hint: DebugHint, origin: string | null): Promise<LocatedType> {
    const why = 'from React\'s debug information: where its first element is created';
    const result: LocatedType = {
      typeId, url: null, line: 0, column: 0, state: 'react-debug', file: displayFile(hint.url), fileUrl: hint.url,
      fileLine: hint.line, fileColumn: Math.max(0, hint.column - 1), originalName: null, why,
    };
    if (hint.kind !== 'stack' || !this.allowed(hint.url, origin).ok) return result;
    result.url = hint.url;
    result.line = hint.line;
    result.column = result.fileColumn;
    const st = await this.script(hint.url, null, origin);
    if (st.text === null) return result;
    return { ...result, why: `${why}; its code is not in the script its stack names (code evaluated under that script's URL, such as a hot update): the generated line, not mapped` };
  }

  private keepAlive(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.scripts.clear();
      this.maps.clear();
    }, IDLE_DROP_MS);
    // In Node (unit tests, the CLI) the drop must not keep the process alive for IDLE_DROP_MS.
    (this.idleTimer as { unref?: () => void }).unref?.();
  }
}

/**
 * The generated position of the first segment with an original position from `from` up to `to` (lines 1-based,
 * columns 0-based), or null: where a function's own code begins when its first characters were written by a compiler.
 */
function firstMapped(map: TraceMap, from: { line: number; column: number }, to: { line: number; column: number }): { line: number; column: number } | null {
  const lines = decodedMappings(map);
  for (let line = from.line; line <= to.line && line <= lines.length; line++) {
    const segs = lines[line - 1];
    let lo = 0;
    if (line === from.line) {
      // The first segment at or after the start column (they are sorted by column).
      let hi = segs.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (segs[mid][0] < from.column) lo = mid + 1;
        else hi = mid;
      }
    }
    for (let i = lo; i < segs.length; i++) {
      const seg = segs[i];
      if (line === to.line && seg[0] >= to.column) return null;
      if (seg.length >= 4) return { line, column: seg[0] };
    }
  }
  return null;
}
