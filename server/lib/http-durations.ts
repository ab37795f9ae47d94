// The answer-time histogram of decisions §12 (`http_request_duration_seconds`), kept by hand and read
// by prom-client's registry like any of its own metrics. It is moved on every answer: prom-client's
// Histogram.observe made a closure and two objects, checked the label names, built a string key
// from the labels and looked the bucket up by its bound as a string key, about 0.7 µs per answer on
// the 2-core machine (timed in-process, issue 25). Here a series is found through maps keyed by the
// route pattern, method and status, and its bucket by index; the scrape adds the buckets up.
import type { MetricValueWithName } from 'prom-client';

interface Series {
  labels: { method: string; route: string; status: string };
  /** Answers per bucket (not cumulative); the last one is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

type Value = MetricValueWithName<string> & { sharedLabels?: Record<string, string> };

export class HttpDurations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** route pattern → method → status → series */
  #series = new Map<string, Map<string, Map<number, Series>>>();
  /** The same series in the order they came, the order prom-client writes them in. */
  #all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.#series.get(route);
    if (!byMethod) this.#series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        counts: new Array<number>(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
      this.#all.push(series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]) bucket++;
    series.counts[bucket]++;
    series.sum += seconds;
    series.count++;
  }

  /** What the registry writes: per series its cumulative buckets, +Inf, sum and count, as prom-client's Histogram does. */
  getForPromString() {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.#all) {
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += s.counts[i];
        values.push({ labels: { le }, sharedLabels: s.labels, value: acc, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same with each value's labels whole (the registry's JSON). */
  get() {
    const data = this.getForPromString();
    const values = data.values.map(({ sharedLabels, ...v }) => ({ ...v, labels: { ...v.labels, ...sharedLabels } }));
    return { ...data, values };
  }

  reset(): void {
    this.#series.clear();
    this.#all = [];
  }
}
