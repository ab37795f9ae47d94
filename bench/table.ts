// The bench's result table, printed as Markdown so it can go into the README as it is.
export type Verdict = 'met' | 'missed' | 'info' | 'failed';

export interface Row {
  section: string;
  measure: string;
  result: string;
  target?: string;
  verdict: Verdict;
}

const MARK: Record<Verdict, string> = { met: '✓', missed: '✗', info: '', failed: 'FAILED' };

export class Table {
  readonly rows: Row[] = [];
  add(row: Row): void {
    this.rows.push(row);
    // Printed as it comes too: a long run shows progress, and a crash keeps what was measured.
    const mark = MARK[row.verdict] ? ` [${MARK[row.verdict]}]` : '';
    console.log(
      `  ${row.section} · ${row.measure}: ${row.result}${row.target ? ` (target ${row.target})` : ''}${mark}`,
    );
  }
  markdown(): string {
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    const lines = ['| Section | Measure | Result | Target |', '|---|---|---|---|'];
    for (const r of this.rows) {
      const target = r.target ? `${r.target} ${MARK[r.verdict]}`.trim() : MARK[r.verdict];
      lines.push(`| ${cell(r.section)} | ${cell(r.measure)} | ${cell(r.result)} | ${cell(target)} |`);
    }
    return lines.join('\n');
  }
  get failed(): boolean {
    return this.rows.some((r) => r.verdict === 'failed');
  }
}
