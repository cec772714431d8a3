/**
 * The panel feed's status rate (issue 11): a page that forges thousands of
 * status changes makes at most one status line per STATUS_INTERVAL_MS (the
 * latest), while the user's own actions (mode, pin) still go out at once.
 */
import { expect } from 'chai';
import { PanelFeed, STATUS_INTERVAL_MS } from '../../src/content/agent/panel-feed';
import { fakeFeedSource, type TestFeedSource } from './feed-source';

function source(sent: { type: string; payload: any }[]): TestFeedSource {
  return fakeFeedSource((type, payload) => { sent.push({ type, payload }); });
}

describe('panel feed: status rate', () => {
  it('5 000 changing statuses from the page: one line at once, the latest one after the interval', async () => {
    const sent: { type: string; payload: any }[] = [];
    const src = source(sent);
    const feed = new PanelFeed(src);
    feed.setConnected(true);
    const statuses = () => sent.filter((m) => m.type === 'status');
    const first = statuses().length;
    for (let i = 0; i < 5000; i++) {
      src.pageStatus = { ...src.pageStatus, roots: i + 2 };
      feed.statusChanged();
    }
    expect(statuses().length - first).to.be.at.most(1);
    const deadline = Date.now() + STATUS_INTERVAL_MS * 4;
    while (statuses().at(-1)?.payload.roots !== 5001 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(statuses().at(-1)?.payload.roots).to.equal(5001);
    expect(statuses().length - first).to.be.at.most(2);
  });

  it('the user\'s own action goes out at once, inside the interval', () => {
    const sent: { type: string; payload: any }[] = [];
    const src = source(sent);
    const feed = new PanelFeed(src);
    feed.setConnected(true);
    const n = sent.filter((m) => m.type === 'status').length;
    (src as { mode: string }).mode = 'heatmap';
    feed.statusChanged(true);
    const last = sent.filter((m) => m.type === 'status');
    expect(last.length).to.equal(n + 1);
    expect(last.at(-1)?.payload.mode).to.equal('heatmap');
  });
});
