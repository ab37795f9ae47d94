// @vitest-environment node
// scripts/vite-plugin-eager-cjs.ts on a chunk shaped as Rolldown and Terser write it: the CommonJS
// factories become parenthesised functions that V8 compiles with the script (its function events
// say so: no second parse at the call), and the chunk computes what it computed before.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eagerCommonJs } from '../../scripts/vite-plugin-eager-cjs';

// Rolldown's `__commonJSMin` as its runtime chunk has it, inlined where the chunk imports it.
const RUNTIME = 'const t=(e,r)=>()=>(r||(e((r={exports:{}}).exports,r,r.exports),e=null),r.exports);';
const IMPORT = 'import{t}from"./rolldown-runtime-iPaxFV8Y.js";';
const CHUNK =
  `${IMPORT}var n=t(e=>{var q=2;function inner(){return q}e.v=inner()+40}),` +
  'r=t((e,t)=>{t.exports={sum:n().v,self:typeof this}}),' +
  'o=t(function(e,t,r){t.exports=[typeof this,r===e]}),' +
  'later=t(async e=>{}),plain=[1].map(e=>e+1);globalThis.out=JSON.stringify([r(),o(),plain]);';

const dir = mkdtempSync(join(tmpdir(), 'eager-cjs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a chunk as an ES module under Node's V8 and returns what it computed and V8's function events. */
function run(code: string, name: string) {
  const file = join(dir, `${name}.mjs`);
  const log = join(dir, `${name}.log`);
  writeFileSync(file, `${RUNTIME}${code.replace(IMPORT, '')}\nconsole.log(globalThis.out);\n`);
  const out = execFileSync(
    process.execPath,
    ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate', file],
    {
      encoding: 'utf8',
    },
  );
  const events = readFileSync(log, 'utf8').split('\n');
  const script = events.find((l) => l.startsWith('script-details,') && l.includes(file))!.split(',')[1];
  // `function,<event>,<script>,<start>,<end>,…`: the functions V8 parsed again at their first call.
  const lazy = events
    .filter((l) => l.startsWith(`function,parse-function,${script},`))
    .map((l) => Number(l.split(',')[3]));
  const source = readFileSync(file, 'utf8');
  // Where each factory starts: right after `n=t(` (V8 counts a `function` from its parameters).
  const factories = ['n', 'r', 'o'].map((name) => source.indexOf(`${name}=t(`) + `${name}=t(`.length);
  return { out: out.trim(), lazyFactories: lazy.filter((at) => factories.some((f) => at >= f && at < f + 10)) };
}

describe('eager CommonJS factories', () => {
  it('wraps each factory a runtime helper gets in a parenthesised function, and nothing else', () => {
    const eager = eagerCommonJs(CHUNK);
    expect(eager).toContain('n=t((function(e){var q=2;');
    expect(eager).toContain('r=t((function(e,t){t.exports=');
    expect(eager).toContain('o=t((function(e,t,r){t.exports=');
    // An async factory would return a promise as a function too: left as it is, as are other calls.
    expect(eager).toContain('later=t(async e=>{})');
    expect(eager).toContain('[1].map(e=>e+1)');
    expect(eagerCommonJs(eager)).toBe(eager);
    expect(eagerCommonJs('var a=b(e=>{});')).toBe('var a=b(e=>{});');
  });

  it('computes the same, with V8 compiling the factories with the script instead of at their call', () => {
    const before = run(CHUNK, 'before');
    const after = run(eagerCommonJs(CHUNK), 'after');
    expect(JSON.parse(after.out)).toEqual([{ sum: 42, self: 'undefined' }, ['undefined', true], [2]]);
    expect(after.out).toBe(before.out);
    expect(before.lazyFactories).toHaveLength(3);
    expect(after.lazyFactories).toEqual([]);
  });
});
