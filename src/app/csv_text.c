// csv_text.c — splitting and writing CSV fields, and files written whole or not at all.
#define _POSIX_C_SOURCE 200809L
#include "csv_text.h"

#include <errno.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "paths.h"

void fbCsv_Split(const char *line, fbTextList *out)
{
  size_t len = strlen(line);
  char *field = malloc(len + 1);
  const char *c = line;
  for (;;) {
    size_t n = 0;
    if (*c == '"') {
      // A quoted field: "" is one quote, and the field ends at the quote before a comma or the end.
      for (++c; *c != '\0'; ++c) {
        if (*c == '"' && c[1] == '"') {
          field[n++] = '"';
          ++c;
        } else if (*c == '"') {
          ++c;
          break;
        } else {
          field[n++] = *c;
        }
      }
      c += strcspn(c, ",");
    } else {
      n = strcspn(c, ",");
      memcpy(field, c, n);
      c += n;
    }
    field[n] = '\0';
    fbTextList_Add(out, field);
    if (*c != ',') {
      break;
    }
    ++c;
  }
  free(field);
}

void fbCsv_Field(FILE *f, const char *text)
{
  if (strpbrk(text, ",\"\r\n") == NULL) {
    fputs(text, f);
    return;
  }
  fputc('"', f);
  for (const char *c = text; *c != '\0'; ++c) {
    if (*c == '"') {
      fputc('"', f);
    }
    fputc(*c, f);
  }
  fputc('"', f);
}

void fbCsv_Number(FILE *f, double v)
{
  if (isnan(v)) {
    fputs("NaN", f);
  } else {
    fprintf(f, "%.10g", v);
  }
}

bool fbCsv_ReadLine(FILE *f, char **line, size_t *cap)
{
  ssize_t n = getline(line, cap, f);
  if (n < 0) {
    return false;
  }
  while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r')) {
    (*line)[--n] = '\0';
  }
  return true;
}

FILE *fbCsv_Create(const char *path, char *err, size_t errlen)
{
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  char why[256];
  FILE *f = NULL;
  if (!fbFilePath_CheckOutput(path, why, sizeof why)) {  // Commit would rename over it
    snprintf(err, errlen, "%s: cannot be written: %s", path, why);
  } else if ((f = fbFilePath_OpenOutput(tmp, "w", why, sizeof why)) == NULL) {
    snprintf(err, errlen, "%s: cannot be written: %s", tmp, why);
  }
  return f;
}

bool fbCsv_Commit(FILE *f, const char *path, char *err, size_t errlen)
{
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  bool ok = !ferror(f);
  ok = fclose(f) == 0 && ok;
  char why[256] = "";
  if (ok && fbFilePath_CheckOutput(path, why, sizeof why) && rename(tmp, path) == 0) {
    return true;
  }
  snprintf(err, errlen, "%s: cannot be written: %s", path, why[0] ? why : strerror(errno));
  unlink(tmp);
  return false;
}
