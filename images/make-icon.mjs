// Draws images/icon.png (128×128): a dark rounded tile with a small tree of agents.
// Run: node images/make-icon.mjs. No dependencies: writes the PNG with zlib.
import { deflateSync } from 'zlib';
import { writeFileSync } from 'fs';

const N = 128, S = 4; // size, supersampling
const img = new Float64Array(N * N * 4);
const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

function sdRoundRect(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - hw + r, qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}
function sdSegment(x, y, ax, ay, bx, by) {
  const px = x - ax, py = y - ay, dx = bx - ax, dy = by - ay;
  const h = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - dx * h, py - dy * h);
}
const shapes = [];
const fill = (sdf, color) => shapes.push({ sdf, color: hex(color) });

fill((x, y) => sdRoundRect(x, y, 64, 64, 62, 62, 22), '#1b2433');
const root = [64, 34], kids = [[30, 92], [64, 92], [98, 92]];
for (const [kx, ky] of kids) fill((x, y) => sdSegment(x, y, root[0], root[1] + 10, kx, ky - 10) - 4, '#8aa4c8');
fill((x, y) => Math.hypot(x - root[0], y - root[1]) - 17, '#f2c14e');
const colors = ['#4fb6a8', '#e0735a', '#8f7ee0'];
kids.forEach(([kx, ky], i) => fill((x, y) => sdRoundRect(x, y, kx, ky, 14, 14, 5), colors[i]));
fill((x, y) => Math.max(sdSegment(x, y, 56, 35, 62, 41) - 3.2, -1e9), '#1b2433');
fill((x, y) => sdSegment(x, y, 62, 41, 73, 28) - 3.2, '#1b2433');

for (let py = 0; py < N; py++) for (let px = 0; px < N; px++) {
  let acc = [0, 0, 0, 0];
  for (let sy = 0; sy < S; sy++) for (let sx = 0; sx < S; sx++) {
    const x = px + (sx + 0.5) / S, y = py + (sy + 0.5) / S;
    let c = [0, 0, 0, 0];
    for (const s of shapes) if (s.sdf(x, y) <= 0) c = [...s.color, 255];
    acc = acc.map((v, i) => v + c[i]);
  }
  for (let i = 0; i < 4; i++) img[(py * N + px) * 4 + i] = acc[i] / (S * S);
}

const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) {
  raw[y * (N * 4 + 1)] = 0;
  for (let x = 0; x < N * 4; x++) {
    const i = y * N * 4 + x, a = img[y * N * 4 + (x & ~3) + 3];
    // un-premultiply colour channels (they were averaged together with transparent black)
    raw[y * (N * 4 + 1) + 1 + x] = (x & 3) === 3 ? Math.round(img[i]) : a ? Math.round((img[i] * 255) / a) : 0;
  }
}
const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0); ihdr.writeUInt32BE(N, 4); ihdr[8] = 8; ihdr[9] = 6;
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`images/icon.png: ${png.length} bytes`);
