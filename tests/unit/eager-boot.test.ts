/**
 * The build's eager-compile pass for the boot scripts (scripts/eager-boot.mjs): which functions it rewrites, that the
 * rewritten script does what the original did, and that it refuses a script where the rewrite would change meaning.
 */
import { expect } from 'chai';
import * as vm from 'node:vm';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
// @ts-expect-error: a plain ES module of the build (webpack.config.js imports it), typed here by use.
import { eagerBoot } from '../../scripts/eager-boot.mjs';

const run = eagerBoot as (code: string) => { code: string; wrapped: string[] };

/** Runs a script in a fresh context and returns what it left in `out`. */
function evaluate(code: string): unknown[] {
  const ctx = { out: [] as unknown[] };
  vm.runInNewContext(code, ctx);
  return ctx.out;
}

const BUNDLE = `(()=>{(()=>{"use strict";
const K = Symbol("k"), table = { a: 1 };
function helper(x) { return x * 2; }
function onLater(e) { out.push("later " + e); }
function install(w) { out.push("install " + helper(w)); return () => onLater(w); }
function api(d = dflt()) { out.push("api " + d); }
function dflt() { return 7; }
function unused() { out.push("never"); }
function main() {
  const later = install(3);
  api();
  const inner = () => unused();
  out.push(typeof inner, typeof K, table.a);
  later();
}
try { main(); } catch (e) { out.push("threw " + e); }
})()})();`;

describe('eager-boot (build pass)', () => {
  it('rewrites the functions that run during the evaluation, and only those', () => {
    const r = run(BUNDLE);
    expect([...r.wrapped].sort()).to.deep.equal(['api', 'dflt', 'helper', 'install', 'main']);
    // Called only from an inner function or a returned closure: left as declarations.
    expect(r.code).to.match(/function onLater\(/).and.not.match(/var onLater=/);
    expect(r.code).to.match(/function unused\(/).and.not.match(/var unused=/);
    expect(r.code).to.include('var main=(function main()');
  });

  it('leaves the script doing exactly what it did', () => {
    const r = run(BUNDLE);
    expect(evaluate(r.code)).to.deep.equal(evaluate(BUNDLE));
    expect(evaluate(r.code)).to.deep.equal(['install 6', 'api 7', 'function', 'symbol', 1, 'later 3']);
  });

  it('refuses a script in which something runs a rewritten function before its definition', () => {
    // Hoisting: as declarations this works; as `var f=(…)` it would not.
    const early = `(()=>{"use strict";const x = f(); function f() { return 1; } out.push(x, f());})();`;
    expect(evaluate(early)).to.deep.equal([1, 1]);
    expect(() => run(early)).to.throw(/eager-boot/);
    // Naming it early is as bad as calling it (the value read would be undefined).
    const named = `(()=>{"use strict";const t = { f }; function f() { return 1; } f(); out.push(t.f());})();`;
    expect(() => run(named)).to.throw(/eager-boot/);
  });

  it("rewrites a nested function that says 'eager', where it stands, and checks its own scope", () => {
    const src = `(()=>{"use strict";
function open(w) {
  const kept = 1;
  function onMessage(e) { 'eager'; out.push('message ' + e + kept); }
  function other() { out.push('other'); }
  w.listen(onMessage);
}
open({ listen: (f) => f(2) });
})();`;
    const r = run(src);
    expect([...r.wrapped].sort()).to.deep.equal(['onMessage', 'open']);
    expect(r.code).to.include('var onMessage=(function onMessage(e)').and.include('function other()');
    expect(evaluate(r.code)).to.deep.equal(evaluate(src)).and.deep.equal(['message 21']);
    const early = `(()=>{"use strict";
function open() { const x = f(); function f() { 'eager'; return 1; } out.push(x); }
open();
})();`;
    expect(evaluate(early)).to.deep.equal([1]);
    expect(() => run(early)).to.throw(/eager-boot/);
  });

  it('changes nothing in a script of another shape', () => {
    const plain = 'out.push(1);';
    expect(run(plain).code).to.equal(plain);
    expect(run(plain).wrapped).to.deep.equal([]);
  });

  it('accepts the real boot scripts, minified as the build does, and keeps what they define', async () => {
    for (const entry of ['src/inject/boot/index.ts', 'src/content/boot/index.ts']) {
      const built = await esbuild.build({
        entryPoints: [path.join(__dirname, '../..', entry)], bundle: true, write: false, minify: true, format: 'iife',
        target: 'es2022', define: { __DEBUG__: 'false', __VERSION__: '"0.0.0"' }, logLevel: 'silent',
      });
      const code = built.outputFiles[0].text;
      const r = run(code);
      expect(r.wrapped.length, entry).to.be.greaterThan(0);
      // The same text around the inserted parentheses, nothing else.
      expect(r.code.replace(/var ([\w$]+)=\((function \1\()/g, '$2').replace(/\}\);/g, '}')).to.equal(code.replace(/\}\);/g, '}'));
      expect(() => new vm.Script(r.code)).not.to.throw();
    }
  });
});
