// Vite plugin: has V8 compile the body of each CommonJS module (React, React DOM, the scheduler,
// Dexie) with the script that holds it, on the thread that streams the script in, instead of on the
// main thread when the module is first required. Rolldown wraps such a module in a function that its
// runtime calls once, `var require_x = __commonJSMin((exports, module) => { … })`; V8 only pre-parses
// that function with the script and parses it again, in full, at the call. For React DOM's 200 KB
// that was about a third of the task evaluating the entry module at a returning player's start
// (issue 25: in Lighthouse's traces on the 2-core machine, median 30 ms before, 21 ms after).
// V8 compiles a `function` expression in parentheses with the script (its guess that such a
// function is called right away; an arrow gets no such guess, nor does a function without the
// parentheses, which Terser drops). So once Terser is done (the last renderChunk, before the file
// names are hashed) each such function becomes `(function(exports, module) { … })`. A module's top
// level is strict: `this` is undefined in both forms, and Rolldown passes the module's own `this`
// as a parameter.
import { parseAst, type Plugin } from 'vite';

type Node = { type: string; start: number; end: number } & Record<string, unknown>;

/** The local names a chunk imports from Rolldown's runtime chunk (its `__commonJSMin` among them). */
function runtimeImports(program: Node): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'ImportDeclaration') continue;
    if (!/rolldown-runtime/.test(String((statement.source as Node).value))) continue;
    for (const s of statement.specifiers as Node[]) names.add(String((s.local as Node).name));
  }
  return names;
}

/** The module factories: functions handed to a runtime helper in a top-level declaration. */
function factories(program: Node, helpers: Set<string>): Node[] {
  const found: Node[] = [];
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'VariableDeclaration') continue;
    for (const d of statement.declarations as Node[]) {
      const init = d.init as Node | null;
      if (init?.type !== 'CallExpression') continue;
      const callee = init.callee as Node;
      const args = init.arguments as Node[];
      if (callee.type !== 'Identifier' || !helpers.has(String(callee.name)) || args.length !== 1) continue;
      const fn = args[0];
      const isBlockArrow = fn.type === 'ArrowFunctionExpression' && (fn.body as Node).type === 'BlockStatement';
      if (fn.type === 'FunctionExpression' || isBlockArrow) found.push(fn);
    }
  }
  return found;
}

export function eagerCommonJs(code: string): string {
  // A chunk that imports nothing of Rolldown's runtime holds no wrapped module: no need to parse it.
  if (!code.includes('rolldown-runtime')) return code;
  const program = parseAst(code) as unknown as Node;
  const helpers = runtimeImports(program);
  if (helpers.size === 0) return code;
  let out = code;
  // From the last to the first, so the positions of those not yet rewritten stay right.
  for (const fn of factories(program, helpers).reverse()) {
    // `async` or a generator would change what the call returns; `t((function…))` is done already.
    if (fn.async || fn.generator || (code[fn.start - 1] === '(' && code[fn.start - 2] === '(')) continue;
    const params = fn.params as Node[];
    const paramText = params.length ? code.slice(params[0].start, params[params.length - 1].end) : '';
    const body = fn.body as Node;
    out = `${out.slice(0, fn.start)}(function(${paramText})${out.slice(body.start, fn.end)})${out.slice(fn.end)}`;
  }
  return out;
}

export function eagerCjs(): Plugin {
  return {
    name: 'pxt:eager-cjs',
    apply: 'build',
    enforce: 'post',
    renderChunk: {
      order: 'post',
      handler(code) {
        const eager = eagerCommonJs(code);
        return eager === code ? null : { code: eager, map: null };
      },
    },
  };
}
