/**
 * Compiles the boot scripts' load-time functions eagerly (docs/PERFORMANCE.md, always on).
 *
 * V8 compiles a script's top level when it loads it and only pre-parses the functions inside; a function is parsed
 * again, whole, the first time it is called. inject.js calls its installers (the hook, the rAF pass-through, the
 * attachShadow tap, the channel, the API) once, during its own evaluation: each is parsed twice on every page load.
 * V8 compiles a function at once when it is written in parentheses, `(function …)` (its heuristic for functions that
 * are about to be called). This pass rewrites, after minification, each top-level `function f(…) {…}` that runs at
 * load into `var f=(function f(…){…});` where it stands (checked: nothing runs it before it is defined). The functions called only later (the API's methods, message handlers) stay lazy:
 * compiling them at load would cost more than it saves (`//# allFunctionsCalledOnLoad` on the whole file measured
 * 2.6 ms against 1.8). Nothing else changes: the same functions, bound to the same names, in the same scope.
 *
 * Which functions run at load: the calls in the scope's own statements (not inside any function), then, for each
 * top-level function so reached, the calls in its own statements, and so on. A name that a nested scope redeclares may
 * mark a function that does not run at load; that only costs its compile, never a change of meaning. A function that
 * runs in every load but later cannot be found that way: it says so with the directive `'eager';` at the top of its
 * body, which minifiers keep (none does today).
 */
import * as acorn from 'acorn';

const FUNCTION_NODES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The statements of the innermost scope that wraps the whole script: `(()=>{ … })()` nested any number of times. */
function bundleScope(program) {
  let body = program.body;
  for (;;) {
    // A directive prologue ("use strict") may stand before the wrapper.
    const rest = body.filter((s) => !(s.type === 'ExpressionStatement' && typeof s.directive === 'string'));
    if (rest.length !== 1) return body;
    const s = rest[0];
    const call = s.type === 'ExpressionStatement' ? s.expression : null;
    const fn = call && call.type === 'CallExpression' && call.arguments.length === 0 ? call.callee : null;
    if (!fn || !FUNCTION_NODES.has(fn.type) || fn.body.type !== 'BlockStatement') return body;
    body = fn.body.body;
  }
}

/** Names called (or constructed) by `node` itself, not inside any function it contains. */
function callsOf(node, out) {
  if (!node || typeof node.type !== 'string') return;
  if (FUNCTION_NODES.has(node.type) || node.type === 'MethodDefinition' || node.type === 'PropertyDefinition') return;
  if ((node.type === 'CallExpression' || node.type === 'NewExpression') && node.callee.type === 'Identifier') {
    out.add(node.callee.name);
  }
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) for (const c of v) callsOf(c, out);
    else if (v && typeof v.type === 'string') callsOf(v, out);
  }
}

/** Identifiers that `node` reads itself, not inside any function it contains. */
function namesOf(node, out) {
  if (!node || typeof node.type !== 'string') return;
  if (FUNCTION_NODES.has(node.type) || node.type === 'MethodDefinition' || node.type === 'PropertyDefinition') return;
  if (node.type === 'Identifier') out.add(node.name);
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) for (const c of v) namesOf(c, out);
    else if (v && typeof v.type === 'string') namesOf(v, out);
  }
}

/** Names bound at the top of the scope: its functions, variables and classes. */
function bindingsOf(scope) {
  const out = new Set();
  for (const s of scope) {
    if ((s.type === 'FunctionDeclaration' || s.type === 'ClassDeclaration') && s.id) out.add(s.id.name);
    if (s.type === 'VariableDeclaration') for (const d of s.declarations) if (d.id.type === 'Identifier') out.add(d.id.name);
  }
  return out;
}

/**
 * The edits that make the load-time functions eager, each `{ at, text }` (insert `text` before offset `at`), and the
 * functions' names. `function f(…){…}` becomes `var f=(function f(…){…});` where it stands. A declaration is
 * hoisted and a `var` is not, so this holds only if nothing before a rewritten function can run it or read it: each
 * statement of the scope ahead of the last rewritten function may neither call nor name any binding of the scope
 * (built-ins such as `Symbol` are fine). A script that breaks that rule throws here, at build time. A script whose
 * shape is not understood gets no edits.
 */
