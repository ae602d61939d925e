// trajectory.c — reading and writing the trajectory CSV (see trajectory.h): a message per bad field, velocities by differences when absent.
#include "trajectory.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "paths.h"

#define MAX_BYTES (1L << 30)  // a GiB of text: some 20 million rows
#define MAX_FIELDS 64

enum { COL_T, COL_ID, COL_X, COL_Y, COL_VX, COL_VY, COL_GROUP, COLS };
static const char *const column_names[COLS] = {"t", "id", "x", "y", "vx", "vy", "group"};

typedef struct Reader {
  const char *path;
  long line;
  int column_of[COLS];  // the field index of each known column, -1 when absent
  long capacity;
  char *err;
  size_t errlen;
} Reader;

static bool fail(Reader *r, int field, const char *fmt, const char *a, const char *b)
{
  char what[512];
  snprintf(what, sizeof what, fmt, a, b);
  if (field >= 0) {
    const char *name = "";
    for (int c = 0; c < COLS; ++c) {
      name = r->column_of[c] == field ? column_names[c] : name;
    }
    snprintf(r->err, r->errlen, "%s:%ld: column %d (%s): %s", r->path, r->line, field + 1, name, what);
  } else {
    snprintf(r->err, r->errlen, "%s:%ld: %s", r->path, r->line, what);
  }
  return false;
}

// Splits line (modified in place) at commas; trailing CR/LF dropped. Returns the field count.
static int split(char *line, char *fields[MAX_FIELDS])
{
  line[strcspn(line, "\r\n")] = '\0';
  int n = 0;
  for (char *p = line;; ++p) {
    if (n < MAX_FIELDS) {
      fields[n] = p;
    }
    n++;
    p += strcspn(p, ",");
    if (*p == '\0') {
      break;
    }
    *p = '\0';
  }
  return n;
}

static bool parse_number(const char *text, double *out)
{
  char *end;
  errno = 0;
  *out = strtod(text, &end);
  while (*end == ' ') {
    end++;
  }
  return end != text && *end == '\0' && isfinite(*out);
}

// The words of a comment line: fps=, unit=, world=W,H, wrap=.
static bool read_comment(Reader *r, fbTrajectories *tr, char *line)
{
  for (char *word = strtok(line + 1, " \t\r\n"); word != NULL; word = strtok(NULL, " \t\r\n")) {
    char *value = strchr(word, '=');
    if (value == NULL) {
      continue;
    }
    *value++ = '\0';
    if (strcmp(word, "fps") == 0 && (!parse_number(value, &tr->fps) || tr->fps <= 0)) {
      return fail(r, -1, "fps: expected a positive number, got '%s'%s", value, "");
    }
    if (strcmp(word, "unit") == 0) {
      snprintf(tr->unit, sizeof tr->unit, "%s", value);
    }
    if (strcmp(word, "world") == 0 && (sscanf(value, "%lf,%lf", &tr->world_w, &tr->world_h) != 2 ||
                                       !(tr->world_w > 0) || !(tr->world_h > 0))) {
      return fail(r, -1, "world: expected W,H (two positive numbers), got '%s'%s", value, "");
    }
    if (strcmp(word, "wrap") == 0) {
      if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
        return fail(r, -1, "wrap: expected 0 or 1, got '%s'%s", value, "");
      }
      tr->wrap = value[0] == '1';
    }
  }
  return true;
}

