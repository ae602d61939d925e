// experiment.h — what a sweep runs: one scenario over a grid of --set values × a range of seeds, read from a Lua file and the command line.
#ifndef FB_EXPERIMENT_H
#define FB_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "sweep_design.h"

#define FB_SWEEP_MAX_AXES 8
#define FB_SWEEP_MAX_RUNS 10000000L

// A list of strings the list owns.
typedef struct fbTextList {
  char **items;
  int count;
} fbTextList;

void fbTextList_Add(fbTextList *l, const char *text);
void fbTextList_Free(fbTextList *l);

// One parameter of the grid: a --set name and its values, in the order given.
typedef struct fbAxis {
  char *name;          // "herd.terrain_drag.uphill", or names varied together: "wolf.max_speed,sheep.max_speed"
  fbTextList values;   // as written after "NAME=": "0", "2.5", "wrap", "1,3"
  bool from_option;    // given (or replaced) by --grid, not by the file: what messages name
} fbAxis;

// How many names the axis varies together (1 + its commas).
int fbAxis_NameCount(const fbAxis *axis);

typedef struct fbExperiment {
  char *source;        // the experiment file, or NULL when options alone give the experiment
  unsigned given_by_option;  // a bit per field (see experiment.c) that a command-line option set
  char *scenario;      // relative to the current folder, as on the command line
  long steps;          // per run; the scenario may end a run sooner (default 1000)
  long every;          // a CSV row every K steps; 0: the first and the final row only
  fbTextList sets;     // NAME=VALUE for every run
  int file_sets;       // how many of them the file gave (the first ones; --set adds after)
  fbAxis axes[FB_SWEEP_MAX_AXES];
  int axis_count;
  long long seed_first, seed_last;  // inclusive
  fbTextList seed_sets;             // names also set to the run's seed
  int file_seed_sets;               // how many of them the file gave
  char *out;                        // the output folder
  char *plot_x;                     // a grid parameter, or NULL for no plot
  fbTextList plot_y;                // measures ("herd.mean_energy") or outcomes ("outcome:stuck")
  fbExperimentDesign design;        // design.method != 0: its parameters are the axes, zipped (point k
                                    // takes value k of each), not crossed
  bool accepts_fit;                 // set before reading: the file may hold a `fit` table (fit_spec.h reads it)
} fbExperiment;

// Empty, with the defaults: 1000 steps, seeds 1 to 1, no grid.
void fbExperiment_Init(fbExperiment *e);
void fbExperiment_Free(fbExperiment *e);

// Runs the file in the sandbox and reads the table it returns. On failure one message in err names
// the file and the field: "experiments/x.lua: grid[2][2]: expected a list of numbers or strings".
bool fbExperiment_Read(fbExperiment *e, const char *path, char *err, size_t errlen);

// Applies one command-line option that changes the experiment (--scenario, --steps, --every, --set,
// --grid, --seeds, --seed-set, --out, --plot); options override the file, except --set and
// --seed-set, which add to it, and --grid, which replaces the axis of that name or adds one.
// Returns 0, 2 with a message naming the option, or -1 if opt is not such an option.
int fbExperiment_Option(fbExperiment *e, const char *opt, const char *value, char *err, size_t errlen);

// Where a field came from, for messages: "experiments/x.lua: seeds" when the file gave it, the
// option ("--seeds") when the command line did.
void fbExperiment_Where(const fbExperiment *e, const char *field, char *out, size_t len);

// The checks that need the whole experiment: a scenario that exists, a grid and seeds that make at
// most FB_SWEEP_MAX_RUNS runs, not too many --set values per run, a plot along a grid parameter.
bool fbExperiment_Check(const fbExperiment *e, char *err, size_t errlen);

#endif
