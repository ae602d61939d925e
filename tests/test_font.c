// test_font.c — the window's text with stb_truetype: metrics, measuring, wrapping, bad UTF-8, bad files, pixels drawn.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <string.h>

#include "font.h"
#include "test_util.h"

static fbFont *open_font(int pixels)
{
  char err[512] = "";
  fbFont *f = fbFont_Open(FB_FONT_PATH, pixels, err, sizeof err);
  if (f == NULL) {
    fail_msg("%s", err);
  }
  return f;
}

static Uint8 alpha_at(const SDL_Surface *s, int x, int y)
{
  return (Uint8)(((const Uint32 *)((const Uint8 *)s->pixels + y * s->pitch))[x] >> 24);
}

// Lines as tall and as far apart as SDL2_ttf made them (DejaVuSans: 17 px at 14, 19 at 16), so the
// window's layout does not move.
static void test_metrics_are_sdl_ttf_s(void **state)
{
  (void)state;
  fbFont *f = open_font(14);
  assert_int_equal(fbFont_Height(f), 17);
  assert_int_equal(fbFont_LineSkip(f), 17);
  assert_int_equal(fbFont_Ascent(f), 13);
  fbFont_Close(f);
  f = open_font(16);
  assert_int_equal(fbFont_Height(f), 19);
  assert_int_equal(fbFont_LineSkip(f), 19);
  fbFont_Close(f);
}

static void test_measures_lines(void **state)
{
  (void)state;
  fbFont *f = open_font(14);
  int hello = fbFont_MeasureLine(f, "Hello"), world = fbFont_MeasureLine(f, "Hello world");
  assert_in_range(hello, 30, 40);  // SDL2_ttf, hinted: 37
  assert_true(world > hello + 30);
  assert_int_equal(fbFont_MeasureLine(f, ""), 0);
  assert_int_equal(fbFont_MeasureLine(f, "\n"), 0);  // a line break takes no room on one line
  assert_int_equal(fbFont_MeasureLine(f, "\t"), fbFont_MeasureLine(f, " "));
  // Kerning: DejaVuSans draws A and V closer together than their advances.
  assert_true(fbFont_MeasureLine(f, "AVAVAV") < 3 * (fbFont_MeasureLine(f, "A") + fbFont_MeasureLine(f, "V")) - 2);
  int w, h;
  fbFont_Measure(f, "Hello", 0, &w, &h);
  assert_int_equal(w, hello);
  assert_int_equal(h, 17);
  fbFont_Close(f);
}

static void test_wraps_at_spaces_and_line_breaks(void **state)
{
  (void)state;
  fbFont *f = open_font(14);
  const char *text = "arrows: what each rule adds after its weight and the sum combiner";
  int one_w, one_h, w, h;
  fbFont_Measure(f, text, 0, &one_w, &one_h);
  fbFont_Measure(f, text, 150, &w, &h);
  assert_true(h >= one_h + 2 * 17);  // at least three lines
  assert_true(w <= 150);
  assert_true(w > 100);
  fbFont_Measure(f, text, one_w + 10, &w, &h);  // room for it all: one line
  assert_int_equal(h, one_h);
  assert_int_equal(w, one_w);
  fbFont_Measure(f, "first\nsecond", 1000, &w, &h);
  assert_int_equal(h, 17 + 17);
  assert_int_equal(w, fbFont_MeasureLine(f, "second"));
  fbFont_Measure(f, "first\n\nthird", 1000, NULL, &h);  // an empty line is a line
  assert_int_equal(h, 3 * 17);
  fbFont_Measure(f, "first\n", 1000, NULL, &h);  // a final line break opens no line
  assert_int_equal(h, 17);
  // One word wider than the line is cut between its letters, every line holding something.
  fbFont_Measure(f, "Superlongwordthatcannotfit", 40, &w, &h);
  assert_true(h >= 4 * 17);
  assert_true(w <= 40);
  fbFont_Measure(f, "W", 1, &w, &h);
  assert_int_equal(h, 17);
  SDL_Surface *s = fbFont_Render(f, text, (SDL_Color){255, 255, 255, 255}, 150);
  assert_non_null(s);
  assert_true(s->h >= 3 * 17);
  SDL_FreeSurface(s);
  fbFont_Close(f);
}

