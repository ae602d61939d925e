// closest_pair.c — the closest two agents of two groups, and the pairs closer than a distance: sort one group by x, sweep the other across it.
#include "closest_pair.h"

#include <math.h>
#include <stdlib.h>

#include "grid.h"
#include "memory.h"
#include "world.h"

typedef struct fbSweepPoint {
  double x, y;
  uint32_t id;
  int index;
} fbSweepPoint;

void fbClosestScratch_Free(fbClosestScratch *s)
{
  free(s->points);
  *s = (fbClosestScratch){0};
}

static int by_x_then_id(const void *l, const void *r)
{
  const fbSweepPoint *p = l, *q = r;
  if (p->x != q->x) {
    return p->x < q->x ? -1 : 1;
  }
  return p->id < q->id ? -1 : p->id > q->id;
}

// The first of the n sorted points whose x is at least x (n when there is none): a binary search.
static int first_at_or_right_of(const fbSweepPoint *sorted, int n, double x)
{
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (sorted[mid].x < x) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

typedef struct Best {
  double d2;
  uint32_t id_a, id_b;
  int a, b;
} Best;

// Keeps the pair if it is nearer, or as near with lower ids: the answer is then the same whatever
// order pairs are looked at in.
static void consider(Best *best, double d2, uint32_t id_a, uint32_t id_b, int a, int b)
{
  if (d2 < best->d2 || (d2 == best->d2 && (id_a < best->id_a || (id_a == best->id_a && id_b < best->id_b)))) {
    *best = (Best){d2, id_a, id_b, a, b};
  }
}

/*
 * Within walls. Group b sorted by x; for each agent of group a, the sorted points are walked
 * outward from its x, right then left, and a walk stops at the first point whose x-distance alone
 * squared exceeds the best squared distance so far: no point past it can be nearer. Every pair it
 * skips is farther than the answer, so the answer is the brute force's, to the bit (the squared
 * distance is (xb - xa)^2 + (yb - ya)^2 either way). O((na + nb) log nb) when the groups are
 * spread, O(na nb) at worst (everyone on one vertical line).
 */
static Best sweep(const fbAgents *ag, const int *group_a, int na, const fbSweepPoint *sorted, int nb)
{
  Best best = {INFINITY, UINT32_MAX, UINT32_MAX, -1, -1};
  for (int k = 0; k < na; ++k) {
    const int i = group_a[k];
    const double x = ag->px[i], y = ag->py[i];
    if (!isfinite(x) || !isfinite(y)) {
      continue;
    }
    const int lo = first_at_or_right_of(sorted, nb, x);
    for (int dir = 0; dir < 2; ++dir) {
      for (int m = dir == 0 ? lo : lo - 1; m >= 0 && m < nb; m += dir == 0 ? 1 : -1) {
        const double dx = sorted[m].x - x, dy = sorted[m].y - y;
        if (dx * dx > best.d2) {
          break;
        }
        if (sorted[m].index != i) {
          consider(&best, dx * dx + dy * dy, ag->id[i], sorted[m].id, i, sorted[m].index);
        }
      }
    }
  }
  return best;
}

// On a torus the nearest image breaks the sweep's order: every pair, through fbGrid_MinImage.
static Best every_pair(const fbAgents *ag, const int *group_a, int na, const int *group_b, int nb, double w, double h)
{
  Best best = {INFINITY, UINT32_MAX, UINT32_MAX, -1, -1};
  for (int k = 0; k < na; ++k) {
    const int i = group_a[k];
    for (int m = 0; m < nb; ++m) {
      const int j = group_b[m];
      const double dx = fbGrid_MinImage(ag->px[j] - ag->px[i], w), dy = fbGrid_MinImage(ag->py[j] - ag->py[i], h);
      if (j != i) {
        consider(&best, dx * dx + dy * dy, ag->id[i], ag->id[j], i, j);
      }
    }
  }
  return best;
}

// Group b's finite points into s, sorted by (x, id); returns how many. A point that is not finite
// is never near anything (its distance compares false), and would leave no order to sort by.
static int sorted_points(const fbAgents *ag, const int *group_b, int nb, fbClosestScratch *s)
{
  if (s->capacity < nb) {
    s->points = fbMemory_Grow(s->points, sizeof *s->points, (size_t)nb);
    s->capacity = nb;
  }
  int n = 0;
  for (int m = 0; m < nb; ++m) {
    const int j = group_b[m];
    if (isfinite(ag->px[j]) && isfinite(ag->py[j])) {
      s->points[n++] = (fbSweepPoint){ag->px[j], ag->py[j], ag->id[j], j};
    }
  }
  qsort(s->points, (size_t)n, sizeof *s->points, by_x_then_id);
  return n;
}

fbClosestPair fbClosestPair_Find(const fbAgents *ag, const int *group_a, int na, const int *group_b, int nb, bool wrap,
                                 double world_w, double world_h, fbClosestScratch *s)
{
  Best best;
  if (wrap) {
    best = every_pair(ag, group_a, na, group_b, nb, world_w, world_h);
  } else {
    const int n = sorted_points(ag, group_b, nb, s);
    best = sweep(ag, group_a, na, s->points, n);
  }
  return (fbClosestPair){best.a, best.b, best.a >= 0 ? sqrt(best.d2) : INFINITY};
}

/*
 * Pairs closer than d: within walls, a pair is counted when dx^2 + dy^2 < d^2, and since
 * dx^2 + dy^2 >= dx^2 a walk along x stops at the first point with dx^2 >= d^2. One group: each
 * point walks to the right of itself in the sorted order only, so an unordered pair is met once.
 * Two groups: each agent of a walks the sorted b both ways from its x, as sweep() does. The
 * predicate is the one a Lua loop over every pair computes, so the count is the same.
 */
static long count_sorted_one(const fbSweepPoint *p, int n, double limit)
{
  long count = 0;
  for (int m = 0; m < n; ++m) {
    for (int q = m + 1; q < n; ++q) {
      const double dx = p[q].x - p[m].x, dy = p[q].y - p[m].y;
      if (dx * dx >= limit) {
        break;
      }
      count += dx * dx + dy * dy < limit;
    }
  }
  return count;
}

static long count_sorted_two(const fbAgents *ag, const int *group_a, int na, const fbSweepPoint *sorted, int nb,
                             double limit)
{
  long count = 0;
  for (int k = 0; k < na; ++k) {
    const int i = group_a[k];
    const double x = ag->px[i], y = ag->py[i];
    if (!isfinite(x) || !isfinite(y)) {
      continue;
    }
    const int lo = first_at_or_right_of(sorted, nb, x);
    for (int dir = 0; dir < 2; ++dir) {
      for (int m = dir == 0 ? lo : lo - 1; m >= 0 && m < nb; m += dir == 0 ? 1 : -1) {
        const double dx = sorted[m].x - x, dy = sorted[m].y - y;
        if (dx * dx >= limit) {
          break;
        }
        count += sorted[m].index != i && dx * dx + dy * dy < limit;
      }
    }
  }
  return count;
}

// On a torus: every pair, through the nearest image (in one group, each unordered pair once).
static long count_every_pair(const fbAgents *ag, const int *group_a, int na, const int *group_b, int nb, bool same,
                             double limit, double w, double h)
{
  long count = 0;
  for (int k = 0; k < na; ++k) {
    const int i = group_a[k];
    for (int m = same ? k + 1 : 0; m < nb; ++m) {
      const int j = group_b[m];
      const double dx = fbGrid_MinImage(ag->px[j] - ag->px[i], w), dy = fbGrid_MinImage(ag->py[j] - ag->py[i], h);
      count += j != i && dx * dx + dy * dy < limit;
    }
  }
  return count;
}

long fbClosestPair_CountWithin(const fbAgents *ag, const int *group_a, int na, const int *group_b, int nb, bool same,
                               double distance, bool wrap, double world_w, double world_h, fbClosestScratch *s)
{
  const double limit = distance * distance;
  if (wrap) {
    return count_every_pair(ag, group_a, na, group_b, nb, same, limit, world_w, world_h);
  }
  const int n = sorted_points(ag, group_b, nb, s);
  return same ? count_sorted_one(s->points, n, limit) : count_sorted_two(ag, group_a, na, s->points, n, limit);
}
