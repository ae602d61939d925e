// font.c — TrueType text with stb_truetype: UTF-8 decoding, a glyph cache, kerning, wrapping, drawing into a surface.
#include "font.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_truetype.h>  // the declarations only: the implementation is Debian's libstb (PkgConfig::STB)

#include "paths.h"

#define PHASES 4             // horizontal sub-pixel positions a glyph is drawn at: every quarter pixel
#define GLYPH_SLOTS 1024     // the glyph cache's hash table, kept at most 3/4 full
#define KERN_ASCII 128       // kerning of pairs of ASCII characters is looked up once and kept
#define NOT_LOOKED_UP INT16_MIN
#define MAX_SIDE 16384       // a surface's side, at most (SDL renderers' largest textures)
#define REPLACEMENT 0xFFFDu  // U+FFFD, drawn for bytes that are not UTF-8 and characters the font lacks

// A glyph drawn at one sub-pixel phase: its coverage (0-255), w x h, placed x0, y0 from the pen on the baseline.
typedef struct Bitmap {
  unsigned char *pixels;  // NULL when the glyph is blank (a space) or memory ran out
  int w, h, x0, y0;
  bool made;
} Bitmap;

typedef struct Glyph {
  bool used;
  uint32_t codepoint;
  int index;       // in the font; its replacement's when the font lacks the character
  float advance;   // pixels
  Bitmap phase[PHASES];
} Glyph;

struct fbFont {
  unsigned char *data;  // the whole file: stb_truetype reads the tables in place
  stbtt_fontinfo info;
  float scale;          // pixels per font unit, across
  float scale_y;        // and up: scale, stretched so that the x-height is whole pixels
  int ascent, height, line_skip;
  int replacement;      // glyph index of U+FFFD, or of '?' when the font has none
  Glyph glyphs[GLYPH_SLOTS];
  int glyph_count;
  Glyph spare;          // the glyph in hand when the table is full (drawn, then dropped)
  int16_t kern[KERN_ASCII][KERN_ASCII];  // font units
};

// ---- opening ------------------------------------------------------------------------------------

