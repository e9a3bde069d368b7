// The terminal's own mode given back when the process is ended by a signal, as less and vim
// do. The browser's editor and the reader's single keys change the mode of the terminal (no
// canonical input, no echo) for as long as they run; SIGTERM, SIGHUP or SIGQUIT would end the
// process with the mode still changed, and a terminal whose parent is no interactive shell
// (a script, `ssh host gutenberg`, a terminal emulator's own command) stays without echo.
#ifndef GB_CTERMINALGUARD_H
#define GB_CTERMINALGUARD_H

#include <termios.h>

/// Keeps `mode` (the terminal's mode before the program changed it) and installs, for SIGTERM,
/// SIGHUP and SIGQUIT where their disposition is still the default, a handler that gives it
/// back to standard input (only while the process is in the terminal's foreground, so a
/// stopped job killed from the shell never waits on SIGTTOU), then ends the process by the
/// same signal with its default effect. The first call wins; later ones do nothing. Returns
/// 1 when this call installed the handlers.
int gb_terminal_guard(const struct termios *mode);

#endif
