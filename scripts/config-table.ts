// `npm run config-table`: rewrites the configuration table in README.md from the schema in
// server/env/variables.ts. With --check, only says whether the README is up to date (exit 1 if not).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withConfigTable } from '../server/env/table';

const file = join(import.meta.dirname, '..', 'README.md');
const before = readFileSync(file, 'utf8');
const after = withConfigTable(before);
if (process.argv.includes('--check')) {
  if (after !== before) {
    process.stderr.write(
      'README.md: the configuration table differs from server/env/variables.ts; run `npm run config-table`\n',
    );
    process.exit(1);
  }
} else if (after !== before) {
  writeFileSync(file, after);
  process.stdout.write('README.md: configuration table rewritten\n');
}