export function eagerEdits(code) {
  const program = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'script' });
  const scope = bundleScope(program);
  const declared = new Map();
  for (const s of scope) if (s.type === 'FunctionDeclaration' && s.id && !s.async && !s.generator) declared.set(s.id.name, s);

  const marked = new Set();
  const queue = [];
  const reach = (names) => {
    for (const n of names) {
      if (declared.has(n) && !marked.has(n)) {
        marked.add(n);
        queue.push(declared.get(n));
      }
    }
  };
  const top = new Set();
  for (const s of scope) if (s.type !== 'FunctionDeclaration') callsOf(s, top);
  reach(top);
  while (queue.length > 0) {
    const fn = queue.pop();
    const inner = new Set();
    for (const s of fn.body.body) callsOf(s, inner);
    // Parameters' default values run at the call too.
    for (const p of fn.params) callsOf(p, inner);
    reach(inner);
  }
  const fns = scope.filter((s) => s.type === 'FunctionDeclaration' && marked.has(s.id.name));
  checkOrder(scope, fns);
  // Functions that run in every load but after the script's evaluation (the channel's handshake listener) say so
  // themselves, with the directive 'eager' (minifiers keep directives): rewritten where they stand, in their scope.
  const inner = [];
  (function visit(node, statements) {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'FunctionDeclaration' && statements !== scope && hasEagerDirective(node)) inner.push({ node, statements });
    const body = node.type === 'BlockStatement' || node.type === 'Program' ? node.body : null;
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (Array.isArray(v)) for (const c of v) visit(c, v === body ? body : statements);
      else if (v && typeof v.type === 'string') visit(v, statements);
    }
  })(program, program.body);
  for (const s of scope) if (s.type === 'FunctionDeclaration' && hasEagerDirective(s) && !marked.has(s.id.name)) inner.push({ node: s, statements: scope });
  const byScope = new Map();
  for (const { node, statements } of inner) byScope.set(statements, [...(byScope.get(statements) ?? []), node]);
  for (const [statements, list] of byScope) checkOrder(statements, list);

  const all = [...fns, ...inner.map((x) => x.node)];
  const edits = [];
  for (const s of all) edits.push({ at: s.start, text: `var ${s.id.name}=(` }, { at: s.end, text: ');' });
  return { edits, wrapped: all.map((s) => s.id.name) };
}

function hasEagerDirective(fn) {
  for (const s of fn.body.body) {
    if (s.type !== 'ExpressionStatement' || typeof s.directive !== 'string') return false;
    if (s.directive === 'eager') return true;
  }
  return false;
}

/**
 * A declaration is hoisted and a `var` is not: nothing in `statements` ahead of the last of `fns` may call or name a
 * function declared there, or call any other binding of that scope (built-ins such as `Symbol` are fine).
 */
function checkOrder(statements, fns) {
  if (fns.length === 0) return;
  const lastEnd = Math.max(...fns.map((s) => s.end));
  const bound = bindingsOf(statements);
  const declared = new Set(statements.filter((s) => s.type === 'FunctionDeclaration' && s.id).map((s) => s.id.name));
  for (const s of statements) {
    if (s.start >= lastEnd || s.type === 'FunctionDeclaration') continue;
    const read = new Set();
    namesOf(s, read);
    // A declaration's own names are written, not read: only its initialisers count.
    if (s.type === 'VariableDeclaration') {
      read.clear();
      for (const d of s.declarations) namesOf(d.init, read);
    }
    const clash = [...read].filter((n) => bound.has(n) && (declared.has(n) || callsTo(s, n)));
    if (clash.length > 0) {
      throw new Error(`eager-boot: a statement at offset ${s.start} runs ${clash.join(', ')} before the last load-time function is defined`);
    }
  }
}

function callsTo(node, name) {
  const calls = new Set();
  callsOf(node, calls);
  return calls.has(name);
}

/** Applies `eagerEdits` to a string. */
export function eagerBoot(code) {
  const { edits, wrapped } = eagerEdits(code);
  let out = '';
  let at = 0;
  for (const e of [...edits].sort((a, b) => a.at - b.at)) {
    out += code.slice(at, e.at) + e.text;
    at = e.at;
  }
  return { code: out + code.slice(at), wrapped };
}
