// libedit opened on the first prompt read on a terminal (see include/CEditLine.h for why).
#include "CEditLine.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#if defined(__APPLE__)
#define GB_LIBEDIT "libedit.3.dylib"
#else
#define GB_LIBEDIT "libedit.so.2"
#endif

// Every libedit function the package calls: name, return type, parameters.
#define GB_EDITLINE_FUNCTIONS(X)                                                                 \
  X(el_init, EditLine *, (const char *, FILE *, FILE *, FILE *))                                 \
  X(el_gets, const char *, (EditLine *, int *))                                                  \
  X(el_line, const LineInfo *, (EditLine *))                                                     \
  X(el_insertstr, int, (EditLine *, const char *))                                               \
  X(el_resize, void, (EditLine *))                                                               \
  X(el_set, int, (EditLine *, int, ...))                                                         \
  X(history_init, History *, (void))                                                             \
  X(history, int, (History *, HistEvent *, int, ...))

// Written once under `once`, only read afterwards (pthread_once orders the writes first).
#define GB_FIELD(name, result, parameters) result(*fn_##name) parameters;
static struct {
  GB_EDITLINE_FUNCTIONS(GB_FIELD)
} table;
#undef GB_FIELD

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = NULL;
static char message[512];

static void load(void) {
  void *library = dlopen(GB_LIBEDIT, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(message, sizeof message,
             "cannot load " GB_LIBEDIT " (%s); install libedit2 (apt-get install libedit2)",
             reason ? reason : "not found");
    failure = message;
    return;
  }
#define GB_RESOLVE(name, result, parameters)                                                   \
  table.fn_##name = (result(*) parameters)dlsym(library, #name);                               \
  if (table.fn_##name == NULL) {                                                               \
    snprintf(message, sizeof message, GB_LIBEDIT " has no " #name "; install libedit2");      \
    failure = message;                                                                         \
    return;                                                                                    \
  }
  GB_EDITLINE_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
}

const char *gb_editline_load(void) {
  pthread_once(&once, load);
  return failure;
}

EditLine *gb_el_init(const char *program, FILE *input, FILE *output, FILE *errors) {
  return table.fn_el_init(program, input, output, errors);
}
const char *gb_el_gets(EditLine *el, int *count) { return table.fn_el_gets(el, count); }
const LineInfo *gb_el_line(EditLine *el) { return table.fn_el_line(el); }
int gb_el_insertstr(EditLine *el, const char *text) { return table.fn_el_insertstr(el, text); }
void gb_el_resize(EditLine *el) { table.fn_el_resize(el); }
History *gb_history_init(void) { return table.fn_history_init(); }

// The variadic two, each called with the argument types its operation takes.
int gb_el_set_prompt(EditLine *el, gb_prompt_function prompt) {
  return table.fn_el_set(el, EL_PROMPT, prompt);
}
int gb_el_set_string(EditLine *el, int op, const char *value) {
  return table.fn_el_set(el, op, value);
}
int gb_el_set_int(EditLine *el, int op, int value) { return table.fn_el_set(el, op, value); }
int gb_el_set_getc(EditLine *el, el_rfunc_t getc) {
  return table.fn_el_set(el, EL_GETCFN, getc);
}
int gb_el_bind(EditLine *el, const char *key, const char *command) {
  return table.fn_el_set(el, EL_BIND, key, command, NULL);
}
int gb_el_add_function(EditLine *el, const char *name, const char *help,
                       gb_editor_function function) {
  return table.fn_el_set(el, EL_ADDFN, name, help, function);
}
int gb_el_set_history(EditLine *el, History *list) {
  // EL_HIST takes libedit's own `history` function and the list it works on.
  return table.fn_el_set(el, EL_HIST, table.fn_history, list);
}
void gb_el_refresh(EditLine *el) { table.fn_el_set(el, EL_REFRESH); }
int gb_history_int(History *list, int op, int value) {
  HistEvent event;
  return table.fn_history(list, &event, op, value);
}
int gb_history_string(History *list, int op, const char *value) {
  HistEvent event;
  return table.fn_history(list, &event, op, value);
}