// The header row: which field holds each known column.
static bool read_header(Reader *r, fbTrajectories *tr, char *line)
{
  char *fields[MAX_FIELDS];
  int n = split(line, fields);
  if (n > MAX_FIELDS) {
    return fail(r, -1, "more than %s columns%s", "64", "");
  }
  tr->group_count = 0;  // ...unless a group column names them
  for (int c = 0; c < COLS; ++c) {
    r->column_of[c] = -1;
    for (int k = 0; k < n; ++k) {
      if (strcmp(fields[k], column_names[c]) == 0) {
        if (r->column_of[c] >= 0) {
          return fail(r, k, "column '%s' given twice%s", column_names[c], "");
        }
        r->column_of[c] = k;
      }
    }
  }
  for (int c = COL_T; c <= COL_Y; ++c) {
    if (r->column_of[c] < 0) {
      return fail(r, -1, "the header names no column '%s' (t, id, x and y are required; found '%s')", column_names[c],
                  fields[0]);
    }
  }
  if ((r->column_of[COL_VX] < 0) != (r->column_of[COL_VY] < 0)) {
    return fail(r, -1, "vx and vy come together: the header names only %s%s",
                r->column_of[COL_VX] < 0 ? "vy" : "vx", "");
  }
  return true;
}

static void grow(Reader *r, fbTrajectories *tr)
{
  if (tr->rows < r->capacity) {
    return;
  }
  r->capacity = r->capacity ? 2 * r->capacity : 1024;
  tr->t = fbMemory_Grow(tr->t, sizeof *tr->t, (size_t)(r->capacity));
  tr->x = fbMemory_Grow(tr->x, sizeof *tr->x, (size_t)(r->capacity));
  tr->y = fbMemory_Grow(tr->y, sizeof *tr->y, (size_t)(r->capacity));
  tr->vx = fbMemory_Grow(tr->vx, sizeof *tr->vx, (size_t)(r->capacity));
  tr->vy = fbMemory_Grow(tr->vy, sizeof *tr->vy, (size_t)(r->capacity));
  tr->id = fbMemory_Grow(tr->id, sizeof *tr->id, (size_t)(r->capacity));
  tr->group = fbMemory_Grow(tr->group, sizeof *tr->group, (size_t)(r->capacity));
}

static bool read_group(Reader *r, fbTrajectories *tr, int field, const char *name, int *out)
{
  for (int g = 0; g < tr->group_count; ++g) {
    if (strcmp(tr->groups[g], name) == 0) {
      *out = g;
      return true;
    }
  }
  if (tr->group_count == FB_TRAJECTORY_MAX_GROUPS || strlen(name) >= sizeof tr->groups[0] || name[0] == '\0') {
    return fail(r, field, "expected a group name of 1 to 63 bytes, at most 32 groups; got '%s'%s", name, "");
  }
  snprintf(tr->groups[tr->group_count], sizeof tr->groups[0], "%s", name);
  *out = tr->group_count++;
  return true;
}

// One data row: its numbers checked field by field.
static bool read_row(Reader *r, fbTrajectories *tr, char *line)
{
  char *fields[MAX_FIELDS];
  int n = split(line, fields);
  for (int c = 0; c < COLS; ++c) {
    if (r->column_of[c] >= n) {
      return fail(r, -1, "expected a field for column '%s': the row is too short%s", column_names[c], "");
    }
  }
  grow(r, tr);
  const long i = tr->rows;
  double *number[COLS] = {&tr->t[i], NULL, &tr->x[i], &tr->y[i], &tr->vx[i], &tr->vy[i], NULL};
  for (int c = 0; c < COLS; ++c) {
    const int k = r->column_of[c];
    if (k >= 0 && number[c] != NULL && !parse_number(fields[k], number[c])) {
      return fail(r, k, "expected a number, got '%s'%s", fields[k], "");
    }
  }
  char *end;
  const int k = r->column_of[COL_ID];
  errno = 0;
  tr->id[i] = strtoll(fields[k], &end, 10);
  if (end == fields[k] || *end != '\0' || errno != 0) {
    return fail(r, k, "expected a whole number, got '%s'%s", fields[k], "");
  }
  tr->group[i] = 0;
  if (r->column_of[COL_GROUP] >= 0 && !read_group(r, tr, r->column_of[COL_GROUP], fields[r->column_of[COL_GROUP]], &tr->group[i])) {
    return false;
  }
  if (i > 0 && tr->t[i] < tr->t[i - 1]) {
    return fail(r, r->column_of[COL_T], "time goes back (%s after a greater t): rows must come frame by frame%s",
                fields[r->column_of[COL_T]], "");
  }
  tr->rows++;
  return true;
}

