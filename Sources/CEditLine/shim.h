// libedit's native API (apt: libedit-dev), the BSD line editor. el_set and history are
// variadic, which Swift cannot call: these typed wrappers can.
#include <stdio.h>
#include <wchar.h>
#include <histedit.h>

typedef char *(*gb_prompt_function)(EditLine *);
typedef unsigned char (*gb_editor_function)(EditLine *, int);

static inline int gb_el_set_prompt(EditLine *el, gb_prompt_function prompt) {
  return el_set(el, EL_PROMPT, prompt);
}

static inline int gb_el_set_string(EditLine *el, int op, const char *value) {
  return el_set(el, op, value);
}

static inline int gb_el_set_int(EditLine *el, int op, int value) {
  return el_set(el, op, value);
}

static inline int gb_el_set_getc(EditLine *el, el_rfunc_t getc) {
  return el_set(el, EL_GETCFN, getc);
}

static inline int gb_el_bind(EditLine *el, const char *key, const char *command) {
  return el_set(el, EL_BIND, key, command, NULL);
}

static inline int gb_el_add_function(EditLine *el, const char *name, const char *help,
                                     gb_editor_function function) {
  return el_set(el, EL_ADDFN, name, help, function);
}

static inline int gb_el_set_history(EditLine *el, History *list) {
  return el_set(el, EL_HIST, history, list);
}

static inline void gb_el_refresh(EditLine *el) { el_set(el, EL_REFRESH); }

static inline int gb_history_int(History *list, int op, int value) {
  HistEvent event;
  return history(list, &event, op, value);
}

static inline int gb_history_string(History *list, int op, const char *value) {
  HistEvent event;
  return history(list, &event, op, value);
}
