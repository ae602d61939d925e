// test_keys.c — the key table: every key it lists does what its entry says, and no key is in two entries.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "docks.h"
#include "input.h"

static fbActionKind press(SDL_Keycode sym, Uint16 mod)
{
  fbInput in = {0};
  fbCamera cam = {0};
  cam.scale = 1;
  SDL_Event e = {.type = SDL_KEYDOWN};
  e.key.keysym.sym = sym;
  e.key.keysym.mod = mod;
  return fbInput_Event(&in, &e, &cam, false).kind;
}

// The window dispatches on the table: each key of each entry, pressed as listed, does its action.
static void test_every_key_does_what_its_entry_says(void **state)
{
  (void)state;
  int keys = 0;
  for (int k = 0; k < fbKeyCount; ++k) {
    for (int p = 0; p < FB_KEY_PRESSES && fbKeyTable[k].press[p].sym != 0; ++p) {
      const fbKeyPress *kp = &fbKeyTable[k].press[p];
      assert_int_equal(press(kp->sym, kp->shift ? KMOD_LSHIFT : 0), kp->action);
      keys++;
    }
  }
  assert_true(keys >= 20);
}

// A key (with or without Shift) in two entries, or in an entry and a dock's, would do one of the
// two things its help lines say.
static void test_no_key_is_listed_twice(void **state)
{
  (void)state;
  for (int k = 0; k < fbKeyCount; ++k) {
    for (int p = 0; p < FB_KEY_PRESSES && fbKeyTable[k].press[p].sym != 0; ++p) {
      const fbKeyPress *a = &fbKeyTable[k].press[p];
      assert_true(fbDock_ForKey(a->sym) < 0);
      for (int j = 0; j < fbKeyCount; ++j) {
        for (int q = 0; q < FB_KEY_PRESSES && fbKeyTable[j].press[q].sym != 0; ++q) {
          const fbKeyPress *b = &fbKeyTable[j].press[q];
          assert_true((j == k && q == p) || a->sym != b->sym || a->shift != b->shift);
        }
      }
    }
  }
}

// Shift picks the Shift entry when there is one and is ignored otherwise; keys the table does not
// list go to the scenario.
static void test_shift_and_the_scenario_keys(void **state)
{
  (void)state;
  assert_int_equal(press(SDLK_f, 0), FB_ACTION_FOLLOW_FLOCK);
  assert_int_equal(press(SDLK_f, KMOD_RSHIFT), FB_ACTION_FOLLOW_AGENT);
  assert_int_equal(press(SDLK_r, KMOD_LSHIFT), FB_ACTION_RESTART);
  assert_int_equal(press(SDLK_SLASH, KMOD_LSHIFT), FB_ACTION_HELP);  // ? on most layouts
  assert_int_equal(press(SDLK_SLASH, 0), FB_ACTION_SCENARIO_KEY);
  assert_int_equal(press(SDLK_k, 0), FB_ACTION_SCENARIO_KEY);
}

// A click on a key bar entry presses its first key; the right half of a pair, the other one.
static void test_key_bar_buttons(void **state)
{
  (void)state;
  for (int k = 0; k < fbKeyCount; ++k) {
    SDL_Keycode sym[2];
    Uint16 mod;
    const fbKey *key = &fbKeyTable[k];
    if (key->keys == NULL || !fbKeys_Button(key, sym, &mod)) {
      continue;
    }
    assert_int_equal(press(sym[0], mod), key->press[0].action);
    if (sym[1] != 0) {
      assert_int_not_equal(press(sym[1], mod), key->press[0].action);
    }
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_key_does_what_its_entry_says),
      cmocka_unit_test(test_no_key_is_listed_twice),
      cmocka_unit_test(test_shift_and_the_scenario_keys),
      cmocka_unit_test(test_key_bar_buttons),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
