// stats_command.c — flockbox stats FILE.csv: a trajectory file's order, milling, spacing, speeds and groups, and the distances to another file's.
#include "stats_command.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "trajectory_stats.h"

typedef struct Options {
  const char *file, *compare, *group, *frames;
  double link;  // <= 0: five times the median nearest-neighbour distance of FILE
} Options;

static const char usage[] =
    "usage: flockbox stats FILE.csv [--group NAME] [--link D] [--frames OUT.csv] [--compare OTHER.csv]\n"
    "  the statistics of a trajectory file (docs/fitting.md, \"Trajectories\"): polarisation, rotation,\n"
    "  nearest-neighbour distances, speeds and groups (agents linked within D; default five times the\n"
    "  median nearest-neighbour distance), means over frames; --frames writes them frame by frame;\n"
    "  --compare gives the Wasserstein distances between the two files' distributions\n";

static int parse(int argc, char **argv, Options *o)
{
  memset(o, 0, sizeof *o);
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k], *value = k + 1 < argc ? argv[k + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    }
    if (a[0] == '-' && value == NULL) {
      fprintf(stderr, "flockbox stats: %s needs a value\n%s", a, usage);
      return 2;
    }
    char *end;
    if (strcmp(a, "--link") == 0) {
      o->link = strtod(value, &end);
      if (end == value || *end != '\0' || !(o->link > 0) || !isfinite(o->link)) {
        fprintf(stderr, "flockbox stats: --link: expected a positive distance, got '%s'\n", value);
        return 2;
      }
    } else if (strcmp(a, "--compare") == 0 || strcmp(a, "--group") == 0 || strcmp(a, "--frames") == 0) {
      *(strcmp(a, "--compare") == 0 ? &o->compare : strcmp(a, "--group") == 0 ? &o->group : &o->frames) = value;
    } else if (a[0] != '-' && o->file == NULL) {
      o->file = a;
      continue;
    } else {
      fprintf(stderr, "flockbox stats: unknown argument '%s'\n%s", a, usage);
      return 2;
    }
    k++;
  }
  if (o->file == NULL) {
    fprintf(stderr, "flockbox stats: no trajectory file given\n%s", usage);
    return 2;
  }
  return -1;
}

// The group's index in tr, -1 for every row; false with a message if the file has no such group.
static bool find_group(const fbTrajectories *tr, const char *path, const char *name, int *group)
{
  *group = -1;
  for (int g = 0; name != NULL && g < tr->group_count; ++g) {
    *group = strcmp(tr->groups[g], name) == 0 ? g : *group;
  }
  if (name != NULL && *group < 0) {
    fprintf(stderr, "flockbox stats: %s: no group '%s' (it has %s%s)\n", path, name, tr->groups[0],
            tr->group_count > 1 ? ", ..." : "");
    return false;
  }
  return true;
}

static void print_summary(const char *path, const fbTrajectories *tr, const fbTrajectorySummary *s, double link)
{
  printf("stats: %s: %ld frames, %.4g agents a frame, fps %.4g, unit %s\n", path, s->frames, s->agents, tr->fps,
         tr->unit[0] ? tr->unit : "(not given)");
  printf("  polarisation      %.6g\n", s->polarisation);
  printf("  rotation          %.6g\n", s->rotation);
  printf("  nearest neighbour mean %.6g, quantiles 10%% %.6g, 50%% %.6g, 90%% %.6g\n", s->mean_nn,
         fbStats_Quantile(s->nn, s->nn_count, 0.1), fbStats_Quantile(s->nn, s->nn_count, 0.5),
         fbStats_Quantile(s->nn, s->nn_count, 0.9));
  printf("  speed             mean %.6g, quantiles 10%% %.6g, 50%% %.6g, 90%% %.6g\n", s->mean_speed,
         fbStats_Quantile(s->speed, s->speed_count, 0.1), fbStats_Quantile(s->speed, s->speed_count, 0.5),
         fbStats_Quantile(s->speed, s->speed_count, 0.9));
  printf("  groups            %.6g (linked within %.6g), largest %.6g agents\n", s->groups, link, s->largest_group);
}

// Reads path and summarises the group; link <= 0 is chosen from the file's own spacing.
static bool summarise(const char *path, const char *group_name, double *link, const char *frames,
                      fbTrajectories *tr, fbTrajectorySummary *s)
{
  char err[1024];
  int group;
  if (!fbTrajectories_Read(tr, path, err, sizeof err)) {
    fprintf(stderr, "flockbox stats: %s\n", err);
    return false;
  }
  if (!find_group(tr, path, group_name, &group)) {
    fbTrajectories_Free(tr);
    return false;
  }
  if (*link <= 0) {
    fbTrajectorySummary_Compute(tr, group, 0.0, s, NULL);  // a first pass for the spacing
    double median = fbStats_Quantile(s->nn, s->nn_count, 0.5);
    *link = median > 0 ? 5.0 * median : 1.0;
    fbTrajectorySummary_Free(s);
  }
  FILE *out = NULL;
  char why[256];
  if (frames != NULL && (out = fbFilePath_OpenOutput(frames, "w", why, sizeof why)) == NULL) {
    fprintf(stderr, "flockbox stats: %s: cannot write (--frames): %s\n", frames, why);
    fbTrajectories_Free(tr);
    return false;
  }
  fbTrajectorySummary_Compute(tr, group, *link, s, out);
  if (out != NULL && fclose(out) != 0) {
    fprintf(stderr, "flockbox stats: %s: writing failed\n", frames);
  }
  return true;
}

int fbStatsCommand_Main(int argc, char **argv)
{
  Options o;
  int status = parse(argc, argv, &o);
  if (status >= 0) {
    return status;
  }
  fbTrajectories a, b;
  fbTrajectorySummary sa, sb;
  if (!summarise(o.file, o.group, &o.link, o.frames, &a, &sa)) {
    return 2;
  }
  print_summary(o.file, &a, &sa, o.link);
  if (o.compare != NULL) {
    if (!summarise(o.compare, o.group, &o.link, NULL, &b, &sb)) {
      status = 2;
    } else {
      print_summary(o.compare, &b, &sb, o.link);
      printf("compare: wasserstein nearest neighbour %.6g, speed %.6g; difference polarisation %.6g, rotation %.6g, "
             "groups %.6g\n",
             fbStats_Wasserstein1(sa.nn, sa.nn_count, sb.nn, sb.nn_count),
             fbStats_Wasserstein1(sa.speed, sa.speed_count, sb.speed, sb.speed_count),
             sb.polarisation - sa.polarisation, sb.rotation - sa.rotation, sb.groups - sa.groups);
      fbTrajectorySummary_Free(&sb);
      fbTrajectories_Free(&b);
    }
  }
  fbTrajectorySummary_Free(&sa);
  fbTrajectories_Free(&a);
  return status < 0 ? 0 : status;
}
