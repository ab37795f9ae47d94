// The README's configuration table, generated from env/variables.ts (scripts/config-table.ts writes
// it between the markers; tests/api/config-schema.test.ts fails when the README differs).
import { type Doc, docs, variables } from './variables';

export const TABLE_START =
  '<!-- config-table:start (generated from server/env/variables.ts by `npm run config-table`) -->';
export const TABLE_END = '<!-- config-table:end -->';

export function configTable(): string {
  const rows: { names: string[]; doc: Doc }[] = [];
  for (const [name, schema] of Object.entries(variables.shape)) {
    const meta = docs.get(schema);
    if (!meta) throw new Error(`${name} has no documentation in server/env/variables.ts`);
    if ('sameRow' in meta) rows.at(-1)!.names.push(name);
    else rows.push({ names: [name], doc: meta });
  }
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows.map(
      (r) => `| ${r.names.map((n) => `\`${n}\``).join(', ')} | ${cell(r.doc.default)} | ${cell(r.doc.meaning)} |`,
    ),
  ].join('\n');
}

/** `readme` with the text between the markers replaced by the generated table. */
export function withConfigTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${TABLE_START} … ${TABLE_END}`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${configTable()}\n${readme.slice(end)}`;
}