// Bytes that are not UTF-8 are drawn as U+FFFD, one each; none is read past the string's end.
static void test_bad_utf8_is_replaced(void **state)
{
  (void)state;
  fbFont *f = open_font(14);
  int replacement = fbFont_MeasureLine(f, "\xEF\xBF\xBD");
  assert_true(replacement > 0);
  assert_int_equal(fbFont_MeasureLine(f, "\xFF"), replacement);
#define FFFD "\xEF\xBF\xBD"
  assert_int_equal(fbFont_MeasureLine(f, "\xC0\xAF"), fbFont_MeasureLine(f, FFFD FFFD));  // an overlong '/'
  assert_int_equal(fbFont_MeasureLine(f, "\xED\xA0\x80"), fbFont_MeasureLine(f, FFFD FFFD FFFD));  // a surrogate
  assert_int_equal(fbFont_MeasureLine(f, "\xF4\x90\x80\x80"), fbFont_MeasureLine(f, FFFD FFFD FFFD FFFD));  // past U+10FFFF
  assert_int_equal(fbFont_MeasureLine(f, "a\xE2\x80"), fbFont_MeasureLine(f, "a" FFFD FFFD));  // cut short
  const char *cut[] = {"a\xC3", "a\xE2\x80", "a\xF0\x9F\x98", "\x80\x80", "\xE2\x80\xA6\xE2"};
  for (size_t k = 0; k < sizeof cut / sizeof cut[0]; ++k) {
    size_t n = strlen(cut[k]);
    char *exact = malloc(n + 1);  // on the heap, as long as it is: a read past it shows under ASan
    memcpy(exact, cut[k], n + 1);
    assert_true(fbFont_MeasureLine(f, exact) > 0);
    SDL_Surface *s = fbFont_Render(f, exact, (SDL_Color){255, 255, 255, 255}, 20);
    assert_non_null(s);
    SDL_FreeSurface(s);
    free(exact);
  }
  assert_true(fbFont_MeasureLine(f, "\xE2\x80\xA6") != replacement);  // a valid "…" is itself
  fbFont_Close(f);
}

// Random bytes, each string in a heap block of its own length (ASan shows a read past it), measured
// and drawn wrapped: nothing crashes, and a string is as wide drawn as measured.
static void test_random_bytes(void **state)
{
  (void)state;
  fbFont *f = open_font(14);
  uint32_t seed = 12345;
  for (int k = 0; k < 2000; ++k) {
    size_t n = (seed = seed * 1664525u + 1013904223u) >> 27;  // 0..31 bytes
    char *text = malloc(n + 1);
    for (size_t i = 0; i < n; ++i) {
      seed = seed * 1664525u + 1013904223u;
      text[i] = (char)(1 + (seed >> 24) % 255);  // any byte but NUL
    }
    text[n] = '\0';
    SDL_Surface *s = fbFont_Render(f, text, (SDL_Color){255, 255, 255, 255}, 0);
    assert_non_null(s);
    int w = fbFont_MeasureLine(f, text);
    assert_int_equal(s->w, w > 0 ? w : 1);
    SDL_FreeSurface(s);
    s = fbFont_Render(f, text, (SDL_Color){255, 255, 255, 255}, 30);
    assert_non_null(s);
    SDL_FreeSurface(s);
    free(text);
  }
  fbFont_Close(f);
}

static void test_empty_text_is_a_blank_surface(void **state)
{
  (void)state;
  fbFont *f = open_font(14);
  SDL_Surface *s = fbFont_Render(f, "", (SDL_Color){255, 255, 255, 255}, 0);
  assert_non_null(s);
  assert_int_equal(s->w, 1);
  assert_int_equal(s->h, 17);
  for (int y = 0; y < s->h; ++y) {
    assert_int_equal(alpha_at(s, 0, y), 0);
  }
  SDL_FreeSurface(s);
  s = fbFont_Render(f, "", (SDL_Color){255, 255, 255, 255}, 100);
  assert_non_null(s);
  SDL_FreeSurface(s);
  fbFont_Close(f);
}

static void expect_refused(const char *path, const char *reason)
{
  char err[512] = "";
  fbFont *f = fbFont_Open(path, 14, err, sizeof err);
  assert_null(f);
  assert_non_null(strstr(err, path));
  if (strstr(err, reason) == NULL) {
    fail_msg("%s: expected \"%s\" in the message, got \"%s\"", path, reason, err);
  }
}

static void write_file(const char *path, const void *data, size_t n)
{
  FILE *out = fopen(path, "wb");
  assert_non_null(out);
  assert_int_equal(fwrite(data, 1, n, out), n);
  fclose(out);
}

// A file that is missing, not a font, cut short, empty or a folder is refused with a message naming it.
static void test_bad_files_are_refused(void **state)
{
  (void)state;
  expect_refused("/nonexistent/font.ttf", "No such file");
  expect_refused("tests/test_font.c", "not a TrueType font");
  expect_refused("tests", "not a regular file");
  static unsigned char head[4096];
  FILE *in = fopen(FB_FONT_PATH, "rb");
  assert_non_null(in);
  assert_int_equal(fread(head, 1, sizeof head, in), sizeof head);
  fclose(in);
  char cut[512], empty[512];
  snprintf(cut, sizeof cut, "%s", fbTest_ScratchPath("cut.ttf"));
  snprintf(empty, sizeof empty, "%s", fbTest_ScratchPath("empty.ttf"));
  write_file(cut, head, sizeof head);  // the table directory points past the end
  write_file(empty, head, 0);
  expect_refused(cut, "not a TrueType font");
  expect_refused(empty, "not a TrueType font");
}