static unsigned read_u16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }
static unsigned long read_u32(const unsigned char *p)
{
  return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

/*
 * stb_truetype reads a font's tables wherever their offsets point, without checking them against
 * the file's length. The table directory (OpenType spec, "Organization of an OpenType font":
 * numTables at byte 4, then 16-byte records of tag, checksum, offset, length from byte 12) is
 * checked here first, so a cut-short or mislabelled file is refused rather than read past its end.
 */
static bool tables_inside(const unsigned char *data, long size, long offset)
{
  if (offset < 0 || offset + 12 > size) {
    return false;
  }
  long tables = (long)read_u16(data + offset + 4);
  if (offset + 12 + 16L * tables > size) {
    return false;
  }
  for (long k = 0; k < tables; ++k) {
    const unsigned char *record = data + offset + 12 + 16 * k;
    unsigned long at = read_u32(record + 8), length = read_u32(record + 12);
    if (at > (unsigned long)size || length > (unsigned long)size - at) {
      return false;
    }
  }
  return true;
}

static bool read_whole(const char *path, fbFont *f, long *size, char *err, size_t errlen)
{
  char why[256];
  FILE *file = fbFilePath_OpenRegular(path, FB_FONT_MAX_BYTES, size, why, sizeof why);
  if (file == NULL) {
    snprintf(err, errlen, "%s: cannot open the font: %s", path, why);
    return false;
  }
  f->data = malloc(*size > 0 ? (size_t)*size : 1);
  bool read = f->data != NULL && fread(f->data, 1, (size_t)*size, file) == (size_t)*size;
  fclose(file);
  if (!read) {
    snprintf(err, errlen, "%s: cannot read the font", path);
  }
  return read;
}

/*
 * SDL2_ttf's metrics, so that lines are as tall and as far apart as they were: with the font's
 * ascender A, descender D (negative) and line gap G in font units (hhea) and s pixels per unit,
 * ascent = ceil(A s), descent = ceil(D s), height = ascent - descent + 1 (the baseline's row),
 * line skip = ceil((A - D + G) s). DejaVuSans at 14 px: 13, -3, 17, 17.
 *
 * The glyphs are drawn without hinting, so the top of every lowercase letter would be a half-covered
 * row (DejaVuSans's x-height is 7.66 px at 14 px). As an autohinter does first, the vertical scale
 * is stretched (by 4 % at 14 px, 3 % at 16) to put the x-height on a whole pixel, as the baseline
 * already is, so lowercase text is crisp at both edges (looked at beside SDL2_ttf's hinted text).
 */
static void set_metrics(fbFont *f, int pixels)
{
  int ascender, descender, gap;
  stbtt_GetFontVMetrics(&f->info, &ascender, &descender, &gap);
  f->scale = stbtt_ScaleForMappingEmToPixels(&f->info, (float)pixels);
  f->ascent = (int)ceilf(ascender * f->scale);
  f->height = f->ascent - (int)ceilf(descender * f->scale) + 1;
  f->line_skip = (int)ceilf((ascender - descender + gap) * f->scale);
  int x0, y0, x1, x_height;
  f->scale_y = f->scale;
  if (stbtt_GetCodepointBox(&f->info, 'x', &x0, &y0, &x1, &x_height) && x_height > 0) {
    f->scale_y = roundf(x_height * f->scale) / x_height;
  }
}

fbFont *fbFont_Open(const char *path, int pixels, char *err, size_t errlen)
{
  fbFont *f = calloc(1, sizeof *f);
  if (f == NULL) {
    snprintf(err, errlen, "%s: out of memory for the font", path);
    return NULL;
  }
  long size = 0;
  if (!read_whole(path, f, &size, err, errlen)) {
    fbFont_Close(f);
    return NULL;
  }
  int offset = size >= 16 ? stbtt_GetFontOffsetForIndex(f->data, 0) : -1;  // 16: a collection's header
  if (!tables_inside(f->data, size, offset) || !stbtt_InitFont(&f->info, f->data, offset)) {
    snprintf(err, errlen, "%s: not a TrueType font (or a damaged one)", path);
    fbFont_Close(f);
    return NULL;
  }
  set_metrics(f, pixels > 0 ? pixels : 1);
  f->replacement = stbtt_FindGlyphIndex(&f->info, (int)REPLACEMENT);
  if (f->replacement == 0) {
    f->replacement = stbtt_FindGlyphIndex(&f->info, '?');
  }
  for (int a = 0; a < KERN_ASCII; ++a) {
    for (int b = 0; b < KERN_ASCII; ++b) {
      f->kern[a][b] = NOT_LOOKED_UP;
    }
  }
  return f;
}

static void drop_bitmaps(Glyph *g)
{
  for (int p = 0; p < PHASES; ++p) {
    free(g->phase[p].pixels);
  }
  memset(g, 0, sizeof *g);
}

void fbFont_Close(fbFont *font)
{
  if (font == NULL) {
    return;
  }
  for (int k = 0; k < GLYPH_SLOTS; ++k) {
    drop_bitmaps(&font->glyphs[k]);
  }
  drop_bitmaps(&font->spare);
  free(font->data);
  free(font);
}

int fbFont_Height(const fbFont *font) { return font->height; }
int fbFont_LineSkip(const fbFont *font) { return font->line_skip; }
int fbFont_Ascent(const fbFont *font) { return font->ascent; }

// ---- characters and glyphs ----------------------------------------------------------------------

/*
 * UTF-8 (RFC 3629): 0xxxxxxx; 110xxxxx 10xxxxxx from U+0080; 1110xxxx and two continuation bytes
 * from U+0800, surrogates (U+D800-DFFF) excluded; 11110xxx and three up to U+10FFFF. Anything else
 * (a stray continuation byte, a sequence cut short by the end or by a byte that does not continue
 * it, an overlong form) is one bad byte: U+FFFD, and decoding goes on at the next byte. A
 * continuation byte is read only when it is before `end`.
 */
static uint32_t next_codepoint(const char **at, const char *end)
{
  static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
  const unsigned char *p = (const unsigned char *)*at;
  unsigned lead = p[0];
  int extra = lead < 0x80 ? 0 : lead >= 0xC2 && lead <= 0xDF ? 1 : (lead & 0xF0) == 0xE0 ? 2
            : lead >= 0xF0 && lead <= 0xF4 ? 3 : -1;
  *at += 1;
  if (extra <= 0) {
    return extra == 0 ? lead : REPLACEMENT;
  }
  uint32_t cp = lead & (0x3Fu >> extra);
  for (int k = 1; k <= extra; ++k) {
    if ((const char *)p + k >= end || (p[k] & 0xC0) != 0x80) {
      return REPLACEMENT;
    }
    cp = cp << 6 | (p[k] & 0x3F);
  }
  if (cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    return REPLACEMENT;
  }
  *at = (const char *)p + 1 + extra;
  return cp;
}

static void fill_glyph(fbFont *f, Glyph *g, uint32_t cp)
{
  g->used = true;
  g->codepoint = cp;
  g->index = stbtt_FindGlyphIndex(&f->info, (int)cp);
  if (g->index == 0) {
    g->index = f->replacement;
  }
  int advance, bearing;
  stbtt_GetGlyphHMetrics(&f->info, g->index, &advance, &bearing);
  g->advance = advance * f->scale;
}

/*
 * The glyph cache: a hash table of codepoints (Knuth's multiplicative hash, linear probing) holding
 * each glyph's index, advance and bitmaps, so a line costs a lookup per character once its letters
 * have been seen. It keeps at most 3/4 of its slots (short probes); past that, glyphs are made in
 * `spare`, used for the one character and replaced by the next.
 */
static Glyph *glyph_of(fbFont *f, uint32_t cp)
{
  unsigned slot = (unsigned)((cp * 2654435761u) >> 22) % GLYPH_SLOTS;
  while (f->glyphs[slot].used) {
    if (f->glyphs[slot].codepoint == cp) {
      return &f->glyphs[slot];
    }
    slot = (slot + 1) % GLYPH_SLOTS;
  }
  Glyph *g = &f->spare;
  if (f->glyph_count < GLYPH_SLOTS * 3 / 4) {
    g = &f->glyphs[slot];
    f->glyph_count++;
  } else if (g->used && g->codepoint == cp) {
    return g;
  }
  drop_bitmaps(g);
  fill_glyph(f, g, cp);
  return g;
}

// The glyph rasterised with its origin `phase` quarters of a pixel right of a pixel's edge.
static const Bitmap *bitmap_of(fbFont *f, Glyph *g, int phase)
{
  Bitmap *b = &g->phase[phase];
  if (b->made) {
    return b;
  }
  b->made = true;
  float shift = (float)phase / PHASES;
  int x0, y0, x1, y1;
  stbtt_GetGlyphBitmapBoxSubpixel(&f->info, g->index, f->scale, f->scale_y, shift, 0, &x0, &y0, &x1, &y1);
  b->x0 = x0;
  b->y0 = y0;
  if (x1 > x0 && y1 > y0) {
    b->pixels = malloc((size_t)(x1 - x0) * (size_t)(y1 - y0));
  }
  if (b->pixels != NULL) {
    b->w = x1 - x0;
    b->h = y1 - y0;
    stbtt_MakeGlyphBitmapSubpixel(&f->info, b->pixels, b->w, b->h, b->w, f->scale, f->scale_y, shift, 0, g->index);
  }
  return b;
}

// Kerning between two glyphs in pixels (the font's kern or GPOS pair adjustments).
static float kerning(fbFont *f, uint32_t a, int glyph_a, uint32_t b, int glyph_b)
{
  if (a >= KERN_ASCII || b >= KERN_ASCII) {
    return stbtt_GetGlyphKernAdvance(&f->info, glyph_a, glyph_b) * f->scale;
  }
  int16_t *k = &f->kern[a][b];
  if (*k == NOT_LOOKED_UP) {
    int units = stbtt_GetGlyphKernAdvance(&f->info, glyph_a, glyph_b);
    *k = (int16_t)(units < -32767 ? -32767 : units > 32767 ? 32767 : units);
  }
  return *k * f->scale;
}

// ---- laying out a line --------------------------------------------------------------------------

/*
 * A line is laid out with unhinted advances and kerning in fractions of a pixel; each glyph is drawn
 * at the nearest quarter pixel (its bitmap made for that phase), so letters keep their spacing
 * instead of each advance being rounded to whole pixels. Tabs take a space's room; line breaks and
 * other control characters take none.
 */
typedef struct Pen {
  float x;
  bool started;
  uint32_t prev;     // the previous character and its glyph, for kerning
  int prev_index;
} Pen;

// Moves the pen over cp. Returns its glyph, with *at where its origin goes, or NULL (no glyph).
static Glyph *pen_step(fbFont *f, Pen *pen, uint32_t cp, float *at)
{
  cp = cp == '\t' ? ' ' : cp;
  if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) {
    return NULL;
  }
  Glyph *g = glyph_of(f, cp);
  if (pen->started) {
    pen->x += kerning(f, pen->prev, pen->prev_index, cp, g->index);
  }
  *at = pen->x;
  pen->x += g->advance;
  pen->started = true;
  pen->prev = cp;
  pen->prev_index = g->index;
  return g;
}

