#!/usr/bin/env node
// Writes the add-in's PNG icons to assets/ (icon-<size>.png): a rounded square in the product colour with a
// small white bar chart. No image library: pixels are drawn 4x4 supersampled and encoded with zlib.
// The PNGs are committed; run this again only to change the design: `node scripts/make-icons.js`.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

// The sizes the add-in-only manifest asks for (learn.microsoft.com/javascript/api/manifest/...): ribbon
// <Icon> images 16, 32 and 80 required, 20, 24, 40, 48 and 64 supported (icon); IconUrl 32 and
// HighResolutionIconUrl 64 for a task pane add-in (iconurl, highresolutioniconurl).
const RIBBON_SIZES = [16, 20, 24, 32, 40, 48, 64, 80];
const ICON_URL_SIZE = 32;
const HIGH_RESOLUTION_ICON_URL_SIZE = 64;
const SIZES = [...new Set([...RIBBON_SIZES, ICON_URL_SIZE, HIGH_RESOLUTION_ICON_URL_SIZE])].sort((a, b) => a - b);
const BACKGROUND = [0x10, 0x7c, 0x41]; // Excel-ish green
const GLYPH = [0xff, 0xff, 0xff];
const SUPERSAMPLE = 4;

// Shapes in unit coordinates (0..1 across the icon): three rising bars on a baseline.
const CORNER = 0.18;
const BARS = [
  { x0: 0.2, x1: 0.34, top: 0.56 },
  { x0: 0.43, x1: 0.57, top: 0.38 },
  { x0: 0.66, x1: 0.8, top: 0.2 },
];
const BAR_BOTTOM = 0.74;
const BASELINE = { x0: 0.16, x1: 0.84, y0: 0.78, y1: 0.84 };

function insideRoundedSquare(x, y) {
  const cx = Math.min(Math.max(x, CORNER), 1 - CORNER);
  const cy = Math.min(Math.max(y, CORNER), 1 - CORNER);
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2;
}

function insideGlyph(x, y) {
  if (x >= BASELINE.x0 && x < BASELINE.x1 && y >= BASELINE.y0 && y < BASELINE.y1) return true;
  return BARS.some((b) => x >= b.x0 && x < b.x1 && y >= b.top && y < BAR_BOTTOM);
}

/** RGBA pixels (size * size * 4 bytes) of the icon at one size. */
function drawIcon(size) {
  const px = Buffer.alloc(size * size * 4);
  const n = SUPERSAMPLE * SUPERSAMPLE;
  for (let py = 0; py < size; py++) {
    for (let pxl = 0; pxl < size; pxl++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const x = (pxl + (sx + 0.5) / SUPERSAMPLE) / size;
          const y = (py + (sy + 0.5) / SUPERSAMPLE) / size;
          if (!insideRoundedSquare(x, y)) continue;
          if (insideGlyph(x, y)) fg++;
          else bg++;
        }
      }
      const covered = bg + fg;
      const o = (py * size + pxl) * 4;
      if (covered === 0) continue; // transparent
      for (let c = 0; c < 3; c++) px[o + c] = Math.round((BACKGROUND[c] * bg + GLYPH[c] * fg) / covered);
      px[o + 3] = Math.round((255 * covered) / n);
    }
  }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([len, typeAndData, crc]);
}

/** A PNG file (8-bit RGBA, no interlace) from RGBA pixels. */
function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    rows[y * (width * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function main() {
  const dir = path.resolve(__dirname, '..', 'assets');
  fs.mkdirSync(dir, { recursive: true });
  for (const size of SIZES) {
    const file = path.join(dir, `icon-${size}.png`);
    fs.writeFileSync(file, encodePng(size, size, drawIcon(size)));
    console.log(`make-icons: ${path.relative(process.cwd(), file)} (${size}x${size})`);
  }
}

if (require.main === module) main();
module.exports = { SIZES, RIBBON_SIZES, ICON_URL_SIZE, HIGH_RESOLUTION_ICON_URL_SIZE, encodePng, drawIcon };
