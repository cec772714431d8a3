/**
 * Frame picker logic: React may run in several frames of the inspected tab
 * (status and table carry the router-filled frameId). The panel shows one
 * frame at a time; this decides which, without fighting the user's choice.
 */
import type { Status } from '../protocol';
import { capText } from './text';

export const TOP_FRAME_ID = 0;

/**
 * Keeps the user's choice while that frame lives; otherwise prefers the top
 * frame when it runs React, then the first frame that does, then the top.
 */
export function chooseFrame(frames: ReadonlyMap<number, Status>, current: number | null, userChosen: boolean): number | null {
  if (current !== null && userChosen && frames.has(current)) return current;
  const top = frames.get(TOP_FRAME_ID);
  if (top && top.renderers > 0) return TOP_FRAME_ID;
  const ids = [...frames.keys()].sort((a, b) => a - b);
  for (const id of ids) if ((frames.get(id) as Status).renderers > 0) return id;
  if (current !== null && frames.has(current)) return current;
  return frames.has(TOP_FRAME_ID) ? TOP_FRAME_ID : ids[0] ?? null;
}

/** Frames listed in the picker: the top frame and every frame that runs React. */
export function pickerFrames(frames: ReadonlyMap<number, Status>): number[] {
  return [...frames.entries()]
    .filter(([id, s]) => id === TOP_FRAME_ID || s.renderers > 0)
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

/** "top — host/path (3 roots)"; the URL is page-supplied, so capped. */
export function frameLabel(id: number, s: Status): string {
  let where = s.url;
  try {
    const u = new URL(s.url);
    if (u.host) where = u.host + u.pathname;
  } catch {
    // about:blank, srcdoc and the like: show the raw (capped) string.
  }
  const react = s.renderers > 0 ? `${s.roots} root${s.roots === 1 ? '' : 's'}` : 'no React';
  return capText(`${id === TOP_FRAME_ID ? 'top' : `frame ${id}`} — ${where} (${react})`, 80);
}
