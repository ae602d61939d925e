// font.h — a TrueType font rasterised with stb_truetype: UTF-8 lines measured, wrapped and drawn into SDL surfaces.
#ifndef FB_FONT_H
#define FB_FONT_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>

// A font file larger than this is refused before it is read (DejaVuSans is 0.7 MB; a CJK font ~20 MB).
#define FB_FONT_MAX_BYTES (32L * 1024 * 1024)

/*
 * One font at one pixel size, with the glyphs it has drawn kept for the next line. The metrics are
 * SDL2_ttf's (so the window's layout is what it was): the size is the em in pixels, the ascent and
 * descent are the font's rounded up, a line is ascent + descent + 1 pixels tall and lines are
 * `line_skip` apart. The file is trusted as a system font is: stb_truetype does not check every
 * offset inside it, only that it starts as a font.
 */
typedef struct fbFont fbFont;

// Opens the TrueType file at path at a size of `pixels` to the em. NULL with the reason in err
// ("<path>: not a TrueType font", "<path>: No such file or directory", ...).
fbFont *fbFont_Open(const char *path, int pixels, char *err, size_t errlen);
void fbFont_Close(fbFont *font);

int fbFont_Height(const fbFont *font);    // a line's pixels, top of the tallest letter to below the lowest
int fbFont_LineSkip(const fbFont *font);  // from one line's top to the next's
int fbFont_Ascent(const fbFont *font);    // from a line's top to its baseline

// Width in pixels of text (UTF-8) drawn on one line. Line breaks and other control characters take
// no room; a byte that is not valid UTF-8 is drawn as U+FFFD.
int fbFont_MeasureLine(fbFont *font, const char *text);

// The size of text wrapped at `wrap` pixels (one line when wrap <= 0): the widest line, and the height
// of all lines. Lines break at '\n', else at the last space that fits, else between two characters.
void fbFont_Measure(fbFont *font, const char *text, int wrap, int *w, int *h);

/*
 * text drawn as fbFont_Measure lays it out, into a new surface of that size (at least 1 pixel wide):
 * SDL_PIXELFORMAT_ARGB8888 whose colour is c everywhere and whose alpha is the glyphs' coverage
 * (times c.a), for SDL_CreateTextureFromSurface and alpha blending. NULL only if memory runs out.
 */
SDL_Surface *fbFont_Render(fbFont *font, const char *text, SDL_Color c, int wrap);

#endif
