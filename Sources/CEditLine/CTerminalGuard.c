// A signal handler that gives the terminal its mode back (see include/CTerminalGuard.h).
#include "CTerminalGuard.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// Written once, before any handler that reads it is installed; read only by the handlers.
static struct termios saved;
static int taken = 0;

// Only async-signal-safe calls: tcgetpgrp, getpgrp, tcsetattr, raise.
static void give_back(int number) {
  int kept = errno;
  if (tcgetpgrp(STDIN_FILENO) == getpgrp()) {
    (void)tcsetattr(STDIN_FILENO, TCSANOW, &saved);
  }
  // SA_RESETHAND has put the default disposition back: the signal, blocked while this runs,
  // ends the process as it would have (SIGQUIT with its core) once the handler returns.
  (void)raise(number);
  errno = kept;
}

int gb_terminal_guard(const struct termios *mode) {
  if (__atomic_exchange_n(&taken, 1, __ATOMIC_ACQ_REL)) return 0;
  saved = *mode;
  const int numbers[] = {SIGTERM, SIGHUP, SIGQUIT};
  for (unsigned index = 0; index < sizeof numbers / sizeof numbers[0]; index++) {
    struct sigaction old;
    // A signal the parent chose to ignore (nohup) or to handle stays as it was.
    if (sigaction(numbers[index], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = give_back;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    (void)sigaction(numbers[index], &action, NULL);
  }
  return 1;
}
