/** Sampled forced-reflow stacks (src/inject/agent/timing/stacks.ts): trimming and sampling. */
import { expect } from 'chai';
import { firstFrameUrl, MAX_STACK_CHARS, StackSampler, trimStack } from '../../src/inject/agent/timing/stacks';

const AGENT = 'chrome-extension://abcdef/agent.js';
const RAW = [
  'Error',
  `    at ForcedReflowTimer.done (${AGENT}:1:2000)`,
  `    at HTMLDivElement.get offsetHeight [as offsetHeight] (${AGENT}:1:900)`,
  '    at Measurer (http://127.0.0.1:8080/app.js:10:5)',
  '    at commitLayoutEffects (http://127.0.0.1:8080/react-dom.js:1:1)',
].join('\n');

describe('timing: forced-reflow stacks', () => {
  it('finds the script URL of the first frame', () => {
    expect(firstFrameUrl(RAW)).to.equal(AGENT);
    expect(firstFrameUrl('    at http://x.test/a.js:1:2')).to.equal('http://x.test/a.js');
    expect(firstFrameUrl('no frames here')).to.equal(null);
  });

  it('keeps the page\'s frames only, without the message line and our own frames', () => {
    expect(trimStack(RAW, AGENT)).to.equal([
      'at Measurer (http://127.0.0.1:8080/app.js:10:5)',
      'at commitLayoutEffects (http://127.0.0.1:8080/react-dom.js:1:1)',
    ].join('\n'));
  });

  it('caps lines and characters (a hostile prepareStackTrace cannot make it huge)', () => {
    const many = Array.from({ length: 100 }, (_, i) => `    at f${i} (http://a.test/${'x'.repeat(200)}.js:1:1)`).join('\n');
    const s = trimStack(many, null, 12);
    expect(s.split('\n')).to.have.length.at.most(12);
    expect(s.length).to.be.at.most(MAX_STACK_CHARS);
    expect(trimStack('<script>alert(1)</script>'.repeat(1000), null)).to.equal('');
  });

  it('samples at most one stack per interval', () => {
    const s = new StackSampler(250);
    expect(s.want(1000)).to.equal(true);
    expect(s.want(1100)).to.equal(false);
    expect(s.want(1250)).to.equal(true);
    s.reset();
    expect(s.want(1260)).to.equal(true);
    // In Node the first frame is this test's module: capture never throws and returns page-like frames.
    expect(typeof s.capture()).to.equal('string');
  });
});
