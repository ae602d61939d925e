// closest_name.c — the known name nearest a misspelt one, by edit distance, for "did you mean …".
#include "closest_name.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/*
 * Levenshtein distance between a and b (insertions, deletions and substitutions, each costing 1),
 * by the usual dynamic programme over one row: row[j] = distance(a[0..i), b[0..j)).
 */
int fbClosestName_Distance(const char *a, const char *b)
{
  int m = (int)strlen(b), row[FB_CLOSEST_NAME_LEN + 1];
  if (m > FB_CLOSEST_NAME_LEN || strlen(a) > FB_CLOSEST_NAME_LEN) {
    return INT_MAX;
  }
  for (int j = 0; j <= m; ++j) {
    row[j] = j;
  }
  for (int i = 1; a[i - 1] != '\0'; ++i) {
    int diagonal = row[0];
    row[0] = i;
    for (int j = 1; j <= m; ++j) {
      int above = row[j];
      int substitute = diagonal + (a[i - 1] != b[j - 1]);
      int best = above + 1 < row[j - 1] + 1 ? above + 1 : row[j - 1] + 1;
      row[j] = substitute < best ? substitute : best;
      diagonal = above;
    }
  }
  return row[m];
}

void fbClosestName_Begin(fbClosestName *c, const char *typed)
{
  c->typed = typed;
  c->best[0] = '\0';
  c->distance = INT_MAX;
}

// Ties go to the name first in byte order, so the suggestion does not depend on the offering order.
void fbClosestName_Offer(fbClosestName *c, const char *candidate)
{
  if (strlen(candidate) >= sizeof c->best) {
    return;
  }
  int d = fbClosestName_Distance(c->typed, candidate);
  if (d < c->distance || (d == c->distance && d != INT_MAX && strcmp(candidate, c->best) < 0)) {
    c->distance = d;
    snprintf(c->best, sizeof c->best, "%s", candidate);
  }
}

const char *fbClosestName_Suggestion(const fbClosestName *c)
{
  int third = (int)strlen(c->typed) / 3, limit = third > 1 ? third : 1;
  return c->distance > 0 && c->distance <= limit ? c->best : "";
}
