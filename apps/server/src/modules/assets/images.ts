import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** Cover sizes of each shape at their stored (largest) width; the cover call scales them down. */
const COVER_SOURCE_SIZE = { landscape: [1000, 750], square: [900, 900], portrait: [750, 1000] } as const;
export type CoverShape = keyof typeof COVER_SOURCE_SIZE;

const PALETTE: Array<[string, string]> = [
  ['#1f5fa8', '#4c2f8f'], ['#0f766e', '#14532d'], ['#9a3412', '#7c2d12'], ['#6d28d9', '#1e3a8a'], ['#be123c', '#7f1d1d'],
  ['#0e7490', '#1e40af'], ['#a16207', '#7c2d12'], ['#15803d', '#0f766e'], ['#4338ca', '#6b21a8'],
];

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function pick<T>(list: readonly T[], key: string): T {
  return list[createHash('sha256').update(key).digest()[0]! % list.length]!;
}

/** Splits a title into lines of at most `width` characters (at most three lines). */
function wrap(title: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/).filter(Boolean)) {
    if (line && `${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.slice(0, 3);
}

/** A generated cover of the given shape: a colour field with the title, as PNG at its stored size. */
export async function renderCover(title: string, shape: CoverShape): Promise<Buffer> {
  const [width, height] = COVER_SOURCE_SIZE[shape];
  const [from, to] = pick(PALETTE, title);
  const lines = wrap(title, shape === 'landscape' ? 22 : 16);
  const size = Math.round(width / 13);
  const text = lines
    .map((l, i) => `<text x="${width / 2}" y="${height * 0.78 + (i - (lines.length - 1) / 2) * size * 1.25}" font-size="${size}" text-anchor="middle" fill="#ffffff" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold">${escapeXml(l)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#g)"/>
  <circle cx="${width / 2}" cy="${height * 0.38}" r="${Math.min(width, height) * 0.22}" fill="#ffffff" fill-opacity="0.18"/>
  <rect x="${width * 0.08}" y="${height * 0.08}" width="${width * 0.84}" height="${height * 0.84}" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="${Math.round(width / 120)}"/>
  ${text}
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

/**
 * Any stored image scaled to `width` (never up), as WebP; also strips anything that is not pixels. An image of more
 * than `maxPixels` is refused from its header, before any decoding.
 */
export async function scaleImage(source: Buffer, width: number, maxPixels = 40_000_000): Promise<{ body: Buffer; contentType: string }> {
  const body = await sharp(source, { limitInputPixels: maxPixels })
    .rotate()
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 82 })
    .toBuffer();
  return { body, contentType: 'image/webp' };
}

/** Up to two initials of a name or e-mail. */
export function initialsOf(name: string, email = ''): string {
  const source = name.trim() || email.split('@')[0] || '?';
  const words = source.split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]?.[0] ?? ''}${words[words.length - 1]?.[0] ?? ''}` : source.slice(0, 2);
  return letters.toUpperCase();
}

/** A round initials avatar (PNG, 128 px): white text on a dark colour chosen by the person's id (contrast > 4.5:1). */
export async function renderInitials(initials: string, key: string): Promise<Buffer> {
  const [background] = pick(PALETTE, key);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128">
  <circle cx="64" cy="64" r="64" fill="${background}"/>
  <text x="64" y="80" font-size="46" text-anchor="middle" fill="#ffffff" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold">${escapeXml(initials)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A strong ETag of a body. */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
