/**
 * Why measurement is degraded on this page, as the agent found it: shown in
 * `state().degraded` and the panel's status. Cleared when the overlay starts
 * again; bounded, each reason once.
 */
const MAX_REASONS = 16;

export class Reasons {
  private readonly list: string[] = [];

  add(reason: string): void {
    if (this.list.length >= MAX_REASONS || this.list.includes(reason)) return;
    this.list.push(reason.slice(0, 300));
  }

  clear(): void {
    this.list.length = 0;
  }

  get all(): readonly string[] {
    return this.list;
  }
}
