#!/usr/bin/env node
// Generates a small pixel-art cover for every blog article that has none: content/blog/covers/<slug>.svg
// (issue 16: each article its own cover, no external images). The picture is derived from the slug
// alone, so re-running gives the same files; a cover drawn by hand is never overwritten.
// Usage: node scripts/blog-covers.mjs [blog folder]   (default content/blog)
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? 'content/blog');
const PALETTES = [
  ['#0b0f1a', '#39ff88', '#ff3df2', '#28d7ff'],
  ['#120a1f', '#ffe14d', '#39ff88', '#ff5f56'],
  ['#07121a', '#28d7ff', '#ffe14d', '#ff3df2'],
  ['#160b12', '#ff5f56', '#28d7ff', '#39ff88'],
  ['#0d0d12', '#ff3df2', '#ffe14d', '#28d7ff'],
];

function seeded(text) {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return () => {
    h = (Math.imul(h ^ (h >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return h / 2 ** 32;
  };
}

function cover(slug) {
  const rnd = seeded(slug);
  const [bg, a, b, c] = PALETTES[Math.floor(rnd() * PALETTES.length)];
  const W = 32;
  const H = 18;
  const px = [];
  const put = (x, y, w, h, fill) => px.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}"/>`);
  // Stars.
  for (let i = 0; i < 14; i++) put(Math.floor(rnd() * W), Math.floor(rnd() * 8), 1, 1, rnd() < 0.5 ? c : '#ffffff');
  // A skyline of towers.
  for (let x = 0; x < W; x += 2) {
    const h = 3 + Math.floor(rnd() * 7);
    put(x, H - 2 - h, 2, h, rnd() < 0.7 ? '#1d2236' : '#262b45');
    if (rnd() < 0.5) put(x + (rnd() < 0.5 ? 0 : 1), H - 1 - h + Math.floor(rnd() * (h - 1)), 1, 1, b);
  }
  // The rig: a block with a glowing core, placed by the slug.
  const rx = 6 + Math.floor(rnd() * 16);
  put(rx, 7, 8, 7, '#2e3350');
  put(rx + 1, 8, 6, 5, bg);
  put(rx + 2, 9, 4, 3, a);
  put(rx + 3, 10, 2, 1, '#ffffff');
  put(rx + 3, 5, 2, 2, b);
  // Ground.
  put(0, H - 2, W, 2, a);
  put(0, H - 2, W, 1, c);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="320" height="180" shape-rendering="crispEdges"><rect width="${W}" height="${H}" fill="${bg}"/>${px.join('')}</svg>\n`;
}

const slugs = new Set();
for (const lang of readdirSync(dir, { withFileTypes: true })) {
  if (!lang.isDirectory() || lang.name === 'covers') continue;
  for (const name of readdirSync(join(dir, lang.name))) if (name.endsWith('.md')) slugs.add(name.slice(0, -3));
}
mkdirSync(join(dir, 'covers'), { recursive: true });
for (const slug of [...slugs].sort()) {
  const file = join(dir, 'covers', `${slug}.svg`);
  if (existsSync(file)) continue;
  writeFileSync(file, cover(slug));
  console.log(`wrote ${file}`);
}
