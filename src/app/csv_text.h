// csv_text.h — CSV lines as the sweep reads and writes them: fields split with RFC 4180 quotes, written quoted only when needed.
#ifndef FB_CSV_TEXT_H
#define FB_CSV_TEXT_H

#include <stdio.h>

#include "experiment.h"

// Splits one line (without its newline) into fields, appended to out: a,"b,c",d gives a | b,c | d.
void fbCsv_Split(const char *line, fbTextList *out);

// Writes one field, quoted when it holds a comma, a quote or a line break.
void fbCsv_Field(FILE *f, const char *text);

// Writes a number as the summary gives it: 10 significant digits, NaN for none.
void fbCsv_Number(FILE *f, double v);

// Reads the next line of f into *line (growing it), without its line break; false at the end.
bool fbCsv_ReadLine(FILE *f, char **line, size_t *cap);

// Writes a whole file through a temporary one and a rename, so no reader sees half of it: opens
// "path.tmp"; fbCsv_Commit closes it and renames it to path (false if any write failed).
// On failure either writes "path: cannot be written: why" into err.
FILE *fbCsv_Create(const char *path, char *err, size_t errlen);
bool fbCsv_Commit(FILE *f, const char *path, char *err, size_t errlen);

#endif
