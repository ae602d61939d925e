// stb_implementation.c — the browser build's copy of stb's code, compiled from Debian's libstb-dev headers.
//
// The desktop links Debian's packaged libstb.so; emscripten cannot link a library built for the
// machine, so the page compiles the same headers' implementations once, here.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
#include <stb_truetype.h>
