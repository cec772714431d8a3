/**
 * Recording in the panel (issue 13): Record / Stop, Save and Open, and the
 * frame strip over the table, one bar per frame (style, layout and forced
 * stacked). Live, the strip shows the page's last frames as they come; click
 * one (or press ← on the strip) to pause on it: the page hands over its last
 * frames and the table shows that frame's, until "Back to live". While a
 * recording is shown, the strip has one bar per recorded frame: click a bar
 * (or use ←/→) to see that frame's table; "All frames" shows the whole
 * recording. A recording opened from a file needs no page. Data from a file or
 * the page is checked by `recordingValidator` before anything shows it.
 */
import type { StripBar } from '../protocol';
import { recordingValidator, type Recording } from '../protocol/recording';
import { INVALID } from '../protocol/validate';
import { el, setText } from './dom';
import { barWidth, recordingSummary, stripBars } from './recording-model';
import { download, fileName } from './snapshot-export';

export interface RecordingCallbacks {
  /** Start (true) or stop (false) recording in the shown frame; false when not connected. */
  record(on: boolean): boolean;
  /** Pause on live frame `frame`: ask the page for its last frames; false when not connected. */
  pause(frame: number): boolean;
  /** The recording to show changed (null: back to live), or its selected frame. */
  changed(): void;
  flash(ok: boolean, message: string): void;
}

const STRIP_H = 48;

export class RecordingView {
  readonly toolbarItems: HTMLElement;
  readonly root: HTMLElement;
  recording: Recording | null = null;
  /** The selected frame (index into recording.frames), null for all frames. */
  selected: number | null = null;
  /** The shown recording is the live strip's frames, paused on (not a recording the user made). */
  paused = false;
  recordingNow = false;
  /** The live strip's bars, shown while no recording is. */
  private live: StripBar[] = [];
  /** An interaction opened in the Vitals tab: its frames (by time, performance.now() ms) are marked on the strip. */
  private marked: { from: number; to: number } | null = null;
  private readonly recordBtn: HTMLButtonElement;
  private readonly openInput: HTMLInputElement;
  private readonly titleEl = el('strong', {}, 'Recording');
  private readonly summaryEl = el('span', { class: 'rec-summary' });
  private readonly frameEl = el('span', { class: 'rec-frame' });
  private readonly allBtn = el('button', { id: 'rec-all', on: { click: () => this.select(null) } }, 'All frames');
  private readonly saveBtn = el('button', { id: 'rec-save', on: { click: () => this.save() } }, 'Save JSON');
  private readonly closeBtn = el('button', { id: 'rec-close', on: { click: () => this.show(null) } }, 'Back to live');
  private readonly canvas = el('canvas', { class: 'rec-strip', attrs: { tabindex: '0', role: 'slider' } });

  constructor(private readonly cb: RecordingCallbacks) {
    this.recordBtn = el('button', {
      id: 'record', attrs: { 'aria-pressed': 'false', title: 'Record every measured frame until you stop (also __LAYOUT_COST__.startRecording())' },
      on: { click: () => this.toggleRecording() },
    }, '● Record');
    this.openInput = el('input', {
      id: 'open-recording', class: 'visually-hidden', attrs: { type: 'file', accept: 'application/json,.json', 'aria-label': 'Open a recording' },
      on: { change: () => void this.openFile() },
    });
    const openBtn = el('button', { id: 'open', attrs: { title: 'Open a recording saved earlier (no page needed)' }, on: { click: () => this.openInput.click() } }, 'Open…');
    this.toolbarItems = el('span', { class: 'rec-tools' }, this.recordBtn, openBtn, this.openInput);
    this.canvas.addEventListener('click', (e) => this.pick(e));
    this.canvas.addEventListener('keydown', (e) => this.key(e));
    this.root = el('section', { id: 'recording', class: 'recording', attrs: { 'aria-label': 'Frames' } },
      el('div', { class: 'rec-head' }, this.titleEl, this.summaryEl, this.frameEl, this.allBtn, this.saveBtn, this.closeBtn),
      this.canvas);
    this.root.hidden = true;
  }

