// viewer_load.h — a scenario into the window: opening one (the list, a dropped file), restarting it (R, N), picking up saved files, and what each resets.
#ifndef FB_VIEWER_LOAD_H
#define FB_VIEWER_LOAD_H

#include "viewer_state.h"

// v->run holds a sim just loaded (at the start, on a restart or an open): the window takes it. What
// belonged to the last sim goes: the selection (and following it), the grab, the owed time, the
// profile, the terrain texture and trails, the panel and plots (rebuilt for this one) and the rewind
// snapshots; the first snapshot is taken.
void fbViewer_Adopt(fbViewer *v);

// R and N: the same scenario file again, with the same or the next seed, and the panel's changes;
// the camera stays. On failure nothing is loaded (v->loaded false, the message in load_error).
void fbViewer_Restart(fbViewer *v, bool new_seed);

// Opens another scenario (from the list or a dropped file) with the same options, seed and
// camera fit; the parameter changes of the last one are dropped. Returns false if it failed to
// load: the message is shown and the window keeps running with nothing loaded until R or O.
bool fbViewer_Open(fbViewer *v, const char *path);

// Ends v's run: closes its CSV and, with --csv, writes FILE.csv.json as a headless run does, the
// console's lines included. False (said on stderr) if either could not be written.
bool fbViewer_EndRun(fbViewer *v);

// Fits the camera to the loaded scenario (its `view`, else the whole world) in the layout's view,
// and stops following.
void fbViewer_Fit(fbViewer *v);

// Saved rule and scenario files, applied (every frame, paused or not); a scenario reload rebuilds
// the terrain image, the panel and the plots' series.
// Returns how many were applied.
int fbViewer_PickUpSaves(fbViewer *v);

// A snapshot for rewind if one is due (after every step and a load); the first one refused turns
// rewind off for this run, said once.
void fbViewer_NoteSnapshot(fbViewer *v, fbSim *sim);

#endif
