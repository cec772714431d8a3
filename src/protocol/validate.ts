/**
 * Tiny shape validators: each returns the value (possibly normalised) or
 * INVALID. They never throw on ordinary data and never trust prototypes: data
 * from the page may be a hostile object (callers still wrap in try/catch for
 * proxies).
 */
export const INVALID: unique symbol = Symbol('invalid');
export type Validator<T> = (v: unknown) => T | typeof INVALID;

export const num = (min: number, max: number): Validator<number> => (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : INVALID;

export const str = (maxLength: number): Validator<string> => (v) =>
  typeof v === 'string' && v.length <= maxLength ? v : INVALID;

export const bool: Validator<boolean> = (v) => (typeof v === 'boolean' ? v : INVALID);

export const oneOf = <T extends string>(values: readonly T[]): Validator<T> => (v) =>
  typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : INVALID;

export const nullable = <T>(inner: Validator<T>): Validator<T | null> => (v) => (v === null ? null : inner(v));

export const arrayOf = <T>(inner: Validator<T>, maxLength: number): Validator<T[]> => (v) => {
  if (!Array.isArray(v) || v.length > maxLength) return INVALID;
  const out: T[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = inner(v[i]);
    if (x === INVALID) return INVALID;
    out[i] = x;
  }
  return out;
};

/** Like arrayOf, but an invalid item is left out rather than failing the whole array (one bad row must not take a table). */
export const validItemsOf = <T>(inner: Validator<T>, maxLength: number): Validator<T[]> => (v) => {
  if (!Array.isArray(v) || v.length > maxLength) return INVALID;
  const out: T[] = [];
  for (let i = 0; i < v.length; i++) {
    const x = inner(v[i]);
    if (x !== INVALID) out.push(x);
  }
  return out;
};

export const numArray = (maxLength: number, min: number, max: number): Validator<number[]> =>
  arrayOf(num(min, max), maxLength);

type Shape = Record<string, Validator<unknown>>;
type Out<S extends Shape> = { [K in keyof S]: Exclude<ReturnType<S[K]>, typeof INVALID> };

/** An object with the listed fields; extra fields are ignored and not copied. */
export const isRecord = <S extends Shape>(shape: S): Validator<Out<S>> => (v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return INVALID;
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(shape)) {
    const x = shape[k](Object.prototype.hasOwnProperty.call(src, k) ? src[k] : undefined);
    if (x === INVALID) return INVALID;
    out[k] = x;
  }
  return out as Out<S>;
};

/** Any structured-clone value except undefined (opaque JSON results). */
export const anyValue: Validator<unknown> = (v) => (v === undefined ? INVALID : v);