  /**
   * A recording from the page (Stop) or a file, checked here; null goes back to live. `pausedOn`: it is the live
   * strip's frames, paused on that frame number.
   */
  show(raw: unknown, pausedOn: number | null = null): boolean {
    if (raw === null) {
      this.recording = null;
      this.paused = false;
      this.selected = null;
    } else {
      const r = recordingValidator(raw);
      if (r === INVALID) {
        this.cb.flash(false, 'Not a Layout Cost recording (or of a newer version)');
        return false;
      }
      this.recording = r;
      this.paused = pausedOn !== null;
      const at = pausedOn === null ? -1 : r.frames.findIndex((f) => f.frame === pausedOn);
      // The picked frame may have left the page's ring meanwhile: then its newest one.
      this.selected = pausedOn === null ? null : at >= 0 ? at : r.frames.length > 0 ? r.frames.length - 1 : null;
    }
    this.update();
    this.cb.changed();
    return true;
  }

  /** The live strip's bars (from the table update); drawn while no recording is shown. */
  setLive(bars: StripBar[]): void {
    if (bars === this.live) return;
    this.live = bars;
    if (this.recording === null) this.update();
  }

  /** Marks the frames measured in [from, to] (an interaction's input to its paint), or none. */
  mark(window: { from: number; to: number } | null): void {
    this.marked = window;
    this.update();
  }

  /** How many bars the strip marks now (tests). */
  markedBars = 0;

  setRecordingNow(on: boolean): void {
    this.recordingNow = on;
    this.recordBtn.setAttribute('aria-pressed', String(on));
    setText(this.recordBtn, on ? '■ Stop' : '● Record');
  }

  private toggleRecording(): void {
    const on = !this.recordingNow;
    if (!this.cb.record(on)) {
      this.cb.flash(false, 'Not connected to the page');
      return;
    }
    this.setRecordingNow(on);
  }

  private async openFile(): Promise<void> {
    const file = this.openInput.files?.[0];
    this.openInput.value = '';
    if (!file) return;
    if (file.size > 200 * 1024 * 1024) {
      this.cb.flash(false, 'That file is over 200 MB: not a recording of ours');
      return;
    }
    try {
      if (this.show(JSON.parse(await file.text()))) this.cb.flash(true, `Opened ${file.name}`);
    } catch {
      this.cb.flash(false, `${file.name} is not JSON`);
    }
  }

  private save(): void {
    const r = this.recording;
    if (!r) return;
    const name = fileName(r.url, new Date(r.startedAt)).replace('layout-cost-', 'layout-cost-recording-');
    download(JSON.stringify(r), name);
    this.cb.flash(true, `Saved ${name}`);
  }

  select(index: number | null): void {
    const r = this.recording;
    if (!r) return;
    this.selected = index === null ? null : Math.max(0, Math.min(r.frames.length - 1, index));
    this.update();
    this.cb.changed();
  }

  /** Pause on live bar `index` (oldest first). */
  pauseAt(index: number): void {
    const bar = this.live[Math.max(0, Math.min(this.live.length - 1, index))];
    if (!bar) return;
    if (!this.cb.pause(bar[0])) this.cb.flash(false, 'Not connected to the page');
  }

  private pick(e: MouseEvent): void {
    const n = this.recording ? this.recording.frames.length : this.live.length;
    if (n === 0) return;
    const rect = this.canvas.getBoundingClientRect();
    const i = Math.floor((e.clientX - rect.left) / barWidth(n, rect.width));
    if (i < 0 || i >= n) return;
    if (this.recording) this.select(i);
    else this.pauseAt(i);
  }

  private key(e: KeyboardEvent): void {
    const r = this.recording;
    if (!r) {
      if (e.key !== 'ArrowLeft' && e.key !== 'End') return;
      this.pauseAt(this.live.length - 1);
      e.preventDefault();
      return;
    }
    const cur = this.selected ?? -1;
    if (e.key === 'ArrowRight') this.select(cur + 1);
    else if (e.key === 'ArrowLeft') this.select(cur < 0 ? r.frames.length - 1 : cur - 1);
    else if (e.key === 'Home') this.select(0);
    else if (e.key === 'End') this.select(r.frames.length - 1);
    else if (e.key === 'Escape') {
      if (this.paused) this.show(null);
      else this.select(null);
    } else return;
    e.preventDefault();
  }

