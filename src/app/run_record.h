// run_record.h — one run of a sweep after it ended: its status file (written by the sweep), its metadata (written by the run) and its final CSV row.
#ifndef FB_RUN_RECORD_H
#define FB_RUN_RECORD_H

#include "plan.h"

typedef enum fbRunState {
  FB_RUN_PENDING,     // not made yet, or interrupted half-way: made (again) by the next sweep
  FB_RUN_COMPLETE,    // exit status 0
  FB_RUN_INCOMPLETE,  // exit status 3: a rule or a hook was lost during the run
  FB_RUN_FAILED,      // anything else: bad input (2), output not written (1), a crash (128 + signal)
} fbRunState;

// "pending", "complete", "incomplete", "failed".
const char *fbRunState_Name(fbRunState state);

// What a run's exit status means. An interrupted run (130, or killed by SIGINT, SIGTERM or SIGHUP)
// is PENDING: its CSV stops early, so it is made again.
fbRunState fbRunState_OfExit(int exit_status);

/*
 * Every way of making a run claims it first: a local sweep, `sweep --run K` from GNU parallel or a
 * Slurm task, any number at once in one folder. The claim is an exclusive lock (flock) on
 * OUT/runs/<run>.claim, held while the run is made and let go by the kernel if the holder dies,
 * so a run is never made twice at once. Returns the lock's descriptor, or -1 when another process
 * holds the claim (or the file cannot be made: then err says why).
 */
int fbRunRecord_Claim(const fbPlan *p, long run, char *err, size_t errlen);
void fbRunRecord_Release(int claim);

// Removes what an earlier attempt at the run left (CSV, metadata, status), before it is made again.
void fbRunRecord_Clear(const fbPlan *p, long run);

// After the run's process ended: writes OUT/runs/<run>.status, atomically, with the exit status and
// the output files the run left; nothing for an interrupted run. False if it cannot be written.
bool fbRunRecord_Finish(const fbPlan *p, long run, int exit_status);

// The state recorded for the run: PENDING without a status file, or when a file the status lists
// has gone since (delete a run's CSV and the next sweep makes it again).
fbRunState fbRunRecord_State(const fbPlan *p, long run, int *exit_status);

typedef struct fbRunRecord {
  fbRunState state;
  int exit_status;           // -1 while pending
  bool has_metadata;         // OUT/runs/<run>.csv.json was read
  char status[16];           // the metadata's status (complete, incomplete, interrupted), or ""
  char outcome[64];          // the metadata's outcome ("arrived", "step_limit"), or ""
  char outcome_time[32];     // as written in the metadata, or ""
  char steps[32];            // steps made: the metadata's, else the final row's step
  char made_from[65];        // SHA-256 of the metadata's flockbox, scenario_sha256 and inputs lines:
                             // runs made by the same build from the same files agree ("" without metadata)
  fbTextList columns;        // the header of the run's CSV
  fbTextList values;         // its final row (empty if there is none)
} fbRunRecord;

// Reads everything known of the run. A run that left no CSV (failed to load) has no columns.
void fbRunRecord_Load(fbRunRecord *r, const fbPlan *p, long run);
void fbRunRecord_Free(fbRunRecord *r);

#endif
