// Types of scripts/check-dependency-floors.mjs for the TypeScript that imports it (tests/unit/dependency-floors.test.ts).
export const FLOORS: Record<string, string>;
export function compareVersions(a: string, b: string): -1 | 0 | 1;
export function rangeMinimum(range: string): string | null;
export interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
export function checkFloors(input: {
  manifest: Manifest;
  installed: (name: string) => string | null;
  locked: (name: string) => string | null;
  floors?: Record<string, string>;
}): string[];
export function checkProject(root: string): string[];
