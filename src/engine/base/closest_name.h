// closest_name.h — the known name nearest a misspelt one, by edit distance, for "did you mean …".
#ifndef FB_CLOSEST_NAME_H
#define FB_CLOSEST_NAME_H

#include <stddef.h>

#define FB_CLOSEST_NAME_LEN 256  // longer names (typed or offered) are never suggested

// Levenshtein distance between a and b; a large number when either is longer than FB_CLOSEST_NAME_LEN.
int fbClosestName_Distance(const char *a, const char *b);

// The best candidate so far for one typed name: offer every known name, then read the suggestion.
typedef struct fbClosestName {
  const char *typed;
  char best[FB_CLOSEST_NAME_LEN];
  int distance;
} fbClosestName;

void fbClosestName_Begin(fbClosestName *c, const char *typed);
void fbClosestName_Offer(fbClosestName *c, const char *candidate);

// The nearest name offered, when it is plausibly a slip (at most a third of the typed name wrong,
// and 1 always; never the typed name itself); else "".
const char *fbClosestName_Suggestion(const fbClosestName *c);

#endif
