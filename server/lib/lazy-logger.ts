// A request's logger that becomes a pino child only when a line is actually written. Fastify makes
// a child logger for every request and the auth hook another one with the player's id; at the
// production level (warn) a read writes no line, so those were two allocations per call for nothing.
import type { FastifyBaseLogger } from 'fastify';
import { jsonString } from './json-string';

/** What of pino's logger this needs (Fastify's logger is pino). */
type PinoLike = FastifyBaseLogger & {
  isLevelEnabled(level: string): boolean;
  bindings(): Record<string, unknown>;
  setBindings(bindings: Record<string, unknown>): void;
};
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;

/** Binding names are few, and set in code: each one's JSON is made once. */
const namesJson = new Map<string, string>();
const MAX_NAMES = 64;
function nameJson(name: string): string {
  let json = namesJson.get(name);
  if (json === undefined) {
    json = jsonString(name);
    if (namesJson.size < MAX_NAMES) namesJson.set(name, json);
  }
  return json;
}

/** The bindings as pino writes them after the root's: `,"reqId":"req-1","userId":7`. */
export function bindingsJson(bindings: Bindings): string {
  let json = '';
  for (const key in bindings) {
    const value = bindings[key];
    if (value !== undefined)
      json += `,${nameJson(key)}:${typeof value === 'string' ? jsonString(value) : JSON.stringify(value)}`;
  }
  return json;
}

export class LazyLogger {
  #real: PinoLike | null = null;
  /** Never changed once made: addBindings makes a new object, so a line made later (lib/request-lines.ts) has the bindings of its moment. */
  #bindings: Bindings;
  constructor(
    private readonly root: PinoLike,
    bindings: Bindings,
  ) {
    this.#bindings = bindings;
  }

  private real(): PinoLike {
    return (this.#real ??= this.root.child(this.#bindings) as PinoLike);
  }
  private write(level: Level, args: unknown[]): void {
    if (this.#real) (this.#real[level] as (...a: unknown[]) => void)(...args);
    else if (this.root.isLevelEnabled(level)) (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  /** Whether a line made this a pino child (lib/request-lines.ts writes for it only while not). */
  get materialised(): boolean {
    return this.#real !== null;
  }
  /** The bindings now, for bindingsJson(): an object that stays as it is. */
  get currentBindings(): Readonly<Bindings> {
    return this.#bindings;
  }

  get level(): string {
    return this.#real?.level ?? this.root.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  isLevelEnabled(level: string): boolean {
    return this.#real ? this.#real.isLevelEnabled(level) : this.root.isLevelEnabled(level);
  }
  bindings(): Bindings {
    return this.#real ? this.#real.bindings() : { ...this.root.bindings(), ...this.#bindings };
  }
  /**
   * Adds bindings to this request's own logger, for the lines it writes from now on: what a child
   * with them would write, without making one (at info the request's pino child exists already,
   * for "incoming request", and a second one per signed-in call cost as much as a line).
   */
  addBindings(bindings: Bindings): void {
    if (this.#real) this.#real.setBindings(bindings);
    else this.#bindings = { ...this.#bindings, ...bindings };
  }
  /** Lazy too: the bindings are merged, the pino child is made when a line is written. */
  child(bindings: Bindings, opts?: object): FastifyBaseLogger {
    if (this.#real || (opts && Object.keys(opts).length > 0)) return this.real().child(bindings, opts);
    return new LazyLogger(this.root, { ...this.#bindings, ...bindings }) as unknown as FastifyBaseLogger;
  }
  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}
}

/** `logger.child(bindings, opts)`, made lazily where nothing about the child differs but its bindings. */
export function lazyChild(logger: FastifyBaseLogger, bindings: Bindings, opts: object): FastifyBaseLogger {
  // Fastify's stand-in when logging is off has no levels: its children cost nothing anyway.
  if (Object.keys(opts).length > 0 || typeof (logger as Partial<PinoLike>).isLevelEnabled !== 'function')
    return logger.child(bindings, opts);
  return new LazyLogger(logger as PinoLike, bindings) as unknown as FastifyBaseLogger;
}