// The pixel column and phase a glyph whose origin is at x is drawn at.
static void place(float x, int *column, int *phase)
{
  int quarters = (int)floorf(x * PHASES + 0.5f);
  *column = (int)floorf((float)quarters / PHASES);
  *phase = quarters - *column * PHASES;
}

// Width of [start, end) on one line: as far as the pen goes or the ink reaches, whichever is further.
static int line_width(fbFont *f, const char *start, const char *end)
{
  Pen pen = {0};
  float right = 0;
  for (const char *p = start; p < end;) {
    float at;
    Glyph *g = pen_step(f, &pen, next_codepoint(&p, end), &at);
    if (g != NULL) {
      int column, phase;
      place(at, &column, &phase);
      const Bitmap *b = bitmap_of(f, g, phase);
      right = fmaxf(right, (float)(column + b->x0 + b->w));
    }
  }
  int w = (int)ceilf(fmaxf(right, pen.x));
  return w < MAX_SIDE ? w : MAX_SIDE;
}

int fbFont_MeasureLine(fbFont *font, const char *text)
{
  return line_width(font, text, text + strlen(text));
}

// ---- wrapping -----------------------------------------------------------------------------------

/*
 * Greedy wrapping, as SDL2_ttf's: a paragraph (text between '\n') takes as many characters on a
 * line as fit in `wrap` pixels of advance; the line then ends at the last space among them (that
 * space and those after it are dropped), or, in a word longer than the line, before the character
 * that did not fit (never before the first, so every line holds something). A '\n' at the very end
 * starts no empty line.
 */
