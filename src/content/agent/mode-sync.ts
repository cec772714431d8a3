/**
 * Which of the worker's word on the tab's mode a frame takes, after the frame switched it itself (the page's API).
 *
 * A frame tells the worker of its own switch (`setMode`), and the worker answers every frame with the tab's mode (a
 * broadcast, or an echo when it had it already). What the worker said before that switch reached it may arrive after
 * the switch all the same: the answer to the frame's hello (it waits for the worker's restored state, and comes on
 * another channel than the port), or the port's hello reply. Taken, it turned the overlay off and on again a moment
 * after the page enabled it, and every component came back under a new id (a snapshot taken in between named ids no
 * recording would hold: Firefox beside a CPU hog). So from a switch of its own until the worker says that same mode,
 * the frame leaves other modes the worker names alone — for a few seconds at most: a switch the worker never heard of
 * (its port was down) does not deafen the frame.
 */
import type { Mode } from '../../protocol';

/** How long a switch of the frame's own waits for the worker to say it back. */
export const OWN_SWITCH_MS = 3000;

export class ModeSync {
  private sent: Mode | null = null;
  private sentAt = -Infinity;

  /** The frame switched to `mode` itself and told the worker, at `now` (ms). */
  switched(mode: Mode, now: number): void {
    this.sent = mode;
    this.sentAt = now;
  }

  /** Whether the worker's `mode`, heard at `now`, is to be taken (false: said before the frame's own switch reached it). */
  take(mode: Mode, now: number): boolean {
    if (this.sent === null) return true;
    if (mode === this.sent || now - this.sentAt > OWN_SWITCH_MS) {
      this.sent = null;
      return true;
    }
    return false;
  }
}
