/**
 * The agent: injected into the MAIN world by the extension when the overlay
 * is first enabled in a frame (never at document_start), so a page where
 * the overlay stays off pays only for the tiny hook. It finds the hook's
 * state, then follows the content script's config: mode off stops
 * everything, any other mode runs the pipeline.
 */
import type { ContentToPage } from '../protocol';
import { getInternal, type Internal } from './internal';
import { Pipeline } from './pipeline/pipeline';
import { ReactAdapter } from './react/adapter';

function main(internal: Internal): void {
  const win = window as Window & typeof globalThis;
  const pipeline = new Pipeline(internal, win, () => (internal.hook.renderers.size > 0 ? new ReactAdapter(internal.hook) : null));

  const postStatus = (): void => internal.post('status', internal.status());

  const apply = (cfg: ContentToPage['config']): void => {
    if (cfg.mode === 'off') pipeline.stop();
    else {
      pipeline.start();
      pipeline.configure(cfg);
    }
    postStatus();
  };

  internal.nodeOf = (id) => pipeline.nodeOf(id);
  internal.agentStats = () => pipeline.stats();
  internal.agent = (type, payload) => {
    try {
      if (type === 'config') apply(payload as ContentToPage['config']);
      else if (type === 'resync') pipeline.resync();
      else if (type === 'hitTest') {
        const p = payload as ContentToPage['hitTest'];
        internal.post('hit', { seq: p.seq, id: pipeline.isRunning ? pipeline.hitTest(p.x, p.y) : null });
      }
    } catch (e) {
      internal.debug('agent error', e);
    }
  };

  // A renderer that registers after enable (lazy-loaded React): attach then.
  const announce = internal.hook.onRenderer;
  internal.hook.onRenderer = () => {
    announce?.();
    pipeline.attachAdapter();
  };
  apply(internal.config);
}

const internal = getInternal();
if (internal && internal.agent === null) {
  try {
    main(internal);
  } catch (e) {
    internal.debug('agent failed to start', e);
  }
}