static void fit_line(fbFont *f, const char *start, const char *end, int wrap, const char **line_end, const char **next)
{
  Pen pen = {0};
  const char *space = NULL;
  for (const char *p = start; p < end;) {
    const char *here = p;
    uint32_t cp = next_codepoint(&p, end);
    if (cp == ' ') {
      space = here;
    }
    float at;
    if (pen_step(f, &pen, cp, &at) != NULL && pen.x > wrap + 0.01f && here > start) {
      if (space != NULL && space > start) {
        *line_end = space;
        while (*line_end > start && (*line_end)[-1] == ' ') {
          --*line_end;
        }
        for (*next = space; *next < end && **next == ' ';) {
          ++*next;
        }
      } else {
        *line_end = *next = here;
      }
      return;
    }
  }
  *line_end = *next = end;
}

typedef void (*LineFn)(fbFont *f, const char *start, const char *end, int index, void *ctx);

// Calls fn for each line of text wrapped at wrap pixels (one line when wrap <= 0); returns how many.
static int each_line(fbFont *f, const char *text, int wrap, LineFn fn, void *ctx)
{
  const char *end = text + strlen(text);
  if (wrap <= 0) {
    fn(f, text, end, 0, ctx);
    return 1;
  }
  int lines = 0;
  for (const char *para = text;;) {
    const char *para_end = memchr(para, '\n', (size_t)(end - para));
    para_end = para_end != NULL ? para_end : end;
    const char *start = para;
    do {
      const char *line_end, *next;
      fit_line(f, start, para_end, wrap, &line_end, &next);
      fn(f, start, line_end, lines++, ctx);
      start = next;
    } while (start < para_end);
    if (para_end == end || para_end + 1 == end) {
      return lines;
    }
    para = para_end + 1;
  }
}

