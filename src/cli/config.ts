/**
 * `layout-cost audit --config FILE` (issue 47; docs/CI.md, "Every route"): the routes a team audits, each with its
 * steps, budget and watch time; which of them a shard takes; their folder names. Pure (the file's text and its
 * directory in, routes out), so it is unit-tested; main.ts reads the files.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

/** A config that cannot be used: one line naming the field (exit 2). */
export class ConfigError extends Error {}

export interface RouteConfig {
  name: string;
  /** A folder name made from the name: safe on every file system. */
  dir: string;
  url: string;
  /** Absolute path of the steps module, or null (watch `seconds`). */
  steps: string | null;
  /** The budget as JSON (the top-level one with the route's merged over it, component key by component key), or null. */
  budget: Record<string, unknown> | null;
  seconds: number;
  /** A digest of everything above but the folder: `merge` refuses one route audited two different ways. */
  hash: string;
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A route name as a folder: letters, digits, `.`, `_`, `-`; anything else becomes `_`; never `.` or `..`. */
export function safeDir(name: string): string {
  let s = name.normalize('NFKC').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|_+$/g, '').slice(0, 80);
  if (s === '' || /^\.+$/.test(s)) s = 'route';
  return s;
}

/** A budget given inline or as a path relative to the config file (`read` gives a file's JSON). */
function budgetOf(where: string, v: unknown, baseDir: string, read: (file: string) => unknown): Record<string, unknown> | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') {
    const file = path.resolve(baseDir, v);
    let got: unknown;
    try {
      got = read(file);
    } catch (e) {
      throw new ConfigError(`${where}: cannot read ${file}: ${(e as Error).message.split('\n')[0]}`);
    }
    if (!isObject(got)) throw new ConfigError(`${where}: ${file} is not a JSON object`);
    return got;
  }
  if (!isObject(v)) throw new ConfigError(`${where} must be a path or an object, not ${show(v)}`);
  return v;
}

/** The route's budget over the top-level one: `defaults` and `page` field by field, `components` key by key. */
export function mergeBudgets(top: Record<string, unknown> | null, route: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!top) return route;
  if (!route) return top;
  const out: Record<string, unknown> = { ...top, ...route };
  for (const k of ['defaults', 'components', 'page']) {
    const a = top[k], b = route[k];
    if (isObject(a) && isObject(b)) out[k] = { ...a, ...b };
  }
  return out;
}

export interface ParsedConfig {
  routes: RouteConfig[];
}

/**
 * Parses the config's JSON (`text`, from the file at `file`): `{ routes: [{ name, url, steps?, budget?, seconds? }],
 * budget? }`. `read` reads a budget file's JSON. Throws ConfigError naming the field.
 */
export function parseConfig(text: string, file: string, read: (file: string) => unknown, defaultSeconds: number): ParsedConfig {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file}: not JSON: ${(e as Error).message}`);
  }
  if (!isObject(v)) throw new ConfigError(`${file}: the config must be an object`);
  for (const k of Object.keys(v)) {
    if (!['routes', 'budget', '$schema', 'description'].includes(k)) throw new ConfigError(`${file}: ${show(k)} is not a config field (routes, budget)`);
  }
  const baseDir = path.dirname(path.resolve(file));
  const top = budgetOf('budget', v.budget, baseDir, read);
  if (!Array.isArray(v.routes) || v.routes.length === 0) throw new ConfigError(`${file}: routes must be a non-empty array`);
  const names = new Set<string>();
  const dirs = new Map<string, string>();
  const routes: RouteConfig[] = [];
  v.routes.forEach((r: unknown, i: number) => {
    const where = `routes[${i}]`;
    if (!isObject(r)) throw new ConfigError(`${where} must be an object, not ${show(r)}`);
    for (const k of Object.keys(r)) {
      if (!['name', 'url', 'steps', 'budget', 'seconds'].includes(k)) throw new ConfigError(`${where}.${k} is not a route field (name, url, steps, budget, seconds)`);
    }
    if (typeof r.name !== 'string' || r.name.trim() === '' || r.name.length > 200) throw new ConfigError(`${where}.name must be a non-empty string, not ${show(r.name)}`);
    if (names.has(r.name)) throw new ConfigError(`${where}.name: ${show(r.name)} is used twice (route names are unique)`);
    names.add(r.name);
    const dir = safeDir(r.name);
    const other = dirs.get(dir.toLowerCase());
    if (other !== undefined) throw new ConfigError(`${where}.name: ${show(r.name)} and ${show(other)} make the same folder name ${show(dir)}`);
    dirs.set(dir.toLowerCase(), r.name);
    if (typeof r.url !== 'string') throw new ConfigError(`${where}.url must be a URL, not ${show(r.url)}`);
    let url: URL;
    try {
      url = new URL(r.url);
    } catch {
      throw new ConfigError(`${where}.url: ${show(r.url)} is not a URL`);
    }
    if (!['http:', 'https:', 'file:'].includes(url.protocol)) throw new ConfigError(`${where}.url: ${url.protocol} URLs are not supported (http, https, file)`);
    if (r.steps !== undefined && typeof r.steps !== 'string') throw new ConfigError(`${where}.steps must be a path, not ${show(r.steps)}`);
    let seconds = defaultSeconds;
    if (r.seconds !== undefined) {
      if (typeof r.seconds !== 'number' || !Number.isFinite(r.seconds) || r.seconds <= 0 || r.seconds > 3600) {
        throw new ConfigError(`${where}.seconds must be a number of seconds (0‥3600], not ${show(r.seconds)}`);
      }
      seconds = r.seconds;
    }
    const steps = typeof r.steps === 'string' ? path.resolve(baseDir, r.steps) : null;
    const budget = mergeBudgets(top, budgetOf(`${where}.budget`, r.budget, baseDir, read));
    const hash = createHash('sha256').update(JSON.stringify([r.name, url.href, steps, budget, seconds])).digest('hex').slice(0, 16);
    routes.push({ name: r.name, dir, url: url.href, steps, budget, seconds, hash });
  });
  return { routes };
}

/** `--shard I/N` (1-based): { index: I − 1, count: N }. */
export function parseShard(v: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(v.trim());
  const i = m ? Number(m[1]) : NaN, n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || i < 1 || i > n || n > 1000) throw new ConfigError(`--shard must be I/N with 1 ≤ I ≤ N, not ${show(v)}`);
  return { index: i - 1, count: n };
}

/** The routes a shard audits: those whose 0-based position k in the file has k mod N = I − 1. */
export function shardRoutes<T>(routes: readonly T[], shard: { index: number; count: number } | null): T[] {
  return shard === null ? [...routes] : routes.filter((_, k) => k % shard.count === shard.index);
}
