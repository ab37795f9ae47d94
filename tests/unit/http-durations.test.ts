// @vitest-environment node
// The answer-time histogram kept by hand (server/lib/http-durations.ts) writes what prom-client's
// own Histogram writes for the same answers: the same series, buckets, sums and counts, in the same
// order, so dashboards and alerts read it unchanged; and a reset empties it as prom-client's does.
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HttpDurations } from '../../server/lib/http-durations';

const NAME = 'http_request_duration_seconds';
const HELP = 'Time from request to answer';
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Answers on bounds, between them, beyond the last, and a route that comes back after others. */
const ANSWERS: [method: string, route: string, status: number, seconds: number][] = [
  ['GET', '/api/v1/auth/me', 200, 0.0004],
  ['GET', '/api/v1/auth/me', 200, 0.005],
  ['GET', '/api/v1/auth/me', 200, 0.0051],
  ['POST', '/api/v1/auth/register/', 201, 3],
  ['GET', '/api/v1/auth/me', 401, 0.02],
  ['GET', 'unmatched', 404, 12],
  ['GET', '/api/v1/auth/me', 200, 1],
  ['HEAD', '/api/v1/auth/me', 200, 0],
];

function both() {
  const theirs = new Registry();
  const histogram = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['method', 'route', 'status'],
    buckets: BOUNDS,
    registers: [theirs],
  });
  const ours = new Registry();
  const durations = new HttpDurations(NAME, HELP, BOUNDS);
  ours.registerMetric(durations as never);
  const observe = (answers: typeof ANSWERS) => {
    for (const [method, route, status, seconds] of answers) {
      histogram.observe({ method, route, status: String(status) }, seconds);
      durations.observe(method, route, status, seconds);
    }
  };
  return { theirs, ours, histogram, durations, observe };
}

describe('the answer-time histogram', () => {
  it("writes what prom-client's Histogram writes for the same answers", async () => {
    const { theirs, ours, observe } = both();
    observe(ANSWERS);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(`${NAME}_count{method="GET",route="/api/v1/auth/me",status="200"} 4`);
    expect(text).toContain(`${NAME}_bucket{le="0.005",method="GET",route="/api/v1/auth/me",status="200"} 2`);
    expect(text).toContain(`${NAME}_bucket{le="10",method="GET",route="unmatched",status="404"} 0`);
    expect(text).toContain(`${NAME}_bucket{le="+Inf",method="GET",route="unmatched",status="404"} 1`);
  });

  it('gives the registry the same values as JSON, each with its labels whole', async () => {
    const { theirs, ours, observe } = both();
    observe(ANSWERS);
    const values = async (r: Registry) =>
      (await r.getMetricsAsJSON())[0].values.map((v) => ({
        labels: v.labels,
        value: v.value,
        metricName: (v as { metricName?: string }).metricName,
      }));
    expect(await values(ours)).toEqual(await values(theirs));
  });

  it('starts again empty after a reset', async () => {
    const { theirs, ours, histogram, durations, observe } = both();
    observe(ANSWERS);
    histogram.reset();
    durations.reset();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    observe(ANSWERS.slice(3));
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
