// Every visible string goes through t(): this scan parses each .tsx file of src/ with the TypeScript
// compiler and refuses JSX text with letters and literal user-facing attributes (aria-label, title,
// placeholder, alt, label…). Brand-free: even "PXT" must come from the translations.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const TEXT_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'title',
  'placeholder',
  'alt',
  'label',
  'description',
  'data-hint',
  'submitLabel',
]);
const LETTER = /\p{L}/u;

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsxFiles(p);
    return e.name.endsWith('.tsx') ? [p] : [];
  });
}

export function findHardcodedText(source: string, fileName = 'file.tsx'): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const where = (n: ts.Node) => `${fileName}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && LETTER.test(node.text)) found.push(`${where(node)} text "${node.text.trim()}"`);
    if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(sf);
      const init = node.initializer;
      const literal =
        init &&
        (ts.isStringLiteral(init)
          ? init.text
          : ts.isJsxExpression(init) && init.expression && ts.isStringLiteralLike(init.expression)
            ? init.expression.text
            : null);
      if (TEXT_ATTRIBUTES.has(name) && literal && LETTER.test(literal))
        found.push(`${where(node)} ${name}="${literal}"`);
    }
    // {'Some words'} as a child of an element.
    if (
      ts.isJsxExpression(node) &&
      node.expression &&
      ts.isStringLiteralLike(node.expression) &&
      ts.isJsxElement(node.parent) &&
      LETTER.test(node.expression.text)
    ) {
      found.push(`${where(node)} {"${node.expression.text}"}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('no hard-coded user-visible text', () => {
  it('the scan itself catches text, literal attributes and string children', () => {
    const bad = `export const A = () => (<div title="Hello"><p>Sign in</p><b>{'Log out'}</b><i aria-label={"Close"} /></div>);`;
    expect(findHardcodedText(bad)).toHaveLength(4);
    const good = `export const B = ({ t }: any) => (<div title={t('x')} className="card"><p>{t('y')}</p><span aria-hidden="true">01</span></div>);`;
    expect(findHardcodedText(good)).toEqual([]);
  });

  const files = tsxFiles(SRC);
  it('finds the client sources', () => expect(files.length).toBeGreaterThan(20));

  it.each(files.map((f) => [relative(SRC, f), f]))('%s', (_name, file) => {
    expect(findHardcodedText(readFileSync(file, 'utf8'), relative(SRC, file))).toEqual([]);
  });
});
