// names.c — checks of names and one-line texts before they are written where a stray byte would change the meaning.
#include "names.h"

#include <stdio.h>
#include <string.h>

#include "fb.h"

static bool is_alpha(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool fbName_IsIdentifier(const char *s)
{
  if (!is_alpha(*s)) {
    return false;
  }
  for (; *s; ++s) {
    if (!is_alpha(*s) && !(*s >= '0' && *s <= '9')) {
      return false;
    }
  }
  return true;
}

bool fbName_IsModule(const char *s)
{
  if (*s == '\0') {
    return false;
  }
  for (; *s; ++s) {
    if (!is_alpha(*s) && !(*s >= '0' && *s <= '9')) {
      return false;
    }
  }
  return true;
}

static bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

bool fbName_CheckLine(const char *s, size_t len, char *why, size_t whylen)
{
  for (size_t k = 0; k < len; ++k) {
    if (s[k] == '\0' || is_control((unsigned char)s[k])) {
      snprintf(why, whylen, "holds a control character (byte %d at %zu): it must be one line of printable text",
               (unsigned char)s[k], k + 1);
      return false;
    }
  }
  return true;
}

bool fbName_CheckParamText(const char *s, size_t len, char *why, size_t whylen)
{
  if (len >= FB_PARAM_TEXT) {
    snprintf(why, whylen, "a string of at most %d characters (got %zu)", FB_PARAM_TEXT - 1, len);
    return false;
  }
  return fbName_CheckLine(s, len, why, whylen);
}

bool fbName_CheckColumn(const char *s, size_t len, bool dots, char *why, size_t whylen)
{
  if (len == 0 || len >= FB_NAME_LEN) {
    snprintf(why, whylen, "a name is 1 to %d characters (got %zu)", FB_NAME_LEN - 1, len);
    return false;
  }
  if (!fbName_CheckLine(s, len, why, whylen)) {
    return false;
  }
  const char *bad = dots ? ",\"\\" : ",\"\\.";
  for (size_t k = 0; k < len; ++k) {
    if (strchr(bad, s[k]) != NULL) {
      snprintf(why, whylen, "'%c' cannot be part of this name (it becomes a CSV column%s)", s[k],
               dots ? "" : " and a --set path, where '.' separates the parts");
      return false;
    }
  }
  if (s[0] == ' ' || s[len - 1] == ' ') {
    snprintf(why, whylen, "a name cannot begin or end with a space");
    return false;
  }
  return true;
}
