// fb.h — shared basics of the flockbox engine: limits, assertions and small 2D vector helpers.
#ifndef FB_H
#define FB_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <flockbox/flockbox.h>  // the limits, fbVec2 and the description structs a program sees

// The largest magnitude of any position, velocity, acceleration, weight or field value a script may
// hand to the engine: finite numbers beyond it (1e308) would overflow into infinities downstream
// (a length, a sum of weighted outputs), so they are refused at the door.
#define FB_MAX_MAGNITUDE 1e9
// The largest magnitude of a metric: a sweep sums and squares them over runs, and that must stay finite.
#define FB_MAX_METRIC 1e150

#define FB_MAX_FIELDS 16       // user per-agent fields declared by rules and scenarios
#define FB_MAX_METRICS 16      // a scenario's own metrics (CSV columns, plots)
// What a script may make the engine allocate on its behalf (the Lua budget covers only Lua's own
// memory): agents in the world (about 250 bytes each with the grid, so 1 GB at the cap), and
// spawns and removals queued by one hook call or one worker in one step (24 MB each at the cap).
#define FB_MAX_AGENTS 4000000
#define FB_MAX_COMMANDS (1 << 20)
#define FB_PI 3.14159265358979323846

// Programmer mistakes only; expected failures return false with a message instead.
#define FB_ASSERT(cond)                                                          \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                   \
    }                                                                            \
  } while (0)

// Writes a formatted message into err (if there is room for one) and returns false: the one way
// loaders report a refusal, `return fbFail(err, errlen, "%s: ...", path)`.
__attribute__((format(printf, 3, 4))) static inline bool fbFail(char *err, size_t errlen, const char *fmt, ...)
{
  if (err != NULL && errlen > 0) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(err, errlen, fmt, args);
    va_end(args);
  }
  return false;
}

// The number a table of offsets points at in a struct: an int (an enum, a count) or a double.
// memcpy, since the struct's field may be of either type.
static inline double fbNumberAt(const void *at, bool is_int)
{
  if (is_int) {
    int i;
    memcpy(&i, at, sizeof i);
    return i;
  }
  double v;
  memcpy(&v, at, sizeof v);
  return v;
}

// One name of an enumerated setting (a field's choices, a combiner): an alias shares the value of
// an earlier name and is accepted but not listed.
typedef struct fbChoice {
  const char *name;
  int value;
} fbChoice;

static inline fbVec2 fbV(double x, double y) { return (fbVec2){x, y}; }
static inline fbVec2 fbV_Add(fbVec2 a, fbVec2 b) { return fbV(a.x + b.x, a.y + b.y); }
static inline fbVec2 fbV_Sub(fbVec2 a, fbVec2 b) { return fbV(a.x - b.x, a.y - b.y); }
static inline fbVec2 fbV_Scale(fbVec2 a, double s) { return fbV(a.x * s, a.y * s); }
static inline double fbV_Dot(fbVec2 a, fbVec2 b) { return a.x * b.x + a.y * b.y; }
static inline double fbV_Cross(fbVec2 a, fbVec2 b) { return a.x * b.y - a.y * b.x; }
static inline double fbV_Length2(fbVec2 a) { return a.x * a.x + a.y * a.y; }
static inline double fbV_Length(fbVec2 a) { return sqrt(a.x * a.x + a.y * a.y); }

// Scales a down to length max when it is longer (Parker's limit_velocity, Gompert's setMagnitude cap).
static inline fbVec2 fbV_Truncate(fbVec2 a, double max)
{
  double l2 = fbV_Length2(a);
  if (l2 > max * max && l2 > 0.0) {
    return fbV_Scale(a, max / sqrt(l2));
  }
  return a;
}

#endif