// Frames (runs of equal t), each checked for a repeated id.
static bool find_frames(fbTrajectories *tr, const char *path, char *err, size_t errlen)
{
  tr->frame_start = fbMemory_Grow(tr->frame_start, sizeof *tr->frame_start, (size_t)(tr->rows + 1));
  tr->frames = 0;
  for (long i = 0; i < tr->rows; ++i) {
    if (i == 0 || tr->t[i] != tr->t[i - 1]) {
      tr->frame_start[tr->frames++] = i;
    }
  }
  tr->frame_start[tr->frames] = tr->rows;
  for (long f = 0; f < tr->frames; ++f) {
    for (long i = tr->frame_start[f]; i < tr->frame_start[f + 1]; ++i) {
      for (long j = tr->frame_start[f]; j < i; ++j) {
        if (tr->id[i] == tr->id[j]) {
          snprintf(err, errlen, "%s: id %lld appears twice in the frame at t = %g", path, tr->id[i], tr->t[i]);
          return false;
        }
      }
    }
  }
  return true;
}

/*
 * Velocities when the file has none: v_i(f) = (p_i(f+1) - p_i(f)) / (t(f+1) - t(f)), the forward
 * difference to the same id in the next frame, or the backward one from the previous frame for an
 * agent the next frame lacks (its last frame); zero for an agent seen in one frame only. Offsets go
 * through the nearest image on a torus. Each frame's ids are matched by a linear scan of the
 * neighbour frame: frames of a few hundred agents, as in the data sets this reads.
 */
static long find_id(const fbTrajectories *tr, long f, long long id)
{
  if (f < 0 || f >= tr->frames) {
    return -1;
  }
  for (long j = tr->frame_start[f]; j < tr->frame_start[f + 1]; ++j) {
    if (tr->id[j] == id) {
      return j;
    }
  }
  return -1;
}

static double offset(double d, bool wrap, double size)
{
  return wrap && size > 0 ? d - size * floor(d / size + 0.5) : d;
}

static void difference_velocities(fbTrajectories *tr)
{
  for (long f = 0; f < tr->frames; ++f) {
    for (long i = tr->frame_start[f]; i < tr->frame_start[f + 1]; ++i) {
      long a = i, b = find_id(tr, f + 1, tr->id[i]);
      if (b < 0) {
        b = i;
        a = find_id(tr, f - 1, tr->id[i]);
      }
      tr->vx[i] = tr->vy[i] = 0.0;
      if (a >= 0 && tr->t[b] > tr->t[a]) {
        tr->vx[i] = offset(tr->x[b] - tr->x[a], tr->wrap, tr->world_w) / (tr->t[b] - tr->t[a]);
        tr->vy[i] = offset(tr->y[b] - tr->y[a], tr->wrap, tr->world_h) / (tr->t[b] - tr->t[a]);
      }
    }
  }
}

static bool read_lines(Reader *r, fbTrajectories *tr, FILE *f)
{
  char line[8192];
  bool header = false;
  while (fgets(line, sizeof line, f) != NULL) {
    r->line++;
    if (strchr(line, '\n') == NULL && !feof(f)) {
      return fail(r, -1, "line longer than %s bytes%s", "8191", "");
    }
    if (line[0] == '#') {
      if (!read_comment(r, tr, line)) {
        return false;
      }
    } else if (line[strspn(line, " \t\r\n")] == '\0') {
      continue;  // a blank line
    } else if (!header) {
      header = true;
      if (!read_header(r, tr, line)) {
        return false;
      }
    } else if (!read_row(r, tr, line)) {
      return false;
    }
  }
  if (!header) {
    snprintf(r->err, r->errlen, "%s: no header row (t,id,x,y ...): is it a trajectory file?", r->path);
    return false;
  }
  if (tr->wrap && tr->world_w <= 0) {
    snprintf(r->err, r->errlen, "%s: wrap=1 needs the world's size (world=W,H)", r->path);
    return false;
  }
  return true;
}

