/**
 * Recording in the panel (issue 13): Record / Stop, Save and Open, and, while
 * a recording is shown, a strip with one bar per recorded frame (style,
 * layout and forced stacked) over the table. Click a bar (or use ←/→ on the
 * strip) to see that frame's table; "All frames" shows the whole recording.
 * A recording opened from a file needs no page. Data from a file or the page
 * is checked by `recordingValidator` before anything shows it.
 */
import { recordingValidator, type Recording } from '../protocol/recording';
import { INVALID } from '../protocol/validate';
import { el, setText } from './dom';
import { recordingSummary, stripBars } from './recording-model';
import { download, fileName } from './snapshot-export';

export interface RecordingCallbacks {
  /** Start (true) or stop (false) recording in the shown frame; false when not connected. */
  record(on: boolean): boolean;
  /** The recording to show changed (null: back to live), or its selected frame. */
  changed(): void;
  flash(ok: boolean, message: string): void;
}

const BAR_W = 4;
const STRIP_H = 48;

export class RecordingView {
  readonly toolbarItems: HTMLElement;
  readonly root: HTMLElement;
  recording: Recording | null = null;
  /** The selected frame (index into recording.frames), null for all frames. */
  selected: number | null = null;
  recordingNow = false;
  private readonly recordBtn: HTMLButtonElement;
  private readonly openInput: HTMLInputElement;
  private readonly summaryEl = el('span', { class: 'rec-summary' });
  private readonly frameEl = el('span', { class: 'rec-frame' });
  private readonly canvas = el('canvas', {
    class: 'rec-strip', attrs: { tabindex: '0', role: 'slider', 'aria-label': 'Recorded frames: click or use the arrow keys to pick one' },
  });

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
    this.root = el('section', { id: 'recording', class: 'recording', attrs: { 'aria-label': 'Recording' } },
      el('div', { class: 'rec-head' },
        el('strong', {}, 'Recording'), this.summaryEl, this.frameEl,
        el('button', { id: 'rec-all', on: { click: () => this.select(null) } }, 'All frames'),
        el('button', { id: 'rec-save', on: { click: () => this.save() } }, 'Save JSON'),
        el('button', { id: 'rec-close', on: { click: () => this.show(null) } }, 'Back to live')),
      this.canvas);
    this.root.hidden = true;
  }

  /** A recording from the page (Stop) or a file, checked here; null goes back to live. */
  show(raw: unknown): boolean {
    if (raw === null) {
      this.recording = null;
    } else {
      const r = recordingValidator(raw);
      if (r === INVALID) {
        this.cb.flash(false, 'Not a Layout Cost recording (or of a newer version)');
        return false;
      }
      this.recording = r;
    }
    this.selected = null;
    this.root.hidden = this.recording === null;
    this.update();
    this.cb.changed();
    return true;
  }

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

  private pick(e: MouseEvent): void {
    const r = this.recording;
    if (!r || r.frames.length === 0) return;
    const rect = this.canvas.getBoundingClientRect();
    const w = Math.max(rect.width / r.frames.length, 1);
    this.select(Math.floor((e.clientX - rect.left) / w));
  }

  private key(e: KeyboardEvent): void {
    const r = this.recording;
    if (!r) return;
    const cur = this.selected ?? -1;
    if (e.key === 'ArrowRight') this.select(cur + 1);
    else if (e.key === 'ArrowLeft') this.select(cur < 0 ? r.frames.length - 1 : cur - 1);
    else if (e.key === 'Home') this.select(0);
    else if (e.key === 'End') this.select(r.frames.length - 1);
    else if (e.key === 'Escape') this.select(null);
    else return;
    e.preventDefault();
  }

  update(): void {
    const r = this.recording;
    if (!r) return;
    setText(this.summaryEl, recordingSummary(r));
    const f = this.selected === null ? null : r.frames[this.selected];
    setText(this.frameEl, f ? `Frame ${f.frame}: style ${f.styleMs.toFixed(2)} + layout ${f.layoutMs.toFixed(2)} + forced `
      + `${f.forcedMs.toFixed(2)} ms` : 'All frames: mean per frame');
    this.canvas.setAttribute('aria-valuetext', f ? `frame ${f.frame}` : 'all frames');
    this.draw();
  }

  private draw(): void {
    const r = this.recording;
    if (!r) return;
    const bars = stripBars(r);
    const cssW = Math.max(this.canvas.clientWidth, 100);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(cssW * dpr);
    this.canvas.height = Math.round(STRIP_H * dpr);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, STRIP_H);
    const style = getComputedStyle(this.root);
    const colors = ['--lvl-0', '--lvl-2', '--lvl-3'].map((v) => style.getPropertyValue(v).trim() || '#888');
    const max = Math.max(1, ...bars.map((b) => b[0] + b[1] + b[2]));
    const w = Math.min(BAR_W * 2, cssW / Math.max(1, bars.length));
    bars.forEach((b, i) => {
      let y = STRIP_H;
      b.forEach((v, k) => {
        const h = (v / max) * (STRIP_H - 2);
        ctx.fillStyle = colors[k];
        ctx.fillRect(i * w, y - h, Math.max(1, w - (w > 3 ? 1 : 0)), h);
        y -= h;
      });
    });
    if (this.selected !== null) {
      ctx.strokeStyle = style.getPropertyValue('--focus').trim() || '#1a73e8';
      ctx.lineWidth = 2;
      ctx.strokeRect(this.selected * w + 1, 1, Math.max(2, w - 1), STRIP_H - 2);
    }
  }
}
