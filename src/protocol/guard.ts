/**
 * The guard every receiver runs once at its boundary, and the envelope.
 * Kept apart from messages.ts so that the document_start script can check
 * the few message types it receives without loading the whole protocol.
 */
import { PROTOCOL_VERSION, type SourceName } from './constants';
import { INVALID, type Validator } from './validate';

export interface Parsed {
  source: SourceName;
  v: typeof PROTOCOL_VERSION;
  type: string;
  payload: unknown;
}

/**
 * Wraps a payload. Senders go through typed `send` helpers keyed by their
 * direction's map (e.g. `send<T extends keyof ContentToPage>`), so the
 * envelope itself stays untyped.
 */
export function envelope(source: SourceName, type: string, payload: unknown): Parsed {
  return { source, v: PROTOCOL_VERSION, type, payload };
}

/**
 * Returns the message with its payload validated by `table[type]`, or null
 * for anything malformed, from another source, of another version or of a
 * type not in the table. Never throws.
 */
export function parseWith(raw: unknown, source: SourceName, table: Record<string, Validator<unknown>>): Parsed | null {
  try {
    if (typeof raw !== 'object' || raw === null) return null;
    const m = raw as { source?: unknown; v?: unknown; type?: unknown; payload?: unknown };
    if (m.source !== source || m.v !== PROTOCOL_VERSION || typeof m.type !== 'string') return null;
    if (!Object.prototype.hasOwnProperty.call(table, m.type)) return null;
    const payload = table[m.type](m.payload);
    if (payload === INVALID) return null;
    return { source, v: PROTOCOL_VERSION, type: m.type, payload };
  } catch {
    // A hostile getter or proxy: treat as malformed (the caller counts the drop).
    return null;
  }
}