  update(): void {
    const r = this.recording;
    this.root.hidden = r === null && this.live.length === 0;
    this.root.classList.toggle('live', r === null);
    this.allBtn.hidden = r === null;
    this.saveBtn.hidden = r === null;
    this.closeBtn.hidden = r === null;
    if (r === null) {
      const n = this.live.length;
      const last = this.live[n - 1];
      setText(this.titleEl, 'Live');
      setText(this.summaryEl, `the last ${n} frame${n === 1 ? '' : 's'}: click one to pause on its table`);
      setText(this.frameEl, last ? `frame ${last[0]}: ${(last[1] + last[2] + last[3]).toFixed(2)} ms` : '');
      this.canvas.setAttribute('aria-label', 'Live frames: click one, or press ←, to pause on it');
      this.canvas.setAttribute('aria-valuetext', 'live');
      this.draw(this.live.map((b) => [b[1], b[2], b[3]]), null, this.live.map((b) => b[4] ?? -1));
      return;
    }
    setText(this.titleEl, this.paused ? 'Paused' : 'Recording');
    setText(this.summaryEl, this.paused
      ? `on the page's last ${r.frames.length} frames (ms only; "Back to live" resumes)` : recordingSummary(r));
    const f = this.selected === null ? null : r.frames[this.selected];
    setText(this.frameEl, f ? `Frame ${f.frame}: style ${f.styleMs.toFixed(2)} + layout ${f.layoutMs.toFixed(2)} + forced `
      + `${f.forcedMs.toFixed(2)} ms` : 'All frames: mean per frame');
    this.canvas.setAttribute('aria-label', 'Recorded frames: click or use the arrow keys to pick one');
    this.canvas.setAttribute('aria-valuetext', f ? `frame ${f.frame}` : 'all frames');
    this.draw(stripBars(r), this.selected, r.frames.map((x) => x.time));
  }

  private draw(bars: [number, number, number][], selected: number | null, times: number[]): void {
    const m = this.marked;
    const marked = m === null ? [] : times.flatMap((t, i) => (t >= m.from && t <= m.to ? [i] : []));
    this.markedBars = marked.length;
    this.canvas.dataset.marked = marked.join(',');
    if (this.root.hidden) return;
    const cssW = Math.max(this.canvas.clientWidth, 100);
    const H = this.canvas.clientHeight || STRIP_H;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(cssW * dpr);
    this.canvas.height = Math.round(H * dpr);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, H);
    const style = getComputedStyle(this.root);
    const colors = ['--lvl-0', '--lvl-2', '--lvl-3'].map((v) => style.getPropertyValue(v).trim() || '#888');
    let max = 1;
    for (const b of bars) max = Math.max(max, b[0] + b[1] + b[2]);
    const w = barWidth(bars.length, cssW);
    bars.forEach((b, i) => {
      let y = H;
      b.forEach((v, k) => {
        const h = (v / max) * (H - 2);
        ctx.fillStyle = colors[k];
        ctx.fillRect(i * w, y - h, Math.max(1, w - (w > 3 ? 1 : 0)), h);
        y -= h;
      });
    });
    if (marked.length > 0) {
      // An opened interaction's frames: a band under the strip's top edge across them.
      ctx.fillStyle = style.getPropertyValue('--mark').trim() || 'rgb(124,58,237)';
      for (const i of marked) ctx.fillRect(i * w, 0, Math.max(1, w - (w > 3 ? 1 : 0)), 3);
    }
    if (selected !== null) {
      ctx.strokeStyle = style.getPropertyValue('--focus').trim() || '#1a73e8';
      ctx.lineWidth = 2;
      ctx.strokeRect(selected * w + 1, 1, Math.max(2, w - 1), H - 2);
    }
  }
}
