// libxml2 opened on the first record parsed (see include/CLibXML2.h for why).
//
// system/libxml links to the system's libxml headers (/usr/include/libxml2/libxml, where
// libxml2-dev puts them on Debian, Ubuntu and Fedora): the package names no include path
// outside itself, so it needs no unsafe flags.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU; nothing here touches the ICU parts of its structs.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "CLibXML2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The library of the headers the package is built with: 2.14 changed the soname.
#if defined(__APPLE__)
#define GB_LIBXML2 "libxml2.2.dylib"
#elif LIBXML_VERSION >= 21400
#define GB_LIBXML2 "libxml2.so.16"
#else
#define GB_LIBXML2 "libxml2.so.2"
#endif

#define GB_XML_FUNCTIONS(X)                                                                      \
  X(xmlReadMemory)                                                                               \
  X(xmlFreeDoc)                                                                                  \
  X(xmlDocGetRootElement)                                                                        \
  X(xmlGetNsProp)

// Written once under `once`, only read afterwards (pthread_once orders the writes first).
#define GB_FIELD(name) __typeof__(name) *fn_##name;
static struct {
  GB_XML_FUNCTIONS(GB_FIELD)
  // What frees libxml2's strings: `__xmlFree()` in threaded builds, else the `xmlFree` variable.
  xmlFreeFunc *(*fn_threadFree)(void);
  xmlFreeFunc *fn_free;
} table;
#undef GB_FIELD

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = NULL;
static char message[512];

static void load(void) {
  void *library = dlopen(GB_LIBXML2, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(message, sizeof message,
             "cannot load " GB_LIBXML2 " (%s); install libxml2 (apt-get install libxml2)",
             reason ? reason : "not found");
    failure = message;
    return;
  }
#define GB_RESOLVE(name)                                                                       \
  table.fn_##name = (__typeof__(name) *)dlsym(library, #name);                                 \
  if (table.fn_##name == NULL) {                                                               \
    snprintf(message, sizeof message, GB_LIBXML2 " has no " #name "; install libxml2");        \
    failure = message;                                                                         \
    return;                                                                                    \
  }
  GB_XML_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
  table.fn_threadFree = (xmlFreeFunc * (*)(void)) dlsym(library, "__xmlFree");
  table.fn_free = (xmlFreeFunc *)dlsym(library, "xmlFree");
  if (table.fn_threadFree == NULL && table.fn_free == NULL) {
    snprintf(message, sizeof message, GB_LIBXML2 " has no xmlFree; install libxml2");
    failure = message;
  }
}

const char *gb_xml_load(void) {
  pthread_once(&once, load);
  return failure;
}

struct _xmlDoc *gb_xml_read(const char *bytes, int size) {
  return table.fn_xmlReadMemory(
      bytes, size, NULL, NULL,
      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_COMPACT);
}
void gb_xml_free_document(struct _xmlDoc *document) { table.fn_xmlFreeDoc(document); }
int gb_xml_has_doctype(const struct _xmlDoc *document) { return document->intSubset != NULL; }
struct _xmlNode *gb_xml_root(const struct _xmlDoc *document) {
  return table.fn_xmlDocGetRootElement(document);
}

int gb_xml_is_element(const struct _xmlNode *node) { return node->type == XML_ELEMENT_NODE; }
int gb_xml_is_text(const struct _xmlNode *node) {
  return node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE;
}
struct _xmlNode *gb_xml_first_child(const struct _xmlNode *node) { return node->children; }
struct _xmlNode *gb_xml_next(const struct _xmlNode *node) { return node->next; }
const unsigned char *gb_xml_name(const struct _xmlNode *node) { return node->name; }
const unsigned char *gb_xml_namespace(const struct _xmlNode *node) {
  return node->ns ? node->ns->href : NULL;
}
const unsigned char *gb_xml_content(const struct _xmlNode *node) { return node->content; }
unsigned char *gb_xml_attribute(const struct _xmlNode *node, const char *name,
                                const char *space) {
  return table.fn_xmlGetNsProp(node, (const xmlChar *)name, (const xmlChar *)space);
}
void gb_xml_free(void *pointer) {
  xmlFreeFunc release = table.fn_threadFree ? *table.fn_threadFree() : *table.fn_free;
  release(pointer);
}
