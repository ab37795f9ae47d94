// @vitest-environment node
// The Grafana dashboard (docs/grafana-dashboard.json) and the alert rules in docs/operating.md name
// only metrics the server exports, so a renamed metric cannot leave an empty panel or a silent alert.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectDefaultMetrics } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/lib/metrics';

const root = join(__dirname, '..', '..');
const METRIC = /\b(?:pxt_\w+|http_request_\w+|process_\w+|nodejs_\w+)\b/g;

/** Every series name the server's registry exports, histogram series included. */
async function exported(): Promise<Set<string>> {
  const metrics = createMetrics();
  collectDefaultMetrics({ register: metrics.registry });
  const names = new Set<string>();
  for (const m of await metrics.registry.getMetricsAsJSON()) {
    names.add(m.name);
    if (String(m.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(m.name + suffix);
  }
  return names;
}

interface Panel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: { expr: string; datasource: { uid: string } }[];
}

describe('metrics documentation', () => {
  it('the dashboard is importable JSON whose panels use the Prometheus data source variable and exported metrics', async () => {
    const dashboard = JSON.parse(readFileSync(join(root, 'docs', 'grafana-dashboard.json'), 'utf8')) as {
      panels: Panel[];
      templating: { list: { name: string; type: string; query: unknown }[] };
    };
    expect(dashboard.templating.list.find((v) => v.name === 'datasource')).toMatchObject({
      type: 'datasource',
      query: 'prometheus',
    });
    const names = await exported();
    const used = new Set<string>();
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets!) {
        expect(target.datasource.uid).toBe('${datasource}');
        for (const name of target.expr.match(METRIC) ?? []) {
          expect(names, `${panel.title}: ${name}`).toContain(name);
          used.add(name.replace(/_(bucket|sum|count)$/, ''));
        }
      }
    }
    // Every metric of decisions §12 has a panel.
    for (const name of [
      'http_request_duration_seconds',
      'pxt_claims_total',
      'pxt_ledger_postings_total',
      'pxt_worker_lag_seconds',
      'pxt_push_sent_total',
      'pxt_mail_sent_total',
      'pxt_payments_total',
    ]) {
      expect(used, name).toContain(name);
    }
  });

  it('the alert rules in docs/operating.md name exported metrics', async () => {
    const doc = readFileSync(join(root, 'docs', 'operating.md'), 'utf8');
    const rules = [...doc.matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]);
    expect(rules.length).toBeGreaterThanOrEqual(5);
    const names = await exported();
    for (const expr of rules) for (const name of expr.match(METRIC) ?? []) expect(names, expr).toContain(name);
  });
});
