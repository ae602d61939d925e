// json.c — a recursive-descent JSON reader into a tree and an escaping writer (RFC 8259).
#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * RFC 8259's grammar, read by recursive descent: a value is an object, an array, a string, a
 * number, true, false or null, with whitespace around. Every read checks the position against the
 * length first, so a message cut short or holding garbage ends in a message, never a read past its
 * end; depth is bounded. \uXXXX escapes become UTF-8 (a surrogate pair joined into one code point).
 */
typedef struct Reader {
  const char *s;
  size_t len, at;
  int depth;
  char *err;
  size_t errlen;
} Reader;

static bool fail(Reader *r, const char *what)
{
  if (r->err[0] == '\0') {
    snprintf(r->err, r->errlen, "bad JSON at byte %zu: %s", r->at, what);
  }
  return false;
}

static void skip_space(Reader *r)
{
  while (r->at < r->len && (r->s[r->at] == ' ' || r->s[r->at] == '\t' || r->s[r->at] == '\n' || r->s[r->at] == '\r')) {
    r->at++;
  }
}

static bool literal(Reader *r, const char *word)
{
  size_t n = strlen(word);
  if (r->len - r->at < n || memcmp(r->s + r->at, word, n) != 0) {
    return fail(r, "expected a value");
  }
  r->at += n;
  return true;
}

static int hex4(Reader *r)
{
  if (r->len - r->at < 4) {
    return -1;
  }
  int v = 0;
  for (int k = 0; k < 4; ++k) {
    char c = r->s[r->at++];
    v = v * 16 + (c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -100000);
  }
  return v < 0 ? -1 : v;
}

static void put_utf8(fbBytes *b, unsigned cp)
{
  unsigned char u[4];
  size_t n;
  if (cp < 0x80) {
    u[0] = (unsigned char)cp, n = 1;
  } else if (cp < 0x800) {
    u[0] = (unsigned char)(0xC0 | cp >> 6), u[1] = (unsigned char)(0x80 | (cp & 0x3F)), n = 2;
  } else if (cp < 0x10000) {
    u[0] = (unsigned char)(0xE0 | cp >> 12), u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)),
    u[2] = (unsigned char)(0x80 | (cp & 0x3F)), n = 3;
  } else {
    u[0] = (unsigned char)(0xF0 | cp >> 18), u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F)),
    u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F)), u[3] = (unsigned char)(0x80 | (cp & 0x3F)), n = 4;
  }
  fbBytes_Put(b, u, n);
}

static bool escape(Reader *r, fbBytes *b)
{
  if (r->at >= r->len) {
    return fail(r, "a string ends inside an escape");
  }
  char c = r->s[r->at++];
  const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
  const char *hit = strchr(from, c);
  if (c != '\0' && hit != NULL) {
    fbBytes_Put(b, to + (hit - from), 1);
    return true;
  }
  if (c != 'u') {
    return fail(r, "an unknown escape");
  }
  int cp = hex4(r);
  if (cp >= 0xD800 && cp < 0xDC00 && r->len - r->at >= 6 && r->s[r->at] == '\\' && r->s[r->at + 1] == 'u') {
    r->at += 2;
    int low = hex4(r);
    cp = low >= 0xDC00 && low < 0xE000 ? 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00) : -1;
  }
  if (cp < 0) {
    return fail(r, "a bad \\u escape");
  }
  put_utf8(b, (unsigned)cp);
  return true;
}

// The string starting at the opening quote, as a malloc'd copy.
static char *read_string(Reader *r)
{
  fbBytes b = {0};
  r->at++;  // the quote
  while (r->at < r->len && r->s[r->at] != '"') {
    unsigned char c = (unsigned char)r->s[r->at];
    if (c < 0x20) {
      fail(r, "a control character inside a string");
      fbBytes_Free(&b);
      return NULL;
    }
    if (c == '\\') {
      r->at++;
      if (!escape(r, &b)) {
        fbBytes_Free(&b);
        return NULL;
      }
    } else {
      fbBytes_Put(&b, &r->s[r->at++], 1);
    }
  }
  if (r->at >= r->len) {
    fail(r, "a string is not closed");
    fbBytes_Free(&b);
    return NULL;
  }
  r->at++;
  fbBytes_Put(&b, "", 1);
  return (char *)b.data;
}

static bool read_number(Reader *r, fbJson *v)
{
  char text[64];
  size_t n = 0;
  while (r->at < r->len && n + 1 < sizeof text && strchr("+-0123456789.eE", r->s[r->at]) != NULL && r->s[r->at] != '\0') {
    text[n++] = r->s[r->at++];
  }
  text[n] = '\0';
  char *end;
  v->number = strtod(text, &end);
  if (n == 0 || *end != '\0') {
    return fail(r, "a bad number");
  }
  v->type = FB_JSON_NUMBER;
  return true;
}

static fbJson *read_value(Reader *r);

