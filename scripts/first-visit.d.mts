// Types of scripts/first-visit.mjs for the TypeScript that imports it (bench/bytes.ts).
export type FileKind = 'js' | 'css' | 'html' | 'font' | 'image' | 'data';
export interface FirstVisitFile {
  file: string;
  kind: FileKind;
  raw: number;
  gzip: number;
  brotli: number;
}
export interface KindTotals {
  count: number;
  raw: number;
  gzip: number;
  brotli: number;
  /** The larger of the gzip and brotli totals. */
  compressed: number;
}
export const LANDING_ROUTE: string;
export const DEFAULT_DIST: string;
export const MINI_APP_ENTRY: string;
export function kindOf(file: string): FileKind;
/** `telegram`: the first visit as a Telegram Mini App (the Mini App's chunk and its imports besides). */
export function analyzeFirstVisit(
  dist?: string,
  opts?: { telegram?: boolean },
): { files: FirstVisitFile[]; problems: string[] };
export function totalsByKind(rows: FirstVisitFile[]): Partial<Record<FileKind, KindTotals>>;
export function kb(n: number): string;
