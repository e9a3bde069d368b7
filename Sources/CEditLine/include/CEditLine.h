// libedit's native API, the BSD line editor, loaded on first use: the types and constants come
// from <histedit.h> (apt: libedit-dev at build time), the functions from libedit.so.2, opened
// with dlopen by `gb_editline_load`. Only a prompt on a terminal uses it, so a command or a
// piped session never maps it nor the libraries it pulls in.
//
// Call `gb_editline_load` first and go on only when it returns NULL: every other function here
// calls through the table it fills. el_set and history are variadic, which Swift cannot call:
// these typed wrappers can. Nothing here is named like a libedit function, so the executable
// never shadows one of libedit's own symbols.
#ifndef GB_CEDITLINE_H
#define GB_CEDITLINE_H

#include <stdio.h>
#include <wchar.h>
#include <histedit.h>

#include "CTerminalGuard.h"

/// Opens libedit and resolves its functions, once per process; NULL when they are all there,
/// else one line saying what is missing and which package installs it.
const char *gb_editline_load(void);

typedef char *(*gb_prompt_function)(EditLine *);
typedef unsigned char (*gb_editor_function)(EditLine *, int);

EditLine *gb_el_init(const char *program, FILE *input, FILE *output, FILE *errors);
const char *gb_el_gets(EditLine *el, int *count);
const LineInfo *gb_el_line(EditLine *el);
int gb_el_insertstr(EditLine *el, const char *text);
void gb_el_deletestr(EditLine *el, int count);
int gb_el_cursor(EditLine *el, int count);
void gb_el_resize(EditLine *el);
History *gb_history_init(void);

int gb_el_set_prompt(EditLine *el, gb_prompt_function prompt);
int gb_el_set_string(EditLine *el, int op, const char *value);
int gb_el_set_int(EditLine *el, int op, int value);
int gb_el_set_getc(EditLine *el, el_rfunc_t getc);
int gb_el_bind(EditLine *el, const char *key, const char *command);
int gb_el_add_function(EditLine *el, const char *name, const char *help,
                       gb_editor_function function);
int gb_el_set_history(EditLine *el, History *list);
void gb_el_refresh(EditLine *el);
int gb_history_int(History *list, int op, int value);
int gb_history_string(History *list, int op, const char *value);
/// `H_SAVE_FP`: the history written to a file the caller opened (never by name, so never
/// through a link put at the name).
int gb_history_file(History *list, int op, FILE *file);

#endif