// The members of an array (keyed false) or object (keyed true) after its opening bracket.
static bool read_members(Reader *r, fbJson *v, bool keyed)
{
  char close = keyed ? '}' : ']';
  fbJson **tail = &v->child;
  r->at++;
  skip_space(r);
  if (r->at < r->len && r->s[r->at] == close) {
    r->at++;
    return true;
  }
  for (;;) {
    char *key = NULL;
    skip_space(r);
    if (keyed) {
      if (r->at >= r->len || r->s[r->at] != '"' || (key = read_string(r)) == NULL) {
        return fail(r, "expected a key");
      }
      skip_space(r);
      if (r->at >= r->len || r->s[r->at] != ':') {
        free(key);
        return fail(r, "expected ':'");
      }
      r->at++;
    }
    fbJson *member = read_value(r);
    if (member == NULL) {
      free(key);
      return false;
    }
    member->key = key;
    *tail = member;
    tail = &member->next;
    skip_space(r);
    if (r->at < r->len && r->s[r->at] == ',') {
      r->at++;
    } else if (r->at < r->len && r->s[r->at] == close) {
      r->at++;
      return true;
    } else {
      return fail(r, keyed ? "expected ',' or '}'" : "expected ',' or ']'");
    }
  }
}

static fbJson *read_value(Reader *r)
{
  skip_space(r);
  if (r->at >= r->len) {
    fail(r, "the text ends where a value should be");
    return NULL;
  }
  if (++r->depth > FB_JSON_MAX_DEPTH) {
    fail(r, "nested too deep");
    return NULL;
  }
  fbJson *v = calloc(1, sizeof *v);
  if (v == NULL) {
    fail(r, "out of memory");
    return NULL;
  }
  char c = r->s[r->at];
  bool ok;
  if (c == '{' || c == '[') {
    v->type = c == '{' ? FB_JSON_OBJECT : FB_JSON_ARRAY;
    ok = read_members(r, v, c == '{');
  } else if (c == '"') {
    v->type = FB_JSON_STRING;
    ok = (v->string = read_string(r)) != NULL;
  } else if (c == 't' || c == 'f') {
    v->type = FB_JSON_BOOL;
    v->boolean = c == 't';
    ok = literal(r, c == 't' ? "true" : "false");
  } else if (c == 'n') {
    ok = literal(r, "null");
  } else {
    ok = read_number(r, v);
  }
  r->depth--;
  if (!ok) {
    fbJson_Free(v);
    return NULL;
  }
  return v;
}

fbJson *fbJson_Parse(const char *text, size_t len, char *err, size_t errlen)
{
  Reader r = {text, len, 0, 0, err, errlen};
  err[0] = '\0';
  fbJson *v = read_value(&r);
  skip_space(&r);
  if (v != NULL && r.at != r.len) {
    fail(&r, "text after the value");
    fbJson_Free(v);
    return NULL;
  }
  return v;
}

void fbJson_Free(fbJson *v)
{
  while (v != NULL) {
    fbJson *next = v->next;
    fbJson_Free(v->child);
    free(v->string);
    free(v->key);
    free(v);
    v = next;
  }
}

const fbJson *fbJson_Get(const fbJson *object, const char *key)
{
  if (object == NULL || object->type != FB_JSON_OBJECT) {
    return NULL;
  }
  for (const fbJson *m = object->child; m != NULL; m = m->next) {
    if (strcmp(m->key, key) == 0) {
      return m;
    }
  }
  return NULL;
}

const char *fbJson_GetString(const fbJson *object, const char *key, const char *fallback)
{
  const fbJson *m = fbJson_Get(object, key);
  return m != NULL && m->type == FB_JSON_STRING ? m->string : fallback;
}

double fbJson_GetNumber(const fbJson *object, const char *key, double fallback)
{
  const fbJson *m = fbJson_Get(object, key);
  return m != NULL && m->type == FB_JSON_NUMBER ? m->number : fallback;
}

bool fbJson_GetBool(const fbJson *object, const char *key, bool fallback)
{
  const fbJson *m = fbJson_Get(object, key);
  return m != NULL && m->type == FB_JSON_BOOL ? m->boolean : fallback;
}

// Quotes, backslashes and control characters escaped; other bytes (UTF-8) as they are.
void fbJson_PutString(fbBytes *out, const char *s)
{
  fbBytes_Put(out, "\"", 1);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    char esc[8];
    if (c == '"' || c == '\\') {
      snprintf(esc, sizeof esc, "\\%c", c);
    } else if (c == '\n') {
      snprintf(esc, sizeof esc, "\\n");
    } else if (c < 0x20 || c == 0x7f) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
    } else {
      fbBytes_Put(out, &c, 1);
      continue;
    }
    fbBytes_Put(out, esc, strlen(esc));
  }
  fbBytes_Put(out, "\"", 1);
}

void fbJson_Printf(fbBytes *out, const char *format, ...)
{
  char small[512];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(small, sizeof small, format, args);
  va_end(args);
  if (n < 0) {
    return;
  }
  if ((size_t)n < sizeof small) {
    fbBytes_Put(out, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (big == NULL) {
    return;
  }
  va_start(args, format);
  vsnprintf(big, (size_t)n + 1, format, args);
  va_end(args);
  fbBytes_Put(out, big, (size_t)n);
  free(big);
}
