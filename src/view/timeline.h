// timeline.h — the rewind timeline: the kept snapshots and the current step along a bar, a click or a drag asks for a step.
#ifndef FB_TIMELINE_H
#define FB_TIMELINE_H

#include "rewind.h"
#include "widgets.h"

// What the timeline dock shows in a frame, and what the user asked of it (the viewer acts on it).
typedef struct fbTimeline {
  const fbRewind *rewind;
  uint64_t now;              // the sim's step
  bool seeking;              // the viewer is stepping on to `target` (a step between two snapshots)
  uint64_t target;
  bool asked;                // out: a click or a drag on the bar asked for step `ask` this frame
  uint64_t ask;
} fbTimeline;

// The steps the bar spans: from the oldest snapshot to the newest one, the current step or the
// target, whichever is latest.
void fbTimeline_Span(const fbTimeline *t, uint64_t *first, uint64_t *last);

// The bar inside the dock's area, under a line of text (line_h pixels).
SDL_Rect fbTimeline_Bar(SDL_Rect area, int line_h);

// The step at x on the bar, as a click there asks for it.
uint64_t fbTimeline_StepAt(const fbTimeline *t, SDL_Rect bar, int x);

// Draws the timeline into area: a line saying where the run is and what the bar holds (what a
// click would do, under the mouse), then the bar with a tick per snapshot and the current step.
void fbTimeline_Draw(fbTimeline *t, fbUi *ui, SDL_Rect area);

#endif