bool fbTrajectories_Read(fbTrajectories *tr, const char *path, char *err, size_t errlen)
{
  memset(tr, 0, sizeof *tr);
  tr->group_count = 1;
  snprintf(tr->groups[0], sizeof tr->groups[0], "all");
  char why[256];
  long size;
  FILE *f = fbFilePath_OpenRegular(path, MAX_BYTES, &size, why, sizeof why);
  if (f == NULL) {
    snprintf(err, errlen, "%s: cannot read the trajectories: %s", path, why);
    return false;
  }
  Reader r = {.path = path, .err = err, .errlen = errlen};
  bool ok = read_lines(&r, tr, f);
  fclose(f);
  if (ok && (r.column_of[COL_GROUP] < 0 || tr->group_count == 0)) {
    tr->group_count = 1;  // every row in the one group "all"
  }
  ok = ok && find_frames(tr, path, err, errlen);
  if (!ok) {
    fbTrajectories_Free(tr);
    return false;
  }
  tr->has_velocity = r.column_of[COL_VX] >= 0;
  if (!tr->has_velocity) {
    difference_velocities(tr);
  }
  return true;
}

void fbTrajectories_Free(fbTrajectories *tr)
{
  free(tr->t);
  free(tr->x);
  free(tr->y);
  free(tr->vx);
  free(tr->vy);
  free(tr->id);
  free(tr->group);
  free(tr->frame_start);
  memset(tr, 0, sizeof *tr);
}

bool fbTrajectoryWriter_Open(fbTrajectoryWriter *w, const char *path, const fbSim *sim, long every, char *err,
                             size_t errlen)
{
  memset(w, 0, sizeof *w);
  w->every = every > 0 ? every : 1;
  w->last_step = -1;
  if (path == NULL) {
    return true;
  }
  char why[256];
  w->file = fbFilePath_OpenOutput(path, "w", why, sizeof why);
  if (w->file == NULL) {
    snprintf(err, errlen, "%s: cannot write the trajectories: %s", path, why);
    return false;
  }
  const fbWorld *world = fbSim_World(sim);
  fprintf(w->file, "# flockbox trajectories: fps=%.17g unit=world world=%.17g,%.17g wrap=%d seed=%llu\n",
          1.0 / (world->dt * (double)w->every), world->width, world->height, world->bounds == FB_BOUNDS_WRAP,
          (unsigned long long)world->seed);
  fprintf(w->file, "t,id,x,y,vx,vy,group\n");
  return true;
}

// Every position and velocity with 17 digits: read back, they are the same doubles, so that the
// statistics of a run's file equal its telemetry's.
void fbTrajectoryWriter_Frame(fbTrajectoryWriter *w, const fbSim *sim, bool force)
{
  const fbWorld *world = fbSim_World(sim);
  if (w->file == NULL || (long long)world->step == w->last_step ||
      (!force && world->step % (uint64_t)w->every != 0)) {
    return;
  }
  w->last_step = (long long)world->step;
  const fbAgents *a = &world->agents;
  const double t = (double)world->step * world->dt;
  for (int i = 0; i < a->count; ++i) {
    fprintf(w->file, "%.17g,%u,%.17g,%.17g,%.17g,%.17g,%s\n", t, a->id[i], a->px[i], a->py[i], a->vx[i], a->vy[i],
            world->species[a->species[i]].name);
  }
}

bool fbTrajectoryWriter_Close(fbTrajectoryWriter *w)
{
  bool ok = true;
  if (w->file != NULL) {
    ok = !ferror(w->file);
    ok = (fclose(w->file) == 0) && ok;
  }
  w->file = NULL;
  return ok;
}
