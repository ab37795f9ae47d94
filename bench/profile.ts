// Where a missed API target's time goes: the server is run again under V8's sampling profiler
// (`--cpu-prof`, written when it exits) while one call is loaded, and the samples' self time is
// summed by where the code lives (a package under node_modules, the app's own folders, Node's
// internals, GC), plus the busiest functions. Printed as table rows, so the figure comes with its reason.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The bucket a function's time counts in: a package, a folder of the app, Node, GC, idle. */
function placeOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8 / native';
  if (!url) return `native: ${functionName || '(anonymous)'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const own = /\/((?:server|shared|bench)\/[^?]*)/.exec(url);
  return own ? own[1] : url;
}

export interface ProfileSummary {
  /** Share of the busy (non-idle) time by place, largest first. */
  places: { place: string; share: number }[];
  /** Busiest functions by self time. */
  functions: { name: string; share: number }[];
}

/**
 * The servers run compiled (bench/context.ts): a frame of the bundle is put back at its place in
 * the source (server/…, shared/…, node_modules/…) with the bundle's source map.
 */
function sourceFrames(profile: CpuProfile): void {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string) => {
    if (!maps.has(url)) {
      const path = fileURLToPath(url);
      maps.set(url, existsSync(`${path}.map`) ? new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))) : null);
    }
    return maps.get(url)!;
  };
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    if (!frame.url.startsWith('file://') || !frame.url.endsWith('.js')) continue;
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (!entry || !('originalSource' in entry)) continue;
    node.callFrame = {
      ...frame,
      url: new URL(entry.originalSource, frame.url).href,
      lineNumber: entry.originalLine,
      columnNumber: entry.originalColumn,
    };
  }
}

export function summariseProfile(file: string, top = 8): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  sourceFrames(profile);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // The profiler's own start and stop (node:inspector's post) carry the time around them: left out.
  const inspector = new Set<number>();
  const mark = (node: ProfileNode, under: boolean) => {
    const inside = under || node.callFrame.url === 'node:inspector';
    if (inside) inspector.add(node.id);
    for (const c of node.children ?? []) mark(byId.get(c)!, inside);
  };
  mark(profile.nodes[0], false);
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of selfMicros) {
    if (inspector.has(id)) continue;
    const frame = byId.get(id)!.callFrame;
    const place = placeOf(frame);
    if (place === '(idle)') continue;
    busy += micros;
    places.set(place, (places.get(place) ?? 0) + micros);
    const name = `${frame.functionName || '(anonymous)'} (${place}${frame.url ? `:${frame.lineNumber + 1}` : ''})`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  const ranked = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    places: ranked(places).map(([place, t]) => ({ place, share: t / busy })),
    functions: ranked(functions).map(([name, t]) => ({ name, share: t / busy })),
  };
}

export const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;

/** Loads each URL on a server started with bench/profiled-server.ts and summarises its profile. */
export async function profileWhileLoading(
  pid: number,
  file: string,
  run: () => Promise<unknown>,
): Promise<ProfileSummary> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  await run();
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; !existsSync(file); waited += 100) {
    if (waited > 30_000) throw new Error(`no profile in ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Written in one call; give it a moment to be complete.
  await new Promise((r) => setTimeout(r, 300));
  return summariseProfile(file);
}

/** One line: the places, then the busiest functions. */
export function describeProfile(s: ProfileSummary, places = 7, functions = 4): string {
  const where = s.places
    .slice(0, places)
    .map((p) => `${p.place} ${percent(p.share)}`)
    .join(', ');
  const what = s.functions
    .slice(0, functions)
    .map((f) => `${f.name} ${percent(f.share)}`)
    .join(', ');
  return `${where}; busiest: ${what}`;
}
