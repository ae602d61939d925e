// scenario_list.h — the list of scenarios (O): the .lua files beside the running one, to open another from the window.
#ifndef FB_SCENARIO_LIST_H
#define FB_SCENARIO_LIST_H

#include "hud.h"

#define FB_LIST_MAX 128

typedef struct fbScenarioList {
  bool open;
  char dir[512];
  char paths[FB_LIST_MAX][768];
  char titles[FB_LIST_MAX][160];   // the file's first comment line, after the file name
  int count, selected, first;      // first: the top row shown
  SDL_Rect rows[FB_LIST_MAX];      // where each shown row was drawn (for clicks); w = 0 if not shown
} fbScenarioList;

// Opens the list on the folder of `current` (scripts/), sorted by name, the current one selected.
void fbScenarioList_Open(fbScenarioList *l, const char *current);

// Takes an event while the list is open: Up, Down, Page keys, the wheel, Enter or a click to choose
// (its path goes to chosen), Esc to close. Returns true when it used the event.
bool fbScenarioList_Event(fbScenarioList *l, const SDL_Event *e, char *chosen, size_t len);

void fbScenarioList_Draw(fbScenarioList *l, fbHud *hud, int window_w, int window_h);

#endif
