// make_plans.c — writes the shipped floor plans (plans/*.png); from the repo root: gcc -std=c11 -O2 tools/make_plans.c $(pkg-config --cflags --libs stb) -o /tmp/make_plans && /tmp/make_plans [outdir]
#include <stdio.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

/*
 * A floor plan is a grey PNG, one pixel a square of the world (the scenario's `cell`), black walls
 * on white floor (floor_plan.h: darker than 128 is a wall). office.png, at 0.2 m a pixel, is 40 m by
 * 26 m: a corridor 4 m wide along the middle (y 11-15 m), three rooms on each side of it, each
 * opening onto the corridor by a door 1.2 m wide; outer walls 0.4 m thick, inner walls 0.4 m.
 * Exits, gaps in the outer wall: both ends of the corridor (2 m wide) and the north wall of the
 * middle north room (1.6 m). Positions below are in pixels (metres times 5).
 */
enum { W = 200, H = 130 };
static unsigned char plan[H][W];

static void fill(int x0, int y0, int x1, int y1, unsigned char grey)  // [x0, x1) × [y0, y1)
{
  for (int y = y0; y < y1; ++y) {
    memset(&plan[y][x0], grey, (size_t)(x1 - x0));
  }
}

static void office(void)
{
  memset(plan, 255, sizeof plan);
  fill(0, 0, W, 2, 0), fill(0, H - 2, W, H, 0), fill(0, 0, 2, H, 0), fill(W - 2, 0, W, H, 0);  // outer walls
  fill(0, 54, W, 56, 0), fill(0, 74, W, 76, 0);  // the corridor's walls, y 11 and 15 m
  for (int k = 1; k < 3; ++k) {
    int x = k * W / 3 - 1;
    fill(x, 0, x + 2, 55, 0), fill(x, 75, x + 2, H, 0);  // walls between rooms
  }
  for (int k = 0; k < 3; ++k) {
    int door = (2 * k + 1) * W / 6 - 3;  // a door 1.2 m wide at each room's middle
    fill(door, 54, door + 6, 56, 255), fill(door, 74, door + 6, 76, 255);
  }
  fill(0, 60, 2, 70, 255), fill(W - 2, 60, W, 70, 255);  // exits west and east, y 12-14 m
  fill(96, 0, 104, 2, 255);                             // exit north, x 19.2-20.8 m
}

int main(int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : "plans";
  char path[512];
  office();
  snprintf(path, sizeof path, "%s/office.png", dir);
  if (!stbi_write_png(path, W, H, 1, plan, W)) {
    fprintf(stderr, "cannot write %s\n", path);
    return 1;
  }
  printf("wrote %s (%dx%d)\n", path, W, H);
  return 0;
}
