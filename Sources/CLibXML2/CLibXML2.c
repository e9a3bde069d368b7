// libxml2 opened on the first record parsed (see include/CLibXML2.h for why).
//
// system/libxml links to the system's libxml headers (/usr/include/libxml2/libxml, where
// libxml2-dev puts them on Debian, Ubuntu and Fedora): the package names no include path
// outside itself, so it needs no unsafe flags.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU; nothing here touches the ICU parts of its structs.
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

#include "CLibXML2.h"

#include "CLoader.h"

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
  X(xmlGetNsProp)                                                                                \
  /* The reader's EPUB: each XHTML document read by the HTML parser, as events. */             \
  X(htmlCreatePushParserCtxt)                                                                    \
  X(htmlCtxtUseOptions)                                                                          \
  X(htmlParseChunk)                                                                              \
  X(htmlFreeParserCtxt)

// Written once by the first `gb_xml_load`, only read afterwards (the loader orders it).
#define GB_FIELD(name) __typeof__(name) *fn_##name;
static struct {
  GB_XML_FUNCTIONS(GB_FIELD)
  // What frees libxml2's strings: `__xmlFree()` in threaded builds, else the `xmlFree` variable.
  xmlFreeFunc *(*fn_threadFree)(void);
  xmlFreeFunc *fn_free;
} table;
#undef GB_FIELD

static void resolve(struct gb_library *library) {
#define GB_RESOLVE(name) table.fn_##name = (__typeof__(name) *)gb_library_symbol(library, #name);
  GB_XML_FUNCTIONS(GB_RESOLVE)
#undef GB_RESOLVE
  // Either will do; only when neither is there is `xmlFree` named as missing.
  table.fn_threadFree = (xmlFreeFunc * (*)(void)) gb_library_optional_symbol(library, "__xmlFree");
  if (table.fn_threadFree == NULL)
    table.fn_free = (xmlFreeFunc *)gb_library_symbol(library, "xmlFree");
}

static struct gb_library loader = GB_LIBRARY(GB_LIBXML2, "libxml2", NULL, resolve);

const char *gb_xml_load(void) { return gb_library_load(&loader); }

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

struct gb_html_parser {
  htmlParserCtxtPtr context;
};

struct gb_html_parser *gb_html_start(void *context, gb_html_element_start start,
                                     gb_html_element_end end, gb_html_characters characters,
                                     int utf8) {
  htmlSAXHandler handler;
  memset(&handler, 0, sizeof handler);
  handler.startElement = (startElementSAXFunc)start;
  handler.endElement = (endElementSAXFunc)end;
  handler.characters = (charactersSAXFunc)characters;
  // Blanks between elements and CDATA are text too: the caller decides what they are worth.
  handler.ignorableWhitespace = (ignorableWhitespaceSAXFunc)characters;
  handler.cdataBlock = (cdataBlockSAXFunc)characters;
  htmlParserCtxtPtr parser = table.fn_htmlCreatePushParserCtxt(
      &handler, context, NULL, 0, NULL, utf8 ? XML_CHAR_ENCODING_UTF8 : XML_CHAR_ENCODING_NONE);
  if (parser == NULL) return NULL;
  table.fn_htmlCtxtUseOptions(parser, HTML_PARSE_RECOVER | HTML_PARSE_NONET |
                                          HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                          HTML_PARSE_NOIMPLIED);
  struct gb_html_parser *wrapper = malloc(sizeof *wrapper);
  if (wrapper == NULL) {
    table.fn_htmlFreeParserCtxt(parser);
    return NULL;
  }
  wrapper->context = parser;
  return wrapper;
}

int gb_html_feed(struct gb_html_parser *parser, const char *bytes, int size, int last) {
  return table.fn_htmlParseChunk(parser->context, bytes, size, last);
}

void gb_html_finish(struct gb_html_parser *parser) {
  table.fn_htmlFreeParserCtxt(parser->context);
  free(parser);
}
