// main.c — flockbox's entry point: parse the command line, then run headless or in a window.
#include "headless.h"
#include "viewer.h"

int main(int argc, char **argv)
{
  fbCli cli;
  char err[1024];
  int parsed = fbCli_Parse(&cli, argc, argv, err, sizeof err);
  if (parsed == 1) {
    return 0;
  }
  if (parsed == 2) {
    fprintf(stderr, "flockbox: %s\n", err);
    return 2;
  }
  return cli.headless ? fbHeadless_Run(&cli) : fbViewer_Run(&cli);
}
