import { NO_VITALS } from '../../src/protocol/vitals';
/** A panel feed's source for unit tests: a real store, a React page that is on, no overlay, `send` as given. */
import type { FeedSource } from '../../src/content/agent/panel-feed';
import { RollupStore } from '../../src/content/agent/store';
import type { PageStatus } from '../../src/protocol';

export type TestFeedSource = FeedSource & { pageStatus: PageStatus; mode: FeedSource['mode'] };

export function fakeFeedSource(send: (type: string, payload: unknown) => void, store = new RollupStore(() => 0),
  sourcesVersion: () => number = () => 0): TestFeedSource {
  return {
    store,
    mode: 'components',
    pageStatus: { renderers: 1, roots: 1, agent: true, minified: false, degraded: [], timerResolutionMs: 0.1, url: 'http://a.test/' },
    send: send as FeedSource['send'],
    overlayView: () => ({ pinned: null, hovered: null, drawnCount: 0, hiddenCount: 0, capped: false }),
    chainOf: (id: number) => [id],
    droppedMessages: () => 0,
    selfCost: () => null,
    strip: () => [],
    sources: () => null,
    sourcesVersion,
    ownNamesMinified: () => null,
    vitals: () => NO_VITALS,
  };
}
