// picture.c — the renderer's pixels read back and written as a PNG with stb_image_write.
#include "picture.h"

#include <stb_image_write.h>

#include "fb.h"
#include "paths.h"

// stb_image_write's sink: our own FILE, opened only after the path was checked (stbi_write_png
// would open anything, a FIFO or a device included).
static void write_to_file(void *f, void *data, int size) { fwrite(data, 1, (size_t)size, f); }

bool fbPicture_WritePng(SDL_Renderer *sdl, const char *path, char *err, size_t errlen)
{
  int w, h;
  if (SDL_GetRendererOutputSize(sdl, &w, &h) != 0 || w <= 0 || h <= 0) {
    snprintf(err, errlen, "%s: cannot read the picture: %s", path, SDL_GetError());
    return false;
  }
  uint8_t *pixels = malloc((size_t)w * h * 4);
  FB_ASSERT(pixels != NULL);
  bool ok = SDL_RenderReadPixels(sdl, NULL, SDL_PIXELFORMAT_RGBA32, pixels, w * 4) == 0;
  if (!ok) {
    snprintf(err, errlen, "%s: cannot read the picture: %s", path, SDL_GetError());
  } else {
    for (size_t k = 3; k < (size_t)w * h * 4; k += 4) {
      pixels[k] = 255;  // window surfaces may leave alpha undefined
    }
    char why[256] = "";
    FILE *f = fbFilePath_OpenOutput(path, "w", why, sizeof why);
    ok = f != NULL && stbi_write_png_to_func(write_to_file, f, w, h, 4, pixels, w * 4) != 0;
    ok = ok && !ferror(f);
    ok = (f == NULL || fclose(f) == 0) && ok;
    if (!ok) {
      snprintf(err, errlen, "%s: cannot write the PNG file%s%s", path, why[0] ? ": " : "", why);
    }
  }
  free(pixels);
  return ok;
}
