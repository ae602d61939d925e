// viewer_time.h — the window going back in time: rewind, the timeline's seek and replay, a failed step made again after a fix.
#ifndef FB_VIEWER_TIME_H
#define FB_VIEWER_TIME_H

#include "viewer_state.h"

// Backspace (back) and Shift+Backspace (forward): to the next snapshot that way, paused there.
void fbViewer_RewindStep(fbViewer *v, bool back);

// The timeline asked for step `target`: the newest snapshot at or before it, then fbViewer_Replay
// steps on to it exactly over the next frames.
void fbViewer_Seek(fbViewer *v, uint64_t target);
void fbViewer_Replay(fbViewer *v);

// A save loaded while stopped on an error: back to the state before the failed step and that step
// made again with the rules as they are now, paused after it.
void fbViewer_MakeFailedStepAgain(fbViewer *v);

#endif
