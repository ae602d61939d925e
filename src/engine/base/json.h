// json.h — a small JSON reader (text to a tree, every length checked) and writer (escaped strings, printf for the rest): the Debug Adapter Protocol's messages.
#ifndef FB_JSON_H
#define FB_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "bytes.h"

typedef enum fbJsonType { FB_JSON_NULL, FB_JSON_BOOL, FB_JSON_NUMBER, FB_JSON_STRING, FB_JSON_ARRAY, FB_JSON_OBJECT } fbJsonType;

// One value; an array's or object's members are a list through `child` and `next` (an object's
// each with its `key`). Strings are NUL-terminated copies (a "\u0000" inside one ends it early).
typedef struct fbJson {
  fbJsonType type;
  bool boolean;
  double number;
  char *string;
  char *key;
  struct fbJson *child, *next;
} fbJson;

// The value in text[0..len), or NULL with a message naming the byte offset. Nesting deeper than
// FB_JSON_MAX_DEPTH is refused (a hostile message cannot exhaust the C stack).
#define FB_JSON_MAX_DEPTH 64
fbJson *fbJson_Parse(const char *text, size_t len, char *err, size_t errlen);
void fbJson_Free(fbJson *v);

// Members by key, and typed reads with a fallback when the member is missing or of another type.
const fbJson *fbJson_Get(const fbJson *object, const char *key);
const char *fbJson_GetString(const fbJson *object, const char *key, const char *fallback);
double fbJson_GetNumber(const fbJson *object, const char *key, double fallback);
bool fbJson_GetBool(const fbJson *object, const char *key, bool fallback);

// Writing: a string quoted and escaped, and anything else as printf text (numbers, punctuation).
void fbJson_PutString(fbBytes *out, const char *s);
void fbJson_Printf(fbBytes *out, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