// The text's colour everywhere, its coverage in alpha: ink in the letters, nothing at the corners.
static void test_rendered_pixels(void **state)
{
  (void)state;
  fbFont *f = open_font(14);
  SDL_Color c = {200, 100, 50, 255};
  SDL_Surface *s = fbFont_Render(f, "Hello", c, 0);
  assert_non_null(s);
  assert_int_equal(s->format->format, SDL_PIXELFORMAT_ARGB8888);
  assert_int_equal(s->w, fbFont_MeasureLine(f, "Hello"));
  assert_int_equal(s->h, 17);
  int inked = 0, solid = 0;
  for (int y = 0; y < s->h; ++y) {
    for (int x = 0; x < s->w; ++x) {
      Uint32 p = ((Uint32 *)((Uint8 *)s->pixels + y * s->pitch))[x];
      assert_int_equal(p & 0xFFFFFF, 0xC86432u);
      inked += (p >> 24) > 0;
      solid += (p >> 24) > 200;
    }
  }
  assert_true(solid > 20);        // the stems of H, l, l are whole pixels
  assert_true(inked < s->w * s->h / 2);
  assert_int_equal(alpha_at(s, 0, 0), 0);
  assert_int_equal(alpha_at(s, s->w - 1, 0), 0);
  assert_int_equal(alpha_at(s, 0, s->h - 1), 0);
  SDL_FreeSurface(s);
  s = fbFont_Render(f, "Hello", (SDL_Color){255, 255, 255, 128}, 0);  // a translucent colour halves alpha
  int most = 0;
  for (int y = 0; y < s->h; ++y) {
    for (int x = 0; x < s->w; ++x) {
      most = alpha_at(s, x, y) > most ? alpha_at(s, x, y) : most;
    }
  }
  assert_in_range(most, 100, 128);
  SDL_FreeSurface(s);
  fbFont_Close(f);
}

// The top of a lowercase letter is a solid row (the x-height on a whole pixel), not a half-covered one.
static void test_lowercase_tops_are_crisp(void **state)
{
  (void)state;
  int sizes[] = {14, 16};
  for (int k = 0; k < 2; ++k) {
    fbFont *f = open_font(sizes[k]);
    SDL_Surface *s = fbFont_Render(f, "zzz", (SDL_Color){255, 255, 255, 255}, 0);
    assert_non_null(s);
    int top = -1, solid = 0;
    for (int y = 0; y < s->h && top < 0; ++y) {
      for (int x = 0; x < s->w; ++x) {
        top = alpha_at(s, x, y) > 0 ? y : top;
      }
    }
    assert_true(top >= 0);
    for (int x = 0; x < s->w; ++x) {
      solid += alpha_at(s, x, top) > 230;
    }
    assert_true(solid >= 3 * 5);  // z's top bar, whole pixels
    SDL_FreeSurface(s);
    fbFont_Close(f);
  }
}

// More distinct characters than the glyph cache keeps: the ones past it are drawn all the same.
static void test_more_characters_than_the_cache_holds(void **state)
{
  (void)state;
  fbFont *f = open_font(14);
  static char text[8192];
  size_t n = 0;
  for (unsigned cp = 0x100; cp < 0x100 + 1500; ++cp) {  // Latin, IPA, Greek, Cyrillic, ...: 2 bytes each
    text[n++] = (char)(0xC0 | cp >> 6);
    text[n++] = (char)(0x80 | (cp & 0x3F));
  }
  text[n] = '\0';
  int first = fbFont_MeasureLine(f, text), again = fbFont_MeasureLine(f, text);
  assert_true(first > 1500 * 4);
  assert_int_equal(first, again);
  SDL_Surface *s = fbFont_Render(f, text, (SDL_Color){255, 255, 255, 255}, 600);
  assert_non_null(s);
  SDL_FreeSurface(s);
  fbFont_Close(f);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_metrics_are_sdl_ttf_s),
    cmocka_unit_test(test_measures_lines),
    cmocka_unit_test(test_wraps_at_spaces_and_line_breaks),
    cmocka_unit_test(test_bad_utf8_is_replaced),
    cmocka_unit_test(test_random_bytes),
    cmocka_unit_test(test_empty_text_is_a_blank_surface),
    cmocka_unit_test(test_bad_files_are_refused),
    cmocka_unit_test(test_rendered_pixels),
    cmocka_unit_test(test_lowercase_tops_are_crisp),
    cmocka_unit_test(test_more_characters_than_the_cache_holds),
  };
  return fb_run_tests(tests);
}
