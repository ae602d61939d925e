// png.js — reads an 8-bit RGB or RGBA PNG (what a browser's screenshot is) into pixels, with Node's zlib.
'use strict';

/*
 * A PNG is an 8-byte signature and chunks (length, type, data, CRC). IHDR gives width, height, bit
 * depth 8 and colour type 2 (RGB) or 6 (RGBA); the IDAT chunks together are one zlib stream of
 * rows, each row a filter byte then the row's bytes. The filters (PNG spec, section 9) predict each
 * byte x from a (the byte one pixel left), b (above) and c (above-left):
 *   0 none  x          1 sub  x + a          2 up  x + b
 *   3 average  x + floor((a + b) / 2)        4 Paeth  x + the one of a, b, c nearest to a + b - c
 * all modulo 256. Interlaced and palette images are refused: screenshots are neither.
 */

const zlib = require('zlib');

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

// Returns { width, height, rgba: Buffer of width*height*4 } ; throws on anything it does not read.
function decode(buffer) {
  if (buffer.length < 8 || !buffer.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG (signature)');
  let pos = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos + 8 <= buffer.length) {
    const length = buffer.readUInt32BE(pos);
    const type = buffer.toString('latin1', pos + 4, pos + 8);
    const data = buffer.subarray(pos + 8, pos + 8 + length);
    pos += 12 + length;
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8], colour = data[9], interlace = data[12];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
        throw new Error(`PNG: only 8-bit RGB/RGBA, not interlaced (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      }
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
  }
  if (!channels) throw new Error('PNG: no IHDR');
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('PNG: image data cut short');
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1, row = y * stride, up = row - stride;
    for (let i = 0; i < stride; ++i) {
      const x = raw[src + i];
      const a = i >= channels ? pixels[row + i - channels] : 0;
      const b = y > 0 ? pixels[up + i] : 0;
      const c = y > 0 && i >= channels ? pixels[up + i - channels] : 0;
      let v;
      switch (filter) {
        case 0: v = x; break;
        case 1: v = x + a; break;
        case 2: v = x + b; break;
        case 3: v = x + ((a + b) >> 1); break;
        case 4: v = x + paeth(a, b, c); break;
        default: throw new Error(`PNG: unknown filter ${filter} in row ${y}`);
      }
      pixels[row + i] = v & 255;
    }
  }
  if (channels === 4) return { width, height, rgba: pixels };
  const rgba = Buffer.alloc(width * height * 4);
  for (let p = 0; p < width * height; ++p) {
    rgba[p * 4] = pixels[p * 3];
    rgba[p * 4 + 1] = pixels[p * 3 + 1];
    rgba[p * 4 + 2] = pixels[p * 3 + 2];
    rgba[p * 4 + 3] = 255;
  }
  return { width, height, rgba };
}

// The pixel at (x, y) as [r, g, b, a].
function pixel(image, x, y) {
  const i = (y * image.width + x) * 4;
  return [image.rgba[i], image.rgba[i + 1], image.rgba[i + 2], image.rgba[i + 3]];
}

module.exports = { decode, pixel };