static void widest(fbFont *f, const char *start, const char *end, int index, void *ctx)
{
  (void)index;
  int *w = ctx, lw = line_width(f, start, end);
  *w = lw > *w ? lw : *w;
}

void fbFont_Measure(fbFont *font, const char *text, int wrap, int *w, int *h)
{
  int widest_w = 0;
  int lines = each_line(font, text, wrap, widest, &widest_w);
  if (w != NULL) {
    *w = widest_w;
  }
  if (h != NULL) {
    long tall = (long)(lines - 1) * font->line_skip + font->height;
    *h = tall < MAX_SIDE ? (int)tall : MAX_SIDE;
  }
}

// ---- drawing ------------------------------------------------------------------------------------

typedef struct Canvas {
  unsigned char *coverage;
  int w, h;
} Canvas;

// Adds a glyph's coverage at (left, top), clipped to the canvas. Adding (capped at full) rather than
// taking the larger keeps the seam where two kerned letters touch as dark as the letters.
static void blit(Canvas *c, const Bitmap *b, int left, int top)
{
  for (int row = 0; row < b->h; ++row) {
    int y = top + row;
    if (y < 0 || y >= c->h) {
      continue;
    }
    unsigned char *dst = c->coverage + (size_t)y * (size_t)c->w;
    const unsigned char *src = b->pixels + (size_t)row * (size_t)b->w;
    for (int col = 0; col < b->w; ++col) {
      int x = left + col;
      if (x >= 0 && x < c->w && src[col] != 0) {
        unsigned sum = dst[x] + src[col];
        dst[x] = (unsigned char)(sum > 255 ? 255 : sum);
      }
    }
  }
}

static void draw_line(fbFont *f, const char *start, const char *end, int index, void *ctx)
{
  Canvas *c = ctx;
  int baseline = index * f->line_skip + f->ascent;
  Pen pen = {0};
  for (const char *p = start; p < end;) {
    float at;
    Glyph *g = pen_step(f, &pen, next_codepoint(&p, end), &at);
    if (g != NULL) {
      int column, phase;
      place(at, &column, &phase);
      const Bitmap *b = bitmap_of(f, g, phase);
      if (b->pixels != NULL) {
        blit(c, b, column + b->x0, baseline + b->y0);
      }
    }
  }
}

// The coverage as colour c with alpha = coverage x c.a.
static SDL_Surface *surface_of(const Canvas *c, SDL_Color colour)
{
  SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, c->w, c->h, 32, SDL_PIXELFORMAT_ARGB8888);
  if (s == NULL) {
    return NULL;
  }
  Uint32 rgb = (Uint32)colour.r << 16 | (Uint32)colour.g << 8 | colour.b;
  for (int y = 0; y < c->h; ++y) {
    Uint32 *row = (Uint32 *)((Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch);
    const unsigned char *cov = c->coverage + (size_t)y * (size_t)c->w;
    for (int x = 0; x < c->w; ++x) {
      row[x] = (Uint32)((cov[x] * colour.a + 127) / 255) << 24 | rgb;
    }
  }
  return s;
}

SDL_Surface *fbFont_Render(fbFont *font, const char *text, SDL_Color c, int wrap)
{
  Canvas canvas = {NULL, 0, 0};
  fbFont_Measure(font, text, wrap, &canvas.w, &canvas.h);
  canvas.w = canvas.w > 0 ? canvas.w : 1;
  canvas.coverage = calloc((size_t)canvas.w * (size_t)canvas.h, 1);
  if (canvas.coverage == NULL) {
    return NULL;
  }
  each_line(font, text, wrap, draw_line, &canvas);
  SDL_Surface *s = surface_of(&canvas, c);
  free(canvas.coverage);
  return s;
}
