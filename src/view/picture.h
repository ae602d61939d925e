// picture.h — what a renderer holds, written as a PNG file: --shot, screenshots and the offscreen pictures of fbRender_SavePng.
#ifndef FB_PICTURE_H
#define FB_PICTURE_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>

// Reads the renderer's current target and writes it as a PNG (opaque: alpha set to 255). The path
// is opened through fbFilePath_OpenOutput, so only a regular file is written. On failure writes one
// line naming the path into err.
bool fbPicture_WritePng(SDL_Renderer *sdl, const char *path, char *err, size_t errlen);

#endif
