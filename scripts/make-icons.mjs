// Draws the app icons (public/icons/*.png): a pixel-art PXT coin on the app's background colour.
// No image library: the picture is a small grid of cells scaled up with nearest-neighbour, written
// by the tiny PNG encoder below (RGBA, filter 0, node:zlib deflate). Run: `node scripts/make-icons.mjs`.
// The PNGs are committed; rerun only when the drawing changes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const OUT = new URL('../public/icons/', import.meta.url).pathname;

const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16), 255];
// The theme tokens of src/app/global.css plus the coin's golds.
const C = {
  bg: hex('#0b0714'),
  neon: hex('#ff2bd6'),
  rim: hex('#a8650a'),
  gold: hex('#ffc21a'),
  shine: hex('#fff3a6'),
  shade: hex('#e09a0c'),
  ink: hex('#2a0f3d'),
};

// 3×5 glyphs, '#' = ink.
const GLYPHS = {
  P: ['###', '#.#', '###', '#..', '#..'],
  X: ['#.#', '#.#', '.#.', '#.#', '#.#'],
  T: ['###', '.#.', '.#.', '.#.', '.#.'],
};

/** The coin on an n×n grid of cells: returns a function cell(x, y) → RGBA. */
function coinGrid(n, radius) {
  const half = n / 2;
  const text = 'PXT';
  const scale = 2;
  const gap = 1;
  const textW = text.length * 3 * scale + (text.length - 1) * gap;
  const textH = 5 * scale;
  const tx0 = Math.floor((n - textW) / 2);
  const ty0 = Math.floor((n - textH) / 2);
  const inkAt = (x, y) => {
    const gx = x - tx0;
    const gy = y - ty0;
    if (gy < 0 || gy >= textH || gx < 0 || gx >= textW) return false;
    const slot = 3 * scale + gap;
    const letter = Math.floor(gx / slot);
    const lx = gx - letter * slot;
    if (letter >= text.length || lx >= 3 * scale) return false;
    return GLYPHS[text[letter]][Math.floor(gy / scale)][Math.floor(lx / scale)] === '#';
  };
  return (x, y) => {
    const dx = x + 0.5 - half;
    const dy = y + 0.5 - half;
    const d = Math.hypot(dx, dy);
    if (d > radius + 1) return C.bg;
    if (d > radius) return C.neon; // a one-cell neon outline, the app's accent
    if (d > radius - 2) return C.rim;
    if (inkAt(x, y)) return C.ink;
    // the text's drop shadow, one cell down-right, in the rim colour
    if (inkAt(x - 1, y - 1)) return C.rim;
    // light from the top left: a shine arc, a shaded lower right
    if (d > radius - 4 && dx + dy < -radius * 0.6) return C.shine;
    if (d > radius - 4 && dx + dy > radius * 0.6) return C.shade;
    return C.gold;
  };
}

function render(size, n, radius) {
  const cell = coinGrid(n, radius);
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0 (None) then RGBA
    const gy = Math.floor((y * n) / size);
    for (let x = 0; x < size; x++) {
      const rgba = cell(Math.floor((x * n) / size), gy);
      row.set(rgba, 1 + x * 4);
    }
    rows.push(row);
  }
  return encodePng(size, size, Buffer.concat(rows));
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function encodePng(width, height, scanlines) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // filter method
  ihdr[12] = 0; // no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(scanlines, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// "any" icons: the coin nearly fills a 32-cell grid (6 and 16 px per cell). Maskable: the same coin
// on a 44-cell grid, so it stays inside the 80 % safe circle whatever mask the launcher applies.
const ICONS = [
  { file: 'icon-192.png', size: 192, n: 32, radius: 14.5 },
  { file: 'icon-512.png', size: 512, n: 32, radius: 14.5 },
  { file: 'icon-maskable-512.png', size: 512, n: 44, radius: 14.5 },
  { file: 'apple-touch-icon-180.png', size: 180, n: 36, radius: 14.5 },
];

mkdirSync(OUT, { recursive: true });
for (const icon of ICONS) {
  const png = render(icon.size, icon.n, icon.radius);
  writeFileSync(join(OUT, icon.file), png);
  console.log(`${icon.file}: ${icon.size}×${icon.size}, ${png.length} bytes`);
}
