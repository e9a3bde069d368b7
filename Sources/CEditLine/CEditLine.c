// libedit opened on the first prompt read on a terminal (see include/CEditLine.h for why).
#include "CEditLine.h"

#include "CLoader.h"

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
  X(el_deletestr, void, (EditLine *, int))                                                       \
  X(el_cursor, int, (EditLine *, int))                                                           \
  X(el_resize, void, (EditLine *))                                                               \
  X(el_set, int, (EditLine *, int, ...))                                                         \
  X(history_init, History *, (void))                                                             \
  X(history, int, (History *, HistEvent *, int, ...))

// Written once by the first `gb_editline_load`, only read afterwards (the loader orders it).
#define GB_FIELD(name, result, parameters) result(*fn_##name) parameters;
static struct {
  GB_EDITLINE_FUNCTIONS(GB_FIELD)
} table;
#undef GB_FIELD

static void resolve(struct gb_library *library) {
#define GB_RESOLVE(name, result, parameters)                                                   \
  table.fn_##name = (result(*) parameters)gb_library_symbol(library, #name);
  GB_EDITLINE_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
}

static struct gb_library loader = GB_LIBRARY(GB_LIBEDIT, "libedit2", NULL, resolve);

const char *gb_editline_load(void) { return gb_library_load(&loader); }

EditLine *gb_el_init(const char *program, FILE *input, FILE *output, FILE *errors) {
  return table.fn_el_init(program, input, output, errors);
}
const char *gb_el_gets(EditLine *el, int *count) { return table.fn_el_gets(el, count); }
const LineInfo *gb_el_line(EditLine *el) { return table.fn_el_line(el); }
int gb_el_insertstr(EditLine *el, const char *text) { return table.fn_el_insertstr(el, text); }
void gb_el_deletestr(EditLine *el, int count) { table.fn_el_deletestr(el, count); }
int gb_el_cursor(EditLine *el, int count) { return table.fn_el_cursor(el, count); }
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
int gb_history_file(History *list, int op, FILE *file) {
  HistEvent event;
  return table.fn_history(list, &event, op, file);
}
