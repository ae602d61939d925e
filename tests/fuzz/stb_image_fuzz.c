// stb_image_fuzz.c — the packaged stb_image decoder compiled into the fuzz targets, with coverage and sanitizers.

/*
 * Why: the engine links the decoder from Debian's libstb.a, built without coverage, so libFuzzer
 * could not tell one path through it from another, and ASan could not see inside it. Defining the
 * same functions here, from the same packaged header, makes the linker take these (object files
 * come before the archive, whose stb_image member is then never pulled in): the fuzzers exercise
 * the decoder the engine calls, now instrumented. Only the fuzz targets link this file.
 */
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
