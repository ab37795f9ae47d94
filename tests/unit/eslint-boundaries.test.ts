// @vitest-environment node
// The architecture rules of eslint.config.js, proved on code that breaks them: ESLint's Node API
// lints a snippet as if it lived at a given path. The imported files exist, so the import resolver
// has something to find (an unresolved import would pass the boundaries rule silently).
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rule ids and messages ESLint reports for `import * as m from '<spec>'` placed at `filePath`. */
async function lintImport(filePath: string, spec: string) {
  const code = `import * as m from '${spec}';\nexport default m;\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

const boundaryError = (from: string, to: string) =>
  expect.objectContaining({
    rule: 'boundaries/element-types',
    message: expect.stringMatching(new RegExp(`type '${from}'.*type '${to}'`, 's')),
  });

describe('eslint boundaries', { timeout: 60_000 }, () => {
  it('refuses a feature importing another feature, by alias and by relative path', async () => {
    const byAlias = await lintImport('src/features/auth/x.ts', '@/features/mining/state/hooks');
    expect(byAlias).toEqual([boundaryError('feature', 'feature')]);
    expect(byAlias[0].message).toMatch(/feature 'auth'.*feature 'mining'/s);
    expect(await lintImport('src/features/auth/x.ts', '../mining/state/hooks')).toEqual([
      boundaryError('feature', 'feature'),
    ]);
  });

  it('refuses shared/ importing src/ or server/', async () => {
    expect(await lintImport('shared/x.ts', '@/lib/store')).toEqual([boundaryError('shared', 'lib')]);
    expect(await lintImport('shared/api/x.ts', '../../server/config')).toEqual([boundaryError('shared', 'server')]);
  });

  it('refuses server/ importing src/, sw/ importing src/, and components or lib importing a feature', async () => {
    expect(await lintImport('server/x.ts', '@/lib/store')).toEqual([boundaryError('server', 'lib')]);
    expect(await lintImport('sw/x.ts', '@/lib/store')).toEqual([boundaryError('sw', 'lib')]);
    expect(await lintImport('src/components/x.ts', '@/features/auth/state/auth-forms')).toEqual([
      boundaryError('component', 'feature'),
    ]);
    expect(await lintImport('src/lib/x.ts', '@/features/auth/state/auth-forms')).toEqual([
      boundaryError('lib', 'feature'),
    ]);
  });

  it('allows what the architecture allows', async () => {
    // A feature: its own files, lib/, components/, shared/.
    expect(await lintImport('src/features/auth/components/x.ts', '../state/auth-forms')).toEqual([]);
    expect(await lintImport('src/features/auth/x.ts', '@/lib/store')).toEqual([]);
    expect(await lintImport('src/features/auth/x.ts', '@/components/button')).toEqual([]);
    expect(await lintImport('src/features/auth/x.ts', '@shared/constants')).toEqual([]);
    // The app wires features together; the worker and the server use shared/.
    expect(await lintImport('src/app/x.ts', '@/features/mining/state/hooks')).toEqual([]);
    expect(await lintImport('sw/x.ts', '@shared/sw-messages')).toEqual([]);
    expect(await lintImport('server/x.ts', '@shared/constants')).toEqual([]);
  });

  it('asks for the aliases instead of ../../ chains and relative paths into shared/', async () => {
    const deep = await lintImport('src/features/auth/components/x.ts', '../../../lib/store');
    expect(deep.map((m) => m.rule)).toContain('no-restricted-imports');
    const intoShared = await lintImport('server/routes/x.ts', '../../shared/constants');
    expect(intoShared.map((m) => m.rule)).toEqual(['no-restricted-imports']);
  });
});
